import type { LanguageModelV3FinishReason, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { CompletionUsage } from '../index.js';

/** The gateway's finish reasons as the specification names them; `raw` keeps the original. */
export function mapFinishReason(raw: string | null | undefined): LanguageModelV3FinishReason {
  const reason = raw ?? undefined;
  switch (reason) {
    case 'stop':
      return { unified: 'stop', raw: reason };
    case 'length':
      return { unified: 'length', raw: reason };
    case 'content_filter':
      return { unified: 'content-filter', raw: reason };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw: reason };
    default:
      return { unified: 'other', raw: reason };
  }
}

/** Token counts as the specification splits them; a count the gateway did not send stays undefined (never NaN). */
export function mapUsage(usage: CompletionUsage | null | undefined): LanguageModelV3Usage {
  if (!usage) {
    return { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  }
  const cached = usage.prompt_tokens_details?.cached_tokens ?? undefined;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? undefined;
  return {
    inputTokens: { total: usage.prompt_tokens, noCache: cached === undefined ? usage.prompt_tokens : usage.prompt_tokens - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: usage.completion_tokens, text: reasoning === undefined ? usage.completion_tokens : usage.completion_tokens - reasoning, reasoning },
    raw: JSON.parse(JSON.stringify(usage)) as NonNullable<LanguageModelV3Usage['raw']>,
  };
}
