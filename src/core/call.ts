import { sleep } from '../internal/sleep.js';
import { uuid } from '../internal/uuid.js';
import type { CallOutcome } from './api-promise.js';
import { attempt, joinURL } from './attempt.js';
import { checkRequestOptions } from './check.js';
import { decide, failureKind, isRetryable, type Decision, type Situation } from './decide.js';
import { CallState, type PreparedRequest } from './call-state.js';
import { APIError, APITimeoutError, BaseRedirect, GatewayError, MAX_REDIRECTS, ValidationError } from './errors.js';
import type { AttemptInfo, RetryInfo } from './hooks.js';
import { checkModels } from './options.js';
import { computeBackoff, parseRetryAfter } from './retry.js';
import type { Answer, CoreConfig, CoreRequest, RequestOptions } from './types.js';

// One method call, from its described request to its result: the stages every request
// goes through, in order (docs/architecture.md, "The life of one request"):
//   runCall → sendRequest (attempts, retries, failover; decide.ts says what next)
//           → attempt (attempt.ts: auth, timeout, fetch, redirects) → readResponse (response.ts)

/** How one method call runs: what the resource describes. */
export interface CallSpec<T> {
  /**
   * Checks the arguments (a ValidationError here sends nothing) and describes the request;
   * with `model`, the same request for that fallback model.
   */
  request: (model?: string) => CoreRequest | Promise<CoreRequest>;
  /** Shapes the parsed body into the result. @default the body as it is */
  map?: ((data: unknown, response: Response) => T | Promise<T>) | undefined;
  /** Turns a failure into the error the method documents. */
  mapError?: ((error: unknown) => unknown) | undefined;
  /** The `model` of the request; without it, no fallback. */
  model?: unknown;
  /** Whether the client's per-model `fallbackModels` apply (not for embeddings: vectors of different models do not mix). @default true */
  clientFallbacks?: boolean | undefined;
}

/** Another model is to be tried: the decision, and the failure that led to it. */
interface Fallback {
  fallbackTo: string;
  error: GatewayError;
}

/**
 * Runs one method call: describes the request, sends it (with retries, failover and model
 * fallback), and shapes the answer. Errors leave with the client's secrets removed.
 */
export async function runCall<T>(config: CoreConfig, spec: CallSpec<T>, options: RequestOptions, raw: boolean): Promise<CallOutcome<T>> {
  let call: CallState | undefined;
  try {
    checkRequestOptions(options);
    call = new CallState(config, options, raw, fallbackModels(config, spec, options.fallbackModels));
    let sent = await sendRequest(call, await prepare(call, spec, undefined));
    for (let from = String(spec.model); 'fallbackTo' in sent; ) {
      const to = sent.fallbackTo;
      config.events.onModelFallback?.({ from, to, error: sent.error });
      sent = await sendRequest(call, await prepare(call, spec, to));
      from = to;
    }
    if (raw) return { response: sent.response };
    return { response: sent.response, data: spec.map ? await spec.map(sent.data, sent.response) : (sent.data as T) };
  } catch (error) {
    const safe = redactError(error, config);
    throw spec.mapError ? await spec.mapError(safe) : safe;
  } finally {
    call?.end();
  }
}

/** The models to try after the caller's: the request's list, else the client's for that model. */
function fallbackModels(config: CoreConfig, spec: CallSpec<unknown>, requested: readonly string[] | undefined): string[] {
  if (requested !== undefined) checkModels('fallbackModels', requested);
  if (typeof spec.model !== 'string') return [];
  const list = requested ?? (spec.clientFallbacks === false ? undefined : config.fallbackModels[spec.model]);
  return list ? [...list] : [];
}

