import { untilAborted } from '../internal/signals.js';
import { apiError, errorFactory, readText, shownURL, transportError, where, type Exchange } from './exchange.js';
import { APIConnectionError, GatewayError, isErrorPayload } from './errors.js';
import type { Answer, OpenStream } from './types.js';

// Reading one response: classify it (an error, the raw response, a stream, text or JSON),
// then parse it. What it throws, call.ts passes to the decision (decide.ts).

/** Classifies a response and reads it into the attempt's answer. */
export async function readResponse(ex: Exchange, response: Response): Promise<Answer> {
  const { req } = ex.request;
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok || (req.stream && contentType.includes('json'))) throw await errorOf(ex, response, contentType);
  if (ex.call.raw) return { response, data: undefined };
  if (req.stream || req.download) return { response, data: await openBody(ex, response, contentType) };
  // readText inlined: one promise fewer on the path every JSON request takes.
  let text: string;
  try {
    text = await (ex.custom ? untilAborted(response.text(), ex.signal) : response.text());
  } catch (error) {
    throw await transportError(ex, error);
  }
  if (req.responseType === 'text') return { response, data: text };
  const payload = parseBody(text);
  // Retried like a connection error: a proxy may have answered without the request being served.
  if (payload === undefined) throw new APIConnectionError(`Empty response body (${response.status}) from ${where(ex)}: the request may not have been served.`);
  if (typeof payload === 'string') throw await unexpected(ex, payload, contentType, 'JSON');
  if (isErrorPayload(payload)) throw await apiError(ex, response, payload);
  return { response, data: payload };
}

/** An error status, or JSON where events were expected (an error object, or a server that ignored `stream`). */
async function errorOf(ex: Exchange, response: Response, contentType: string): Promise<GatewayError> {
  const payload = parseBody(await readText(ex, response));
  if (response.ok && !isErrorPayload(payload)) return new GatewayError(`Expected an event stream but got JSON (${where(ex)}).`);
  return apiError(ex, response, payload, { hint: response.status === 404 || typeof payload === 'string' });
}

/**
 * Opens a stream's or a download's body: resolves once its first bytes arrived, so a body
 * cut before anything reached the caller is still safe to retry; after this it never is.
 */
async function openBody(ex: Exchange, response: Response, contentType: string): Promise<OpenStream> {
  const { req } = ex.request;
  const { method } = ex.info;
  // An HTML page where events were expected is a wrong URL or a proxy's page, not a cut stream.
  if (req.stream && contentType.includes('html')) throw await unexpected(ex, await readText(ex, response), contentType, 'an event stream');
  if (!response.body) throw new GatewayError(`Response has no body to stream (${where(ex)}).`);
  const reader = response.body.getReader();
  let first: ReadableStreamReadResult<Uint8Array>;
  try {
    first = await readChunk(ex, reader);
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    throw error;
  }
  if ((first.done || !first.value) && !req.download) throw new APIConnectionError(`Stream closed before any data (${where(ex)}).`);
  const bytes = first.value ?? new Uint8Array(0);
  // Labelled as something else (text/plain from a proxy): events are read, anything else quoted.
  if (req.stream && contentType && !contentType.includes('event-stream')) {
    const quote = await (await import('./not-events.js')).quoteUnlessEvents(bytes, reader);
    if (quote !== undefined) throw await unexpected(ex, quote, contentType, 'an event stream');
  }
  return { reader, first: bytes, signal: ex.request.signal ?? new AbortController().signal, method, url: shownURL(ex.url), observer: ex.call.observer };
}

async function readChunk(ex: Exchange, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (error) {
    throw await transportError(ex, error);
  }
}

/** A successful response whose body is not what the endpoint sends, quoted (secrets removed). */
async function unexpected(ex: Exchange, text: string, contentType: string, expected: string): Promise<GatewayError> {
  const base = ex.request.req.url === undefined ? ex.info.baseURL : undefined;
  return (await errorFactory()).unexpectedBody(text, { contentType, expected, method: ex.info.method, url: shownURL(ex.url), baseURL: base }, ex.call.config.redactor);
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
