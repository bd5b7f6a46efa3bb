import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createAPIError, excerpt, redactError, toConnectionError } from './error-factory.js';
import { APIConnectionError, APITimeoutError, APIUserAbortError, GatewayError, isErrorPayload } from './errors.js';
import type { Redactor } from '../internal/redact.js';
import type { Stream, StreamClass } from './stream.js';
import type { OpenStream } from './types.js';

/** How to read one SSE endpoint's frames. */
export interface SSEOptions {
  /** The endpoint ends with `data: [DONE]`; a stream that ends without it is an error. @default true */
  expectDone?: boolean | undefined;
  /** For endpoints without `[DONE]`: the frame that ends the stream normally (e.g. `response.completed`). */
  isTerminal?: ((frame: unknown) => boolean) | undefined;
  /**
   * Sees every frame before it is yielded (accumulators); synchronous, so no extra await per
   * frame. Returning `false` withholds the frame from the caller.
   */
  onFrame?: ((frame: unknown) => boolean | void) | undefined;
  /** ms without any byte before the stream fails with {@link APITimeoutError}. */
  idleTimeoutMs: number;
  /** Removes the client's secrets from anything an error keeps. */
  redactor: Redactor;
}

/**
 * An opened SSE body as a `Stream` subclass whose `_observe` sees every frame as it is
 * yielded (accumulators such as finalChatCompletion).
 */
export function openStream<S extends Stream<unknown>>(open: OpenStream, controller: AbortController, Class: StreamClass<S>, options: Omit<SSEOptions, 'onFrame'>): S {
  // The iterator does not read before the first next(), so `stream` is set by then.
  let stream: S | undefined;
  const { observer } = open;
  const onFrame = observer
    ? (frame: unknown) => {
        // A frame only telemetry asked for (its usage chunk) never reaches the caller.
        if (observer.chunk(frame) === false) return false;
        stream?._observe(frame);
        return true;
      }
    : (frame: unknown) => stream?._observe(frame);
  const iterator = iterateSSE<never>(open, controller, { ...options, onFrame });
  stream = new Class(iterator, controller);
  return stream;
}

/**
 * Decodes an opened SSE body into parsed JSON frames. Bytes are decoded with a streaming
 * TextDecoder (multi-byte characters split across chunks survive) and framed by
 * eventsource-parser (any chunking; LF, CRLF and CR line ends; comments).
 */
