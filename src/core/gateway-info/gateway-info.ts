import { readJSON } from '../../internal/read-json.js';
import { sleep } from '../../internal/sleep.js';
import { anySignal, untilAborted } from '../../internal/signals.js';
import { APIError, APIUserAbortError } from '../errors.js';
import { guardStore } from '../store/fail-open-store.js';
import { hashKey } from '../store/hash-key.js';
import type { Store } from '../store/store.js';
import type { CoreConfig } from '../types.js';
import { decodePricing, decodeStatus, DEFAULT_QUOTA_PER_UNIT, encodePricing, encodeStatus, type PricingEntry } from './pricing-schema.js';

export type { EndpointType, PricingEntry } from './pricing-schema.js';

// What the gateway says about itself on new-api's accounting endpoints (design/REALITIES.md,
// "Accounting endpoints"): its price table (/api/pricing, which also says the endpoint each
// model answers on) and its quota unit (/api/status). Both live at the origin's root, not under
// the base URL's /v1. Read at most once a minute per client, and, with a store, once a minute
// per fleet: the gateway itself refreshes the table every 60 s (model/pricing.go GetPricing).

/**
 * A GET of an absolute URL on the gateway's origin through the client's request path, its body
 * as text (resources/models `Models._gatewayInfo` gives it: this folder does not import the path).
 */
export type GetText = (url: string) => Promise<unknown>;

/**
 * The gateway's price table and quota unit, as read from `/api/pricing` and `/api/status`.
 * Field names are camelCase ({@link PricingEntry} lists what each one was called on the wire).
 */
export interface GatewayPricing {
  /** By model id. */
  models: Map<string, PricingEntry>;
  /** `group_ratio`: the multiplier of each group this key may use. */
  groupRatio: Record<string, number>;
  /** `usable_group`: the groups this key may use, with the gateway's description of each. */
  usableGroups: Record<string, string>;
  /** `quota_per_unit`: quota units per USD. @default 500000 when `/api/status` does not say */
  quotaPerUnit: number;
  /** `quota_display_type` (newer gateways; from `display_in_currency` on older ones), or null when not said. */
  displayType: 'USD' | 'CNY' | 'TOKENS' | (string & {}) | null;
  /** When the table was fetched (ms since the epoch), by whichever process of the fleet fetched it. */
  fetchedAt: number;
}

/** How long a table stands, in memory and in the store: the gateway refreshes its own every 60 s. */
export const GATEWAY_INFO_TTL_MS = 60_000;
/** The format of what the store keeps: a value of another format is a miss. */
const STORE_FORMAT = 1;
/** How long the one process that fetches holds the lock (its fetch may take no longer for the others to wait). */
const LOCK_MS = 10_000;
/** How long a process waits for the one that holds the lock before it fetches itself; and how often it looks meanwhile. */
const LOCK_WAIT_MS = 2_000;
const POLL_MS = 100;
/** A stored value longer than this is not read (10,000 entries take about 3 MB). */
const MAX_STORED_CHARS = 16 * 2 ** 20;

/** How long a read that failed (a 5xx, a network error, a 401) is not tried again: its error is given at once meanwhile. */
const FAILED_MS = 10_000;

interface Slot {
  /** The last answer (null: the gateway has no such endpoints) and until when it stands. */
  known?: { info: GatewayPricing | null; until: number } | undefined;
  /** The last read's failure and until when it stands. */
  failed?: { error: unknown; until: number } | undefined;
  /** A caller gave up waiting for the read under way (`waitMs`). */
  stalled?: boolean | undefined;
  /** The read under way, shared by every caller meanwhile. */
  pending?: Promise<GatewayPricing | null> | undefined;
  warned: boolean;
}

/**
 * What was read, and the read under way: per fleet memory (one account's clients, those
 * withOptions() makes among them) and main base URL.
 */
const slots = new WeakMap<object, Map<string, Slot>>();

function slotOf(config: CoreConfig): Slot {
  let byBase = slots.get(config.fleet.memory);
  if (!byBase) slots.set(config.fleet.memory, (byBase = new Map()));
  let slot = byBase.get(config.pool.main);
  if (!slot) byBase.set(config.pool.main, (slot = { warned: false }));
  return slot;
}

