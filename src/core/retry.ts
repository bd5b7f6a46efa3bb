import { APIError, InternalServerError, RateLimitError, isQuotaError } from './errors.js';

/**
 * Retry policy, kept as data. Every number here is documented in docs/retries.md.
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

/** Statuses worth another attempt besides 5xx. 429 is retried unless it is a quota error. */
const retryableStatuses: ReadonlySet<number> = new Set([
  408, // request timeout: the server gave up waiting, nothing was processed
  409, // conflict: typically a lock held by a concurrent request; passes quickly
  429, // too many requests: back off and try again
]);

/**
 * Codes that no retry of the same request can fix, whatever the status (quota codes are
 * listed in errors.ts and also final).
 */
const finalCodes: ReadonlySet<string> = new Set([
  'model_not_found', // new-api answers 503 with it: no upstream channel serves this model
]);

/** True when an HTTP error deserves another attempt (and a failover to the other base). */
export function isRetryableAPIError(error: APIError): boolean {
  if (isQuotaError(error) || (error.code !== null && finalCodes.has(error.code))) return false;
  if (error.status === 200) return error instanceof RateLimitError || error instanceof InternalServerError;
  return error.status >= 500 || retryableStatuses.has(error.status);
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

/**
 * Delay before retry number `retry` (1-based): the server's request when it gave one (the
 * caller has already refused requests above `maxRetryAfterMs`), otherwise exponential
 * backoff, capped, shortened at random by up to `jitter`.
 */
export function computeBackoff(retry: number, serverDelayMs: number | null, pacing: RetryPacing = retryDefaults, random: () => number = Math.random): number {
  if (serverDelayMs !== null && serverDelayMs <= pacing.maxRetryAfterMs) return serverDelayMs;
  const base = Math.min(pacing.baseDelayMs * 2 ** (retry - 1), pacing.maxDelayMs);
  return Math.round(base * (1 - pacing.jitter * random()));
}
