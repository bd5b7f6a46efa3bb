/**
 * Memoises a dynamic import: the module is requested once, then every call reuses the same
 * promise (a fresh `import()` per call still walks the module loader). A failed load is
 * forgotten so that a later call can try again.
 */
export function lazy<T>(load: () => Promise<T>): Lazy<T> {
  let pending: Promise<T> | undefined;
  const get = (() =>
    (pending ??= load().then(
      (module) => (get.loaded = module),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ))) as Lazy<T>;
  return get;
}

/** A memoised import; `loaded` is the module once it has loaded, for callers that can then skip an await. */
export type Lazy<T> = (() => Promise<T>) & { loaded?: T };
