import { APIUserAbortError, ValidationError } from '../../core/errors.js';
import { batchError, byIndex, checkBatchOptions, Slots, type BatchCall, type Vector } from './batches.js';
import type { Embedding, EmbeddingIterateOptions, EmbeddingIterateParams } from './types.js';

// Loaded with the first iterate(): batches read from the input as they are needed, their
// vectors yielded in input order, with a bounded window of batches in between.

/** The input's iterator, sync or async; an async one may come opened, its first `next()` called (`first`), by `Embeddings.iterate`. */
type Source = { sync: Iterator<unknown>; async?: undefined } | { sync?: undefined; async: AsyncIterator<unknown>; first?: Promise<IteratorResult<unknown>> | undefined };

/** An async input opened, and pulled once, before this module loaded. */
export interface OpenedInput {
  iterator: AsyncIterator<unknown>;
  first: Promise<IteratorResult<unknown>> | undefined;
}

/** One batch of the window, from the moment its texts are read until its vectors are yielded. */
interface Batch {
  from: number;
  to: number;
  /** Read and waiting to be sent; dropped once sent. */
  texts: string[] | undefined;
  vectors: Array<Embedding<Vector>> | undefined;
  failed: boolean;
  error: unknown;
  controller: AbortController;
  /** Resolves once the batch has its vectors or its error (or the run was aborted). */
  settled: Promise<void>;
  settle(): void;
}

function openInput(input: unknown, opened: OpenedInput | undefined): Source {
  if (opened) return { async: opened.iterator, first: opened.first };
  if (typeof input === 'object' && input !== null) {
    const { [Symbol.asyncIterator]: openAsync, [Symbol.iterator]: openSync } = input as Partial<AsyncIterable<unknown> & Iterable<unknown>>;
    if (typeof openAsync === 'function') return { async: openAsync.call(input) };
    if (typeof openSync === 'function') return { sync: openSync.call(input) };
  }
  // A string is iterable too, by character: refused, it is one text (create() takes it).
  throw new ValidationError('input', typeof input === 'string' ? 'must be an Iterable or AsyncIterable of strings, not one string (for one text, pass [text] or use create())' : 'must be an Iterable or AsyncIterable of strings');
}

/** Up to `size` texts from the input, each checked; `ended` once the input is exhausted. */
async function readBatch(source: Source, size: number, from: number): Promise<{ texts: string[]; ended: boolean }> {
  const texts: string[] = [];
  while (texts.length < size) {
    const step = source.sync ? source.sync.next() : await nextOf(source);
    if (step.done) return { texts, ended: true };
    if (typeof step.value !== 'string' || step.value.length === 0) throw new ValidationError(`input[${from + texts.length}]`, 'must be a non-empty string');
    texts.push(step.value);
  }
  return { texts, ended: false };
}

/** The async input's next step: the one already pulled, first. */
function nextOf(source: { async: AsyncIterator<unknown>; first?: Promise<IteratorResult<unknown>> | undefined }): Promise<IteratorResult<unknown>> {
  const { first } = source;
  source.first = undefined;
  return first ?? source.async.next();
}

function newBatch(from: number): Batch {
  let settle = () => {};
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { from, to: from, texts: undefined, vectors: undefined, failed: false, error: undefined, controller: new AbortController(), settled, settle };
}

/**
 * Yields every input's vector in input order, each batch's as soon as it and every batch
 * before it have arrived. The input is read one batch at a time, and only while fewer than
 * `2 × concurrency` batches are held (read, in flight, or arrived and not yet yielded): a
 * consumer that is slower than the gateway holds the reading back, and memory does not grow
 * with the input. Requests in flight follow `Slots` (batches.ts), as in createMany.
 *
 * A batch that fails (after its retries), or an input that is not a non-empty string, ends
 * the run where it stands: every batch before it is still sent and yielded, then the error is
 * thrown (EmbeddingBatchError naming the batch's inputs, or the ValidationError naming the
 * input, whose batch is never sent); batches after it are aborted. Leaving the loop early,
 * or `signal`, aborts the batches in flight and closes the input.
 */
