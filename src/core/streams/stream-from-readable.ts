import type { APIConnectionError, APIUserAbortError, GatewayError } from '../errors.js';
import { readJSONLines } from './json-lines.js';
import { Stream, type FrameSource, type StreamSink } from './stream.js';
import type { StreamClass } from '../types.js';

/** Options of {@link streamFromReadable}. */
export interface StreamFromReadableOptions {
  /**
   * Aborting it cancels the body and ends iteration with {@link APIUserAbortError}; it is
   * the stream's `controller`. Pass the one whose signal you gave `fetch` to stop the request too.
   * @default a new AbortController
   */
  controller?: AbortController | undefined;
}

/**
 * Reads a body written by `stream.toReadableStream()` back into a typed {@link Stream}, e.g. in
 * the browser, from the response of a server route that returned
 * `new Response(stream.toReadableStream())`.
 *
 * As strict as the client's own streams: a body cut before its end marker, a partial last
 * line or a line that is not JSON throws {@link APIConnectionError} or {@link GatewayError};
 * an error the gateway sent mid-stream throws the same `APIError` subclass the server saw.
 * Leaving the loop early cancels the body. For chat, `chatStreamFromReadable` also gives
 * `finalChatCompletion()`.
 *
 * @example
 * const res = await fetch('/api/story', { method: 'POST' });
 * if (!res.ok || !res.body) throw new Error(`story failed: ${res.status}`);
 * for await (const event of streamFromReadable<ResponseStreamEvent>(res.body)) console.log(event.type);
 */
export function streamFromReadable<T>(body: ReadableStream<Uint8Array>, options?: StreamFromReadableOptions): Stream<T> {
  return openReadable(body, Stream<T>, options);
}

/** @internal A body of JSON lines as a `Stream` subclass whose `_observe` sees every frame (accumulators). */
export function openReadable<S extends Stream<unknown>>(body: ReadableStream<Uint8Array>, Class: StreamClass<S>, options: StreamFromReadableOptions = {}): S {
  const controller = options.controller ?? new AbortController();
  // The generator does not run before the first next(), so the sink is attached by then.
  let sink: StreamSink | undefined;
  const frames = readJSONLines(body, controller, (frame) => sink?._observe(frame));
  const source: FrameSource<never> = {
    next: () => frames.next() as Promise<IteratorResult<never>>,
    return: () => frames.return() as Promise<IteratorResult<never>>,
    attach: (stream) => void (sink = stream),
    // The route removed the client's keys before writing: there is nothing to remove here.
    redact: (error) => error,
  };
  const stream = new Class(source, controller);
  source.attach(stream);
  return stream;
}
