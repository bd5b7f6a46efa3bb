import { describe, expect, it } from 'vitest';
import { costPart, tokenUsageLine } from '../../src/cli/token-usage.js';

// The line `unified-gateway chat --usage` prints on stderr. Cached input tokens are in it,
// so a user sees a gateway that drops their cache hints: the figure stays 0 turn after turn.

describe('tokenUsageLine', () => {
  it.each([
    [{ prompt_tokens: 1200, completion_tokens: 40, total_tokens: 1240, prompt_tokens_details: { cached_tokens: 1024 } }, 'usage: 1200 input tokens (1024 cached), 40 output tokens'],
    [{ prompt_tokens: 1200, completion_tokens: 40, total_tokens: 1240, prompt_tokens_details: { cached_tokens: 0 } }, 'usage: 1200 input tokens (0 cached), 40 output tokens'],
    [{ prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 }, 'usage: 12 input tokens (cached: not reported), 40 output tokens'],
    [{ prompt_tokens: 12, completion_tokens: 40, total_tokens: 52, prompt_tokens_details: null }, 'usage: 12 input tokens (cached: not reported), 40 output tokens'],
    [
      { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52, prompt_tokens_details: { cached_tokens: 8 }, completion_tokens_details: { reasoning_tokens: 30 } },
      'usage: 12 input tokens (8 cached), 40 output tokens (30 reasoning)',
    ],
    [undefined, 'usage: not reported by the gateway'],
    [null, 'usage: not reported by the gateway'],
  ])('%j → %s', (usage, line) => {
    expect(tokenUsageLine(usage)).toBe(line);
  });
});

describe('tokenUsageLine with the cost (chat --usage prices the call)', () => {
  const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
  it.each([
    [{ quota: 20, usd: 0.00004, source: 'priced' as const }, 'usage: 12 input tokens (cached: not reported), 3 output tokens · cost 20 quota ($0.00004, priced)'],
    [{ quota: 94, usd: 0.000188, source: 'billed' as const }, 'usage: 12 input tokens (cached: not reported), 3 output tokens · cost 94 quota ($0.000188, billed)'],
    [{ quota: 20, usd: null, source: 'estimated' as const }, 'usage: 12 input tokens (cached: not reported), 3 output tokens · cost 20 quota (estimated)'],
    [null, 'usage: 12 input tokens (cached: not reported), 3 output tokens · cost unknown'],
  ])('%j → %s', (cost, line) => {
    expect(tokenUsageLine(usage, cost)).toBe(line);
  });

  it('says the cost even when the gateway reported no usage', () => {
    expect(tokenUsageLine(null, null)).toBe('usage: not reported by the gateway · cost unknown');
  });

  it('writes dollars without an exponent or grouping, to six significant digits', () => {
    expect(costPart({ quota: 1, usd: 5e-7, source: 'priced' })).toBe('cost 1 quota ($0.0000005, priced)');
    expect(costPart({ quota: 617_283_950, usd: 1234.5679, source: 'priced' })).toBe('cost 617283950 quota ($1234.57, priced)');
  });
});
