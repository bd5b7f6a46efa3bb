import { sleep } from '../../internal/sleep.js';
import type { GatewayError } from '../errors.js';
import type { FleetInfo } from '../hooks.js';
import { DOWN_AFTER, EVIDENCE_MS, FLEET_FORMAT, isAvailable, PAUSE_PROBE_WAIT_MS, pauseGate, PROBE_DUE_MS, quotaGate, recordText, type FleetView, type Gate, type RecordKind } from '../policy/fleet-rules.js';
import { estimateTokens, pauseLeftMs, pauseMs } from '../policy/shared-rules.js';
import { boundWait, judgeWait } from '../policy/waits.js';
import { guardStore, type GuardedStore } from '../store/fail-open-store.js';
import { hashKey } from '../store/hash-key.js';
import { MemoryStore, type Store } from '../store/store.js';
import { readUsage } from '../usage/usage.js';
import { LEARNED_MS, type ModelParamRules } from '../adapt/model-rules.js';
import { learnedText, readLearned } from '../adapt/learned.js';
import { nameOf, VIEW_MS, type FleetParts, type RecordName } from './records.js';

// What a `store` or `limits` add to a client's fleet (docs/fleet.md): the records every client
// on the store shares, in the store (named, read, written and locked there); the pause a 429
// asked for, waited out before sending; an exhausted quota, refused unsent; and the rate budget
// of `limits`. Loaded with the first call of a client that has a `store` or `limits`
// (fleet.ts `sharedFleet`): a plain app never carries it, nor any store's code.

/** What the shared fleet reads of a call (request/call-state.ts's CallState is one). */
export interface FleetCall {
  readonly request: { readonly method: string };
  readonly path: string;
  readonly body: object | undefined;
  readonly signal: AbortSignal | undefined;
  readonly observer: { fleet?(info: FleetInfo): void } | undefined;
  budgetMs(): number | undefined;
  stopped(what: string): GatewayError;
  /** The error for a call the fleet's state refuses before anything is sent. */
  refused(code: 'insufficient_quota' | 'rate_limit_exceeded', message: string, retryAfterMs: number | null): GatewayError;
  /** The tokens the call reserved of `limits`, reconciled with its answer's usage. */
  tokens: number;
  /** The call is the one that probes an exhausted quota back (it holds the lock). */
  quotaProbe: boolean;
  /** The base where the call is the one that sends first after a pause (it holds the lock), if any. */
  pauseProbe: string | undefined;
}

/** The record of what the gateway taught about a model. */
const LEARNED = (model: string | undefined): RecordName => ['learned', '', model ?? ''];

/** How long a quota stays refused after the gateway said it ran out, when failoverCooldown is 0. */
const QUOTA_RECHECK_MS = 30_000;

/** While a call waits for the answer of the call that sent first after a pause, how often it looks. */
const PROBE_POLL_MS = 250;

/** The fleet's records in a store, and what they do to a call. */
export class SharedFleet {
  readonly #fleet: FleetParts;
  /** The user's store behind its guard (no call fails because of it), or this process's memory for `limits` alone. */
  readonly #store: Store;
  /** The user's store behind its guard (undefined for `limits` alone): whether it answers now. */
  readonly #guarded: GuardedStore | undefined;
  #account: Promise<string> | undefined;
  readonly #hashes = new Map<string, string>();

  constructor(fleet: FleetParts) {
    this.#fleet = fleet;
    const { memory, settings } = fleet;
    // Without a store, the buckets are this process's, shared by the clients withOptions() makes.
    this.#guarded = memory.store ? guardStore(memory.store, settings.log) : undefined;
    this.#store = this.#guarded ?? (memory.buckets ??= new MemoryStore());
  }

