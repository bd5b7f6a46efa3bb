import type { Redactor } from '../../internal/redact.js';
import { ResponseCache, type CacheOptions } from '../cache/cache.js';
import { failOpenStore } from '../store/fail-open-store.js';
import { memoryStore, type Store } from '../store/store.js';
import { StoreFleet } from './store-fleet.js';
import type { FleetSettings } from '../types.js';

// What a client with a store, `limits` or a cache keeps beyond its own memory (docs/fleet.md,
// docs/cache.md): the store fleet and the response cache, over the user's stores guarded so
// that no call fails because of them. Loaded with such a client's first call (shared-loader.ts).

/** What a client's options ask of its shared state. */
export interface SharedStateSettings {
  fleet: FleetSettings;
  store: Store | undefined;
  cache: CacheOptions | undefined;
  cacheTtlMs: number;
  accountKey: (() => string) | undefined;
  redactor: Redactor;
  log: (level: 'warn' | 'info', line: string) => void;
}

/** The store fleet and the response cache of one client. */
export function createSharedState(settings: SharedStateSettings): { fleet: StoreFleet; cache: ResponseCache | undefined } {
  // A store of the user's (Redis) may be slow or gone: then this process goes on with its own memory.
  const guarded = (store: Store | undefined) => (store ? failOpenStore(store, { log: settings.log }) : memoryStore());
  const { fleet, cache, accountKey } = settings;
  const fleetStore = guarded(settings.store);
  return {
    fleet: new StoreFleet({ ...fleet, store: fleetStore, accountKey, inMemory: !settings.store }),
    cache:
      cache &&
      new ResponseCache({
        // One store for both: one guard, so one warning and one wait in an outage.
        store: settings.store && cache.store === settings.store ? fleetStore : guarded(cache.store),
        ttlMs: cache.ttl ?? settings.cacheTtlMs,
        shareAcrossKeys: cache.shareAcrossKeys === true,
        accountKey,
        base: fleet.main,
        redactor: settings.redactor,
      }),
  };
}
