import { anySignal } from '../internal/signals.js';
import { sleep } from '../internal/sleep.js';
import { uuid } from '../internal/uuid.js';
import type { Redactor } from '../internal/redact.js';
import { lazy } from '../internal/lazy.js';
import { checkNumber } from './check.js';
import { APIConnectionError, APIError, APIUserAbortError, APITimeoutError, BaseRedirect, GatewayError, isErrorPayload, MAX_REDIRECTS } from './errors.js';
import type { BaseURLPool } from './failover.js';
import type { AttemptInfo, RetryInfo } from './hooks.js';
import type { CoreEvents } from './logger.js';
import { computeBackoff, isRetryableAPIError, parseRetryAfter, type RetryPacing } from './retry.js';

/**
 * Options every method takes as its last argument.
 * @example await client.models.list({ timeout: 5_000, maxRetries: 0 })
 */
export interface RequestOptions {
  /** Aborts at once, including a backoff pause; no further attempt is made. */
  signal?: AbortSignal | undefined;
  /** ms per attempt, overriding the client's `timeout`. */
  timeout?: number | undefined;
  /** Retries after the first attempt, overriding the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Extra headers for this request; they win over the client's `defaultHeaders`. */
  headers?: Record<string, string> | undefined;
  /** Streams only: ms without a single byte (SSE `: PING` comments count) before the stream fails. */
  idleTimeout?: number | undefined;
  /**
   * ms for the whole call: every attempt and every backoff pause (for a stream, until its
   * first bytes). Past it the call fails with `APITimeoutError`. Unset by default.
   */
  totalTimeout?: number | undefined;
  /** Merged over the client's `fetchOptions`, key by key, for this call. */
  fetchOptions?: FetchOptions | undefined;
  /**
   * The models to try, in order, when the requested one is unavailable after its own
   * retries and failover; replaces the client's `fallbackModels` for this call. `[]` turns
   * fallback off. See docs/fallback.md.
   */
  fallbackModels?: readonly string[] | undefined;
}

/**
 * Extra `fetch` init fields for every request, e.g. an undici `dispatcher` for a proxy, or
 * `credentials` in a browser. The SDK's own `method`, `headers`, `body`, `signal` and
 * `redirect` always win; set headers with `defaultHeaders` / `headers`.
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal' | 'redirect'> & { [key: string]: unknown };

/** Resolved client configuration the core works from. */
export interface CoreConfig {
  /** Gives the key for each attempt; a static key is wrapped. Never stored as a plain property, so no inspection shows it. */
  readonly apiKey: () => string | Promise<string>;
  /** Removes every key the client has used from errors, logs and hook events. */
  readonly redactor: Redactor;
  readonly pool: BaseURLPool;
  readonly maxRetries: number;
  readonly retry: RetryPacing;
  readonly timeout: number;
  readonly idleTimeout: number;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly fetchOptions: FetchOptions | undefined;
  readonly defaultHeaders: Record<string, string>;
  /** The user's hooks and the logger, subscribed to the same events. */
  readonly events: CoreEvents;
  /** Per model id, the models to try next. */
  readonly fallbackModels: Readonly<Record<string, readonly string[]>>;
}

/** One logical request, as a resource describes it. */
export interface CoreRequest extends RequestOptions {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative path without a leading slash: `chat/completions`. */
  path: string;
  /** JSON body; serialised once and reused on every attempt. */
  body?: unknown | undefined;
  /** A multipart body, built once as a Blob so every attempt replays it whole. */
  form?: { blob: Blob; contentType: string } | undefined;
  /** Send every attempt to this base URL (no failover): for resources that live on one base. */
  baseURL?: string | undefined;
  /** Told which base URL answered successfully. */
  onServed?: ((baseURL: string) => void) | undefined;
  /** Told of each retry of this request, before its pause (createMany adapts its concurrency to rate limits). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Awaited after a retry's pause, right before the next attempt is sent: a caller that
   * bounds requests in flight (createMany) holds the retry here until a slot is free.
   */
  beforeRetry?: ((info: RetryInfo) => Promise<void> | void) | undefined;
  /** Expect `text/event-stream`. */
  stream?: boolean | undefined;
  /** `text` returns the body as a string (transcripts as srt, vtt or text). @default 'json' */
  responseType?: 'json' | 'text' | undefined;
  /** Aborts the request from inside the SDK (a Stream's controller). */
  controller?: AbortController | undefined;
  /** Resolve with the response once its status is known, body unread (`asResponse()`). */
  raw?: boolean | undefined;
  /** An absolute URL instead of a base URL and `path` (downloads): no failover, no effect on base health. */
  url?: string | undefined;
  /** Send the Authorization header. @default true */
  auth?: boolean | undefined;
  /**
   * Resolve once the first body bytes arrived, with the opened body as the data (like a
   * stream, without its content checks). Redirects to another origin are followed without
   * the key: a download URL often hands off to a CDN.
   */
  download?: boolean | undefined;
}

