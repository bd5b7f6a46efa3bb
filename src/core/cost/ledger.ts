import { guardStore } from '../store/fail-open-store.js';
import { hashKey } from '../store/hash-key.js';
import { MemoryStore, type Store } from '../store/store.js';
import { counterValue } from '../store/store-rules.js';
import type { CoreConfig } from '../types.js';
import { readJSON } from '../../internal/read-json.js';
import { sleep } from '../../internal/sleep.js';
import type { Budget, BudgetWindow, CostTags } from './cost.js';
import { costOf } from './events.js';

// Budgets and spend in the store (docs/cost.md): each budget window is one counter, and a call
// reserves its worst case there with one atomic `add` that refuses to pass the limit (so no
// two processes can both take the last dollar); each tag value's spend is a counter per UTC
// day, with a list of the values seen that day so `spend()` can find them. Every key is named
// under the account's hash (one Redis Cluster slot), and every value read back is checked.

/** Where budgets and spend live: the user's store (behind its guard), else this client's memory. */
export function ledgerOf(config: CoreConfig): Ledger {
  const user = config.fleet.memory.store;
  const own = costOf(config).memory;
  return { store: user ?? (own.store ??= new MemoryStore()), guarded: user !== undefined, config };
}

/** Where the ledger lives: the user's store (put behind its guard here), or the client's memory. */
export interface Ledger {
  store: Store;
  guarded: boolean;
  config: CoreConfig;
}

/** What a request reserved: settled to what it cost once answered (0 when it was not). */
export interface Charge {
  /** The quota reserved in each budget. */
  readonly quota: number;
  settle(quota: number): Promise<void>;
}

/** The format of the ledger's keys: another format is another ledger. */
const FORMAT = 1;
/** How long a day's spend is kept, and how far back `spend()` reads. */
export const SPEND_DAYS = 400;
const DAY_MS = 86_400_000;
/** The most tag values listed per tag and day (the rest still count in the day's total). */
const MAX_VALUES = 10_000;
/** A 'total' budget's counter lives this long without use. */
const TOTAL_TTL_MS = 10 * 365 * DAY_MS;

const accounts = new WeakMap<CoreConfig, Promise<string>>();
/** The values this process has listed, per list key, so each is listed once. */
const listed = new WeakMap<CoreConfig, Set<string>>();

/** The first instant of the window `per` that holds `at`, and the first of the next (null for 'total'). */
export function windowOf(per: BudgetWindow, at: number): { start: number; end: number | null } {
  const d = new Date(at);
  const [y, m, day, h] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()];
  if (per === 'hour') return { start: Date.UTC(y, m, day, h), end: Date.UTC(y, m, day, h + 1) };
  if (per === 'day') return { start: Date.UTC(y, m, day), end: Date.UTC(y, m, day + 1) };
  if (per === 'month') return { start: Date.UTC(y, m, 1), end: Date.UTC(y, m + 1, 1) };
  return { start: 0, end: null };
}

/**
 * Reserves `quota` in each budget that holds a call. A budget's window keeps what was spent
 * (settled) in one counter and what calls in flight reserved in counters per RESERVE_SLOT_MS
 * of time, each kept two slots long: a reservation is added atomically to the current slot's
 * counter, limited to what the spent and the previous slot's reservations leave. A process
 * that dies mid-call leaves its reservation only until its slot's counter expires.
 *
 * When what is spent leaves no room for the call, the budget refuses it: as spending only
 * grows, every later call of its size is refused too (none is sent after the first refusal).
 * When the room is only held by calls in flight, the call waits for them to settle below
 * their reservations (at most WAIT_MS, never past its signal: its abort or totalTimeout).
 * A refusal gives back what the other budgets reserved; the charge settles every budget to
 * the call's real cost.
 */
