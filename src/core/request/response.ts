import { untilAborted } from '../../internal/signals.js';
import { APIConnectionError, GatewayError, isErrorPayload } from '../errors.js';
import { openEventStream } from './open-stream.js';
import { apiError, readText, shownURL, transportError, unexpected, where, type AttemptContext } from './transport.js';
import type { OpenBody, Reply } from '../types.js';

// Reading one response: an error, the raw response, a stream, a download, text or JSON.
// What it throws, sendRequest (call.ts) hands to the decision (decide.ts).

/** Classifies a response and reads it into the attempt's reply. */
export async function readResponse(ctx: AttemptContext, response: Response): Promise<Reply> {
  const { request } = ctx.call;
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok || (request.stream && contentType.includes('json'))) throw await errorOf(ctx, response, contentType);
  if (ctx.call.raw) return { response, data: undefined };
  if (request.stream) return { response, data: await openEventStream(ctx, response, contentType, request.stream) };
  if (request.download) return { response, data: await openBody(ctx, response) };
  // readText inlined: one promise fewer on the path every JSON request takes.
  let text: string;
  try {
    text = await (ctx.call.config.fetch ? untilAborted(response.text(), ctx.signal) : response.text());
  } catch (error) {
    throw transportError(ctx, error);
  }
  if (request.responseType === 'text') return { response, data: text };
  const payload = parseBody(text);
  // Retried like a connection error: a proxy may have answered without the request being served.
  if (payload === undefined) throw new APIConnectionError(`Empty response body (${response.status}) from ${where(ctx)}: the request may not have been served.`);
  if (typeof payload === 'string') throw unexpected(ctx, payload, contentType, 'JSON');
  if (isErrorPayload(payload)) throw apiError(ctx, response, payload);
  return { response, data: payload };
}

/** An error status, or JSON where events were expected (an error object, or a server that ignored `stream`). */
async function errorOf(ctx: AttemptContext, response: Response, contentType: string): Promise<GatewayError> {
  const payload = parseBody(await readText(ctx, response));
  if (response.ok && !isErrorPayload(payload)) return new GatewayError(`Expected an event stream but got JSON (${contentType}, ${where(ctx)}).`);
  return apiError(ctx, response, payload, { hint: response.status === 404 || typeof payload === 'string' });
}

/**
 * A download's body, opened: resolves once its first bytes arrived, so a body cut before
 * anything reached the caller is still safe to retry; after this it never is.
 */
async function openBody(ctx: AttemptContext, response: Response): Promise<OpenBody> {
  if (!response.body) throw new GatewayError(`Response has no body to download (${where(ctx)}).`);
  const reader = response.body.getReader();
  let first: ReadableStreamReadResult<Uint8Array>;
  try {
    first = await reader.read();
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    throw transportError(ctx, error);
  }
  const { signal } = ctx.call;
  return { reader, first: first.value ?? new Uint8Array(0), signal: signal ?? new AbortController().signal, method: ctx.info.method, url: shownURL(ctx.url) };
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