/** What a call produced: the response, and its parsed body (JSON, text, or the opened stream). */
export interface Sent {
  response: Response;
  /** Undefined for a raw call. */
  data: unknown;
}

/** A streamed response whose first bytes have arrived: from here on it is never retried. */
export interface OpenStream {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  first: Uint8Array;
  /** Aborts when the caller's signal or the stream's controller aborts. */
  signal: AbortSignal;
  method: string;
  url: string;
}

/** Error-body parsing loads with the first error response: apps whose calls succeed never carry it. */
const errorFactory = lazy(() => import('./error-factory.js'));

/** Redirect handling loads with the first redirect. */
const loadRedirects = lazy(() => import('./redirects.js'));

/** Why an attempt's own controller was aborted. */
const TIMED_OUT = Symbol('timed out');

/** Why the whole call's controller was aborted (`totalTimeout`). */
const TOTAL_TIMED_OUT = Symbol('total timeout');

/**
 * Sends one logical request: auth, Idempotency-Key, per-attempt and total timeouts, retries
 * with backoff, failover between base URLs, redirects, and error mapping. Resolves with the
 * response and its parsed JSON, or, for `stream: true`, the opened stream once its first
 * bytes arrived; for `raw`, with the response once its status is known.
 */
export async function send(config: CoreConfig, req: CoreRequest): Promise<Sent> {
  checkNumber('timeout', req.timeout, 'ms');
  checkNumber('maxRetries', req.maxRetries, 'count');
  checkNumber('idleTimeout', req.idleTimeout, 'ms');
  checkNumber('totalTimeout', req.totalTimeout, 'ms');
  const total = req.totalTimeout === undefined ? undefined : new AbortController();
  const deadline = req.totalTimeout === undefined ? undefined : Date.now() + req.totalTimeout;
  const totalTimer = total && setTimeout(() => total.abort(TOTAL_TIMED_OUT), req.totalTimeout);
  const requestSignal = anySignal(req.signal, req.controller?.signal, total?.signal);
  /** The error for a call stopped by its signal: the caller's abort, or the total timeout. */
  const stopped = (): GatewayError =>
    total?.signal.aborted && !req.signal?.aborted && !req.controller?.signal.aborted
      ? new APITimeoutError(`Request did not complete within totalTimeout (${req.totalTimeout} ms): ${req.method} ${req.path}.`)
      : new APIUserAbortError(undefined, { cause: requestSignal?.reason });
  const maxRetries = req.maxRetries ?? config.maxRetries;
  const headers = buildHeaders(config, req);
  const idempotencyKey = headers['idempotency-key'];
  const body = req.form?.blob ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  const { pool, events } = config;
  // A download URL is its own address: it is never moved to the other base.
  const pinned = req.url === undefined ? req.baseURL : (pool.baseOf(req.url) ?? new URL(req.url).origin);
  const direct = req.url !== undefined;
  let baseURL = pinned ?? pool.pick();
  let retries = 0;
  let redirects = 0;

  try {
    for (let attempt = 1; ; attempt++) {
      const info: AttemptInfo = { method: req.method, url: req.url ?? joinURL(baseURL, req.path), baseURL, attempt, idempotencyKey };
      try {
        const result = await attemptOnce(config, req, info, headers, body, requestSignal, stopped);
        if (!direct) pool.markHealthy(baseURL);
        req.onServed?.(baseURL);
        return result;
      } catch (caught) {
        if (caught instanceof BaseRedirect) {
          // The gateway itself points at the other base: go there at once, as a failover.
          if (pinned !== undefined || ++redirects > MAX_REDIRECTS) throw caught.error;
          pool.markFailed(baseURL);
          events.onFailover?.({ ...info, error: caught.error, status: caught.error.status, from: baseURL, to: caught.baseURL });
          baseURL = caught.baseURL;
          continue;
        }
        const error = caught;
        if (!(error instanceof GatewayError) || !isRetryable(error)) throw error;
        if (!direct) pool.markFailed(baseURL);
        if (retries >= maxRetries) {
          if (retries > 0) events.onGiveUp?.({ ...info, error, reason: 'retries' });
          throw error;
        }
        const nextBaseURL = pinned ?? pool.next(baseURL);
        const status = error instanceof APIError ? error.status : null;
        const switching = nextBaseURL !== baseURL;
        // A healthy other base is independent of the one that failed: go there at once.
        const freeSwitch = switching && pool.isHealthy(nextBaseURL);
        const serverWait = error instanceof APIError ? error.retryAfterMs : null;
        // A server that asks for a longer wait than the cap is not retried early against its
        // wish: fail now, with the wait on err.retryAfterMs, unless another base can serve.
        // The same when the wait would outlast the call's totalTimeout: say so now, not after it.
        const tooLong = serverWait !== null && (serverWait > config.retry.maxRetryAfterMs || (deadline !== undefined && Date.now() + serverWait >= deadline));
        if (tooLong && !freeSwitch) {
          events.onGiveUp?.({ ...info, error, reason: 'retry-after' });
          throw error;
        }
        retries++;
        const delayMs = freeSwitch ? 0 : computeBackoff(retries, serverWait, config.retry);
        const retry = { ...info, error, status, delayMs, nextBaseURL };
        req.onRetry?.(retry);
        events.onRetry?.(retry);
        if (switching) events.onFailover?.({ ...info, error, status, from: baseURL, to: nextBaseURL });
        await sleep(delayMs, requestSignal).catch(() => {
          throw stopped();
        });
        if (req.beforeRetry) await req.beforeRetry(retry);
        baseURL = nextBaseURL;
      }
    }
  } finally {
    clearTimeout(totalTimer);
  }
}