/** Describes the request for a model (checking the arguments), then serialises it once. */
async function prepare(call: CallState, spec: CallSpec<unknown>, model: string | undefined): Promise<PreparedRequest> {
  const described = spec.request(model);
  const req = described instanceof Promise ? await described : described;
  let body: string | Blob | undefined = req.form?.blob;
  if (body === undefined && req.body !== undefined) {
    try {
      body = JSON.stringify(req.body);
    } catch (error) {
      throw new ValidationError('body', `cannot be sent as JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  const { pool } = call.config;
  // A download URL is its own address: it is never moved to the other base.
  const pinned = req.url === undefined ? req.baseURL : (pool.baseOf(req.url) ?? new URL(req.url).origin);
  return { req, headers: buildHeaders(call, req), body, signal: call.signalFor(req.controller), pinned };
}

/**
 * Sends one model's request until it is answered, or until the decision is to fall back
 * to another model or to give up (then it throws the error to report).
 */
async function sendRequest(call: CallState, request: PreparedRequest): Promise<Answer | Fallback> {
  const { pool } = call.config;
  const direct = request.req.url !== undefined;
  let baseURL = request.pinned ?? pool.pick();
  let retries = 0;
  let redirects = 0;
  for (let n = 1; ; n++) {
    const info: AttemptInfo = { method: request.req.method, url: request.req.url ?? joinURL(baseURL, request.req.path), baseURL, attempt: n, idempotencyKey: request.headers['idempotency-key'] };
    try {
      const answer = await attempt(call, request, info);
      if (!direct) pool.markHealthy(baseURL);
      request.req.onServed?.(baseURL);
      return answer;
    } catch (caught) {
      // Stopped by the caller or the total timeout: nothing to decide, and no base to blame.
      if (request.signal?.aborted) throw call.stopped(request.signal, `${info.method} ${info.url}`);
      const redirect = caught instanceof BaseRedirect && request.pinned === undefined && redirects++ < MAX_REDIRECTS ? caught : undefined;
      const error = caught instanceof BaseRedirect ? caught.error : caught;
      const situation = situationAfter(call, { error, info, retries, pinned: request.pinned });
      situation.redirectedTo = redirect?.baseURL;
      if (!direct && (redirect || isRetryable(situation.kind))) pool.markFailed(baseURL);
      const decision = decide(situation);
      if (decision.action === 'fallback') {
        call.models.shift();
        return { fallbackTo: decision.model, error: error as GatewayError };
      }
      if (decision.action === 'give-up') throw giveUp(call, { error, info, decision, retries });
      if (decision.action === 'retry') {
        retries++;
        await pauseBeforeRetry(call, request, { ...info, error: error as GatewayError, status: statusOf(error), delayMs: decision.delayMs, nextBaseURL: decision.baseURL });
      } else call.config.events.onFailover?.({ ...info, error: error as GatewayError, status: statusOf(error), from: baseURL, to: decision.baseURL });
      baseURL = decision.baseURL;
    }
  }
}

/** What a failed attempt looks like to the decision (decide.ts). */
function situationAfter(call: CallState, at: { error: unknown; info: AttemptInfo; retries: number; pinned: string | undefined }): Situation {
  const { pool, retry } = call.config;
  const { error, info } = at;
  const nextBase = at.pinned ?? pool.next(info.baseURL);
  return {
    kind: failureKind(error),
    retries: at.retries,
    maxRetries: call.options.maxRetries ?? call.config.maxRetries,
    base: info.baseURL,
    nextBase,
    nextHealthy: pool.isHealthy(nextBase),
    serverWaitMs: error instanceof APIError ? error.retryAfterMs : null,
    maxRetryAfterMs: retry.maxRetryAfterMs,
    backoffMs: computeBackoff(at.retries + 1, retry),
    budgetMs: call.budgetMs(),
    nextModel: call.models[0],
  };
}

/** Tells the hooks, pauses (an abort ends the pause at once), then lets the request's owner hold the retry. */
async function pauseBeforeRetry(call: CallState, request: PreparedRequest, retry: RetryInfo): Promise<void> {
  const { events } = call.config;
  request.req.onRetry?.(retry);
  events.onRetry?.(retry);
  if (retry.nextBaseURL !== retry.baseURL) events.onFailover?.({ ...retry, from: retry.baseURL, to: retry.nextBaseURL });
  await sleep(retry.delayMs, request.signal).catch(() => {
    throw call.stopped(request.signal, `${retry.method} ${retry.url}`);
  });
  if (request.req.beforeRetry) await request.req.beforeRetry(retry);
}

/** The error a call gives up with; a pause that does not fit the budget becomes an APITimeoutError. */
function giveUp(call: CallState, at: { error: unknown; info: AttemptInfo; decision: Decision & { action: 'give-up' }; retries: number }): unknown {
  const { error, info } = at;
  const { reason } = at.decision;
  if (!(error instanceof GatewayError) || reason === 'final' || (reason === 'retries' && at.retries === 0)) return error;
  call.config.events.onGiveUp?.({ ...info, error, reason });
  if (reason !== 'budget') return error;
  const wait = error instanceof APIError ? error.retryAfterMs : null;
  const left = Math.max(0, call.budgetMs() ?? 0);
  const asked = wait === null ? 'the next retry would start after it' : `the server asked to wait ${wait} ms before retrying, and ${left} ms were left`;
  const timeout = new APITimeoutError(`Request did not complete within totalTimeout (${call.options.totalTimeout} ms): ${asked} (${info.method} ${info.url}: ${error.message}).`, { cause: error });
  timeout.retryAfterMs = wait;
  return timeout;
}

const statusOf = (error: unknown): number | null => (error instanceof APIError ? error.status : null);

/** Request headers as a plain object with lower-case names (cheaper than a Headers per request). */
function buildHeaders(call: CallState, req: CoreRequest): Record<string, string> {
  // The authorization header is set per attempt (a key function may rotate the key).
  const headers: Record<string, string> = {
    accept: req.stream ? 'text/event-stream' : req.download ? '*/*' : req.responseType === 'text' ? 'text/plain, application/json' : 'application/json',
  };
  if (req.form) headers['content-type'] = req.form.contentType;
  else if (req.body !== undefined) headers['content-type'] = 'application/json';
  // A download from another origin (a CDN) gets none of the client's headers: they may hold credentials.
  if (req.auth !== false) copyHeaders(call.config.defaultHeaders, headers);
  if (call.options.headers) copyHeaders(call.options.headers, headers);
  // One key per logical POST, identical on every retry and failover attempt.
  if (req.method === 'POST' && !headers['idempotency-key']) headers['idempotency-key'] = `ug-${uuid()}`;
  return headers;
}

/** Copies headers under lower-case names (no entries array: this runs for every request). */
function copyHeaders(from: Record<string, string>, to: Record<string, string>): void {
  for (const k in from) if (Object.hasOwn(from, k)) to[k.toLowerCase()] = from[k] as string;
}

/**
 * The one place every error of a call passes before it reaches the caller: a GatewayError
 * thrown anywhere on the way (a parser's ParseError quoting the reply, a custom fetch's
 * message) has the client's secrets removed from its message, stack and string fields.
 */
function redactError(error: unknown, config: CoreConfig): unknown {
  if (!(error instanceof GatewayError)) return error;
  const { redactor } = config;
  const fields = error as unknown as Record<string, unknown>;
  for (const key of ['message', 'stack', ...Object.keys(error)]) {
    const value = fields[key];
    if (typeof value === 'string') {
      const safe = redactor.string(value);
      if (safe !== value) Object.defineProperty(error, key, { value: safe, writable: true, configurable: true, enumerable: key !== 'message' && key !== 'stack' });
    }
  }
  return error;
}
