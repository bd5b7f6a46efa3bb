import { APIUserAbortError, GatewayError, StreamInterruptedError } from '../errors.js';
import type { CallObserver } from '../telemetry.js';
import type { Redactor } from '../../internal/redact.js';
import { withholdAskedUsage } from '../usage/stream-usage.js';
import type { FrameSource, StreamSink } from './stream.js';

// A stream's frames as the gateway sent them (JSON text), read by every caller that asked
// the same thing at once, or replayed from the response cache: a new stream and a replayed
// one are the same thing (vercel/resumable-stream). The live stream is read by whichever
// caller is furthest ahead; each caller reads from the first frame at its own pace and
// parses its own copy, so what one caller does to its chunks reaches nobody else. The
// connection is cancelled once no caller reads any more.

/** How a shared stream ended: normally, or with the error every reader meets at that point. */
type End = { error?: unknown };

/** A live answer's frames, one JSON text at a time (streams/sse-reader.ts `SSEReader.nextText`); undefined at the normal end. */
export interface LiveFrames {
  nextText(): Promise<string | undefined>;
}

/** The frames of one answer, shared by the callers reading it. */
export class Frames {
  /** Each frame's JSON text, in order. */
  readonly texts: string[];
  /** The SDK asked for usage the callers did not: each reader takes out what that added. */
  readonly usageAsked: boolean;
  #live: { reader: LiveFrames; cancel: () => void } | undefined;
  #pulling: Promise<void> | undefined;
  #end: End | undefined;
  #readers = 0;
  #whenEnded: ((complete: string[] | undefined) => void) | undefined;

  private constructor(texts: string[], usageAsked: boolean, live: { reader: LiveFrames; cancel: () => void } | undefined) {
    this.texts = texts;
    this.usageAsked = usageAsked;
    this.#live = live;
    if (!live) this.#end = {};
  }

  /** Frames replayed from the cache: all there, ended normally. */
  static replayed(texts: string[], usageAsked: boolean): Frames {
    return new Frames(texts, usageAsked, undefined);
  }

  /** Frames read from a live answer as the readers need them; `cancel` stops the request when every reader has left. */
  static live(reader: LiveFrames, usageAsked: boolean, cancel: () => void): Frames {
    return new Frames([], usageAsked, { reader, cancel });
  }

  /** Called once when the live stream ends: with every frame when it ended normally, with undefined when it was cut, failed or left by every reader. */
  whenEnded(done: (complete: string[] | undefined) => void): void {
    this.#whenEnded = done;
  }

  /** A reader for one caller, from the first frame. */
  reader(caller: { observer: CallObserver | undefined; signal: AbortSignal | undefined; redactor: Redactor }): FrameCursor {
    this.#readers++;
    return new FrameCursor(this, caller);
  }

  /** @internal How the shared stream ended, once it has. */
  get end(): End | undefined {
    return this.#end;
  }

  /** @internal One more frame (or the end) read from the live answer; readers waiting share the read. */
  more(): Promise<void> {
    return (this.#pulling ??= this.#pull().finally(() => (this.#pulling = undefined)));
  }

  /** @internal A reader left: the last one to leave before the end cancels the request. */
  leave(): void {
    if (--this.#readers > 0 || this.#end) return;
    this.#finish({ error: new APIUserAbortError('Every caller reading this stream left it.') });
    this.#live?.cancel();
  }

  #finish(end: End): void {
    this.#end = end;
    this.#whenEnded?.(end.error === undefined ? this.texts : undefined);
  }

  async #pull(): Promise<void> {
    const live = this.#live;
    if (!live || this.#end) return;
    try {
      const text = await live.reader.nextText();
      if (text !== undefined) {
        this.texts.push(text);
        return;
      }
      this.#finish({});
    } catch (error) {
      this.#finish({ error });
    }
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** One caller's reader of shared frames: its own copies, its own telemetry, its own abort. */
export class FrameCursor implements FrameSource<never> {
  readonly #frames: Frames;
  readonly #observer: CallObserver | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #redactor: Redactor;
  #sink: StreamSink | undefined;
  #next = 0;
  #closed = false;

  constructor(frames: Frames, caller: { observer: CallObserver | undefined; signal: AbortSignal | undefined; redactor: Redactor }) {
    this.#frames = frames;
    this.#observer = caller.observer;
    this.#signal = caller.signal;
    this.#redactor = caller.redactor;
    // A caller that aborts its stream without reading it leaves at once: when it was the last
    // reader, the request is cancelled then, not when someone next reads (nobody may).
    caller.signal?.addEventListener('abort', () => void (this.#closed || (this.#pending = this.#finish(new APIUserAbortError(undefined, { cause: caller.signal?.reason })))), { once: true });
  }

  /** The abort that ended this reader before anything read it: the next read throws it. */
  #pending: unknown;

  attach(sink: StreamSink): void {
    this.#sink = sink;
  }

  redact(error: unknown): unknown {
    return error instanceof GatewayError ? this.#redactor.error(error) : error;
  }

  async next(): Promise<IteratorResult<never>> {
    const frames = this.#frames;
    if (this.#pending !== undefined) {
      const pending = this.#pending;
      this.#pending = undefined;
      throw pending;
    }
    for (;;) {
      if (this.#closed) return DONE;
      if (this.#signal?.aborted) throw this.#finish(new APIUserAbortError(undefined, { cause: this.#signal.reason }));
      if (this.#next < frames.texts.length) {
        const frame = JSON.parse(frames.texts[this.#next++] as string) as never;
        if (this.#observer?.chunk(frame) === false) continue;
        if (frames.usageAsked && withholdAskedUsage(frame)) continue;
        try {
          this.#sink?._observe(frame);
        } catch (error) {
          throw this.#finish(this.redact(error));
        }
        return { done: false, value: frame };
      }
      const end = frames.end;
      if (end) {
        if (end.error === undefined) {
          this.#finish(undefined);
          return DONE;
        }
        throw this.#finish(this.#own(end.error));
      }
      await this.#untilStopped(frames.more());
    }
  }

  async return(): Promise<IteratorResult<never>> {
    if (!this.#closed) {
      this.#closed = true;
      this.#frames.leave();
      this.#observer?.streamEnd({ left: true });
    }
    return DONE;
  }

  /** The shared stream's error as this caller meets it: a cut carries what this caller received. */
  #own(error: unknown): unknown {
    if (!(error instanceof StreamInterruptedError)) return this.redact(error);
    return new StreamInterruptedError(error.message, { cause: error.cause, partial: this.#sink?._partial() });
  }

  /** Ends this reader (normally when `error` is undefined) and returns the error to throw. */
  #finish(error: unknown): unknown {
    if (this.#closed) return error;
    this.#closed = true;
    this.#frames.leave();
    this.#observer?.streamEnd(error === undefined ? {} : { error });
    return error;
  }

  /** Waits for the shared read, or until this caller's signal aborts (then the loop says so). */
  #untilStopped(read: Promise<void>): Promise<void> {
    const signal = this.#signal;
    if (!signal) return read;
    return new Promise<void>((resolve) => {
      const stop = () => resolve();
      signal.addEventListener('abort', stop, { once: true });
      void read.finally(() => {
        signal.removeEventListener('abort', stop);
        resolve();
      });
    });
  }
}
