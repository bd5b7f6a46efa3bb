import type { FleetView } from './fleet-rules.js';
import { boundWait } from './waits.js';

// The rules that only a `store` or `limits` need (fleet/shared-fleet.ts, loaded with them):
// how long a 429 pauses a model, how long is left of a pause, and what a request will cost the
// token budget. Pure functions over plain data, tested as tables (test/core/fleet-rules.test.ts).

/**
 * The ms to sleep before looking at a closed pause again: what is left of it by its writer's
 * clock, at least 50 ms and never more than the pause's own length (a writer whose clock runs
 * ahead cannot make a 1 s pause a 2-minute one). The record's ttl is what ends the pause.
 */
export function pauseLeftMs(view: FleetView, base: string, now: number): number {
  const pause = view.pause[base];
  return pause ? Math.min(pause.ms, Math.max(50, pause.at + pause.ms - now)) : 0;
}

/**
 * How long a 429 pauses its model on its base: the server's wait when it named one (bounded
 * to an hour), else the backoff for the `strikes`-th 429 in a row (the first is
 * `baseDelayMs`, doubling up to `maxDelayMs`): a fleet then sends about one request per pause.
 */
export function pauseMs(retryAfterMs: number | null, strikes: number, pacing: { baseDelayMs: number; maxDelayMs: number }): number {
  if (retryAfterMs !== null) return Math.max(1, boundWait(retryAfterMs));
  return Math.max(1, Math.min(pacing.baseDelayMs * 2 ** Math.min(strikes - 1, 30), pacing.maxDelayMs));
}

/**
 * The tokens a request will cost, estimated before sending (the reply's usage reconciles
 * it): about four characters a token for what the request carries, plus the most it may
 * generate (`max_tokens`, `max_completion_tokens`, `max_output_tokens`).
 */
export function estimateTokens(body: unknown): number {
  if (typeof body !== 'object' || body === null) return 0;
  const { max_tokens, max_completion_tokens, max_output_tokens, ...rest } = body as Record<string, unknown>;
  const output = [max_tokens, max_completion_tokens, max_output_tokens].find((n): n is number => typeof n === 'number' && n > 0 && Number.isFinite(n)) ?? 0;
  return Math.ceil((JSON.stringify(rest)?.length ?? 0) / 4) + output;
}