export function iterateSSE<T>(open: OpenStream, controller: AbortController, options: SSEOptions): AsyncIterator<T> {
  return new SSEIterator<T>(open, controller, options);
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A hand-written async iterator rather than an async generator: frames already decoded are
 * handed out as resolved promises, one microtask each, where a generator's `yield` costs
 * several. On a 20,000-frame stream that is most of the difference from a bare loop.
 */
class SSEIterator<T> implements AsyncIterator<T> {
  readonly #open: OpenStream;
  readonly #controller: AbortController;
  readonly #options: SSEOptions;
  readonly #decoder = new TextDecoder();
  readonly #events: EventSourceMessage[] = [];
  readonly #parser = createParser({ onEvent: (event) => this.#events.push(event) });
  #next = 0;
  #started = false;
  /** The iterator has finished (normally, by error, or by return()). */
  #closed = false;
  /** The body was read to its end. */
  #eof = false;
  #stopped: 'idle' | 'abort' | undefined;
  // One timer for the whole stream: each read only records when it started waiting; the
  // timer re-arms itself for the remainder, so the hot path never touches setTimeout. Time
  // the consumer spends between reads is not idle time.
  #waitingSince: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** An abort before the first read: the error that read throws. */
  #unread: GatewayError | undefined;
  readonly #onAbort = () => {
    this.#stopped ??= 'abort';
    void this.#open.reader.cancel().catch(() => undefined);
    // Not read yet: end it now (the observer's span with it), and let the first read throw.
    if (!this.#started) this.#finish(false, (this.#unread = stopError('abort', this.#options, this.#open.signal)));
  };

  constructor(open: OpenStream, controller: AbortController, options: SSEOptions) {
    this.#open = open;
    this.#controller = controller;
    this.#options = options;
    // From the start, not the first read: a stream aborted before it is read ends at once.
    if (open.signal.aborted) this.#onAbort();
    else open.signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  next(): Promise<IteratorResult<T>> {
    try {
      if (this.#closed) {
        const unread = this.#unread;
        this.#unread = undefined;
        return unread ? Promise.reject(unread) : Promise.resolve(DONE);
      }
      if (!this.#started) this.#start();
      const ready = this.#take();
      return ready ? Promise.resolve(ready) : this.#pull();
    } catch (error) {
      this.#finish(false, error);
      return Promise.reject(error);
    }
  }

  /** Leaving a `for await` early: release the connection and abort the request. */
  return(): Promise<IteratorResult<T>> {
    this.#finish(false);
    return Promise.resolve(DONE);
  }

  #start(): void {
    this.#started = true;
    this.#timer = setTimeout(this.#checkIdle, this.#options.idleTimeoutMs);
    this.#parser.feed(this.#decoder.decode(this.#open.first, { stream: true }));
  }

  readonly #checkIdle = () => {
    const idle = this.#waitingSince === undefined ? 0 : Date.now() - this.#waitingSince;
    if (idle < this.#options.idleTimeoutMs) {
      this.#timer = setTimeout(this.#checkIdle, this.#options.idleTimeoutMs - idle);
      return;
    }
    this.#stopped = 'idle';
    void this.#open.reader.cancel().catch(() => undefined);
  };

  /** The next buffered frame as a result, DONE at the end, or undefined when more bytes are needed. Throws for bad frames. */
  #take(): IteratorResult<T> | undefined {
    const events = this.#events;
    while (this.#next < events.length) {
      // An abort takes effect at once, even when the rest of the reply is already buffered.
      if (this.#stopped) throw stopError(this.#stopped, this.#options, this.#open.signal);
      const event = events[this.#next++] as EventSourceMessage;
      if (event.data === '[DONE]') {
        this.#finish(true);
        return DONE;
      }
      const frame = parseFrame<T>(event, this.#open, this.#options.redactor);
      try {
        if (this.#options.onFrame?.(frame) === false) continue;
      } catch (error) {
        // An accumulator that refuses a frame may quote it: the client's secrets come out first.
        throw error instanceof GatewayError ? redactError(error, this.#options.redactor) : error;
      }
      // A terminal frame is delivered, and the iterator ends right after it.
      if (this.#options.isTerminal?.(frame)) this.#finish(true);
      return { done: false, value: frame };
    }
    events.length = 0;
    this.#next = 0;
    if (this.#eof) {
      // The body ended without [DONE] or a terminal event.
      const { method, url } = this.#open;
      const cut = (this.#options.expectDone ?? true) ? '[DONE]' : this.#options.isTerminal ? 'its final event' : undefined;
      const error = cut && new APIConnectionError(`Stream ended before ${cut} (${method} ${url}).`);
      this.#finish(true, error);
      if (error) throw error;
      return DONE;
    }
    return undefined;
  }

  /** Reads until a frame (or the end) is ready. */
  async #pull(): Promise<IteratorResult<T>> {
    const { reader, method, url } = this.#open;
    try {
      for (;;) {
        let result: ReadableStreamReadResult<Uint8Array>;
        this.#waitingSince = Date.now();
        try {
          result = await reader.read();
        } catch (error) {
          throw this.#stopped
            ? stopError(this.#stopped, this.#options, this.#open.signal)
            : toConnectionError(error, this.#options.redactor, `Stream interrupted (${method} ${url})`);
        }
        this.#waitingSince = undefined;
        if (this.#stopped) throw stopError(this.#stopped, this.#options, this.#open.signal);
        if (result.done) {
          this.#eof = true;
          // Flush the decoder, then end the last line and event, so an event without its
          // blank line (or a lone CR waiting for a possible LF) is delivered.
          this.#parser.feed(`${this.#decoder.decode()}\n\n`);
        } else {
          this.#parser.feed(this.#decoder.decode(result.value, { stream: true }));
        }
        const ready = this.#take();
        if (ready) return ready;
      }
    } catch (error) {
      this.#finish(false, error);
      throw error;
    }
  }

  /**
   * Stops timers and listeners once; releases the body unless read to its end, and aborts
   * the request unless it ended normally. Tells the call's observer how the stream ended:
   * with an error, normally, or left by the caller (neither).
   */
  #finish(normally: boolean, error?: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#open.signal.removeEventListener('abort', this.#onAbort);
    if (!this.#eof) void this.#open.reader.cancel().catch(() => undefined);
    if (!normally && !this.#controller.signal.aborted) this.#controller.abort();
    // Last: the stream is released whatever an observer does.
    this.#open.observer?.streamEnd(error === undefined ? { left: !normally } : { error });
  }
}

function stopError(reason: 'idle' | 'abort', options: SSEOptions, signal: AbortSignal): GatewayError {
  return reason === 'idle'
    ? new APITimeoutError(`Stream idle for ${options.idleTimeoutMs} ms.`)
    : new APIUserAbortError(undefined, { cause: signal.reason });
}

function parseFrame<T>(event: EventSourceMessage, open: OpenStream, redactor: Redactor): T {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch (error) {
    // `event: error` frames may carry plain text: that text is the server's message.
    if (event.event === 'error') data = event.data;
    else throw new GatewayError(redactor.string(`Invalid JSON in stream frame (${open.method} ${open.url}): ${excerpt(event.data)}`), { cause: error });
  }
  if (event.event === 'error' || isErrorPayload(data)) {
    throw createAPIError({ status: 200, body: data, headers: new Headers(), method: open.method, url: open.url, retryAfterMs: null, redactor });
  }
  return data as T;
}
