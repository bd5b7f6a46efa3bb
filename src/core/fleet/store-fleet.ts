import { hashKey } from '../store/hash-key.js';
import type { FleetInfo } from '../hooks.js';
import type { Fleet, FleetSettings } from '../types.js';
import { type DownRecord, type FleetView, type PauseRecord, type QuotaRecord } from '../policy/fleet-rules.js';
import type { Store } from '../store/store.js';

// The state a client shares with every other client on the same store (docs/fleet.md): the
// health of each base URL, the pauses 429s asked for, an exhausted quota, and the rate
// budget of `limits`. Each change is one atomic step of the store; the decisions are
// fleet-rules.ts's. Reads are cached for VIEW_MS, so a healthy call rarely waits on the store.
// Loaded with the first call of a client that has a store, `limits` or a cache (shared-state.ts).

/** How long a read of the store stands for this process. */
const VIEW_MS = 200;
/**
 * While attempts are in flight, how often the down records of their bases are read (one
 * read of at most two keys): an attempt into a base another instance found dark moves on
 * within this, instead of waiting out its own timeout (bench:fleet, main blackholed).
 */
const WATCH_MS = 50;
/** How long a record outlives the time it names, so the probe that clears it can find it. */
const GRACE_MS = 10 * 60_000;
/** How long a probe lock holds when its holder never answers (a crashed process). */
const PROBE_LOCK_MS = 30_000;

/** A store fleet's settings: the fleet's, the store, and how its keys are named. */
export interface StoreFleetSettings extends FleetSettings {
  store: Store;
  /**
   * The API key, hashed to name this account's records (the key itself never reaches the
   * store); undefined for a key function, which is never called for this (a rotating token
   * may cost a request): then the base URLs alone name the records, and `redisStore`'s
   * `prefix` tells accounts apart.
   */
  accountKey: (() => string) | undefined;
  /** The store is this process's own memory: its keys are named with a quick hash (nothing leaves the process). */
  inMemory: boolean;
}

/** A base's signal that aborts attempts in flight there when the fleet marks it down. */
interface DownWatch {
  controller: AbortController;
  inFlight: number;
}

/** The fleet's state in a store (shared by every client on it), as one client reads and writes it. */
export class StoreFleet implements Fleet {
  readonly settings: StoreFleetSettings;
  #names: Promise<{ account: string; bases: Map<string, string> }> | undefined;
  readonly #models = new Map<string, Promise<string>>();
  readonly #views = new Map<string, { at: number; view: FleetView }>();
  readonly #watches = new Map<string, DownWatch>();
  #poll: ReturnType<typeof setInterval> | undefined;

  constructor(settings: StoreFleetSettings) {
    this.settings = settings;
  }

  /** What the fleet knows for a call to `model`: the cached read when fresh, else a new one. */
  view(model: string | undefined): FleetView | Promise<FleetView> {
    const cached = this.#views.get(model ?? '');
    return cached && Date.now() - cached.at < VIEW_MS ? cached.view : this.#read(model);
  }

  /** The last view of any model, for decisions that need no fresh read (is the next base available?). */
  lastView(model: string | undefined): FleetView {
    return this.#views.get(model ?? '')?.view ?? { down: {}, pause: {}, quota: undefined };
  }

