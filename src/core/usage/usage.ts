import { isRecord } from '../../internal/is-record.js';

// The one reader of what an answer says it used, for every endpoint's shape (chat and text
// completions: prompt/completion; responses: input/output; embeddings: prompt only) and the
// vendors' own names (DeepSeek's prompt_cache_hit_tokens). The fleet reconciles its token
// budget with it; telemetry, the AI SDK provider and the CLI print it. Every figure comes
// from the network, so each is checked: a whole number from 0 to MAX_TOKENS, else unknown.

/** No answer reports more tokens than this; a larger figure is not believed. */
export const MAX_TOKENS = 1e10;

/** Token counts of one answer; a count the answer did not give (or gave out of bounds) is undefined. */
export interface TokenUsage {
  /** Prompt (input) tokens, cached ones included. */
  input: number | undefined;
  /** Completion (output) tokens, reasoning included. */
  output: number | undefined;
  /** `total_tokens`, else input + output when both are known. */
  total: number | undefined;
  /** Input tokens read from the provider's prompt cache. */
  cachedInput: number | undefined;
  /** Output tokens spent on reasoning. */
  reasoning: number | undefined;
}

/** A token count from the network: a whole number from 0 to MAX_TOKENS, else undefined. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_TOKENS ? value : undefined;
}

/**
 * The usage of an answer (`data.usage`), or of a `usage` object itself; undefined when there
 * is none. Reads either naming, and the detail objects of both.
 */
export function readUsage(data: unknown): TokenUsage | undefined {
  const usage = isRecord(data) && isRecord(data.usage) ? data.usage : undefined;
  if (!usage) return undefined;
  const input = tokenCount(usage.prompt_tokens) ?? tokenCount(usage.input_tokens);
  const output = tokenCount(usage.completion_tokens) ?? tokenCount(usage.output_tokens);
  const inputDetails = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : isRecord(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const outputDetails = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : isRecord(usage.output_tokens_details) ? usage.output_tokens_details : undefined;
  const total = tokenCount(usage.total_tokens) ?? (input !== undefined && output !== undefined ? input + output : input);
  return {
    input,
    output,
    total,
    // DeepSeek names them on its own: prompt_cache_hit_tokens.
    cachedInput: tokenCount(inputDetails?.cached_tokens) ?? tokenCount(usage.prompt_cache_hit_tokens),
    reasoning: tokenCount(outputDetails?.reasoning_tokens),
  };
}
