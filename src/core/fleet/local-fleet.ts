import type { FleetInfo } from '../hooks.js';
import type { DownRecord, FleetView } from '../policy/fleet-rules.js';
import type { Fleet, FleetSettings } from '../types.js';

/**
 * The fleet of a client without a store: the health of its base URLs in its own memory,
 * shared by its requests and by the clients withOptions() makes from it, so a burst of
 * calls does not each rediscover that the main base is down. Pauses and quota are not kept
 * (each call meets them itself, as without a fleet); `limits` need the store fleet.
 */
export class LocalFleet implements Fleet {
  readonly settings: FleetSettings;
  #health: { down: Map<string, DownRecord>; probing: Set<string>; watches: Map<string, AbortController> } = { down: new Map(), probing: new Set(), watches: new Map() };

  constructor(settings: FleetSettings) {
    this.settings = settings;
  }

  /** Uses `other`'s health from now on (withOptions). */
  shareHealth(other: LocalFleet): void {
    this.#health = other.#health;
  }

  view(): FleetView {
    return this.lastView();
  }

  lastView(): FleetView {
    return { down: Object.fromEntries(this.#health.down), pause: {}, quota: undefined };
  }

  async markDown(base: string): Promise<void> {
    this.#health.down.set(base, { until: Date.now() + this.settings.cooldownMs });
    this.#health.probing.delete(base);
    this.#health.watches.get(base)?.abort();
    this.#health.watches.delete(base);
  }

  async markUp(base: string): Promise<void> {
    this.#health.down.delete(base);
    this.#health.probing.delete(base);
  }

  /** One call at a time probes a base back once its cooldown ran out. */
  async lock(kind: string, base?: string): Promise<boolean> {
    if (kind !== 'probe' || base === undefined || this.#health.probing.has(base)) return false;
    this.#health.probing.add(base);
    return true;
  }

  watch(base: string): { signal: AbortSignal; done: () => void } {
    let controller = this.#health.watches.get(base);
    if (!controller) this.#health.watches.set(base, (controller = new AbortController()));
    return { signal: controller.signal, done: () => undefined };
  }

  tell(info: FleetInfo): void {
    this.settings.onFleet?.(info);
  }

  // Kept only through a store (core/store-fleet.ts).
  async pause(): Promise<void> {}
  async endPause(): Promise<void> {}
  async quotaOut(): Promise<void> {}
  async quotaBack(): Promise<void> {}
  async reconcile(): Promise<void> {}
  async reserve(): Promise<{ taken: boolean; waitMs: number }> {
    return { taken: true, waitMs: 0 };
  }
}
