/**
 * Memoises a dynamic import: the module is requested once, then every call reuses the same
 * promise (a fresh `import()` per call still walks the module loader). A failed load is
 * forgotten so that a later call can try again.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}
