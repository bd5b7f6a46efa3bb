import { anySignal } from '../internal/signals.js';
import { sleep } from '../internal/sleep.js';
import { uuid } from '../internal/uuid.js';
import { APIConnectionError, APIError, APIUserAbortError, APITimeoutError, GatewayError, createAPIError, isErrorPayload, toConnectionError } from './errors.js';
import type { BaseURLPool } from './failover.js';
import type { AttemptInfo, GatewayHooks } from './hooks.js';
import { computeBackoff, isRetryableAPIError, parseRetryAfter } from './retry.js';

/**
 * Options every method takes as its last argument.
 * @example await client.models.list({ timeout: 5_000, maxRetries: 0 })
 */
export interface RequestOptions {
  /** Aborts at once, including a backoff pause; no further attempt is made. */
  signal?: AbortSignal;
  /** ms per attempt, overriding the client's `timeout`. */
  timeout?: number;
  /** Retries after the first attempt, overriding the client's `maxRetries`. */
  maxRetries?: number;
  /** Extra headers for this request; they win over the client's `defaultHeaders`. */
  headers?: Record<string, string>;
  /** Streams only: ms without a single byte (SSE `: PING` comments count) before the stream fails. */
  idleTimeout?: number;
}

/** Resolved client configuration the core works from. */
export interface CoreConfig {
  readonly apiKey: string;
  readonly pool: BaseURLPool;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly idleTimeout: number;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly defaultHeaders: Record<string, string>;
  readonly hooks: GatewayHooks;
}

