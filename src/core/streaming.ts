import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { APIConnectionError, APITimeoutError, APIUserAbortError, GatewayError, createAPIError, isErrorPayload, toConnectionError } from './errors.js';
import type { OpenStream } from './request.js';

/** How to read one SSE endpoint's frames. */
export interface SSEOptions {
  /** The endpoint ends with `data: [DONE]`; a stream that ends without it is an error. @default true */
  expectDone?: boolean;
  /** For endpoints without `[DONE]`: the frame that ends the stream normally (e.g. `response.completed`). */
  isTerminal?: (frame: unknown) => boolean;
  /** ms without any byte before the stream fails with {@link APITimeoutError}. */
  idleTimeoutMs: number;
  /** Removed from anything an error keeps. */
  secret: string;
}

/**
 * A server-sent event stream of parsed JSON frames.
 *
 * Iterate it once with `for await`; leaving the loop early cancels the HTTP body. A stream
 * that ends without `data: [DONE]`, carries an error frame, is cut, or stays silent past its
 * idle timeout throws a typed error instead of ending quietly.
 *
 * @example
 * const stream = await client.chat.completions.create({ model, messages, stream: true });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 */
export class Stream<T> implements AsyncIterable<T> {
  /** Aborting it cancels the request and ends iteration with {@link APIUserAbortError}. */
  readonly controller: AbortController;
  #iterator: AsyncIterator<T>;
  #claimed = false;

  /** @internal Streams are created by the client; there is no public constructor use. */
  constructor(iterator: AsyncIterator<T>, controller: AbortController) {
    this.#iterator = iterator;
    this.controller = controller;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#claimed) throw new GatewayError('A Stream can be iterated only once.');
    this.#claimed = true;
    return this.#iterator;
  }

  /** Reads what is left, for subclasses that accumulate (see `finalChatCompletion`). */
  protected async drain(): Promise<void> {
    this.#claimed = true;
    for (;;) {
      const { done } = await this.#iterator.next();
      if (done) return;
    }
  }

  /**
   * The stream as newline-delimited JSON bytes, e.g. to return from a server route
   * (`new Response(stream.toReadableStream())`). Cancelling it cancels the request.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    const iterator = this[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        try {
          const { value, done } = await iterator.next();
          if (done) return ctrl.close();
          ctrl.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        } catch (error) {
          ctrl.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }
}

/**
 * Decodes an opened SSE body into parsed JSON frames. Bytes are decoded with a streaming
 * TextDecoder (multi-byte characters split across chunks survive) and framed by
 * eventsource-parser (any chunking; LF, CRLF and CR line ends; comments). One loop instead
 * of a TransformStream pipeline keeps the per-chunk cost to a single promise.
 */
export async function* iterateSSE<T>(open: OpenStream, controller: AbortController, options: SSEOptions): AsyncGenerator<T> {
  const { reader, signal } = open;
  const expectDone = options.expectDone ?? true;
  const decoder = new TextDecoder();
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  let ended = false;
  let eof = false;
  let stopped: 'idle' | 'abort' | undefined;

  // One timer for the whole stream: each read only records when it started waiting; the
  // timer re-arms itself for the remainder, so the hot path never touches setTimeout. Time
  // the consumer spends between reads is not idle time.
  let waitingSince: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const checkIdle = () => {
    const idle = waitingSince === undefined ? 0 : Date.now() - waitingSince;
    if (idle < options.idleTimeoutMs) {
      timer = setTimeout(checkIdle, options.idleTimeoutMs - idle);
      return;
    }
    stopped = 'idle';
    void reader.cancel().catch(() => undefined);
  };
  timer = setTimeout(checkIdle, options.idleTimeoutMs);
  const onAbort = () => {
    stopped ??= 'abort';
    void reader.cancel().catch(() => undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });

  try {
    let chunk: Uint8Array | undefined = open.first;
    for (;;) {
      if (chunk) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      } else {
        // End of body: flush the decoder, then end the last line and event, so an event
        // without its blank line (or a lone CR waiting for a possible LF) is delivered.
        parser.feed(`${decoder.decode()}\n\n`);
      }
      for (let i = 0; i < events.length; i++) {
        // An abort takes effect at once, even when the rest of the reply is already buffered.
        if (stopped) throw stopError(stopped, options, signal);
        const event = events[i] as EventSourceMessage;
        if (event.data === '[DONE]') {
          ended = true;
          return;
        }
        const frame = parseFrame<T>(event, open, options.secret);
        yield frame;
        if (options.isTerminal?.(frame)) {
          ended = true;
          return;
        }
      }
      events.length = 0;
      if (!chunk) break;
      let result: ReadableStreamReadResult<Uint8Array>;
      waitingSince = Date.now();
      try {
        result = await reader.read();
      } catch (error) {
        throw stopped ? stopError(stopped, options, signal) : toConnectionError(error, options.secret, `Stream interrupted (${open.method} ${open.url}): ${(error as Error)?.message ?? String(error)}`);
      }
      waitingSince = undefined;
      if (stopped) throw stopError(stopped, options, signal);
      chunk = result.done ? undefined : result.value;
      eof = result.done;
    }
    ended = true;
    if (expectDone) throw new APIConnectionError(`Stream ended before [DONE] (${open.method} ${open.url}).`);
    if (options.isTerminal) throw new APIConnectionError(`Stream ended before its final event (${open.method} ${open.url}).`);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    // Release the connection unless the body was read to its end (a terminal event or
    // [DONE] may come before the server closes).
    if (!eof) void reader.cancel().catch(() => undefined);
    // The consumer left early or the stream failed: abort the request as well.
    if (!ended && !controller.signal.aborted) controller.abort();
  }
}

function stopError(reason: 'idle' | 'abort', options: SSEOptions, signal: AbortSignal): GatewayError {
  return reason === 'idle'
    ? new APITimeoutError(`Stream idle for ${options.idleTimeoutMs} ms.`)
    : new APIUserAbortError(undefined, { cause: signal.reason });
}

function parseFrame<T>(event: EventSourceMessage, open: OpenStream, secret: string): T {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch (error) {
    throw new GatewayError(`Invalid JSON in stream frame (${open.method} ${open.url}).`, { cause: error });
  }
  if (event.event === 'error' || isErrorPayload(data)) {
    throw createAPIError({ status: 200, body: data, headers: new Headers(), method: open.method, url: open.url, retryAfterMs: null, secret });
  }
  return data as T;
}
