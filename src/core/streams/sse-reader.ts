import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Redactor } from '../../internal/redact.js';
import { createAPIError, excerpt, toConnectionError } from '../error-factory.js';
import { APIConnectionError, APITimeoutError, APIUserAbortError, GatewayError, isErrorPayload, StreamInterruptedError } from '../errors.js';
import type { CallObserver, StreamEnd } from '../telemetry.js';
import type { StreamMeter } from '../cost/stage.js';
import type { FrameSource, StreamSink } from './stream.js';
import { withholdAskedUsage } from '../usage/stream-usage.js';
import { unref } from '../../internal/unref.js';

// A stream's answer, from its bytes to the frames its Stream hands out. Bytes are decoded
// with a streaming TextDecoder (multi-byte characters split across chunks survive) and
// framed by eventsource-parser (any chunking; LF, CRLF and CR line ends; comments).


/** How one SSE endpoint's frames are read. */
export interface SSEOptions {
  /** The call's signal: the caller's, the stream's controller, the total timeout. */
  signal: AbortSignal;
  /** The stream's controller: aborted when the stream ends other than normally. */
  controller: AbortController;
  /** ms without any byte before the stream fails with {@link APITimeoutError}. */
  idleTimeoutMs: number;
  redactor: Redactor;
  /** The request, as messages name it. */
  where: string;
  /** Event types that end the stream normally; undefined: it ends with `[DONE]`. */
  terminalEvents: readonly string[] | undefined;
  hasContent(frame: unknown): boolean;
  /** Each frame as the frames the caller reads instead (a chat stream served through /v1/responses); `nextText` gives those. */
  translate?: ((frame: unknown) => unknown[]) | undefined;
  observer: CallObserver | undefined;
  /** The SDK asked for usage the caller did not: what that adds is taken out of the caller's frames (usage/stream-usage.ts). */
  usageAsked: boolean;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A stream's frames as an async iterator. Hand-written rather than an async generator:
 * frames already decoded are handed out as resolved promises, one microtask each, where a
 * generator's `yield` costs several; on a 20,000-frame stream that is most of the
 * difference from a bare loop.
 */
export class SSEReader implements FrameSource<never> {
  readonly #body: ReadableStreamDefaultReader<Uint8Array>;
  readonly #options: SSEOptions;
  readonly #decoder = new TextDecoder();
  readonly #events: EventSourceMessage[] = [];
  readonly #parser = createParser({ onEvent: (event) => this.#events.push(event) });
  #next = 0;
  /** Frames read while opening, not yet handed out; the end, when it came while opening. */
  #held: Array<{ result: IteratorResult<never>; text: string }> = [];
  #sink: StreamSink | undefined;
  /** Content has been read: from here on a cut is the caller's loss, not a retry. */
  #content = false;
  /** The iterator has finished (normally, by error, or by return()). */
  #closed = false;
  /** Frames a translated frame made that are not taken yet (`SSEOptions.translate`). */
  readonly #translated: unknown[] = [];
  #taken = 0;
  /** The JSON text of the last frame taken, as the gateway sent it (`nextText`). */
  #text = '';
  /** An abort that came before anything asked for the next frame: the next read throws it. */
  #pending: GatewayError | undefined;
  /** `open()` is done: the stream is the caller's (or its readers'), no longer its attempt's. */
  #opened = false;
  /** `[DONE]` or a terminal event was read: what follows is the end. */
  #ended = false;
  /** The body was read to its end. */
  #eof = false;
  #stopped: 'idle' | 'abort' | undefined;
  /** With the client's `cost`: told of each frame handed out, and of the end (cost/stage.ts). */
  #meter: StreamMeter | undefined;
  // One timer for the whole stream: each read records when it started waiting and the timer
  // re-arms itself for the remainder, so the per-frame path never touches setTimeout. Time
  // the consumer spends between reads is not idle time.
  #waitingSince: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(body: ReadableStreamDefaultReader<Uint8Array>, options: SSEOptions) {
    this.#body = body;
    this.#options = options;
    // Unref'd: a read in progress holds the connection, and a stream nobody reads must not keep a process alive.
    this.#timer = unref(setTimeout(this.#checkIdle, options.idleTimeoutMs));
    options.signal.addEventListener('abort', this.#onAbort, { once: true });
    if (options.signal.aborted) this.#onAbort();
  }

  /** The Stream this reader fills: told of each frame as the caller gets it. */
  attach(sink: StreamSink): void {
    this.#sink = sink;
  }

