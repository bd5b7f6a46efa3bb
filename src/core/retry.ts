import { APIError, InsufficientQuotaError, InternalServerError, RateLimitError } from './errors.js';

/**
 * Retry policy, kept as data. Every number here is documented in docs/retries.md.
 */
export const retryDefaults = {
  /** Retries after the first attempt. */
  maxRetries: 2,
  /** First backoff; doubles on every retry. */
  initialDelayMs: 500,
  /** Backoff never exceeds this. */
  maxDelayMs: 8_000,
  /** Each backoff is reduced by up to this fraction at random, so clients do not retry in lockstep. */
  jitter: 0.25,
  /** A server-requested delay longer than this is not honoured; the normal backoff is used instead. */
  maxRetryAfterMs: 60_000,
} as const;

/** Statuses worth another attempt. 429 is retried unless its code is `insufficient_quota`. */
const retryableStatuses: ReadonlySet<number> = new Set([
  408, // request timeout: the server gave up waiting, nothing was processed
  409, // conflict: typically a lock held by a concurrent request; passes quickly
  429, // too many requests: back off and try again
]);

/** True when an HTTP error deserves another attempt (and a failover to the other base). */
export function isRetryableAPIError(error: APIError): boolean {
  if (error instanceof InsufficientQuotaError) return false; // more attempts cannot add credit
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
 * Delay before retry number `retry` (1-based): the server's request when it is sane,
 * otherwise exponential backoff with jitter and a cap.
 */
export function computeBackoff(retry: number, serverDelayMs: number | null, random: () => number = Math.random): number {
  if (serverDelayMs !== null && serverDelayMs <= retryDefaults.maxRetryAfterMs) return serverDelayMs;
  const base = Math.min(retryDefaults.initialDelayMs * 2 ** (retry - 1), retryDefaults.maxDelayMs);
  return Math.round(base * (1 - retryDefaults.jitter * random()));
}
