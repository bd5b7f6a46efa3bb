import type { CompletionUsage } from 'unified-gateway';

/**
 * The token usage of a chat call as `chat --usage` prints it. Cached input tokens are
 * always named, `not reported` when the gateway sent no figure: a figure that stays 0 turn
 * after turn is how a gateway that drops cache hints shows.
 * @example tokenUsageLine(completion.usage) // 'usage: 1200 input tokens (1024 cached), 40 output tokens'
 */
export function tokenUsageLine(usage: CompletionUsage | null | undefined): string {
  if (!usage) return 'usage: not reported by the gateway';
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return `usage: ${usage.prompt_tokens} input tokens (${cached === undefined ? 'cached: not reported' : `${cached} cached`}), ${usage.completion_tokens} output tokens${reasoning ? ` (${reasoning} reasoning)` : ''}`;
}