export async function chargeBudgets(ledger: Ledger, budgets: readonly Budget[], quota: number, quotaPerUnit: number, wait: Waiting): Promise<{ charge: Charge } | { refused: { budget: Budget; spent: number; resetsAt: Date | null } }> {
  const store = storeOf(ledger);
  const taken: Array<{ slotKey: string; spentKey: string; ttlMs: number; slotTtlMs: number }> = [];
  const addToTaken = (reserved: number, spent: number) =>
    Promise.all(taken.flatMap((place) => [reserved !== 0 ? add(store, place.slotKey, { amount: reserved, ttlMs: place.slotTtlMs }) : undefined, spent !== 0 ? add(store, place.spentKey, { amount: spent, ttlMs: place.ttlMs }) : undefined])).then(() => undefined);
  for (const budget of budgets) {
    const place = await placeOf(ledger, budget, Math.round(budget.usd * quotaPerUnit));
    const refused = await reserveIn(store, place, quota, wait);
    if (refused !== undefined) {
      await addToTaken(-quota, 0);
      return { refused: { budget, spent: refused, resetsAt: place.end === null ? null : new Date(place.end) } };
    }
    taken.push(place);
  }
  let reserved = quota;
  let spent = 0;
  return {
    charge: {
      quota,
      // The reservation leaves its slot once; what was spent follows the price, then the bill.
      async settle(cost) {
        const [unreserve, moreSpent] = [-reserved, cost - spent];
        reserved = 0;
        spent = cost;
        await addToTaken(unreserve, moreSpent);
      },
    },
  };
}

/** What a call waiting for room in a budget stops on: its signal (its abort, its totalTimeout). */
export interface Waiting {
  signal: AbortSignal | undefined;
}

/** The most a call waits for room that calls in flight hold in a budget. */
const WAIT_MS = 30_000;
/** The time slot of a reservation's counter, kept two slots: a dead process's reservation is gone within 20 minutes. */
const RESERVE_SLOT_MS = 600_000;

/** A budget's window in the store: its counter of spent quota, the reservation counters of this slot and the previous one, and the limit. */
interface Place {
  spentKey: string;
  slotKey: string;
  previousSlotKey: string;
  ttlMs: number;
  slotTtlMs: number;
  limit: number;
  end: number | null;
}

async function placeOf(ledger: Ledger, budget: Budget, limit: number): Promise<Place> {
  const now = Date.now();
  const { start, end } = windowOf(budget.per, now);
  const name = `${await short(budget.name)}:${start}`;
  const slot = Math.floor(now / RESERVE_SLOT_MS);
  const [spentKey, slotKey, previousSlotKey] = await Promise.all([ledgerKey(ledger.config, `bs:${name}`), ledgerKey(ledger.config, `br:${name}:${slot}`), ledgerKey(ledger.config, `br:${name}:${slot - 1}`)]);
  return { spentKey, slotKey, previousSlotKey, ttlMs: end === null ? TOTAL_TTL_MS : end - now + 3_600_000, slotTtlMs: 2 * RESERVE_SLOT_MS, limit, end };
}

/** Reserves `quota` in one budget's window, waiting while calls in flight hold the room; undefined when reserved, else the quota spent (the refusal). */
async function reserveIn(store: Store, place: Place, quota: number, wait: Waiting): Promise<number | undefined> {
  const until = Date.now() + WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const [spentText, previousText] = await store.get([place.spentKey, place.previousSlotKey]);
    const spent = counterValue(spentText);
    if (spent + quota > place.limit) return spent;
    const result = await add(store, place.slotKey, { amount: quota, limit: place.limit - spent - counterValue(previousText), ttlMs: place.slotTtlMs });
    if (result.added) return undefined;
    if (Date.now() + pause > until || wait.signal?.aborted) return spent;
    await sleep(pause, wait.signal).catch(() => undefined);
  }
}

/** Adds `quota` to today's spend: the day's total and each of the call's tag values. */
export async function recordSpend(ledger: Ledger, tags: CostTags, quota: number): Promise<void> {
  if (quota === 0) return;
  const store = storeOf(ledger);
  const day = windowOf('day', Date.now()).start;
  const ttlMs = SPEND_DAYS * DAY_MS;
  const writes = [add(store, await ledgerKey(ledger.config, `t:${day}`), { amount: quota, ttlMs })];
  for (const [tag, value] of Object.entries(tags)) {
    const tagHash = await short(tag);
    writes.push(add(store, await ledgerKey(ledger.config, `s:${tagHash}:${day}:${await short(value)}`), { amount: quota, ttlMs }));
    writes.push(list(ledger, store, await ledgerKey(ledger.config, `v:${tagHash}:${day}`), value).then(() => ({ added: true, total: 0 })));
  }
  await Promise.all(writes);
}

