import { lazy } from '../internal/lazy.js';
import { requestIDFrom } from '../internal/request-id.js';
import { untilAborted } from '../internal/signals.js';
import type { CallState, PreparedRequest } from './call-state.js';
import { APITimeoutError, GatewayError, type APIError } from './errors.js';
import type { AttemptInfo } from './hooks.js';
import { parseRetryAfter } from './retry.js';
import type { AttemptObserver } from './telemetry.js';

// One attempt in flight, and how its failures become the SDK's errors: shared by the
// attempt (attempt.ts) and the reading of its response (response.ts).

/** Error-body parsing loads with the first error response: apps whose calls succeed never carry it. */
export const errorFactory = lazy(() => import('./error-factory.js'));

/** One attempt in flight: what every stage of reading it needs. */
export interface Exchange {
  call: CallState;
  request: PreparedRequest;
  info: AttemptInfo;
  /** The URL answered last (after redirects). */
  url: string;
  /** Stops this attempt: the call's signal and the attempt's own timeout. */
  signal: AbortSignal | undefined;
  /** The attempt's timeout fired. */
  timer: AbortController;
  /** A custom fetch: its bodies may not observe the signal. */
  custom: boolean;
  /** Telemetry's view of this attempt: headers it adds (trace context), and the context fetch runs in. */
  watch: AttemptObserver | undefined;
}

/** A failure below HTTP (refused, reset, DNS, a body read cut or timed out) as the SDK's error. */
export async function transportError(ex: Exchange, error: unknown): Promise<GatewayError> {
  if (error instanceof GatewayError) return error;
  if (ex.request.signal?.aborted) return ex.call.stopped(ex.request.signal, where(ex));
  if (ex.timer.signal.aborted) return new APITimeoutError(`Request timed out after ${ex.call.options.timeout ?? ex.call.config.timeout} ms (${where(ex)}).`);
  return (await errorFactory()).toConnectionError(error, ex.call.config.redactor, `Connection error (${where(ex)})`);
}

/**
 * Reads a body as text. The platform fetch aborts its own body reads; a custom fetch's
 * body may not, so its read also ends when the attempt's signal aborts.
 */
export async function readText(ex: Exchange, response: Response): Promise<string> {
  try {
    return await (ex.custom ? untilAborted(response.text(), ex.signal) : response.text());
  } catch (error) {
    throw await transportError(ex, error);
  }
}

/** The APIError for an error response (or an error object inside a 200), secrets removed. */
export async function apiError(ex: Exchange, response: Response, payload: unknown, more: { message?: string; hint?: boolean } = {}): Promise<APIError> {
  const factory = await errorFactory();
  return factory.createAPIError({
    status: response.status,
    body: payload,
    headers: response.headers,
    method: ex.info.method,
    url: shownURL(ex.url),
    retryAfterMs: parseRetryAfter(response.headers),
    requestID: requestIDFrom(response.headers),
    redactor: ex.call.config.redactor,
    message: more.message,
    hint: more.hint && ex.request.req.url === undefined ? factory.baseURLHint(ex.info.baseURL) : undefined,
  });
}

/**
 * A URL as errors show it: without its query or fragment. Base URLs have none; a download
 * URL's query often holds a signed token.
 */
export const shownURL = (url: string): string => url.replace(/[?#].*$/s, '');

/** The attempt as errors name it: `POST https://gateway.example/v1/chat/completions`. */
export const where = (ex: Exchange): string => `${ex.info.method} ${shownURL(ex.url)}`;
