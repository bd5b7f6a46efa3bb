// Every wait a call may make, decided here (ky's retry-timing.ts is the model): the backoff
// between retries, the wait a server asks for (`Retry-After`), a pause the fleet keeps, and a
// share of `limits`; whether each fits what the call allows; and the bounds on every number
// that comes from the network. Pure: decide.ts and the fleet's steps act on what it says.

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
 * The longest wait one answer can ask for (docs/fleet.md, "Limits we chose"): a
 * `Retry-After` of a year, `Infinity` or 1e23 ms is read as an hour, so one answer can never
 * refuse a model fleet-wide for longer, and every number handed to a timer or a store is finite.
 */
export const MAX_SERVER_WAIT_MS = 3_600_000;

/** Decimal seconds or ms, as the header's grammar allows (`1*DIGIT`, and a fraction some servers send): never hex, exponents or signs. */
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

/**
 * The delay the server asked for, in ms: `retry-after-ms` first, then `Retry-After` in
 * seconds or as an HTTP date; bounded by {@link MAX_SERVER_WAIT_MS}. Null when absent or
 * unreadable (`0x10`, `-1`, `1e3` are unreadable, not numbers to trust).
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && DECIMAL.test(ms)) return boundWait(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (DECIMAL.test(value)) return boundWait(Number(value) * 1000);
  // An HTTP date names a day of the week in letters: anything else is not one.
  if (!/^[A-Za-z]{3},/.test(value)) return null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : boundWait(date - now);
}

/** A wait from the network, as ms a timer and a store can take: a whole number from 0 to {@link MAX_SERVER_WAIT_MS}. */
export function boundWait(ms: number): number {
  if (Number.isNaN(ms)) return 0;
  return Math.min(MAX_SERVER_WAIT_MS, Math.max(0, Math.ceil(ms)));
}

/**
 * The pause before retry number `retry` (1-based) when the server named none: exponential
 * backoff, capped, shortened at random by up to `jitter`.
 */
export function backoffMs(retry: number, pacing: RetryPacing, random: () => number = Math.random): number {
  const base = Math.min(pacing.baseDelayMs * 2 ** (retry - 1), pacing.maxDelayMs);
  return Math.round(base * (1 - pacing.jitter * random()));
}

/**
 * Whether a call may wait `ms`:
 * - `wait`: it fits;
 * - `refuse`: a wait the server asked for (a `Retry-After`, a pause the fleet keeps for a 429,
 *   a share of `limits`) that is longer than `maxRetryAfterMs`, or would end past what is
 *   left of `totalTimeout`: the call is refused at once with `RateLimitError` and the wait
 *   on `retryAfterMs` (API.md, "Client options"), never sent early;
 * - `timeout`: the SDK's own backoff would end past `totalTimeout`: `APITimeoutError`.
 */
export function judgeWait(wait: { ms: number; asked: boolean }, allowed: { maxRetryAfterMs: number; budgetMs: number | undefined }): 'wait' | 'refuse' | 'timeout' {
  const pastBudget = allowed.budgetMs !== undefined && wait.ms >= allowed.budgetMs;
  if (wait.asked) return wait.ms > allowed.maxRetryAfterMs || pastBudget ? 'refuse' : 'wait';
  return pastBudget ? 'timeout' : 'wait';
}
