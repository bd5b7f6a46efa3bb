import type { FleetInfo } from '../hooks.js';
import { DOWN_AFTER, EMPTY_VIEW, EVIDENCE_MS, PROBE_DUE_MS, readRecord, recordText, type FleetView, type PausedRecord, type PauseRecord, type QuotaRecord, type RecordKind } from '../policy/fleet-rules.js';
import { nameOf, VIEW_MS, type FleetMemory, type FleetParts, type FleetSettings, type Mine, type RecordName } from './records.js';
import type { SharedFleet } from './shared-fleet.js';
import { LEARNED_MS, type ModelParamRules } from '../adapt/model-rules.js';

export { fleetMemory, type FleetMemory, type FleetSettings, type Limits } from './records.js';

// What a client knows about the gateway that its calls share (docs/fleet.md). One class over
// one store (LiteLLM's CooldownCache over its cache; upstash's Ratelimit with memory in front
// of Redis): what this process learnt lives in its memory, so a plain call reads and awaits
// nothing and a plain app carries only the health of its base URLs. What a `store` or
// `limits` add (the records every client on the store shares, the pauses 429s asked for, an
// exhausted quota, the rate budget) is shared-fleet.ts, loaded with the first call that needs
// it. A store that is away or refuses writes never makes a process know less than it would
// alone: what it learnt stays here too. The decisions are policy/fleet-rules.ts's.

/** The fleet of one client: its settings over a memory it may share. */
export class Fleet implements FleetParts {
  readonly settings: FleetSettings;
  readonly memory: FleetMemory;
  #shared: Promise<SharedFleet> | undefined;

  constructor(settings: FleetSettings, memory: FleetMemory) {
    this.settings = settings;
    this.memory = memory;
  }

  /**
   * Whether the store is one the user gave (`store`): then the fleet's records are shared,
   * pauses and an exhausted quota among them. Without one, as before 0.4, each call meets a
   * 429 or an empty quota itself; base health is this process's.
   */
  get shared(): boolean {
    return this.memory.store !== undefined;
  }

