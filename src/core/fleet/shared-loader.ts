import type { FleetInfo } from '../hooks.js';
import type { FleetView } from '../policy/fleet-rules.js';
import type { SharedStateSettings } from './shared-state.js';
import type { CacheCall, CachedReply, CallCache, Fleet, FleetSettings, Reply } from '../types.js';

// A client with a store, `limits` or a cache loads its shared state (shared-state.ts: the
// store fleet, the response cache, the store's guard) with its first call: an app that uses
// none of them never carries that code. Until it has loaded, these stand in for it.

type SharedState = ReturnType<(typeof import('./shared-state.js'))['createSharedState']>;

/** The fleet and cache of a client with shared state, loaded once, with its first use. */
export function sharedState(settings: SharedStateSettings): { fleet: Fleet; cache: CallCache | undefined } {
  let loading: Promise<SharedState> | undefined;
  let loaded: SharedState | undefined;
  const load = () => (loading ??= import('./shared-state.js').then((m) => (loaded = m.createSharedState(settings))));
  return { fleet: new LoadingFleet(settings.fleet, load, () => loaded), cache: settings.cache ? new LoadingCache(load) : undefined };
}

const EMPTY: FleetView = { down: {}, pause: {}, quota: undefined };

/** The store fleet, its methods waiting for its code to load. */
class LoadingFleet implements Fleet {
  readonly settings: FleetSettings;
  readonly #load: () => Promise<SharedState>;
  readonly #loaded: () => SharedState | undefined;

  constructor(settings: FleetSettings, load: () => Promise<SharedState>, loaded: () => SharedState | undefined) {
    this.settings = settings;
    this.#load = load;
    this.#loaded = loaded;
  }

  view(model: string | undefined): FleetView | Promise<FleetView> {
    const fleet = this.#loaded()?.fleet;
    return fleet ? fleet.view(model) : this.#load().then((s) => s.fleet.view(model));
  }

  lastView(model: string | undefined): FleetView {
    return this.#loaded()?.fleet.lastView(model) ?? EMPTY;
  }

  watch(base: string): { signal: AbortSignal; done: () => void } {
    return this.#loaded()?.fleet.watch(base) ?? { signal: new AbortController().signal, done: () => undefined };
  }

  tell(info: FleetInfo): void {
    this.settings.onFleet?.(info);
  }

  async markDown(base: string) {
    return (await this.#load()).fleet.markDown(base);
  }
  async markUp(base: string) {
    return (await this.#load()).fleet.markUp(base);
  }
  async pause(base: string, model: string | undefined, ms: number) {
    return (await this.#load()).fleet.pause(base, model, ms);
  }
  async endPause(base: string, model: string | undefined) {
    return (await this.#load()).fleet.endPause(base, model);
  }
  async quotaOut(message: string, recheckMs: number) {
    return (await this.#load()).fleet.quotaOut(message, recheckMs);
  }
  async quotaBack() {
    return (await this.#load()).fleet.quotaBack();
  }
  async lock(kind: 'probe' | 'pause-probe' | 'quota-probe', base?: string, model?: string) {
    return (await this.#load()).fleet.lock(kind, base, model);
  }
  async reserve(tokens: number, maxWaitMs: number) {
    return (await this.#load()).fleet.reserve(tokens, maxWaitMs);
  }
  async reconcile(estimated: number, used: number | undefined) {
    return (await this.#load()).fleet.reconcile(estimated, used);
  }
}

/** The response cache, waiting for its code to load. */
class LoadingCache implements CallCache {
  readonly #load: () => Promise<SharedState>;

  constructor(load: () => Promise<SharedState>) {
    this.#load = load;
  }

  async through(call: CacheCall, mode: 'use' | 'refresh', send: () => Promise<Reply>): Promise<CachedReply> {
    return ((await this.#load()).cache as CallCache).through(call, mode, send);
  }
}