  /** The cost stage's meter (cost/stage.ts `answered`): it reads the usage of the frames handed out, and prices the call at the end. */
  meterWith(meter: StreamMeter): void {
    this.#meter = meter;
    if (this.#closed) meter.end(false);
  }

  /** An error with the client's secrets removed (for errors a Stream makes itself, such as a ParseError quoting the reply). */
  redact(error: unknown): unknown {
    return error instanceof GatewayError ? this.#options.redactor.error(error) : error;
  }

  /**
   * The next frame's JSON text as the gateway sent it, or undefined at the normal end: how
   * frames shared by several callers are read (streams/frames.ts), each caller parsing its own copy.
   */
  async nextText(): Promise<string | undefined> {
    const result = await this.next();
    return result.done ? undefined : this.#text;
  }

  /** Reads until a frame with content, or the end, is held (see openEventStream). */
  async open(): Promise<void> {
    while (!this.#content && !this.#ended) {
      const result = this.#take() ?? (await this.#read());
      this.#held.push({ result, text: this.#text });
      if (result.done) break;
    }
    this.#opened = true;
  }

  /** Reads one chunk of bytes and returns it, for a body whose label is not text/event-stream. */
  async peek(): Promise<Uint8Array | undefined> {
    const { done, value } = await this.#body.read();
    if (done) return undefined;
    this.#feed(value);
    return value;
  }

  /** Up to `limit` bytes more, decoded, and the body released: to quote a body that is not events. */
  async readRest(limit: number): Promise<string> {
    const decoder = new TextDecoder();
    let text = '';
    for (let read = 0; read < limit; ) {
      const chunk = await this.#body.read().catch(() => ({ done: true, value: undefined }) as const);
      if (chunk.done || !chunk.value) break;
      read += chunk.value.length;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text + decoder.decode();
  }

  next(): Promise<IteratorResult<never>> {
    try {
      if (this.#pending) throw this.#pending;
      for (;;) {
        if (this.#closed) return Promise.resolve(DONE);
        const held = this.#held.shift();
        if (held) this.#text = held.text;
        const ready = held ? held.result : this.#take();
        if (!ready) return this.#pull();
        const handed = this.#hand(ready);
        if (handed) return Promise.resolve(handed);
      }
    } catch (error) {
      this.#pending = undefined;
      this.#finish(false, error);
      return Promise.reject(error);
    }
  }

  /** Leaving a `for await` early: release the connection and abort the request. */
  return(): Promise<IteratorResult<never>> {
    this.#finish(false);
    return Promise.resolve(DONE);
  }

  /** Releases the body and the timers of a stream that will never be handed out (its attempt failed). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#options.signal.removeEventListener('abort', this.#onAbort);
    void this.#body.cancel().catch(() => undefined);
  }

  readonly #onAbort = () => {
    this.#stopped ??= 'abort';
    void this.#body.cancel().catch(() => undefined);
    // Aborted once opened, before it was read (or between reads): it ends now (its timer with
    // it), and the next read says why. While it opens, the read in progress fails instead.
    if (!this.#closed && this.#opened) {
      this.#pending = stopError('abort', this.#options);
      this.#finish(false, this.#pending);
    }
  };

  readonly #checkIdle = () => {
    const idle = this.#waitingSince === undefined ? 0 : Date.now() - this.#waitingSince;
    if (idle < this.#options.idleTimeoutMs) {
      this.#timer = unref(setTimeout(this.#checkIdle, this.#options.idleTimeoutMs - idle));
      return;
    }
    this.#stopped = 'idle';
    void this.#body.cancel().catch(() => undefined);
  };

  /**
   * A frame (or the end) on its way to the caller: telemetry and the Stream see it first.
   * Undefined when telemetry withholds it (the usage chunk it asked for, not the caller).
   */
  #hand(result: IteratorResult<never>): IteratorResult<never> | undefined {
    if (result.done) {
      this.#finish(true);
      return DONE;
    }
    this.#meter?.frame(result.value);
    if (this.#options.observer?.chunk(result.value) === false) return undefined;
    if (this.#options.usageAsked && withholdAskedUsage(result.value)) return undefined;
    try {
      this.#sink?._observe(result.value);
    } catch (error) {
      // An accumulator that refuses a frame may quote it: the client's secrets come out first.
      throw error instanceof GatewayError ? this.#options.redactor.error(error) : error;
    }
    return result;
  }

  /** The next buffered frame as a result, DONE at the end, or undefined when more bytes are needed. Throws for bad frames. */
  #take(): IteratorResult<never> | undefined {
    const translated = this.#nextTranslated();
    if (translated !== undefined) return this.#given(translated);
    if (this.#ended) return DONE;
    const events = this.#events;
    while (this.#next < events.length) {
      // An abort takes effect at once, even when the rest of the reply is already buffered.
      if (this.#stopped) throw stopError(this.#stopped, this.#options);
      const event = events[this.#next++] as EventSourceMessage;
      if (event.data === '[DONE]') {
        this.#ended = true;
        return DONE;
      }
      const frame = parseFrame(event, this.#options);
      this.#text = event.data;
      if (!this.#content && this.#options.hasContent(frame)) this.#content = true;
      // A terminal frame is handed out, and the stream ends right after it.
      if (this.#options.terminalEvents?.includes((frame as { type?: string } | null)?.type ?? '')) this.#ended = true;
      if (this.#options.translate) {
        this.#translated.push(...this.#options.translate(frame));
        const first = this.#nextTranslated();
        if (first !== undefined) return this.#given(first);
        if (this.#ended) return DONE;
        continue;
      }
      return { done: false, value: frame as never };
    }
    events.length = 0;
    this.#next = 0;
    if (!this.#eof) return undefined;
    // The body ended without [DONE] or a terminal event: a cut, whatever a proxy made of it.
    throw this.#cut(undefined, `Stream ended before ${this.#options.terminalEvents ? 'its final event' : '[DONE]'} (${this.#options.where}).`);
  }

  /** The next translated frame not taken yet (a read position: shifting a long array costs its length each time). */
  #nextTranslated(): unknown {
    if (this.#taken < this.#translated.length) return this.#translated[this.#taken++];
    this.#translated.length = 0;
    this.#taken = 0;
    return undefined;
  }

  /** A translated frame, handed out as the frame it stands for (its text is what a cache keeps). */
  #given(frame: unknown): IteratorResult<never> {
    this.#text = JSON.stringify(frame);
    return { done: false, value: frame as never };
  }

  /** Reads until a frame (or the end) is ready; the frame is handed out by the caller of this. */
  async #read(): Promise<IteratorResult<never>> {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      this.#waitingSince = Date.now();
      try {
        result = await this.#body.read();
      } catch (error) {
        throw this.#stopped ? stopError(this.#stopped, this.#options) : this.#cut(error, `Stream interrupted (${this.#options.where})`);
      }
      this.#waitingSince = undefined;
      if (this.#stopped) throw stopError(this.#stopped, this.#options);
      if (result.done) {
        this.#eof = true;
        // Flush the decoder, then end the last line and event, so an event without its
        // blank line (or a lone CR waiting for a possible LF) is delivered.
        this.#parser.feed(`${this.#decoder.decode()}\n\n`);
      } else {
        this.#feed(result.value);
      }
      const ready = this.#take();
      if (ready) return ready;
    }
  }

  async #pull(): Promise<IteratorResult<never>> {
    try {
      for (;;) {
        const handed = this.#hand(await this.#read());
        if (handed) return handed;
      }
    } catch (error) {
      this.#finish(false, error);
      throw error;
    }
  }

  #feed(bytes: Uint8Array): void {
    this.#parser.feed(this.#decoder.decode(bytes, { stream: true }));
  }

  /** A stream that broke: before content a connection error (retried), after it the caller's partial. */
  #cut(cause: unknown, message: string): GatewayError {
    const error = cause === undefined ? new APIConnectionError(message) : toConnectionError(cause, this.#options.redactor, message);
    if (!this.#content) return error;
    return new StreamInterruptedError(`${error.message.replace(/\.$/, '')}; not retried: content had already been delivered.`, { cause: error, partial: this.#sink?._partial() });
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
    this.#options.signal.removeEventListener('abort', this.#onAbort);
    if (!this.#eof) void this.#body.cancel().catch(() => undefined);
    if (!normally && !this.#options.controller.signal.aborted) this.#options.controller.abort();
    const ended: StreamEnd = error === undefined ? { left: !normally } : { error };
    // Last: the stream is released whatever an observer does. With the cost stage, the observer hears of the end once the call is priced.
    const { observer } = this.#options;
    if (this.#meter) void this.#meter.end(normally).then((cost) => observer?.streamEnd({ ...ended, cost }));
    else observer?.streamEnd(ended);
  }
}

function stopError(reason: 'idle' | 'abort', options: SSEOptions): GatewayError {
  return reason === 'idle' ? new APITimeoutError(`Stream idle for ${options.idleTimeoutMs} ms.`) : new APIUserAbortError(undefined, { cause: options.signal.reason });
}

/** One event as its JSON frame; an error frame (`data: {"error": …}` or `event: error`) throws its APIError. */
function parseFrame(event: EventSourceMessage, options: SSEOptions): unknown {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch (error) {
    // `event: error` frames may carry plain text: that text is the server's message.
    if (event.event === 'error') data = event.data;
    else throw new GatewayError(options.redactor.string(`Invalid JSON in stream frame (${options.where}): ${excerpt(event.data)}`), { cause: error });
  }
  if (event.event === 'error' || isErrorPayload(data)) {
    const [method = '', url = ''] = options.where.split(' ');
    throw createAPIError({ status: 200, body: data, headers: new Headers(), method, url, retryAfterMs: null, redactor: options.redactor });
  }
  return data;
}
