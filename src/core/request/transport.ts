import { requestIDFrom } from '../../internal/request-id.js';
import { untilAborted } from '../../internal/signals.js';
import type { CallState, PreparedRequest } from './call-state.js';
import { baseURLHint, createAPIError, fetchFailure, unexpectedBody } from '../error-factory.js';
import { APIConnectionError, APITimeoutError, GatewayError, type APIError } from '../errors.js';
import type { AttemptInfo } from '../hooks.js';
import { parseRetryAfter } from '../policy/waits.js';

// One attempt on the wire, and how what happens there becomes the SDK's errors: bodies read
// (bounded by the attempt's signal), failures below HTTP, error responses, bodies that are
// not what the endpoint sends, and how URLs are named in all of them.

/** One attempt in flight: what every stage of sending it and reading its answer needs. */
export interface AttemptContext {
  call: CallState;
  request: PreparedRequest;
  info: AttemptInfo;
  /** The URL answered last (after redirects). */
  url: string;
  /** Stops this attempt: the call's signal and the attempt's own timeout. */
  signal: AbortSignal | undefined;
  /** Aborted when the attempt's timeout fires. */
  timer: AbortController;
}

/**
 * A URL as errors, hooks and logs show it: without its query or fragment. Base URLs have
 * none; a download URL's query often holds a signed token.
 */
export const shownURL = (url: string): string => url.replace(/[?#].*$/s, '');

/** The attempt as errors name it: `POST https://gateway.example/v1/chat/completions`. */
export const where = (ctx: AttemptContext): string => `${ctx.info.method} ${shownURL(ctx.url)}`;

/** A failure below HTTP (refused, reset, DNS, a body read cut or timed out, fetch refusing its arguments) as the SDK's error. */
export function transportError(ctx: AttemptContext, error: unknown): GatewayError {
  // By its registered marker, not identity: a custom fetch may throw the error class of another copy of the package (the CJS testing entry's).
  if (GatewayError.isInstance(error)) return error;
  const { call } = ctx;
  if (call.signal?.aborted) return call.stopped(where(ctx));
  if (ctx.timer.signal.aborted) return new APITimeoutError(`Request timed out after ${call.options.timeout ?? call.config.timeout} ms (${where(ctx)}).`);
  return fetchFailure(error, call.config.redactor, where(ctx));
}

/**
 * Reads a body as text. The platform fetch aborts its own body reads; a custom fetch's body
 * may not, so its read also ends when the attempt's signal aborts.
 */
export async function readText(ctx: AttemptContext, response: Response): Promise<string> {
  try {
    return await (ctx.call.config.fetch ? untilAborted(response.text(), ctx.signal) : response.text());
  } catch (error) {
    throw transportError(ctx, error);
  }
}

/** The APIError for an error response (or an error object inside a 200), secrets removed. */
export function apiError(ctx: AttemptContext, response: Response, payload: unknown, more: { message?: string; hint?: boolean } = {}): APIError {
  return createAPIError({
    status: response.status,
    body: payload,
    headers: response.headers,
    method: ctx.info.method,
    url: shownURL(ctx.url),
    retryAfterMs: parseRetryAfter(response.headers),
    requestID: requestIDFrom(response.headers),
    redactor: ctx.call.config.redactor,
    message: more.message,
    hint: more.hint && ctx.call.url === undefined ? baseURLHint(ctx.info.baseURL) : undefined,
  });
}

/** A successful response whose body is not what the endpoint sends, quoted (secrets removed). */
export function unexpected(ctx: AttemptContext, text: string, contentType: string, expected: string): GatewayError {
  const baseURL = ctx.call.url === undefined ? ctx.info.baseURL : undefined;
  return unexpectedBody(text, { contentType, expected, method: ctx.info.method, url: shownURL(ctx.url), baseURL }, ctx.call.config.redactor);
}