/**
 * The gateway's price table and quota unit, or null when the gateway does not have these
 * endpoints (a 404, an HTML page, `success: false`): then the client's logger warns once
 * (unless `quiet`), and nothing is thrown. Both GETs go through the client's request path (retries, timeouts,
 * its fetch and hooks, the key sent only to its own origin). An answer stands 60 s; calls at
 * the same time share one read; with a `store`, one process of the fleet fetches and the
 * others read what it stored. A 401 rejects with `AuthenticationError`, a gateway that keeps
 * failing with the request's error; a failed read is not tried again for 10 s (its error is
 * given at once meanwhile). Shared by the clients of one fleet memory (withOptions() makes
 * them) with the same base URL.
 * @example const info = await readGatewayInfo(configOf(client)); info?.models.get('gpt-4o')?.supportedEndpointTypes
 */
export async function readGatewayInfo(config: CoreConfig, get: GetText, options: ReadOptions = {}): Promise<GatewayPricing | null> {
  const slot = slotOf(config);
  const now = Date.now();
  if (slot.failed && now < slot.failed.until) throw slot.failed.error;
  if (slot.known && now < slot.known.until) return said(config, slot, slot.known.info, options);
  // A read that another caller already waited for in vain is not waited for again while it lasts.
  if (options.waitMs !== undefined && slot.pending && slot.stalled) throw new Error('the gateway\'s table is still being read');
  return said(config, slot, await loadShared(config, slot, get, options), options);
}

/** How a caller reads the table. */
interface ReadOptions {
  /** Stops this caller's wait (the read goes on for others). */
  signal?: AbortSignal | undefined;
  /** No warning for a gateway without the table: the caller only looks. */
  quiet?: boolean | undefined;
  /** The longest this caller waits; a read it gave up on is not waited for by the next such caller while it lasts. */
  waitMs?: number | undefined;
}

/** `info`, with the warning said once to a caller that relies on the table (not to one that only looks, `quiet`). */
function said(config: CoreConfig, slot: Slot, info: GatewayPricing | null, options: ReadOptions): GatewayPricing | null {
  if (info === null && !options.quiet && !slot.warned) {
    slot.warned = true;
    config.fleet.settings.log('warn', `[unified-gateway] ${new URL(config.pool.main).origin} has no /api/pricing or /api/status (not a new-api gateway, or they are turned off): model endpoints and prices are unknown, going on without them`);
  }
  return info;
}

/** The read under way, or a new one; not stopped by any one caller's signal: others may be waiting for the same read. */
async function loadShared(config: CoreConfig, slot: Slot, get: GetText, { signal, waitMs }: ReadOptions): Promise<GatewayPricing | null> {
  slot.pending ??= load(config, slot, get)
    .catch((error: unknown) => {
      slot.failed = { error, until: Date.now() + FAILED_MS };
      throw error;
    })
    .finally(() => {
      slot.pending = undefined;
      slot.stalled = false;
    });
  const patience = new AbortController();
  const timer = waitMs === undefined ? undefined : setTimeout(() => patience.abort(), waitMs);
  try {
    return await untilAborted(slot.pending, anySignal(signal, patience.signal));
  } catch (error) {
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
    if (!patience.signal.aborted) throw error;
    slot.stalled = true;
    throw new Error(`the gateway's table did not answer within ${waitMs} ms`);
  } finally {
    clearTimeout(timer);
  }
}

/** One read: the store's copy when it has a fresh one, else the gateway's answer (fetched once per fleet). */
async function load(config: CoreConfig, slot: Slot, get: GetText): Promise<GatewayPricing | null> {
  const shared = await sharedPlace(config);
  let info = shared ? await readStored(shared) : undefined;
  if (info === undefined) info = await fetchOnce(config, shared, get);
  slot.known = { info, until: (info?.fetchedAt ?? Date.now()) + GATEWAY_INFO_TTL_MS };
  return info;
}

/** Where the fleet keeps the table: a key per account and gateway (hashed: no key or URL is readable in it), and its lock. */
interface SharedPlace {
  store: Store;
  key: string;
  lock: string;
}

/**
 * The store's place for this client's table, or undefined: without a store, and for a key
 * function (never called to name a record, as for the fleet's records: the groups a table
 * lists are one account's, so it is not shared across keys that cannot be told apart).
 */
