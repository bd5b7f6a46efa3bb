import type { Cost } from '../cost/cost.js';
import { APIError, GatewayError, isErrorPayload } from '../errors.js';

/** What a Stream gives its source: each frame as the caller gets it, and what it has so far. */
export interface StreamSink {
  _observe(frame: unknown): void;
  _partial(): unknown;
  _costed(cost: Promise<Cost | null>): void;
}

/**
 * Where a Stream's frames come from: a live answer read once (streams/sse-reader.ts
 * `SSEReader`), or a caller's reader of frames shared with other callers or replayed from the
 * cache (streams/frames.ts `FrameCursor`). The source tells the Stream (`attach`) of each
 * frame just before the caller gets it.
 */
export interface FrameSource<T = unknown> extends AsyncIterator<T> {
  /** The Stream this source fills: told of each frame as the caller gets it. */
  attach(sink: StreamSink): void;
  /** An error with the client's secrets removed (for errors a Stream makes itself, such as a ParseError quoting the reply). */
  redact(error: unknown): unknown;
  /** Leaving early: releases what the source holds (the connection, or this caller's place among the readers). */
  return(): Promise<IteratorResult<T>>;
}

/**
 * A server-sent event stream of parsed JSON frames.
 *
 * Iterate it once with `for await`; leaving the loop early cancels the HTTP body. A stream
 * that ends without `data: [DONE]`, carries an error frame, is cut, or stays silent past its
 * idle timeout throws a typed error instead of ending quietly; one cut after content reached
 * you throws `StreamInterruptedError` with what arrived.
 *
 * @example
 * const stream = await client.chat.completions.create({ model, messages, stream: true });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 */
export class Stream<T> implements AsyncIterable<T> {
  /** @internal Event types that end this endpoint's stream normally; undefined: it ends with `data: [DONE]`. */
  static readonly terminalEvents: readonly string[] | undefined = undefined;

  /** @internal True for a frame that carries content (until the first one, a cut stream is retried). */
  static hasContent(_frame: unknown): boolean {
    return true;
  }

  /** Aborting it cancels the request and ends iteration with {@link APIUserAbortError}. */
  readonly controller: AbortController;
  #source: FrameSource<T>;
  #claimed = false;
  #cost: Promise<Cost | null> = Promise.resolve(null);

  /** @internal Streams are created by the client; there is no public constructor use. */
  constructor(source: FrameSource<T>, controller: AbortController, _params?: unknown) {
    this.#source = source;
    this.controller = controller;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#claimed) throw new GatewayError('A Stream can be iterated only once.');
    this.#claimed = true;
    return this.#source;
  }

  /**
   * With the client's `cost` option: what this call cost, once the stream has ended (read to
   * its end, left early, or cut); 0 for a stream answered from the cache or joined to an
   * identical one. Null without `cost`, or when the call could not be priced. See docs/cost.md.
   * @example for await (const chunk of stream) render(chunk); console.log((await stream.cost())?.usd);
   */
  cost(): Promise<Cost | null> {
    return this.#cost;
  }

  /** @internal Given the call's cost, to come at the stream's end (request/call.ts). */
  _costed(cost: Promise<Cost | null>): void {
    this.#cost = cost;
  }

  /**
   * @internal Called with every frame just before the caller gets it; subclasses that
   * accumulate (`finalChatCompletion`) override it. Synchronous: no await per frame.
   */
  _observe(_frame: T): void {}

  /** @internal What the caller has received so far, accumulated; `StreamInterruptedError.partial` after a cut. */
  _partial(): unknown {
    return undefined;
  }

  /**
   * @internal An error with the client's secrets removed, for errors a subclass makes itself
   * (a ParseError quoting the reply): the source (the SSE reader) knows them.
   */
  protected _redact(error: unknown): unknown {
    return this.#source.redact(error);
  }

  /** Reads what is left, for subclasses that accumulate (see `finalChatCompletion`). */
  protected async drain(): Promise<void> {
    this.#claimed = true;
    for (;;) {
      const { done } = await this.#source.next();
      if (done) return;
    }
  }

  /**
   * The stream as newline-delimited JSON bytes, e.g. to return from a server route
   * (`new Response(stream.toReadableStream())`); `streamFromReadable` and
   * `chatStreamFromReadable` read it back. Cancelling it cancels the request.
   *
   * One JSON value per line; after the last, an empty line marks the normal end (readers
   * that skip empty lines, such as openai-node's, read it unchanged). An error the gateway
   * sent mid-stream becomes a last line `{"error": …}` (its body, the API key removed), so
   * the reader throws the same class; any other failure errors the body, which cuts the
   * response and leaves the end marker out.
   */
  toReadableStream(): ReadableStream<Uint8Array> {
    const iterator = this[Symbol.asyncIterator]();
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        try {
          const { value, done } = await iterator.next();
          if (done) {
            ctrl.enqueue(encoder.encode('\n'));
            return ctrl.close();
          }
          ctrl.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
        } catch (error) {
          if (!APIError.isInstance(error)) return ctrl.error(error);
          ctrl.enqueue(encoder.encode(`${JSON.stringify(errorLine(error))}\n`));
          ctrl.close();
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }
}

/**
 * An APIError as the line `toReadableStream` ends with: its body when that is an error
 * object, else the body wrapped as one (`event: error` frames carry plain text), which the
 * reader classifies the same way.
 */
function errorLine(error: APIError): unknown {
  return isErrorPayload(error.error) ? error.error : { error: error.error ?? '' };
}
