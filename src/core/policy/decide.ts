import { APIConnectionError, APIError, InternalServerError, isQuotaError, RateLimitError, UnsupportedParameterError } from '../errors.js';
import { judgeWait } from './waits.js';

// What happens after a failed attempt, decided in one place: retry (on the same base or the
// other one), follow the gateway to the other base, fall back to the next model, or give
// up. `failureKind` reads the error; `decide` is a pure function of plain data, so the whole
// policy is a table (test/core/decide.test.ts).

/**
 * What a failure says about trying again:
 * - `connection`: no usable HTTP answer (refused, reset, timed out, cut before the first byte);
 * - `unavailable`: 5xx, or a 429 that is not a quota error: retried, and another model may serve;
 * - `busy`: 408 or 409: retried, but another model would meet the same;
 * - `model-missing`: `model_not_found` (new-api answers it as a 503): no retry helps, another model may;
 * - `model-refused`: the model does not take a parameter of the request (`UnsupportedParameterError`):
 *   no retry helps, another model may take it (docs/models.md);
 * - `quota`: the account is out of credit, whatever the status: nothing helps;
 * - `final`: 400, 401, 403 and any other answer, aborts, bad arguments.
 */
export type FailureKind = 'connection' | 'unavailable' | 'busy' | 'model-missing' | 'model-refused' | 'quota' | 'final';

/** Statuses that say the request was not served and may be on another try. */
const busyStatuses: ReadonlySet<number> = new Set([408, 409]);

/** Never a model's fault: another model would be refused the same way. */
const callerStatuses: ReadonlySet<number> = new Set([400, 401, 403]);

/** Reads a failure as a {@link FailureKind}. */
export function failureKind(error: unknown): FailureKind {
  if (error instanceof APIConnectionError) return 'connection';
  if (!(error instanceof APIError)) return 'final';
  if (error instanceof UnsupportedParameterError) return 'model-refused';
  if (isQuotaError(error)) return 'quota';
  if (callerStatuses.has(error.status)) return 'final';
  if (error.code === 'model_not_found') return 'model-missing';
  // An error object inside a 200 counts by its class (its code or type named it).
  const status = error.status !== 200 ? error.status : error instanceof RateLimitError ? 429 : error instanceof InternalServerError ? 500 : 200;
  if (status >= 500 || status === 429) return 'unavailable';
  return busyStatuses.has(status) ? 'busy' : 'final';
}

/** True for a failure another attempt of the same request may fix. */
export const isRetryable = (kind: FailureKind): boolean => kind === 'connection' || kind === 'unavailable' || kind === 'busy';

/** True for a failure another model may not have. */
const isModelUnavailable = (kind: FailureKind): boolean => kind === 'connection' || kind === 'unavailable' || kind === 'model-missing' || kind === 'model-refused';

/** Everything the decision reads, as plain data. */
export interface Situation {
  kind: FailureKind;
  /** Retries this model's request has had, and may have. */
  retries: number;
  maxRetries: number;
  /** The base of the failed attempt, and the one a retry goes to (the other base, or the same when there is no other or the request is pinned to one). */
  base: string;
  nextBase: string;
  /**
   * The next base may take a retry at once: it is not down for the fleet, and it has not
   * failed for this request already (going back to a base that failed waits the pause).
   */
  nextHealthy: boolean;
  /** The wait the server asked for (`Retry-After`), in ms, or null. */
  serverWaitMs: number | null;
  maxRetryAfterMs: number;
  /** The exponential backoff this retry would pause for (drawn by the caller: it holds the randomness). */
  backoffMs: number;
  /** ms left of the call's `totalTimeout`, or undefined without one. */
  budgetMs: number | undefined;
  /** The next of the call's fallback models, if any is left. */
  nextModel: string | undefined;
  /** The gateway redirected the attempt to this other base URL. */
  redirectedTo?: string | undefined;
}

/** Why a call gives up; see `GiveUpInfo`. */
export type GiveUpReason = 'final' | 'retries' | 'retry-after' | 'budget';

/** What to do next. */
export type Decision =
  | { action: 'retry'; baseURL: string; delayMs: number }
  | { action: 'redirect'; baseURL: string }
  | { action: 'fallback'; model: string }
  | { action: 'give-up'; reason: GiveUpReason };

/**
 * The policy: a redirect to the other base is followed at once; a retryable failure is
 * retried while retries are left, at once on a healthy other base, else after the server's
 * wait or the backoff when it fits (waits.ts `judgeWait`: a server's wait longer than
 * `maxRetryAfterMs` or past the budget gives up with the server's error, the backoff past
 * the budget with a timeout); a model that looks unavailable (after its own retries)
 * falls back to the next model while budget is left; everything else gives up.
 */
export function decide(s: Situation): Decision {
  if (s.redirectedTo !== undefined) return { action: 'redirect', baseURL: s.redirectedTo };
  let reason: GiveUpReason = isRetryable(s.kind) ? 'retries' : 'final';
  if (reason === 'retries' && s.retries < s.maxRetries) {
    if (s.nextBase !== s.base && s.nextHealthy) return { action: 'retry', baseURL: s.nextBase, delayMs: 0 };
    const delayMs = s.serverWaitMs ?? s.backoffMs;
    const verdict = judgeWait({ ms: delayMs, asked: s.serverWaitMs !== null }, s);
    if (verdict === 'wait') return { action: 'retry', baseURL: s.nextBase, delayMs };
    // A wait the server asked for that does not fit gives up with the server's own error (its
    // retryAfterMs set); only the SDK's own backoff past totalTimeout is a timeout.
    reason = verdict === 'refuse' ? 'retry-after' : 'budget';
  }
  if (s.nextModel !== undefined && isModelUnavailable(s.kind)) {
    if (s.budgetMs === undefined || s.budgetMs > 0) return { action: 'fallback', model: s.nextModel };
    // Another model could have answered, but the call is out of time: a timeout, not the model's error.
    reason = 'budget';
  }
  return { action: 'give-up', reason };
}
