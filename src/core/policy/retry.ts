/**
 * Retry pacing, kept as data. Every number here is documented in docs/retries.md; which
 * failures are retried is decided in decide.ts.
 */
export const retryDefaults = {
  /** Retries after the first attempt. */
  maxRetries: 2,
  /** First backoff; doubles on every retry. */
  baseDelayMs: 500,
  /** Backoff never exceeds this. */
  maxDelayMs: 8_000,
  /** Each backoff is shortened by up to this fraction at random, so clients do not retry in lockstep. */
  jitter: 0.25,
  /**
   * A server-requested wait longer than this is not waited for: the call fails over to a
   * healthy other base, or fails at once with the wait on `retryAfterMs`.
   */
  maxRetryAfterMs: 60_000,
} as const;

/** The pacing part of the policy, as a client resolves it. */
export interface RetryPacing {
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  jitter: number;
}

/**
 * The delay the server asked for, in ms: `retry-after-ms` first, then `Retry-After` in
 * seconds or as an HTTP date. Null when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