export async function* iterate(prepare: () => BatchCall, body: EmbeddingIterateParams, options: EmbeddingIterateOptions, opened?: OpenedInput): AsyncGenerator<Embedding<Vector>, void, undefined> {
  const { batchSize = 100, concurrency = 4, float32: _float32, onProgress, signal, ...requestOptions } = options;
  const source = openInput(body?.input, opened);
  const total = Array.isArray(body?.input) ? body.input.length : undefined;
  const windowSize = 2 * concurrency;
  /** The window, in input order: what the consumer waits on is `held[0]`. */
  const held: Batch[] = [];
  /** Batches read and not yet sent, in input order. */
  let toSend: Batch[] = [];
  const stop = new AbortController();
  let reading = false;
  let inputEnded = false;
  /** A batch failed or the input did: read nothing more. */
  let halted = false;
  let read = 0;
  let done = 0;
  /** The request of one batch, once the arguments have been checked. */
  let call: BatchCall | undefined;

  const fail = (batch: Batch, error: unknown) => {
    batch.failed = true;
    batch.error = error;
    halted = true;
    // Nothing after the failure will be yielded: stop sending it.
    toSend = toSend.filter((b) => b.from < batch.from);
    for (const later of held) if (later.from > batch.from) later.controller.abort();
    batch.settle();
  };

  const send = (batch: Batch) => {
    const texts = batch.texts as string[];
    batch.texts = undefined;
    const batchSignal = batch.controller.signal;
    const onStop = () => batch.controller.abort(stop.signal.reason);
    stop.signal.addEventListener('abort', onStop, { once: true });
    const hold = slots.enter(batchSignal);
    let succeeded = false;
    (call as BatchCall)(texts, { ...requestOptions, signal: batchSignal }, hold.retries)
      .then((res) => {
        batch.vectors = byIndex(res.data, batch.from, texts.length);
        succeeded = true;
        done += texts.length;
        onProgress?.({ done, total });
      })
      .catch((error: unknown) => {
        if (!batchSignal.aborted) fail(batch, batchError(error, batch.from, batch.to, total));
      })
      .finally(() => {
        stop.signal.removeEventListener('abort', onStop);
        batch.settle();
        hold.end(succeeded);
      });
  };

  const slots = new Slots(concurrency, () => {
    if (stop.signal.aborted) return false;
    const batch = toSend.shift();
    if (!batch) return false;
    send(batch);
    return true;
  });

  /** Reads the next batch of input, when the window has room. */
  const fill = () => {
    if (reading || inputEnded || halted || held.length >= windowSize) return;
    reading = true;
    const batch = newBatch(read);
    held.push(batch);
    readBatch(source, batchSize, read).then(
      ({ texts, ended }) => {
        reading = false;
        inputEnded = ended;
        if (stop.signal.aborted) return;
        read += texts.length;
        batch.to = read;
        if (texts.length === 0) {
          batch.vectors = [];
          batch.settle();
          return;
        }
        batch.texts = texts;
        toSend.push(batch);
        slots.pump();
        fill();
      },
      (error: unknown) => {
        reading = false;
        if (!stop.signal.aborted) fail(batch, error);
      },
    );
  };

  const onAbort = () => {
    stop.abort(signal?.reason);
    for (const batch of held) batch.settle();
  };
  /** `signal` once checked and listened to. */
  let watched: AbortSignal | undefined;
  const checkAborted = () => {
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
  };
  try {
    // Checked inside the try, so that an input already opened is closed on a bad argument too.
    checkBatchOptions(options);
    call = prepare();
    checkAborted();
    signal?.addEventListener('abort', onAbort, { once: true });
    watched = signal;
    for (;;) {
      fill();
      const head = held[0];
      if (!head) return;
      await head.settled;
      checkAborted();
      if (head.failed) throw head.error;
      held.shift();
      const vectors = head.vectors as Array<Embedding<Vector>>;
      head.vectors = undefined;
      // The window has room again: read and send ahead while the consumer takes these.
      fill();
      slots.pump();
      for (const vector of vectors) {
        checkAborted();
        yield vector;
      }
    }
  } finally {
    watched?.removeEventListener('abort', onAbort);
    stop.abort();
    if (!inputEnded) closeInput(source, body?.input);
  }
}

/** Lets the input release what it holds (a file, a socket); a read still pending is not waited for. */
function closeInput(source: Source, input: unknown): void {
  try {
    const closing = source.sync ? source.sync.return?.() : source.async.return?.();
    if (closing instanceof Promise) closing.catch(() => {});
    if (isReadline(input)) closeReadline(input);
  } catch {
    // The input's own cleanup failed; the run is over either way.
  }
}

/** What closeReadline uses of a `node:readline` Interface (not imported: this module also runs in browsers). */
interface ReadlineLike {
  close(): void;
  input?: { destroy?: unknown; bytesRead?: unknown } | undefined;
}

const isReadline = (input: unknown): input is ReadlineLike =>
  typeof input === 'object' && input !== null && typeof (input as ReadlineLike).close === 'function' && 'terminal' in input && 'line' in input;

/**
 * A readline interface's iterator stops listening when returned, but the interface stays open
 * and so does its file (Node 20 to 24): the file would stay open until the process ends. So
 * the interface is closed, and its input too when it is a file (a socket or stdin is left).
 */
function closeReadline(rl: ReadlineLike): void {
  rl.close();
  const stream = rl.input;
  if (stream && typeof stream.destroy === 'function' && typeof stream.bytesRead === 'number') (stream.destroy as () => void).call(stream);
}