function isRetryable(error: GatewayError): boolean {
  if (error instanceof APIError) return isRetryableAPIError(error);
  return error instanceof APIConnectionError;
}

/** Statuses that redirect when they carry a Location header. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

async function attemptOnce(
  config: CoreConfig,
  req: CoreRequest,
  info: AttemptInfo,
  headers: Record<string, string>,
  body: string | Blob | undefined,
  requestSignal: AbortSignal | undefined,
  stopped: () => GatewayError,
): Promise<Sent> {
  if (requestSignal?.aborted) throw stopped();
  const { redactor } = config;
  const attemptController = new AbortController();
  const timeoutMs = req.timeout ?? config.timeout;
  const timer = setTimeout(() => attemptController.abort(TIMED_OUT), timeoutMs);
  const signal = anySignal(requestSignal, attemptController.signal);
  let url = info.url;
  const fail = async (error: unknown): Promise<GatewayError> => {
    if (error instanceof GatewayError) return error;
    if (requestSignal?.aborted) return stopped();
    if (attemptController.signal.aborted) return new APITimeoutError(`Request timed out after ${timeoutMs} ms (${info.method} ${url}).`);
    return (await errorFactory()).toConnectionError(error, redactor, `Connection error (${info.method} ${url})`);
  };

  const apiError = async (response: Response, payload: unknown, extra: { message?: string; hint?: 'base' } = {}) => {
    const factory = await errorFactory();
    return factory.createAPIError({
      status: response.status,
      body: payload,
      headers: response.headers,
      method: info.method,
      url,
      retryAfterMs: parseRetryAfter(response.headers),
      redactor,
      message: extra.message,
      hint: extra.hint ? factory.baseURLHint(info.baseURL) : undefined,
    });
  };
  const unexpected = async (text: string, contentType: string, expected: string) => (await errorFactory()).unexpectedBody(text, contentType, expected, { ...info, url });
  // Only transport failures are mapped to SDK errors; an exception from a hook propagates as is.
  const guard = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch(async (error: unknown) => {
      throw await fail(error);
    });

  try {
    // A copy per attempt: the key may rotate between attempts, and a 303 rewrites the request.
    const attemptHeaders = { ...headers };
    if (attemptHeaders.authorization === undefined && req.auth !== false) {
      const key = config.apiKey();
      attemptHeaders.authorization = `Bearer ${typeof key === 'string' ? key : await key}`;
    }
    config.events.onRequest?.(info);
    const started = Date.now();
    // Read globalThis.fetch per call, not at construction, so polyfills and interceptors
    // installed later (msw, test stubs) are honoured.
    const fetchImpl = config.fetch ?? globalThis.fetch;
    const custom = config.fetch !== undefined;
    const extra = req.fetchOptions ? { ...config.fetchOptions, ...req.fetchOptions } : config.fetchOptions;
    let method: string = req.method;
    let sent: string | Blob | null = body ?? null;
    let response: Response;
    for (let hop = 0; ; hop++) {
      // Redirects are never followed blindly: fetch would drop the key on a cross-origin hop
      // (the request arrives unauthenticated) or carry it somewhere it must not go.
      // try/catch rather than guard(): one promise fewer on the path every request takes.
      try {
        response = await fetchImpl(url, { ...extra, method, headers: attemptHeaders, body: sent, signal: signal ?? null, redirect: 'manual' });
      } catch (error) {
        throw await fail(error);
      }
      if (!isRedirect(response)) break;
      // How to follow (or refuse) it loads with the first redirect.
      const next = await (await loadRedirects()).followRedirect(response, { ...info, url, hop, method, sent, headers: attemptHeaders, download: req.download === true }, config, apiError);
      ({ url, method, sent } = next);
    }
    config.events.onResponse?.({ ...info, url, status: response.status, durationMs: Date.now() - started, requestID: requestIDOf(response) });

    const contentType = response.headers.get('content-type') ?? '';
    const isJSON = contentType.includes('json');
    if (!response.ok || (req.stream && isJSON)) {
      const payload = parseBody(await guard(untilAborted(response.text(), signal, custom)));
      if (response.ok && !isErrorPayload(payload)) {
        throw new GatewayError(`Expected an event stream but got JSON (${info.method} ${url}).`);
      }
      throw await apiError(response, payload, response.status === 404 || typeof payload === 'string' ? { hint: 'base' } : {});
    }
    if (req.raw) return { response, data: undefined };

    if (req.stream || req.download) {
      // An HTML page where events were expected is a wrong URL or a proxy's page, not a cut stream.
      if (req.stream && contentType.includes('html')) throw await unexpected(await guard(untilAborted(response.text(), signal, custom)), contentType, 'an event stream');
      if (!response.body) throw new GatewayError(`Response has no body to stream (${info.method} ${url}).`);
      const reader = response.body.getReader();
      // Read the first bytes inside the attempt: a stream cut before anything reached the
      // caller is still safe to retry; after this point it never is.
      const first = await guard(untilAborted(reader.read(), signal, custom)).catch((error: unknown) => {
        void reader.cancel().catch(() => undefined);
        throw error;
      });
      if ((first.done || !first.value) && !req.download) throw new APIConnectionError(`Stream closed before any data (${info.method} ${url}).`);
      const open: OpenStream = { reader, first: first.value ?? new Uint8Array(0), signal: requestSignal ?? new AbortController().signal, method: info.method, url };
      return { response, data: open };
    }

    if (req.responseType === 'text') return { response, data: await guard(untilAborted(response.text(), signal, custom)) };
    let text: string;
    try {
      text = await untilAborted(response.text(), signal, custom);
    } catch (error) {
      throw await fail(error);
    }
    const payload = parseBody(text);
    // Retried like a connection error: a proxy may have answered without the request being served.
    if (payload === undefined) throw new APIConnectionError(`Empty response body (${response.status}) from ${info.method} ${url}: the request may not have been served.`);
    if (typeof payload === 'string') throw await unexpected(payload, contentType, 'JSON');
    if (isErrorPayload(payload)) throw await apiError(response, payload);
    return { response, data: payload };
  } finally {
    clearTimeout(timer);
  }
}

/** A response that redirects: a 3xx with a Location, or a browser's opaque redirect. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (REDIRECT_STATUSES.has(response.status) && response.headers.has('location'));
}

/** The request id a response carries: `x-request-id`, else `x-oneapi-request-id` (new-api / one-api). */
export function requestIDOf(response: Response): string | null {
  return response.headers.get('x-request-id') ?? response.headers.get('x-oneapi-request-id');
}

