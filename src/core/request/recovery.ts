import { sleep } from '../../internal/sleep.js';
import type { CallState, PreparedRequest } from './call-state.js';
import { decide, failureKind, type Decision, type Situation } from '../policy/decide.js';
import { afterFailure } from './fleet-steps.js';
import { isAvailable } from '../policy/fleet-rules.js';
import { budgetTimeout } from '../error-factory.js';
import { APIError, BaseRedirect, GatewayError, MAX_REDIRECTS } from '../errors.js';
import type { AttemptInfo, RetryInfo } from '../hooks.js';
import { backoffMs } from '../policy/waits.js';

// After a failed attempt: what it means (decide.ts), then acting on it: the base's health,
// the hooks, the pause, or the error to give up with.

/** Where one model's request stands between attempts; `recover` moves it on. */
export interface Progress {
  baseURL: string;
  retries: number;
  redirects: number;
  /** The bases that failed for this model's request: a retry goes back to one only after the pause. */
  failed?: Set<string> | undefined;
}

/** Another model is to be tried: the decision, and the failure that led to it. */
export interface Fallback {
  fallbackTo: string;
  error: GatewayError;
}

/**
 * Acts on a failed attempt: returns nothing when the request is to be sent again (progress
 * updated, after the pause), a Fallback when another model is to be tried, and throws the
 * error to report when the call gives up.
 */
export async function recover(call: CallState, request: PreparedRequest, at: { error: unknown; info: AttemptInfo; progress: Progress }): Promise<Fallback | undefined> {
  const { info, progress } = at;
  const { events } = call.config;
  const redirect = at.error instanceof BaseRedirect && request.pinned === undefined && progress.redirects++ < MAX_REDIRECTS ? at.error : undefined;
  const error = at.error instanceof BaseRedirect ? at.error.error : at.error;
  (progress.failed ??= new Set()).add(info.baseURL);
  const situation = situationAfter(call, { error, info, retries: progress.retries, pinned: request.pinned, model: request.model, failed: progress.failed });
  situation.redirectedTo = redirect?.baseURL;
  // What the failure teaches every client on the store: evidence against the base, a pause, the quota.
  if (call.url === undefined) await afterFailure(call, { base: info.baseURL, model: request.model, error, redirected: redirect !== undefined });
  const decision = decide(situation);
  if (decision.action === 'fallback') {
    call.models.shift();
    return { fallbackTo: decision.model, error: error as GatewayError };
  }
  if (decision.action === 'give-up') throw giveUp(call, { error, info, decision, retries: progress.retries });
  const status = error instanceof APIError ? error.status : null;
  if (decision.action === 'retry') {
    progress.retries++;
    await pauseBeforeRetry(call, { ...info, error: error as GatewayError, status, delayMs: decision.delayMs, nextBaseURL: decision.baseURL });
  } else events.onFailover?.({ ...info, error: error as GatewayError, status, from: info.baseURL, to: decision.baseURL });
  progress.baseURL = decision.baseURL;
  return undefined;
}

/** What a failed attempt looks like to the decision. */
function situationAfter(call: CallState, at: { error: unknown; info: AttemptInfo; retries: number; pinned: string | undefined; model: string | undefined; failed: Set<string> }): Situation {
  const { pool, retry, fleet } = call.config;
  const { error, info } = at;
  const nextBase = at.pinned ?? pool.next(info.baseURL);
  return {
    kind: failureKind(error),
    retries: at.retries,
    maxRetries: call.options.maxRetries ?? call.config.maxRetries,
    base: info.baseURL,
    nextBase,
    nextHealthy: !at.failed.has(nextBase) && isAvailable(fleet.lastView(at.model), nextBase),
    serverWaitMs: error instanceof APIError ? error.retryAfterMs : null,
    maxRetryAfterMs: retry.maxRetryAfterMs,
    backoffMs: backoffMs(at.retries + 1, retry),
    budgetMs: call.budgetMs(),
    nextModel: call.models[0],
  };
}

/** Tells the hooks, pauses (an abort ends the pause at once), then lets the request's owner hold the retry. */
async function pauseBeforeRetry(call: CallState, retry: RetryInfo): Promise<void> {
  const { events } = call.config;
  const { onRetry, beforeRetry } = call.request;
  onRetry?.(retry);
  events.onRetry?.(retry);
  if (retry.nextBaseURL !== retry.baseURL) events.onFailover?.({ ...retry, from: retry.baseURL, to: retry.nextBaseURL });
  await sleep(retry.delayMs, call.signal).catch(() => {
    throw call.stopped(`${retry.method} ${retry.url}`);
  });
  if (beforeRetry) await beforeRetry(retry);
}

/** The error a call gives up with: a pause that does not fit the budget becomes an APITimeoutError. */
function giveUp(call: CallState, at: { error: unknown; info: AttemptInfo; decision: Decision & { action: 'give-up' }; retries: number }): unknown {
  const { error, info } = at;
  const { reason } = at.decision;
  if (!(error instanceof GatewayError) || reason === 'final' || (reason === 'retries' && at.retries === 0)) return error;
  call.config.events.onGiveUp?.({ ...info, error, reason });
  if (reason !== 'budget') return error;
  return budgetTimeout(error, { ...info, totalTimeout: call.options.totalTimeout ?? 0, leftMs: Math.max(0, call.budgetMs() ?? 0) });
}
