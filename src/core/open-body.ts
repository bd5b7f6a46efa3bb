import { APIConnectionError, GatewayError } from './errors.js';
import type { Exchange } from './exchange.js';
import type { OpenStream } from './types.js';

// A stream's or a download's body, opened: loaded with the first stream or download. It
// imports no module of the request path: response.ts hands over what it needs (BodyIO).

/** What opening a body needs from the request path. */
export interface BodyIO {
  readText(ex: Exchange, response: Response): Promise<string>;
  transportError(ex: Exchange, error: unknown): Promise<GatewayError>;
  unexpected(ex: Exchange, text: string, contentType: string, expected: string): Promise<GatewayError>;
  where(ex: Exchange): string;
  shownURL(url: string): string;
}

/**
 * Opens a stream's or a download's body: resolves once its first bytes arrived, so a body
 * cut before anything reached the caller is still safe to retry; after this it never is.
 */
export async function openBody(ex: Exchange, response: Response, at: { contentType: string; io: BodyIO }): Promise<OpenStream> {
  const { contentType, io } = at;
  const { readText, transportError, unexpected, where, shownURL } = io;
  const { req } = ex.request;
  const { method } = ex.info;
  // An HTML page where events were expected is a wrong URL or a proxy's page, not a cut stream.
  if (req.stream && contentType.includes('html')) throw await unexpected(ex, await readText(ex, response), contentType, 'an event stream');
  if (!response.body) throw new GatewayError(`Response has no body to stream (${where(ex)}).`);
  const reader = response.body.getReader();
  let first: ReadableStreamReadResult<Uint8Array>;
  try {
    first = await readChunk(ex, reader, transportError);
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

async function readChunk(ex: Exchange, reader: ReadableStreamDefaultReader<Uint8Array>, transportError: BodyIO['transportError']): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (error) {
    throw await transportError(ex, error);
  }
}
