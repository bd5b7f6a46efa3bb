/** A Node `fs.ReadStream` (or anything like it): async iterable bytes with a `path`. */
export interface ReadStreamLike extends AsyncIterable<Uint8Array | string> {
  path: string | { toString(): string };
}


/** Errors a file stream emitted before the SDK read it, reported when it does. */
const failures = new WeakMap<object, unknown>();

/** True for a Node `fs.ReadStream` or anything like it: async iterable bytes with a `path`. */
export function isReadStreamLike(value: unknown): value is ReadStreamLike {
  return typeof value === 'object' && value !== null && 'path' in value && Symbol.asyncIterator in value;
}

/**
 * Listens for `'error'` on every file stream among `values`, synchronously, at the public
 * call. A Node stream that emits `'error'` with no listener crashes the process, and the SDK
 * reads file fields only after awaiting its lazily loaded modules: a missing file's error
 * fires in between. The error is kept and reported, naming the file, when the stream is read.
 */
export function claimStreams(values: readonly unknown[]): void {
  for (const value of values) {
    if (!isReadStreamLike(value) || failures.has(value)) continue;
    const emitter = value as { on?: (event: string, listener: (error: unknown) => void) => unknown };
    if (typeof emitter.on !== 'function') continue;
    failures.set(value, undefined);
    emitter.on('error', (error) => {
      failures.set(value, failures.get(value) ?? error);
    });
  }
}

/** The error a claimed stream emitted before it was read, if any. */
export function earlyFailure(stream: object): unknown {
  return failures.get(stream);
}
