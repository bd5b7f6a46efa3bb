import { ValidationError } from '../errors.js';
import { bucketTtlMs, decodeBucket, encodeBucket, takeFromBucket } from './rate-bucket.js';
import { addProblem, counterValue, keysProblem, setProblem, takeProblem, type StoreProblem } from './store-rules.js';

/**
 * Where a client keeps the state its processes share: base URL health, pauses, quota, rate
 * budgets and cached responses. {@link memoryStore} keeps it in one process;
 * `redisStore()` from `unified-gateway/redis` shares it through Redis. Any object with these
 * four methods works (`add` is optional); keys come already hashed and values hold nothing secret.
 *
 * Each method is one atomic step where the state lives: a store never reads, then writes.
 */
export interface Store {
  /** The values of `keys`, null where absent or expired; one round trip. */
  get(keys: readonly string[]): Promise<(string | null)[]>;
  /** Sets `key` for `ttlMs`; with `ifAbsent`, only when it does not exist (a lock). Resolves whether it was set. */
  set(key: string, value: string, options: { ttlMs: number; ifAbsent?: boolean | undefined }): Promise<boolean>;
  /** Removes keys (absent ones are ignored). */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * Takes `amount` from the rate bucket at `key`, atomically: the bucket refills at `perMs`
   * units per ms up to `capacity` and may go below zero (a reservation). When the take
   * would leave the caller waiting longer than `maxWaitMs`, nothing is taken. Resolves with
   * `{ taken, waitMs }`: the ms the caller must wait before sending (0 when budget is there).
   * A negative amount gives budget back (never above capacity): reconciling an estimate.
   */
  take(key: string, take: { amount: number; perMs: number; capacity: number; maxWaitMs: number }): Promise<{ taken: boolean; waitMs: number }>;
  /**
   * Adds `amount` to the number at `key` (absent: 0), atomically, unless the total would pass `limit`
   * (then nothing changes). A key it creates expires after `ttlMs`; an existing key keeps its expiry.
   * A negative amount is always added (a reservation settled). A stored total below zero (or not a number) counts as 0: it is untrusted.
   * Resolves with whether it was added and the total after (or the unchanged total).
   */
  add?(key: string, add: { amount: number; limit?: number | undefined; ttlMs: number }): Promise<{ added: boolean; total: number }>;
}

/** 64 MiB: room for thousands of cached replies, small beside a Node process. */
export const DEFAULT_MAX_BYTES = 64 * 2 ** 20;

interface Entry {
  value: string;
  expiresAt: number;
  bytes: number;
}

const refuse = (problem: StoreProblem | undefined): void => {
  if (problem) throw new ValidationError(...problem);
};

/**
 * A {@link Store} in this process's memory: entries expire by their ttl and the least
 * recently used go first past `maxBytes`. Users make one with `memoryStore()`, which checks
 * their options (memory-store.ts); the SDK makes its own (a cache without a store, the
 * buckets of `limits` alone, a store's fallback) with `new MemoryStore()`. Kept apart from that export
 * so that an app that never uses a store does not load this class: the root exports
 * `memoryStore`, and a bundler loads whatever the root reaches and a lazy chunk uses.
 */
export class MemoryStore implements Store {
  // A Map keeps insertion order: re-inserting an entry on each use keeps the least recently
  // used first, so eviction takes from the front.
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  readonly #maxBytes: number;

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  async get(keys: readonly string[]): Promise<(string | null)[]> {
    refuse(keysProblem(keys));
    const now = Date.now();
    return keys.map((key) => this.#live(key, now)?.value ?? null);
  }

  async set(key: string, value: string, options: { ttlMs: number; ifAbsent?: boolean | undefined }): Promise<boolean> {
    refuse(setProblem(key, value, options));
    const now = Date.now();
    if (options.ifAbsent === true && this.#live(key, now)) return false;
    return this.#put(key, value, now + options.ttlMs);
  }

  async delete(keys: readonly string[]): Promise<void> {
    refuse(keysProblem(keys));
    for (const key of keys) this.#remove(key);
  }

  async take(key: string, take: { amount: number; perMs: number; capacity: number; maxWaitMs: number }): Promise<{ taken: boolean; waitMs: number }> {
    refuse(takeProblem(key, take));
    const now = Date.now();
    const { state, result } = takeFromBucket(decodeBucket(this.#live(key, now)?.value), now, take);
    if (result.taken) this.#put(key, encodeBucket(state), now + bucketTtlMs(state, take));
    return result;
  }

  async add(key: string, add: { amount: number; limit?: number | undefined; ttlMs: number }): Promise<{ added: boolean; total: number }> {
    refuse(addProblem(key, add));
    const now = Date.now();
    const entry = this.#live(key, now);
    const total = counterValue(entry?.value);
    const after = total + add.amount;
    const value = String(after);
    // A total past the limit, one past what a number holds (it would read back as 0), or an
    // entry larger than the whole bound (#put would drop the old one): nothing changes.
    const refused = (add.amount >= 0 && add.limit !== undefined && after > add.limit) || !Number.isFinite(after) || 2 * (key.length + value.length) > this.#maxBytes;
    if (refused) return { added: false, total };
    this.#put(key, value, entry ? entry.expiresAt : now + add.ttlMs);
    return { added: true, total: after };
  }

  /** The entry at `key` unless it expired (then it is dropped), marked as just used. */
  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= now) {
      this.#bytes -= entry.bytes;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry;
  }

  #put(key: string, value: string, expiresAt: number): boolean {
    this.#remove(key);
    const bytes = 2 * (key.length + value.length);
    if (bytes > this.#maxBytes) return false;
    this.#entries.set(key, { value, expiresAt, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
    return true;
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