  /** A base failed: every instance avoids it for the cooldown; attempts in flight there are moved on. */
  async markDown(base: string): Promise<void> {
    const record: DownRecord = { until: Date.now() + this.settings.cooldownMs };
    this.#remember((view) => ({ ...view, down: { ...view.down, [base]: record } }));
    this.#watches.get(base)?.controller.abort();
    await this.settings.store.set(await this.#key('down', base), JSON.stringify(record), { ttlMs: this.settings.cooldownMs + GRACE_MS });
    // A probe that failed gives its lock back: the next one may go when this cooldown runs out.
    await this.settings.store.delete([await this.#key('probe', base)]);
  }

  /** A base answered: the fleet returns to it (a probe that succeeded clears its record). */
  async markUp(base: string): Promise<void> {
    this.#remember((view) => ({ ...view, down: { ...view.down, [base]: undefined } }));
    await this.settings.store.delete([await this.#key('down', base), await this.#key('probe', base)]);
  }

  /** A 429 asked for `ms`: nobody sends to this base and model until then. */
  async pause(base: string, model: string | undefined, ms: number): Promise<void> {
    const record: PauseRecord = { until: Date.now() + ms };
    this.#remember((view) => ({ ...view, pause: { ...view.pause, [base]: record } }), model);
    await this.settings.store.set(await this.#key('pause', base, model), JSON.stringify(record), { ttlMs: ms + GRACE_MS });
    await this.settings.store.delete([await this.#key('pause-probe', base, model)]);
  }

  /** The pause is over (a request there was answered). */
  async endPause(base: string, model: string | undefined): Promise<void> {
    this.#remember((view) => ({ ...view, pause: { ...view.pause, [base]: undefined } }), model);
    await this.settings.store.delete([await this.#key('pause', base, model), await this.#key('pause-probe', base, model)]);
  }

  /** The quota ran out: calls are refused at once until a probe after `recheckMs` succeeds. */
  async quotaOut(message: string, recheckMs: number): Promise<void> {
    const now = Date.now();
    const record: QuotaRecord = { at: now, recheckAt: now + recheckMs, message };
    this.#remember((view) => ({ ...view, quota: record }), undefined, true);
    await this.settings.store.set(await this.#key('quota'), JSON.stringify(record), { ttlMs: recheckMs + GRACE_MS });
    await this.settings.store.delete([await this.#key('quota-probe')]);
  }

  /** A call went through: whatever the quota record said is over. */
  async quotaBack(): Promise<void> {
    this.#remember((view) => ({ ...view, quota: undefined }), undefined, true);
    await this.settings.store.delete([await this.#key('quota'), await this.#key('quota-probe')]);
  }

  /** Takes a probe lock (`down`, `pause` or `quota`): true for the one instance that may try. */
  async lock(kind: 'probe' | 'pause-probe' | 'quota-probe', base?: string, model?: string): Promise<boolean> {
    return this.settings.store.set(await this.#key(kind, base, model), '1', { ttlMs: PROBE_LOCK_MS, ifAbsent: true });
  }

  /**
   * Reserves a call's share of `limits` (one request, `tokens` tokens), waiting at most
   * `maxWaitMs`: the ms to wait before sending, or, when more than that would be needed,
   * `taken: false` and that wait (nothing reserved).
   */
  async reserve(tokens: number, maxWaitMs: number): Promise<{ taken: boolean; waitMs: number }> {
    const { requestsPerMinute: rpm, tokensPerMinute: tpm } = this.settings.limits ?? {};
    let waitMs = 0;
    if (rpm) {
      // About a second's worth may go at once: the server sees the rate, not a burst of a minute's worth.
      const requests = await this.settings.store.take(await this.#key('rpm'), { amount: 1, perMs: rpm / 60_000, capacity: Math.max(1, rpm / 60), maxWaitMs });
      if (!requests.taken) return requests;
      waitMs = requests.waitMs;
    }
    if (tpm && tokens > 0) {
      const taken = await this.settings.store.take(await this.#key('tpm'), { amount: Math.min(tokens, tpm), perMs: tpm / 60_000, capacity: tpm, maxWaitMs });
      if (!taken.taken) {
        if (rpm) await this.settings.store.take(await this.#key('rpm'), { amount: -1, perMs: rpm / 60_000, capacity: Math.max(1, rpm / 60), maxWaitMs: 0 });
        return taken;
      }
      waitMs = Math.max(waitMs, taken.waitMs);
    }
    return { taken: true, waitMs };
  }

  /** Gives back (or takes more of) the token budget once the reply says what it used. */
  async reconcile(estimated: number, used: number | undefined): Promise<void> {
    const tpm = this.settings.limits?.tokensPerMinute;
    if (!tpm || used === undefined || used === estimated) return;
    await this.settings.store.take(await this.#key('tpm'), { amount: used - estimated, perMs: tpm / 60_000, capacity: tpm, maxWaitMs: Number.MAX_SAFE_INTEGER });
  }

  /**
   * Watches a base while an attempt is in flight there: the signal aborts when the fleet
   * marks the base down (here, or in another process, seen by a read every WATCH_MS), so the
   * attempt moves on instead of waiting out its own timeout.
   */
  watch(base: string): { signal: AbortSignal; done: () => void } {
    let watch = this.#watches.get(base);
    if (!watch || watch.controller.signal.aborted) this.#watches.set(base, (watch = { controller: new AbortController(), inFlight: 0 }));
    watch.inFlight++;
    this.#poll ??= unref(setInterval(() => this.#refresh(), WATCH_MS));
    const current = watch;
    return {
      signal: current.controller.signal,
      done: () => {
        current.inFlight--;
        if ([...this.#watches.values()].every((w) => w.inFlight === 0)) this.#stopPolling();
      },
    };
  }

  /** Tells the hooks (and the logger) what the fleet's state did to a call. */
  tell(info: FleetInfo): void {
    this.settings.onFleet?.(info);
  }

  #stopPolling(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  /** The poll: a base with attempts in flight that went down elsewhere aborts them (and later calls skip it). */
  #refresh(): void {
    const bases = [...this.#watches.keys()];
    void Promise.all(bases.map((base) => this.#key('down', base)))
      .then((keys) => this.settings.store.get(keys))
      .then((values) => {
        const now = Date.now();
        bases.forEach((base, i) => {
          const record = parse<DownRecord>(values[i]);
          if (!record || record.until <= now) return;
          this.#remember((view) => ({ ...view, down: { ...view.down, [base]: record } }), undefined, true);
          this.#watches.get(base)?.controller.abort();
        });
      });
  }

  /** One round trip: the records that concern a call to `model`. */
  async #read(model: string | undefined): Promise<FleetView> {
    const bases = [this.settings.main, ...(this.settings.backup ? [this.settings.backup] : [])];
    const keys = [await this.#key('quota'), ...(await Promise.all(bases.flatMap((base) => [this.#key('down', base), this.#key('pause', base, model)])))];
    const values = await this.settings.store.get(keys);
    const down: Record<string, DownRecord | undefined> = {};
    const pause: Record<string, PauseRecord | undefined> = {};
    bases.forEach((base, i) => {
      down[base] = parse<DownRecord>(values[1 + 2 * i]);
      pause[base] = parse<PauseRecord>(values[2 + 2 * i]);
    });
    const view: FleetView = { down, pause, quota: parse<QuotaRecord>(values[0]) };
    this.#views.set(model ?? '', { at: Date.now(), view });
    return view;
  }

  /** A change this process made, seen by its own next call at once (the store is the truth after VIEW_MS). */
  #remember(change: (view: FleetView) => FleetView, model?: string, allModels = model === undefined): void {
    for (const [name, entry] of this.#views) if (allModels || name === (model ?? '')) entry.view = change(entry.view);
  }

  /** A store key: the account (a hash of the API key), the record's kind, and hashes of the base and model. */
  async #key(kind: string, base?: string, model?: string): Promise<string> {
    const names = await (this.#names ??= this.#nameAccount());
    const parts = [names.account, kind];
    if (base !== undefined) parts.push(names.bases.get(base) ?? (await this.#hash(base)));
    if (model !== undefined) parts.push(await this.#modelName(model));
    return parts.join(':');
  }

  async #nameAccount(): Promise<{ account: string; bases: Map<string, string> }> {
    const { main, backup } = this.settings;
    // The account and base URLs together: two gateways with one key do not share health.
    const hash = (text: string) => this.#hash(text);
    const account = await hash(`${this.settings.accountKey?.() ?? ''}\n${main}\n${backup ?? ''}`);
    const bases = new Map([[main, await hash(main)]]);
    if (backup) bases.set(backup, await hash(backup));
    return { account, bases };
  }

  #modelName(model: string): Promise<string> {
    let name = this.#models.get(model);
    if (!name) {
      if (this.#models.size > 1_000) this.#models.clear();
      this.#models.set(model, (name = this.#hash(model)));
    }
    return name;
  }

  async #hash(text: string): Promise<string> {
    return this.settings.inMemory ? quickHash(text) : (await hashKey(text)).slice(0, 24);
  }
}

/** FNV-1a twice (two offsets), 16 hex digits: names for this process's own memory, where no key is seen outside it. */
function quickHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

function parse<T>(value: string | null | undefined): T | undefined {
  if (!value) return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}

function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
