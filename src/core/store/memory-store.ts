import { ValidationError } from '../errors.js';
import { DEFAULT_MAX_BYTES, MemoryStore, type Store } from './store.js';

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /**
   * The most the store holds, counted as `2 × (key.length + value.length)` per entry (UTF-16
   * bytes, roughly what the strings take in memory). Past it, the least recently used entries
   * go first; an entry larger than the whole bound is not kept.
   * @default 67_108_864 (64 MiB)
   */
  maxBytes?: number | undefined;
}

/**
 * A {@link Store} in this process's memory: entries expire by their ttl and the least
 * recently used go first past `maxBytes`. Without a shared store, a client uses one of these:
 * what it learns stays in its process.
 * @example
 * import { memoryStore } from 'unified-gateway';
 * const store = memoryStore({ maxBytes: 16 * 2 ** 20 });
 * await store.set('greeting', 'hello', { ttlMs: 60_000 });
 */
export function memoryStore(options: MemoryStoreOptions = {}): Store {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ValidationError('options', `must be an object such as { maxBytes: 16 * 2 ** 20 } (got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options})`);
  }
  // A misspelt option (maxbytes) would leave the default bound in place without a word.
  const unknown = Object.keys(options).find((key) => key !== 'maxBytes');
  if (unknown !== undefined) throw new ValidationError(unknown, 'is not a memoryStore option: use maxBytes');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== 'number' || !Number.isFinite(maxBytes) || maxBytes <= 0) throw new ValidationError('maxBytes', 'must be a finite number above 0');
  return new MemoryStore(maxBytes);
}