  /** What the fleet knows for a call to `model`: what this process wrote, and what the store said (one read every VIEW_MS). */
  async view(model: string | undefined): Promise<FleetView> {
    const { reads } = this.#fleet.memory;
    const last = reads.get(model ?? '');
    if (last && Date.now() - last.at < VIEW_MS) return this.#fleet.viewOf(model, last.values);
    const { main, backup } = this.#fleet.settings;
    const names: Array<[RecordKind, string?, string?]> = [['quota'], ['was-quota']];
    for (const base of backup ? [main, backup] : [main]) names.push(['down', base], ['was-down', base], ['evidence', base], ['pause', base, model ?? ''], ['was-paused', base, model ?? '']);
    // What the gateway taught the fleet about the model (adapt/lessons.ts) comes in the same read; it is kept apart from the records.
    const keys = await Promise.all([...names, LEARNED(model)].map((name) => this.#key(name)));
    const texts = await this.#store.get(keys);
    const values = new Map<string, string>();
    const { mine, learned } = this.#fleet.memory;
    const taught = model === undefined ? undefined : readLearned(texts[names.length]);
    if (taught && model !== undefined) {
      // Added to what this process learnt itself: another instance's write may have lacked it.
      const own = this.#fleet.learnt(model);
      learned.set(model, { rules: { params: { ...taught.params, ...own?.params }, endpoint: own?.endpoint ?? taught.endpoint }, expiresAt: Date.now() + LEARNED_MS });
    }
    names.forEach((name, i) => {
      const text = texts[i];
      if (typeof text === 'string') values.set(nameOf(...name), text);
      // The store, answering, no longer holds a record this process wrote: another instance's
      // answer ended it (a pause, the quota, a base's cooldown). The store is the truth then.
      else if (this.#guarded?.reachable) mine.delete(nameOf(...name));
    });
    reads.set(model ?? '', { at: Date.now(), values });
    if (reads.size > 1_000) reads.delete(reads.keys().next().value as string);
    return this.#fleet.viewOf(model, values);
  }

  /**
   * Before anything is sent: a quota the fleet knows is exhausted refuses the call at once (one
   * call at a time probes it back), and with `limits` the call waits for its share of the rate
   * budget, or is refused at once when that wait does not fit (waits.ts `judgeWait`).
   */
  async admit(call: FleetCall, model: string | undefined): Promise<void> {
    const fleet = this.#fleet;
    const view = await this.view(model);
    const quota = quotaGate(view);
    if (quota !== 'open') {
      call.quotaProbe = quota === 'probe-due' && (await this.lock(['quota-probe'], this.#recheckMs()));
      if (!call.quotaProbe) {
        this.#tell(call, { event: 'quota-exhausted', baseURL: fleet.settings.main, model, waitMs: 0 });
        const said = view.quota ? ` at ${new Date(view.quota.at).toISOString()} ("${view.quota.message}")` : '';
        throw call.refused('insufficient_quota', `The quota is exhausted, as the gateway said${said}; nothing was sent. One call at a time retries it after failoverCooldown`, null);
      }
    }
    if (fleet.settings.limits) await this.#hold(call, model);
  }

  /**
   * Before an attempt: a pause a 429 asked for on this base and model is waited out (the
   * other base is taken instead when it is available and not paused), or, when that wait does
   * not fit, the call is refused at once with the wait on `retryAfterMs`. When the pause ran
   * out, one call sends first (it takes a lock); the others go to the other base when it is
   * open, else wait for that call's answer (PAUSE_PROBE_WAIT_MS at most). Returns the base.
   */
  async beforeAttempt(call: FleetCall, at: { base: string; model: string | undefined; pinned: boolean }): Promise<string> {
    const { base, model } = at;
    const { main, backup, retry } = this.#fleet.settings;
    // What this call waits for (a pause, or the answer of the call that sends first after it), and for how long at most.
    let waiting: { gate: Gate; waitedMs: number; mostMs: number } | undefined;
    for (;;) {
      const view = await this.view(model);
      const gate = pauseGate(view, base);
      if (gate === 'open' || (waiting?.gate === gate && waiting.waitedMs >= waiting.mostMs)) return base;
      if (gate === 'probe-due' && (await this.lock(['pause-probe', base, model ?? ''], PAUSE_PROBE_WAIT_MS))) {
        call.pauseProbe = base;
        return base;
      }
      const other = base === main ? backup : main;
      if (!at.pinned && other !== undefined && other !== base && isAvailable(view, other) && pauseGate(view, other) === 'open') return other;
      const left = gate === 'closed' ? pauseLeftMs(view, base, Date.now()) : PROBE_POLL_MS;
      if (judgeWait({ ms: left, asked: true }, { maxRetryAfterMs: retry.maxRetryAfterMs, budgetMs: call.budgetMs() }) !== 'wait') {
        throw call.refused('rate_limit_exceeded', `A 429 paused ${model ?? 'calls'} on ${base} for the fleet for ${left} ms more, longer than this call may wait; nothing was sent`, left);
      }
      if (waiting?.gate !== gate) {
        // A pause is waited at most its length and two reads more (a record that outstays it is not waited for); the first call's answer, PAUSE_PROBE_WAIT_MS.
        waiting = { gate, waitedMs: 0, mostMs: gate === 'closed' ? left + 2 * VIEW_MS : PAUSE_PROBE_WAIT_MS };
        this.#tell(call, { event: 'paused', baseURL: base, model, waitMs: gate === 'closed' ? left : PAUSE_PROBE_WAIT_MS });
      }
      // The record's ttl ends the pause, not this clock: look again when it should be gone.
      await pauseFor(call, left);
      waiting.waitedMs += left;
    }
  }

  /** A 429 or a quota error, learnt for every client on the store (pauses and the quota are shared only through a store). */
  async learn(call: FleetCall, at: { base: string; model: string | undefined; lesson: { kind: 'quota'; message: string } | { kind: 'pause'; retryAfterMs: number | null } }): Promise<void> {
    const { base, model, lesson } = at;
    if (lesson.kind === 'quota') {
      const recheck = this.#recheckMs();
      await Promise.all([this.put(['quota'], { message: lesson.message }, recheck), this.put(['was-quota'], {}, recheck + PROBE_DUE_MS)]);
      return;
    }
    // A 429 without Retry-After grows the pause with each one in a row; the server's wait is taken as it is (bounded).
    const strikes = (this.#fleet.lastView(model).paused[base]?.strikes ?? 0) + (lesson.retryAfterMs === null ? 1 : 0);
    const ms = pauseMs(lesson.retryAfterMs, Math.max(1, strikes), this.#fleet.settings.retry);
    await Promise.all([this.put(['pause', base, model ?? ''], {}, ms), this.put(['was-paused', base, model ?? ''], { strikes }, ms + 60_000)]);
    // A new pause: whoever sent first after the last one is done; the next may send first after this one.
    await this.drop([['pause-probe', base, model ?? '']]);
  }

  /** What a 400 taught about `model`, for every instance on the store (LEARNED_MS). */
  async putLearned(model: string, rules: ModelParamRules): Promise<void> {
    if (this.#fleet.shared) await this.#store.set(await this.#key(LEARNED(model)), learnedText(rules), { ttlMs: LEARNED_MS });
  }

  /** The answer's usage, given back to (or taken more of) the token budget the call reserved. */
  async reconcile(call: FleetCall, data: unknown): Promise<void> {
    const tpm = this.#fleet.settings.limits?.tokensPerMinute;
    const used = readUsage(data)?.total;
    if (!tpm || used === undefined || used === call.tokens) return;
    await this.#take(['tpm'], { amount: Math.max(-tpm, Math.min(tpm, used - call.tokens)), ...perSecond(tpm), maxWaitMs: Number.MAX_SAFE_INTEGER });
  }

  /** Evidence against `base`, fleet-wide: a bucket of DOWN_AFTER - 1 that refills one each EVIDENCE_MS; the failure it cannot hold marks the base down. */
  async countAgainst(base: string): Promise<boolean> {
    const counted = await this.#take(['evidence', base], { amount: 1, perMs: (DOWN_AFTER - 1) / EVIDENCE_MS, capacity: DOWN_AFTER - 1, maxWaitMs: Number.POSITIVE_INFINITY });
    return counted.waitMs > 0;
  }

  /** The base is down for every client on the store: `down` for the cooldown, then `was-down` until one probes it back. */
  async markDown(base: string): Promise<void> {
    const { cooldownMs } = this.#fleet.settings;
    await Promise.all([this.put(['down', base], {}, cooldownMs), this.put(['was-down', base], {}, cooldownMs + PROBE_DUE_MS)]);
  }

  /** Sets a lock for `ttlMs`: true for the one instance that gets it. */
  async lock(name: RecordName, ttlMs: number): Promise<boolean> {
    return this.#store.set(await this.#key(name), '1', { ttlMs, ifAbsent: true });
  }

  /** Writes a record (what it says, when, for how long): in this process's memory at once, and in the store for the fleet. */
  async put(name: RecordName, fields: Record<string, unknown>, ttlMs: number): Promise<void> {
    const value = recordText(ttlMs, fields);
    this.#fleet.remember(name, value, ttlMs);
    if (this.#fleet.shared) await this.#store.set(await this.#key(name), value, { ttlMs });
  }

  /** Removes records from the store (this process's memory forgot them already). */
  async drop(names: RecordName[]): Promise<void> {
    this.#fleet.forget(names);
    await this.#store.delete(await Promise.all(names.map((name) => this.#key(name))));
  }

  /** The call's share of `limits` (one request, its estimated tokens): reserved now, waited for before sending. */
  async #hold(call: FleetCall, model: string | undefined): Promise<void> {
    const { limits, retry, main } = this.#fleet.settings;
    const { requestsPerMinute: rpm, tokensPerMinute: tpm } = limits ?? {};
    const tokens = estimateTokens(call.body);
    const budget = call.budgetMs();
    // The bucket refuses a share further off than the call may wait (the same rule as judgeWait's).
    const maxWaitMs = budget === undefined ? retry.maxRetryAfterMs : Math.max(0, Math.min(retry.maxRetryAfterMs, budget - 1));
    const budgets: Array<[RecordName, number, number]> = [];
    if (rpm) budgets.push([['rpm'], rpm, 1]);
    if (tpm && tokens > 0) budgets.push([['tpm'], tpm, Math.min(tokens, tpm)]);
    // Both in one round trip (a store client pipelines them).
    const takes = await Promise.all(budgets.map(([name, per, amount]) => this.#take(name, { amount, ...perSecond(per), maxWaitMs })));
    const refused = takes.find((take) => !take.taken);
    if (refused) {
      // One was taken and the other refused: give back what was taken, so nothing is reserved.
      await Promise.all(budgets.map(([name, per, amount], i) => (takes[i]?.taken ? this.#take(name, { amount: -amount, ...perSecond(per), maxWaitMs: 0 }) : undefined)));
      const waitMs = boundWait(refused.waitMs);
      throw call.refused('rate_limit_exceeded', `The fleet's rate budget (limits) would take ${waitMs} ms to allow this call, more than it may wait; nothing was sent`, waitMs);
    }
    call.tokens = budgets.some(([name]) => name[0] === 'tpm') ? Math.min(tokens, tpm as number) : 0;
    const waitMs = Math.max(0, ...takes.map((take) => take.waitMs));
    if (waitMs > 0) {
      this.#tell(call, { event: 'held', baseURL: main, model, waitMs });
      await pauseFor(call, waitMs);
    }
  }

  #recheckMs(): number {
    return this.#fleet.settings.cooldownMs || QUOTA_RECHECK_MS;
  }

  #take(name: RecordName, take: { amount: number; perMs: number; capacity: number; maxWaitMs: number }): Promise<{ taken: boolean; waitMs: number }> {
    return this.#key(name).then((key) => this.#store.take(key, take));
  }

  /** Tells the hooks and the logger (through the fleet) and telemetry what the fleet's state did to the call. */
  #tell(call: FleetCall, info: FleetInfo): void {
    this.#fleet.tell(info);
    call.observer?.fleet?.(info);
  }

  /**
   * A record's key in the store: `{<account>}:f<format>:<kind>`, then hashes of the base URL and
   * model (the braces are a Redis Cluster hash tag: one account's records share one slot, so a
   * read of several is one command; nothing secret or readable is in a key).
   */
  async #key([kind, base, model]: RecordName): Promise<string> {
    if (!this.#fleet.shared) return nameOf(kind, base, model);
    const { accountKey, main, backup } = this.#fleet.settings;
    // The account and base URLs together: two gateways with one key do not share health.
    this.#account ??= hashKey(`${accountKey?.() ?? ''}\n${main}\n${backup ?? ''}`).then((hash) => hash.slice(0, 24));
    let key = `{${await this.#account}}:f${FLEET_FORMAT}:${kind}`;
    if (base !== undefined) key += `:${await this.#hash(base)}`;
    if (model !== undefined) key += `:${await this.#hash(`model\n${model}`)}`;
    return key;
  }

  async #hash(text: string): Promise<string> {
    let hash = this.#hashes.get(text);
    if (hash === undefined) {
      if (this.#hashes.size > 1_000) this.#hashes.clear();
      hash = (await hashKey(text)).slice(0, 24);
      this.#hashes.set(text, hash);
    }
    return hash;
  }
}

/** Waits `ms`, or until the call is stopped (its signal: an abort, its totalTimeout). */
async function pauseFor(call: FleetCall, ms: number): Promise<void> {
  await sleep(ms, call.signal).catch(() => {
    throw call.stopped(`${call.request.method} ${call.path}`);
  });
}

/** A rate as a bucket: refilled evenly, about a second's worth (at least one) at once. */
function perSecond(perMinute: number): { perMs: number; capacity: number } {
  return { perMs: perMinute / 60_000, capacity: Math.max(1, perMinute / 60) };
}