/** Parsed JSON, the raw text when it is not JSON, or undefined for an empty body. */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Rejects as soon as `signal` aborts, even when a custom fetch returned a body that does
 * not observe the signal itself. The platform fetch aborts its own body reads, so for it
 * (`custom` false) the promise is returned as is: a listener per read costs on every request.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, custom: boolean): Promise<T> {
  if (!signal || !custom) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Request headers as a plain object with lower-case names (cheaper than a Headers per request). */
function buildHeaders(config: CoreConfig, req: CoreRequest): Record<string, string> {
  // The authorization header is set per attempt (a key function may rotate the key).
  const headers: Record<string, string> = {
    accept: req.stream ? 'text/event-stream' : req.download ? '*/*' : req.responseType === 'text' ? 'text/plain, application/json' : 'application/json',
  };
  if (req.form) headers['content-type'] = req.form.contentType;
  else if (req.body !== undefined) headers['content-type'] = 'application/json';
  // A download from another origin (a CDN) gets none of the client's headers: they may hold credentials.
  if (req.auth !== false) copyHeaders(config.defaultHeaders, headers);
  if (req.headers) copyHeaders(req.headers, headers);
  // One key per logical POST, identical on every retry and failover attempt.
  if (req.method === 'POST' && !headers['idempotency-key']) headers['idempotency-key'] = `ug-${uuid()}`;
  return headers;
}

/** Copies headers under lower-case names (no entries array: this runs for every request). */
function copyHeaders(from: Record<string, string>, to: Record<string, string>): void {
  for (const k in from) if (Object.hasOwn(from, k)) to[k.toLowerCase()] = from[k] as string;
}

function joinURL(base: string, path: string): string {
  return `${base.endsWith('/') ? base.replace(/\/+$/, '') : base}/${path}`;
}