  /**
   * True when the fleet knows nothing that concerns a call to `model`, and has nothing to
   * reserve for it: the plain call, which reads, waits for and writes nothing (a look at memory).
   */
  clear(model: string | undefined): boolean {
    if (this.settings.limits) return false;
    const { mine, store, reads } = this.memory;
    if (mine.size > 0 && this.#sweep(mine) > 0) return false;
    if (!store) return true;
    const read = reads.get(model ?? '');
    return read !== undefined && read.values.size === 0 && Date.now() - read.at < VIEW_MS;
  }

  /** What the fleet knows for a call to `model`: this process's memory, and with a store what it says (read at most every VIEW_MS). */
  async view(model: string | undefined): Promise<FleetView> {
    return this.shared ? (await this.sharedFleet()).view(model) : this.lastView(model);
  }

  /** The last view of `model` without a read (what a decision that needs no fresh read uses). */
  lastView(model: string | undefined): FleetView {
    return this.viewOf(model, this.memory.reads.get(model ?? '')?.values);
  }

  /**
   * A failure that says `base` is down: evidence against it. The DOWN_AFTER-th with no answer
   * from the base between them (within EVIDENCE_MS) marks it down for `cooldownMs`, then one
   * instance probes it; a probe's failure marks it down again at once.
   */
  async evidence(base: string, probe: boolean): Promise<void> {
    const { cooldownMs } = this.settings;
    if (cooldownMs <= 0) return;
    const name = nameOf('evidence', base);
    const held = this.memory.mine.get(name);
    const count = (held && held.expiresAt > Date.now() ? Number(held.value) : 0) + 1;
    this.remember(['evidence', base], String(count), EVIDENCE_MS);
    const down = probe || (this.shared ? await (await this.sharedFleet()).countAgainst(base) : count >= DOWN_AFTER);
    if (!down) return;
    this.remember(['down', base], recordText(cooldownMs), cooldownMs);
    this.remember(['was-down', base], recordText(cooldownMs + PROBE_DUE_MS), cooldownMs + PROBE_DUE_MS);
    if (this.shared) await (await this.sharedFleet()).markDown(base);
  }

  /**
   * Takes a lock for `ttlMs` (a probe, a model's 5xx): true for the one instance that gets
   * it. A lock is never given back early but by an answer (`answered`), or by its holder.
   */
  async lock(name: RecordName, ttlMs: number): Promise<boolean> {
    if (this.shared) return (await this.sharedFleet()).lock(name, ttlMs);
    const held = this.memory.mine.get(nameOf(...name));
    if (held && held.expiresAt > Date.now()) return false;
    this.remember(name, recordText(ttlMs), ttlMs);
    return true;
  }

  /**
   * `base` answered: what the fleet held against the base is over; with `served` (the call
   * was answered, not refused), that model's pause there and an exhausted quota are over too.
   */
  async answered(base: string, model: string | undefined, view: FleetView, served: boolean): Promise<void> {
    const drop: RecordName[] = [];
    if (view.down[base] || view.downWas[base] || view.evidence[base]) drop.push(['down', base], ['was-down', base], ['evidence', base], ['probe', base]);
    if (served && (view.pause[base] || view.paused[base])) drop.push(['pause', base, model ?? ''], ['was-paused', base, model ?? ''], ['pause-probe', base, model ?? '']);
    if (served && (view.quota || view.quotaWas)) drop.push(['quota'], ['was-quota'], ['quota-probe']);
    if (drop.length === 0) return;
    this.forget(drop);
    if (this.shared) await (await this.sharedFleet()).drop(drop);
  }

  /** What the gateway taught about `model` (its 400s), for this process and, with a store, the fleet: a look at memory. */
  learnt(model: string): ModelParamRules | undefined {
    const held = this.memory.learned.get(model);
    if (held === undefined) return undefined;
    if (held.expiresAt > Date.now()) return held.rules;
    this.memory.learned.delete(model);
    return undefined;
  }

  /**
   * Keeps what a 400 taught about `model` (adapt/lessons.ts), for LEARNED_MS: in memory at
   * once, and with a store for every instance (read with the fleet's other records of the
   * model). Two instances that learn two things at once may each keep one; the other is
   * learnt again by its next 400.
   */
  async learn(model: string, rules: ModelParamRules): Promise<void> {
    const { learned } = this.memory;
    if (learned.size >= 1_000 && !learned.has(model)) learned.delete(learned.keys().next().value as string);
    learned.set(model, { rules, expiresAt: Date.now() + LEARNED_MS });
    if (this.shared) await (await this.sharedFleet()).putLearned(model, rules);
  }

  /** Tells the hooks (and the logger) what the fleet's state did to a call. */
  tell(info: FleetInfo): void {
    this.settings.onFleet?.(info);
  }

  /** What a `store` or `limits` add, loaded with the first call that needs them. */
  sharedFleet(): Promise<SharedFleet> {
    return (this.#shared ??= import('./shared-fleet.js').then((m) => new m.SharedFleet(this)));
  }

  /** @internal Keeps a record this process learnt, until its ttl. */
  remember(name: RecordName, value: string, ttlMs: number): void {
    this.memory.mine.set(nameOf(...name), { value, expiresAt: Date.now() + ttlMs });
  }

  /** @internal Forgets records, here and in what was last read from the store. */
  forget(names: RecordName[]): void {
    const { mine, reads } = this.memory;
    for (const name of names) {
      mine.delete(nameOf(...name));
      for (const read of reads.values()) read.values.delete(nameOf(...name));
    }
  }

  /** @internal The view of `model` from what this process wrote and what it last read, each record checked. */
  viewOf(model: string | undefined, read: Map<string, string> | undefined): FleetView {
    const { mine } = this.memory;
    if (mine.size === 0 && !read?.size) return EMPTY_VIEW;
    const now = Date.now();
    const text = (kind: RecordKind, base?: string) => {
      const name = nameOf(kind, base, kind === 'pause' || kind === 'was-paused' ? (model ?? '') : undefined);
      const own = mine.get(name);
      return own && own.expiresAt > now ? own.value : read?.get(name);
    };
    const down: Record<string, boolean> = {};
    const downWas: Record<string, boolean> = {};
    const evidence: Record<string, boolean> = {};
    const pause: Record<string, PauseRecord | undefined> = {};
    const paused: Record<string, PausedRecord | undefined> = {};
    const { main, backup } = this.settings;
    for (const base of backup ? [main, backup] : [main]) {
      down[base] = readRecord('down', text('down', base), now) === true;
      downWas[base] = readRecord('was-down', text('was-down', base), now) === true;
      evidence[base] = readRecord('evidence', text('evidence', base), now) === true;
      pause[base] = readRecord('pause', text('pause', base), now) as PauseRecord | undefined;
      paused[base] = readRecord('was-paused', text('was-paused', base), now) as PausedRecord | undefined;
    }
    const quota = readRecord('quota', text('quota'), now) as QuotaRecord | undefined;
    return { quota, quotaWas: readRecord('was-quota', text('was-quota'), now) === true, down, downWas, evidence, pause, paused };
  }

  /** Drops this process's expired records; returns how many are left. */
  #sweep(mine: Map<string, Mine>): number {
    const now = Date.now();
    for (const [name, record] of mine) if (record.expiresAt <= now) mine.delete(name);
    return mine.size;
  }
}
