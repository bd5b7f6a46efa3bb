/**
 * Combines signals; aborted when any of them aborts, with that signal's reason. Returns the
 * signal itself when there is only one, and undefined when there is none: AbortSignal.any
 * costs microseconds per call, which shows on a request's overhead.
 */
export function anySignal(a: AbortSignal | undefined, b?: AbortSignal | undefined, c?: AbortSignal | undefined): AbortSignal | undefined {
  // The common cases without an array: this runs for every request and every attempt.
  if (c === undefined) {
    if (b === undefined) return a;
    if (a === undefined) return b;
  }
  const list = [a, b, c].filter((s): s is AbortSignal => s !== undefined);
  if (list.length <= 1) return list[0];
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(list);
  const controller = new AbortController();
  for (const s of list) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * Rejects with the signal's reason as soon as it aborts, even when `promise` does not
 * observe the signal itself (a custom fetch's body, a tool's run).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