/** What the store recorded by `tag` from the UTC day that holds `since`: per value, and in all. */
export async function readSpend(ledger: Ledger, tag: string, since: number): Promise<{ since: number; total: number; groups: Map<string, number> }> {
  const store = storeOf(ledger);
  const first = Math.max(windowOf('day', since).start, windowOf('day', Date.now()).start - (SPEND_DAYS - 1) * DAY_MS);
  const days: number[] = [];
  for (let day = first; day <= Date.now(); day += DAY_MS) days.push(day);
  const tagHash = await short(tag);
  const totals = await store.get(await Promise.all(days.map((day) => ledgerKey(ledger.config, `t:${day}`))));
  const lists = await store.get(await Promise.all(days.map((day) => ledgerKey(ledger.config, `v:${tagHash}:${day}`))));
  const groups = new Map<string, number>();
  for (const [i, day] of days.entries()) {
    const values = valuesIn(lists[i]);
    if (values.length === 0) continue;
    const counts = await store.get(await Promise.all(values.map(async (value) => ledgerKey(ledger.config, `s:${tagHash}:${day}:${await short(value)}`))));
    values.forEach((value, j) => groups.set(value, (groups.get(value) ?? 0) + counterValue(counts[j])));
  }
  return { since: first, total: totals.reduce((sum: number, t) => sum + counterValue(t), 0), groups };
}


/** A list of tag values read back from the store: strings only, else empty (untrusted). */
function valuesIn(text: string | null | undefined): string[] {
  const value = readJSON(text, 4 * 2 ** 20);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, MAX_VALUES) : [];
}

/** Adds `value` to the list at `key` once per process: under a short lock, as lists change only when a new value is first seen. */
async function list(ledger: Ledger, store: Store, key: string, value: string): Promise<void> {
  let seen = listed.get(ledger.config);
  if (!seen) listed.set(ledger.config, (seen = new Set()));
  const memo = `${key}\n${value}`;
  if (seen.has(memo)) return;
  for (let tries = 0; tries < 20; tries++) {
    if (await store.set(`${key}:lock`, '1', { ttlMs: 2_000, ifAbsent: true })) {
      try {
        const [text] = await store.get([key]);
        const values = valuesIn(text);
        if (!values.includes(value) && values.length < MAX_VALUES) await store.set(key, JSON.stringify([...values, value]), { ttlMs: SPEND_DAYS * DAY_MS });
        seen.add(memo);
      } finally {
        await store.delete([`${key}:lock`]);
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10 + tries * 10));
  }
}

/** The store's windowed counter; every store the ledger uses has one (the guard and the memory store do). */
function add(store: Store, key: string, args: { amount: number; limit?: number | undefined; ttlMs: number }): Promise<{ added: boolean; total: number }> {
  if (!store.add) throw new TypeError('the ledger needs a store with add()');
  return store.add(key, args);
}

const storeOf = (ledger: Ledger): Store => (ledger.guarded ? guardStore(ledger.store, ledger.config.fleet.settings.log) : ledger.store);

/** A ledger key under the account's hash: a static key's (hashed, never readable), else the gateway's alone. */
export async function ledgerKey(config: CoreConfig, name: string): Promise<string> {
  let account = accounts.get(config);
  if (!account) {
    const { accountKey, main, backup } = config.fleet.settings;
    account = hashKey(`${accountKey?.() ?? ''}\n${main}\n${backup ?? ''}`).then((hash) => hash.slice(0, 24), () => 'local');
    accounts.set(config, account);
  }
  return `{${await account}}:c${FORMAT}:${name}`;
}

/** A name as a short, fixed-length part of a key (a tag value may hold anything). */
const short = async (text: string): Promise<string> => (await hashKey(text).catch(() => encodeURIComponent(text))).slice(0, 16);
