import type { CompletionUsage, Cost } from 'unified-gateway';

/** Dollars as a person reads them: up to six significant digits, no exponent, no grouping ($0.000188, $12.3457). */
const dollars = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6, useGrouping: false });

/**
 * What a call cost as `chat --usage` prints it (docs/cost.md): the gateway's quota units,
 * then US dollars where the gateway counts in money, and how the figure is known.
 * @example costPart({ quota: 20, usd: 0.00004, source: 'priced' }) // 'cost 20 quota ($0.00004, priced)'
 */
export function costPart(cost: Cost | null): string {
  if (!cost) return 'cost unknown';
  return `cost ${cost.quota} quota (${cost.usd === null ? '' : `$${dollars.format(cost.usd)}, `}${cost.source})`;
}

/**
 * The token usage of a chat call as `chat --usage` prints it. Cached input tokens are
 * always named, `not reported` when the gateway sent no figure: a figure that stays 0 turn
 * after turn is how a gateway that drops cache hints shows. With `cost` (the call's, null
 * when the gateway could not price it) the cost follows the tokens.
 * @example tokenUsageLine(completion.usage) // 'usage: 1200 input tokens (1024 cached), 40 output tokens'
 * @example tokenUsageLine(usage, cost) // 'usage: 12 input tokens (cached: not reported), 3 output tokens · cost 20 quota ($0.00004, priced)'
 */
export function tokenUsageLine(usage: CompletionUsage | null | undefined, cost?: Cost | null): string {
  const tokens = usageText(usage);
  return cost === undefined ? `usage: ${tokens}` : `usage: ${tokens} · ${costPart(cost)}`;
}

function usageText(usage: CompletionUsage | null | undefined): string {
  if (!usage) return 'not reported by the gateway';
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return `${usage.prompt_tokens} input tokens (${cached === undefined ? 'cached: not reported' : `${cached} cached`}), ${usage.completion_tokens} output tokens${reasoning ? ` (${reasoning} reasoning)` : ''}`;
}
