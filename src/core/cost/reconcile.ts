import { APIError } from '../errors.js';
import { guardStore } from '../store/fail-open-store.js';
import type { Store } from '../store/store.js';
import type { CoreConfig } from '../types.js';
import { isRecord } from '../../internal/is-record.js';
import { readJSON } from '../../internal/read-json.js';
import { unref } from '../../internal/unref.js';
import type { Cost, CostTags } from './cost.js';
import { ledgerKey, ledgerOf, recordSpend, type Charge } from './ledger.js';
import { costIn, costOf, tell } from './events.js';
import { readGatewayInfo } from '../gateway-info/gateway-info.js';

// Reconciling: the gateway's log (`GET /api/log/token`, new-api) says what each request was
// billed, by the `X-Oneapi-Request-Id` of its answer. A priced call waits here until the log
// has it; then its budgets and spend are corrected by the difference and `onCost` told again.
// The log is read at most once per READ_EVERY_MS per fleet: with a store, the process that
// takes the lock reads it and writes every billed quota it found there for the others.

/** A priced call waiting for its billed quota. */
export interface Pending {
  id: string;
  model: string;
  priced: Cost;
  tags: CostTags;
  charge: Charge | undefined;
}

/** How often the fleet reads the log, at most; and how often a process looks for what another read. */
const READ_EVERY_MS = 5_000;
const LOOK_EVERY_MS = 1_000;
/** A call the log has not shown within this long keeps its priced cost. */
const GIVE_UP_MS = 120_000;
/** How long a billed quota stays in the store for the other processes. */
const BILLED_TTL_MS = 600_000;
/** The most pending calls per client (the oldest are given up first). */
const MAX_PENDING = 10_000;

interface Slot {
  pending: Map<string, Pending & { at: number }>;
  timer: ReturnType<typeof setTimeout> | undefined;
  lastRead: number;
  /** After a 429, the reads wait this long (doubling, to a minute). */
  backoffMs: number;
  /** The key cannot read the log (401, 403, 404): nothing is reconciled. */
  off: boolean;
}

const slots = new WeakMap<CoreConfig, Slot>();

/** Queues a priced call to be reconciled with the gateway's log. */
export function reconcileLater(config: CoreConfig, item: Pending): void {
  let slot = slots.get(config);
  if (!slot) slots.set(config, (slot = { pending: new Map(), timer: undefined, lastRead: 0, backoffMs: READ_EVERY_MS, off: false }));
  if (slot.off) return;
  if (slot.pending.size >= MAX_PENDING) slot.pending.delete(slot.pending.keys().next().value as string);
  slot.pending.set(item.id, { ...item, at: Date.now() });
  schedule(config, slot, LOOK_EVERY_MS);
}

function schedule(config: CoreConfig, slot: Slot, ms: number): void {
  if (slot.timer !== undefined || slot.pending.size === 0 || slot.off) return;
  // Unref'd: a process that has nothing else to do may exit; what is not reconciled keeps its price.
  slot.timer = unref(setTimeout(() => {
    slot.timer = undefined;
    void tick(config, slot).finally(() => schedule(config, slot, LOOK_EVERY_MS));
  }, ms));
}

/** One look: what another process found, then (when due and this process holds the lock) the log itself. */
async function tick(config: CoreConfig, slot: Slot): Promise<void> {
  const now = Date.now();
  for (const [id, item] of slot.pending) if (now - item.at > GIVE_UP_MS) slot.pending.delete(id);
  if (slot.pending.size === 0) return;
  const shared = config.fleet.memory.store ? guardStore(config.fleet.memory.store, config.fleet.settings.log) : undefined;
  try {
    if (shared) await resolveFrom(config, slot, await readBilled(config, shared, [...slot.pending.keys()]));
    if (slot.pending.size === 0 || now - slot.lastRead < slot.backoffMs) return;
    if (shared && !(await shared.set(await ledgerKey(config, 'log-lock'), '1', { ttlMs: READ_EVERY_MS, ifAbsent: true }))) return;
    slot.lastRead = Date.now();
    const billed = await readLog(config);
    slot.backoffMs = READ_EVERY_MS;
    if (shared) await Promise.all([...billed].map(async ([id, quota]) => shared.set(await ledgerKey(config, `billed:${id}`), String(quota), { ttlMs: BILLED_TTL_MS })));
    await resolveFrom(config, slot, billed);
  } catch (error) {
    if (error instanceof APIError && (error.status === 401 || error.status === 403 || error.status === 404)) {
      slot.off = true;
      slot.pending.clear();
      config.fleet.settings.log('info', `[unified-gateway] the gateway's log (/api/log/token) cannot be read with this key (${error.status}): costs stay as priced`);
    } else if (error instanceof APIError && error.status === 429) {
      slot.backoffMs = Math.min(60_000, slot.backoffMs * 2);
    }
  }
}

