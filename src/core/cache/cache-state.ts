import type { Store } from '../store/store.js';
import type { Flight } from './flight.js';

/** Options of the response cache (`new Gateway({ cache })`). */
export interface CacheOptions {
  /** Where answers are kept: `memoryStore({ maxBytes })`, or `redisStore(...)` to share them. @default memoryStore() */
  store?: Store | undefined;
  /** How long an answer is kept, in ms. @default 86_400_000 (a day) */
  ttl?: number | undefined;
  /** Share answers between API keys (by default each key's answers are its own). @default false */
  shareAcrossKeys?: boolean | undefined;
}

/**
 * The response cache of a client, as plain data its stages read (cache/cache.ts): shared
 * with the clients `withOptions()` makes from it, unless they name another cache.
 */
export interface CacheState {
  /** The user's store, or undefined: this process's memory (both made ready with the first call: cache.ts `storeOf`). */
  readonly store: Store | undefined;
  /** The store in use: the user's behind its guard (an unreachable store is answered from memory), or a memoryStore(). */
  ready?: Store | undefined;
  /** The client's line logger, for the guard's warnings. */
  readonly log: (level: 'warn' | 'info', line: string) => void;
  readonly ttlMs: number;
  readonly shareAcrossKeys: boolean;
  /** Identical calls in flight, by key. */
  readonly flights: Map<string, Flight>;
}