/** One logical request, as a resource describes it. */
export interface CoreRequest extends RequestOptions {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative path without a leading slash: `chat/completions`. */
  path: string;
  /** JSON body; serialised once and reused on every attempt. */
  body?: unknown;
  /** A multipart body, built once as a Blob so every attempt replays it whole. */
  form?: { blob: Blob; contentType: string };
  /** Send every attempt to this base URL (no failover): for resources that live on one base. */
  baseURL?: string;
  /** Told which base URL answered successfully. */
  onServed?: (baseURL: string) => void;
  /** Expect `text/event-stream`. */
  stream?: boolean;
  /** `text` returns the body as a string (transcripts as srt, vtt or text). @default 'json' */
  responseType?: 'json' | 'text';
  /** Aborts the request from inside the SDK (a Stream's controller). */
  controller?: AbortController;
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

/** Why an attempt's own controller was aborted. */
const TIMED_OUT = Symbol('timed out');

/**
 * Sends one logical request: auth, Idempotency-Key, per-attempt timeout, retries with
 * backoff, failover between base URLs, and error mapping. Resolves with parsed JSON, or,
 * for `stream: true`, with the opened stream once its first bytes arrived.
 */
export async function send(config: CoreConfig, req: CoreRequest & { stream: true }): Promise<OpenStream>;
export async function send(config: CoreConfig, req: CoreRequest): Promise<unknown>;
export async function send(config: CoreConfig, req: CoreRequest): Promise<unknown> {
  const requestSignal = anySignal([req.signal, req.controller?.signal]);
  const maxRetries = req.maxRetries ?? config.maxRetries;
  const headers = buildHeaders(config, req);
  const idempotencyKey = headers['idempotency-key'];
  const body = req.form?.blob ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  const { pool, hooks } = config;
  const pinned = req.baseURL;
  let baseURL = pinned ?? pool.pick();

  for (let attempt = 1; ; attempt++) {
    const info: AttemptInfo = { method: req.method, url: joinURL(baseURL, req.path), baseURL, attempt, idempotencyKey };
    try {
      const result = await attemptOnce(config, req, info, headers, body, requestSignal);
      pool.markHealthy(baseURL);
      req.onServed?.(baseURL);
      return result;
    } catch (error) {
      if (!(error instanceof GatewayError) || !isRetryable(error)) throw error;
      pool.markFailed(baseURL);
      if (attempt > maxRetries) throw error;
      const nextBaseURL = pinned ?? pool.next(baseURL);
      const status = error instanceof APIError ? error.status : null;
      // A healthy other base is independent of the one that failed: go there at once.
      const switching = nextBaseURL !== baseURL;
      const delayMs = switching && pool.isHealthy(nextBaseURL) ? 0 : computeBackoff(attempt, error instanceof APIError ? error.retryAfterMs : null);
      hooks.onRetry?.({ ...info, error, status, delayMs, nextBaseURL });
      if (switching) hooks.onFailover?.({ ...info, error, status, from: baseURL, to: nextBaseURL });
      try {
        await sleep(delayMs, requestSignal);
      } catch (reason) {
        throw new APIUserAbortError(undefined, { cause: reason });
      }
      baseURL = nextBaseURL;
    }
  }
}

function isRetryable(error: GatewayError): boolean {
  if (error instanceof APIError) return isRetryableAPIError(error);
  return error instanceof APIConnectionError;
}

async function attemptOnce(
  config: CoreConfig,
  req: CoreRequest,
  info: AttemptInfo,
  headers: Record<string, string>,
  body: string | Blob | undefined,
  requestSignal: AbortSignal | undefined,
): Promise<unknown> {
  if (requestSignal?.aborted) throw new APIUserAbortError(undefined, { cause: requestSignal.reason });
  const attemptController = new AbortController();
  const timeoutMs = req.timeout ?? config.timeout;
  const timer = setTimeout(() => attemptController.abort(TIMED_OUT), timeoutMs);
  const signal = anySignal([requestSignal, attemptController.signal]);
  const fail = (error: unknown): GatewayError => {
    if (error instanceof GatewayError) return error;
    if (requestSignal?.aborted) return new APIUserAbortError(undefined, { cause: requestSignal.reason });
    if (attemptController.signal.aborted) return new APITimeoutError(`Request timed out after ${timeoutMs} ms (${info.method} ${info.url}).`);
    return toConnectionError(error, config.apiKey, `Connection error (${info.method} ${info.url}): ${describe(error)}`);
  };

  const apiError = (response: Response, payload: unknown) =>
    createAPIError({
      status: response.status,
      body: payload,
      headers: response.headers,
      method: info.method,
      url: info.url,
      retryAfterMs: parseRetryAfter(response.headers),
      secret: config.apiKey,
    });
  // Only transport failures are mapped to SDK errors; an exception from a hook propagates as is.
  const guard = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch((error: unknown) => {
      throw fail(error);
    });

  try {
    config.hooks.onRequest?.(info);
    const started = Date.now();
    // Read globalThis.fetch per call, not at construction, so polyfills and interceptors
    // installed later (msw, test stubs) are honoured.
    const fetchImpl = config.fetch ?? globalThis.fetch;
    const custom = config.fetch !== undefined;
    const response = await guard(fetchImpl(info.url, { method: req.method, headers, body, signal }));
    config.hooks.onResponse?.({ ...info, status: response.status, durationMs: Date.now() - started, requestID: response.headers.get('x-request-id') });

    const isJSON = (response.headers.get('content-type') ?? '').includes('json');
    if (!response.ok || (req.stream && isJSON)) {
      const payload = await guard(untilAborted(readBody(response), signal, custom));
      if (response.ok && !isErrorPayload(payload)) {
        throw new GatewayError(`Expected an event stream but got JSON (${info.method} ${info.url}).`);
      }
      throw apiError(response, payload);
    }

    if (req.stream) {
      if (!response.body) throw new GatewayError(`Response has no body to stream (${info.method} ${info.url}).`);
      const reader = response.body.getReader();
      // Read the first bytes inside the attempt: a stream cut before anything reached the
      // caller is still safe to retry; after this point it never is.
      const first = await guard(untilAborted(reader.read(), signal, custom)).catch((error: unknown) => {
        void reader.cancel().catch(() => undefined);
        throw error;
      });
      if (first.done || !first.value) throw new APIConnectionError(`Stream closed before any data (${info.method} ${info.url}).`);
      return { reader, first: first.value, signal: requestSignal ?? new AbortController().signal, method: info.method, url: info.url } satisfies OpenStream;
    }

    if (req.responseType === 'text') return await guard(untilAborted(response.text(), signal, custom));
    const payload = await guard(untilAborted(readBody(response), signal, custom));
    if (typeof payload === 'string') {
      throw new GatewayError(`Could not parse the response as JSON (${info.method} ${info.url}).`);
    }
    if (isErrorPayload(payload)) {
      throw apiError(response, payload);
    }
    return payload;
  } finally {
    clearTimeout(timer);
  }
}

/** Parsed JSON, the raw text when it is not JSON, or undefined for an empty body. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
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
  const headers: Record<string, string> = {
    authorization: `Bearer ${config.apiKey}`,
    accept: req.stream ? 'text/event-stream' : req.responseType === 'text' ? 'text/plain, application/json' : 'application/json',
  };
  if (req.form) headers['content-type'] = req.form.contentType;
  else if (req.body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of Object.entries(config.defaultHeaders)) headers[k.toLowerCase()] = v;
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  // One key per logical POST, identical on every retry and failover attempt.
  if (req.method === 'POST' && !headers['idempotency-key']) headers['idempotency-key'] = `ug-${uuid()}`;
  return headers;
}

function joinURL(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici puts the useful part (ECONNREFUSED, "bad port") on the cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  return detail ? `${error.message} (${detail})` : error.message;
}