/** Settles each pending call the log (or another process) has a billed quota for. */
async function resolveFrom(config: CoreConfig, slot: Slot, billed: Map<string, number>): Promise<void> {
  const info = await readGatewayInfo(config, costOf(config).get).catch(() => null);
  for (const [id, quota] of billed) {
    const item = slot.pending.get(id);
    if (!item || !info) continue;
    slot.pending.delete(id);
    // A bill beyond any price of this call (a hundredfold, and $2 above it at the default unit), or below a tenth of it, is not believed: the call keeps its price.
    if (quota > item.priced.quota * 100 + 1_000_000 || quota * 10 < item.priced.quota) {
      config.fleet.settings.log('warn', `[unified-gateway] the gateway's log says request ${id} cost ${quota} quota, priced at ${item.priced.quota}: not believed, the price stands`);
      continue;
    }
    const delta = quota - item.priced.quota;
    const cost = costIn(info, quota, 'billed');
    config.fleet.settings.log('debug', `[unified-gateway] reconciled ${id} (${item.model}): billed ${quota} quota, priced ${item.priced.quota}`);
    if (delta !== 0) {
      await item.charge?.settle(quota);
      await recordSpend(ledgerOf(config), item.tags, delta);
    }
    // onCost hears again only of a difference: the sum of deltas is the bill either way.
    if (delta !== 0) tell(config, { model: item.model, cost, delta: { quota: delta, usd: cost.usd === null ? null : delta / info.quotaPerUnit }, requestID: id, tags: item.tags });
  }
}

/** Billed quotas another process wrote to the store, for these request ids. */
async function readBilled(config: CoreConfig, store: Store, ids: string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const values = await store.get(await Promise.all(ids.map((id) => ledgerKey(config, `billed:${id}`))));
  ids.forEach((id, i) => {
    const quota = quotaIn(values[i] === null ? undefined : Number(values[i]));
    if (quota !== undefined) found.set(id, quota);
  });
  return found;
}

/** The newest page of the key's log: billed quota by request id. */
async function readLog(config: CoreConfig): Promise<Map<string, number>> {
  const origin = new URL(config.pool.main).origin;
  const text = await costOf(config).get(`${origin}/api/log/token`);
  const body = readJSON(text, 16 * 2 ** 20);
  const billed = new Map<string, number>();
  /** Request ids met with two different quotas: neither row is believed. */
  const conflicting = new Set<string>();
  if (!isRecord(body) || body.success === false) return billed;
  const data = isRecord(body.data) && Array.isArray(body.data.items) ? body.data.items : Array.isArray(body.data) ? body.data : [];
  for (const log of data.slice(0, 1_000)) {
    if (!isRecord(log) || typeof log.request_id !== 'string' || log.request_id === '' || log.request_id.length > 128) continue;
    // Type 2 is a consumption in new-api's log (model/log.go LogTypeConsume); other types (top-ups, refunds) are not a call's bill.
    if (log.type !== undefined && log.type !== 2) continue;
    const quota = quotaIn(log.quota);
    if (quota === undefined) continue;
    // One bill per request: a request id met again with another quota (a forged or broken row) is believed in neither.
    const seen = billed.get(log.request_id);
    if (seen !== undefined && seen !== quota) conflicting.add(log.request_id);
    billed.set(log.request_id, quota);
  }
  for (const id of conflicting) billed.delete(id);
  return billed;
}

/** A quota from the network or the store: a whole number from 0 to 1e15, else unknown. */
const quotaIn = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2 ** 53 ? value : undefined);
