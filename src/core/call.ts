import { lazy } from '../internal/lazy.js';
import { uuid } from '../internal/uuid.js';
import type { CallOutcome } from './api-promise.js';
import { attempt, joinURL } from './attempt.js';
import { shownURL } from './exchange.js';
import { CallState, type PreparedRequest } from './call-state.js';
import { checkRequestOptions } from './check.js';
import { GatewayError, ValidationError } from './errors.js';
import { errorFactory } from './exchange.js';
import type { AttemptInfo } from './hooks.js';
import { checkModels } from './options.js';
import type { Fallback, Progress } from './recovery.js';
import type { Answer, CoreConfig, CoreRequest, RequestOptions } from './types.js';

// One method call, from its described request to its result: the stages every request
// goes through, in order (docs/architecture.md, "The life of one request"):
//   runCall → sendRequest → attempt (attempt.ts: auth, timeout, fetch, redirects)
//           → readResponse (response.ts); after a failure, recover (recovery.ts: decide.ts says what next)

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

/** What happens after a failed attempt loads with the first failure: apps whose calls succeed never carry it. */
const loadRecovery = lazy(() => import('./recovery.js'));

/**
 * Runs one method call: describes the request, sends it (with retries, failover and model
 * fallback), and shapes the answer. Errors leave with the client's secrets removed.
 */
export async function runCall<T>(config: CoreConfig, spec: CallSpec<T>, options: RequestOptions, raw: boolean): Promise<CallOutcome<T>> {
  let call: CallState | undefined;
  try {
    checkRequestOptions(options);
    if (options.headers) config.redactor.addHeaders(options.headers);
    call = new CallState(config, options, raw, fallbackModels(config, spec, options.fallbackModels));
    let sent = await sendRequest(call, await prepare(call, spec, undefined));
    for (let from = String(spec.model); 'fallbackTo' in sent; ) {
      const to = sent.fallbackTo;
      config.events.onModelFallback?.({ from, to, error: sent.error });
      sent = await sendRequest(call, await prepare(call, spec, to));
      from = to;
    }
    if (raw) {
      call.observer?.end({ data: sent.data });
      return { response: sent.response };
    }
    const data = spec.map ? await spec.map(sent.data, sent.response) : (sent.data as T);
    // After map: a reply that fails there (a ParseError) is the call's failure, for telemetry too.
    call.observer?.end({ data: sent.data });
    return { response: sent.response, data };
  } catch (error) {
    // Every error of a call passes here: secrets out of anything on the way (a parser's
    // ParseError quoting the reply, a custom fetch's message).
    const safe = error instanceof GatewayError ? (await errorFactory()).redactError(error, config.redactor) : error;
    call?.observer?.end({ error: safe });
    throw spec.mapError ? await spec.mapError(safe) : safe;
  } finally {
    call?.end();
  }
}

/** The models to try after the caller's: the request's list, else the client's for that model. */
function fallbackModels(config: CoreConfig, spec: CallSpec<unknown>, requested: readonly string[] | undefined): string[] {
  if (requested !== undefined) checkModels('fallbackModels', requested);
  if (typeof spec.model !== 'string') return [];
  const own = spec.clientFallbacks !== false && Object.hasOwn(config.fallbackModels, spec.model);
  const list = requested ?? (own ? config.fallbackModels[spec.model] : undefined);
  return list ? [...list] : [];
}

/** Describes the request for a model (checking the arguments), then serialises it once. */
async function prepare(call: CallState, spec: CallSpec<unknown>, model: string | undefined): Promise<PreparedRequest> {
  const described = spec.request(model);
  const req = described instanceof Promise ? await described : described;
  call.observer?.request(req);
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
 * to another model or to give up (then it throws the error to report). What happens after
 * a failure (recovery.ts) loads with the first failure.
 */
async function sendRequest(call: CallState, request: PreparedRequest): Promise<Answer | Fallback> {
  const { pool } = call.config;
  const progress: Progress = { baseURL: request.pinned ?? pool.pick(), retries: 0, redirects: 0 };
  for (let n = 1; ; n++) {
    const { baseURL } = progress;
    // An absolute URL (a download) is named without its query, which often holds a signed token.
    const info: AttemptInfo = { method: request.req.method, url: request.req.url === undefined ? joinURL(baseURL, request.req.path) : shownURL(request.req.url), baseURL, attempt: n, idempotencyKey: request.headers['idempotency-key'] };
    const watch = call.observer?.attempt(info);
    try {
      const answer = await attempt(call, request, info, watch);
      watch?.end(answer.response.status);
      if (request.req.url === undefined) pool.markHealthy(baseURL);
      request.req.onServed?.(baseURL);
      return answer;
    } catch (error) {
      watch?.end(undefined, error);
      // Stopped by the caller or the total timeout: nothing to decide, and no base to blame.
      if (request.signal?.aborted) throw call.stopped(request.signal, `${info.method} ${info.url}`);
      const fallback = await (await loadRecovery()).recover(call, request, { error, info, progress });
      if (fallback) return fallback;
    }
  }
}

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
