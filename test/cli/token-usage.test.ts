import { describe, expect, it } from 'vitest';
import { tokenUsageLine } from '../../src/cli/token-usage.js';

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