async function sharedPlace(config: CoreConfig): Promise<SharedPlace | undefined> {
  const { memory, settings } = config.fleet;
  if (!memory.store || !settings.accountKey) return undefined;
  try {
    // The fleet's account hash (shared-fleet.ts): one account's records share a Redis Cluster slot.
    const account = (await hashKey(`${settings.accountKey()}\n${settings.main}\n${settings.backup ?? ''}`)).slice(0, 24);
    return { store: guardStore(memory.store, settings.log), key: `{${account}}:g${STORE_FORMAT}:pricing`, lock: `{${account}}:g${STORE_FORMAT}:pricing-lock` };
  } catch {
    // No crypto.subtle: this process keeps its table in its own memory.
    return undefined;
  }
}

/** Fetches the table unless another process of the fleet is fetching it: then waits for its copy, a bounded while. */
async function fetchOnce(config: CoreConfig, shared: SharedPlace | undefined, get: GetText): Promise<GatewayPricing | null> {
  const locked = shared ? await shared.store.set(shared.lock, '1', { ttlMs: LOCK_MS, ifAbsent: true }).catch(() => true) : false;
  if (shared && !locked) {
    for (let waited = 0; waited < LOCK_WAIT_MS; waited += POLL_MS) {
      await sleep(POLL_MS);
      const found = await readStored(shared);
      if (found !== undefined) return found;
    }
  }
  try {
    const info = await fetchInfo(config, get);
    if (shared) await writeStored(shared, info);
    return info;
  } catch (error) {
    // Another process may try at once rather than wait out the lock.
    if (shared && locked) await shared.store.delete([shared.lock]).catch(() => undefined);
    throw error;
  }
}

/** Both GETs, at once. */
async function fetchInfo(config: CoreConfig, get: GetText): Promise<GatewayPricing | null> {
  const origin = new URL(config.pool.main).origin;
  const [pricingBody, statusBody] = await Promise.all([getJSON(get, `${origin}/api/pricing`), getJSON(get, `${origin}/api/status`)]);
  const pricing = decodePricing(pricingBody);
  if (!pricing) return null;
  const status = decodeStatus(statusBody);
  return { ...pricing, quotaPerUnit: status?.quotaPerUnit ?? DEFAULT_QUOTA_PER_UNIT, displayType: status?.displayType ?? null, fetchedAt: Date.now() };
}

/**
 * A GET at the origin's root, parsed: undefined when the gateway has no such route (404, 405,
 * a 403 saying `success: false`, an HTML page: new-api serves its web app for unknown paths).
 */
async function getJSON(get: GetText, url: string): Promise<unknown> {
  let text: unknown;
  try {
    text = await get(url);
  } catch (error) {
    if (error instanceof APIError && (error.status === 404 || error.status === 405 || (error.status === 403 && isRefusal(error.error)))) return undefined;
    throw error;
  }
  if (typeof text !== 'string' || text.length > MAX_STORED_CHARS) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isRefusal = (body: unknown) => typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false;

/** What the store keeps: the gateway's own shapes, read back through the same checks as a network answer. */
async function writeStored(shared: SharedPlace, info: GatewayPricing | null): Promise<void> {
  const at = info?.fetchedAt ?? Date.now();
  const value = info ? { v: STORE_FORMAT, at, pricing: encodePricing(info), status: encodeStatus(info) } : { v: STORE_FORMAT, at, absent: true };
  await shared.store.set(shared.key, JSON.stringify(value), { ttlMs: GATEWAY_INFO_TTL_MS }).catch(() => undefined);
}

/** The table in the store: a fresh one, null (the gateway has none, as another process found), or undefined for a miss (nothing, another format, anything malformed). */
async function readStored(shared: SharedPlace): Promise<GatewayPricing | null | undefined> {
  let text: unknown;
  try {
    [text] = await shared.store.get([shared.key]);
  } catch {
    return undefined;
  }
  const value = readJSON(text, MAX_STORED_CHARS);
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, at, absent, pricing, status } = value as Record<string, unknown>;
  const now = Date.now();
  // A time from the future (beyond a clock's skew) or older than the ttl is not believed.
  if (v !== STORE_FORMAT || typeof at !== 'number' || !Number.isFinite(at) || at > now + 5_000 || at <= now - GATEWAY_INFO_TTL_MS) return undefined;
  if (absent === true) return null;
  const table = decodePricing(pricing);
  const said = decodeStatus(status);
  if (!table || !said) return undefined;
  return { ...table, quotaPerUnit: said.quotaPerUnit, displayType: said.displayType, fetchedAt: at };
}
