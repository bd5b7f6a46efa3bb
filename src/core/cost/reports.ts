import { APIError, GatewayError, ValidationError } from '../errors.js';
import { guardStore } from '../store/fail-open-store.js';
import type { GetText } from '../gateway-info/gateway-info.js';
import { readGatewayInfo } from '../gateway-info/gateway-info.js';
import { DEFAULT_QUOTA_PER_UNIT } from '../gateway-info/pricing-schema.js';
import type { CoreConfig } from '../types.js';
import { isRecord } from '../../internal/is-record.js';
import { readJSON } from '../../internal/read-json.js';
import type { Amount, Balance, SpendReport } from './cost.js';
import { ledgerKey, ledgerOf, readSpend, SPEND_DAYS } from './ledger.js';

// What a client reports of money (docs/cost.md): what its store recorded by tag (`spend`),
// and what the key may still spend (`balance`): new-api's `GET /api/usage/token` (controller/
// token.go GetTokenUsage: `{ code: true, data: { total_granted, total_used, total_available,
// unlimited_quota, expires_at } }` in quota units, expires_at in unix seconds, 0 for never),
// else the OpenAI-shaped `/dashboard/billing/subscription` and `/usage` (USD; usage in cents;
// errors come as HTTP 200 with an `error` body). The gateway rate-limits these as critical
// queries, so an answer is kept BALANCE_TTL_MS per client and, with a store, for the fleet.

const BALANCE_TTL_MS = 30_000;
/** The most quota a figure may say (new-api keeps quota in an int); more is not believed. */
const MAX_QUOTA = 2 ** 53;

/** What the store recorded by the tag `by` since the UTC day that holds `since` (default: today; at most SPEND_DAYS back), in quota and USD. */
export async function spendReport(config: CoreConfig, get: GetText, query: { by: string; since?: Date | number | undefined }): Promise<SpendReport> {
  if (typeof query !== 'object' || query === null || typeof query.by !== 'string' || query.by === '') throw new ValidationError('by', 'must name a tag, e.g. { by: "tenant" }');
  const { by } = query;
  const since = query.since === undefined ? Date.now() : query.since instanceof Date ? query.since.getTime() : query.since;
  if (typeof since !== 'number' || !Number.isFinite(since)) throw new ValidationError('since', 'must be a Date or a time in ms');
  // Spend is kept SPEND_DAYS: an earlier start reads from there.
  const from = Math.max(since, Date.now() - SPEND_DAYS * 86_400_000);
  if (!config.cost) throw new GatewayError('spend() reports what the client recorded: give the client cost: true (or budgets).');
  const [spent, info] = await Promise.all([readSpend(ledgerOf(config), by, from), readGatewayInfo(config, get).catch(() => null)]);
  const perUnit = info?.quotaPerUnit ?? DEFAULT_QUOTA_PER_UNIT;
  const amount = (quota: number): Amount => ({ quota, usd: info?.displayType === 'TOKENS' ? null : quota / perUnit });
  const groups = [...spent.groups].map(([value, quota]) => ({ value: value as string | null, ...amount(quota) }));
  const tagged = groups.reduce((sum, g) => sum + g.quota, 0);
  // Calls without the tag: the days' totals less what the tag's values account for.
  if (spent.total - tagged > 0) groups.push({ value: null, ...amount(spent.total - tagged) });
  return { by, since: new Date(spent.since), total: amount(spent.total), groups: groups.sort((a, b) => b.quota - a.quota) };
}

const known = new WeakMap<CoreConfig, { balance: Promise<Balance>; until: number }>();

/** The key's balance: from this client's last read, the fleet's (with a store), or the gateway. */
export function readBalance(config: CoreConfig, get: GetText): Promise<Balance> {
  const held = known.get(config);
  if (held && Date.now() < held.until) return held.balance;
  const balance = load(config, get);
  known.set(config, { balance, until: Date.now() + BALANCE_TTL_MS });
  // A failure is not kept: the next call asks again.
  balance.catch(() => known.delete(config));
  return balance;
}

async function load(config: CoreConfig, get: GetText): Promise<Balance> {
  const store = config.fleet.memory.store ? guardStore(config.fleet.memory.store, config.fleet.settings.log) : undefined;
  const key = store ? await ledgerKey(config, 'balance') : '';
  if (store) {
    const stored = decode(readJSON((await store.get([key]))[0], 4_096));
    if (stored) return stored;
  }
  const info = await readGatewayInfo(config, get).catch(() => null);
  const perUnit = info?.quotaPerUnit ?? DEFAULT_QUOTA_PER_UNIT;
  const money = info?.displayType !== 'TOKENS';
  const origin = new URL(config.pool.main).origin;
  const balance = (await fromUsageToken(get, origin, perUnit, money)) ?? (await fromDashboard(get, origin, perUnit, money));
  if (!balance) throw new GatewayError(`${origin} answers neither /api/usage/token nor /dashboard/billing/subscription with a balance: it is not a new-api gateway, or they are turned off.`);
  if (store) await store.set(key, JSON.stringify(encode(balance)), { ttlMs: BALANCE_TTL_MS });
  return balance;
}

/** new-api's own: quota units. */
async function fromUsageToken(get: GetText, origin: string, perUnit: number, money: boolean): Promise<Balance | undefined> {
  const body = await getJSON(get, `${origin}/api/usage/token`);
  if (!isRecord(body) || body.code !== true || !isRecord(body.data)) return undefined;
  const { total_granted, total_used, total_available, unlimited_quota, expires_at } = body.data;
  const [granted, used, available] = [total_granted, total_used, total_available].map(quotaIn);
  if (granted === undefined || used === undefined || available === undefined) return undefined;
  const expires = typeof expires_at === 'number' && Number.isFinite(expires_at) && expires_at > 0 && expires_at < 1e11 ? new Date(expires_at * 1000) : null;
  const amount = (quota: number): Amount => ({ quota, usd: money ? quota / perUnit : null });
  return { granted: amount(granted), used: amount(used), available: amount(available), unlimited: unlimited_quota === true, expiresAt: expires, source: 'usage-token' };
}

/** The OpenAI-shaped fallback: USD (usage in cents). */
async function fromDashboard(get: GetText, origin: string, perUnit: number, money: boolean): Promise<Balance | undefined> {
  const [subscription, usage] = await Promise.all([getJSON(get, `${origin}/dashboard/billing/subscription`), getJSON(get, `${origin}/dashboard/billing/usage`)]);
  if (!isRecord(subscription) || 'error' in subscription || !isRecord(usage) || 'error' in usage) return undefined;
  const limit = usdIn(subscription.hard_limit_usd);
  const cents = usdIn(usage.total_usage);
  if (limit === undefined || cents === undefined) return undefined;
  const amount = (usd: number): Amount => ({ quota: Math.round(usd * perUnit), usd: money ? usd : null });
  const used = cents / 100;
  const until = usdIn(subscription.access_until);
  // new-api says an unlimited key's limit is 100,000,000 USD.
  return { granted: amount(limit), used: amount(used), available: amount(Math.max(0, limit - used)), unlimited: limit >= 1e8, expiresAt: until ? new Date(until * 1000) : null, source: 'dashboard' };
}

/** A GET's body parsed, or undefined where the gateway has no such route (404, 405, an HTML page). */
async function getJSON(get: GetText, url: string): Promise<unknown> {
  try {
    return readJSON(await get(url), 1 * 2 ** 20);
  } catch (error) {
    if (error instanceof APIError && (error.status === 404 || error.status === 405)) return undefined;
    throw error;
  }
}

const quotaIn = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_QUOTA ? v : undefined);
const usdIn = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1e12 ? v : undefined);

/** A balance as the store keeps it, and read back (untrusted: anything off is a miss). */
function encode(b: Balance) {
  return { v: 1, at: Date.now(), b: { ...b, expiresAt: b.expiresAt?.getTime() ?? null } };
}

function decode(value: unknown): Balance | undefined {
  if (!isRecord(value) || value.v !== 1 || typeof value.at !== 'number' || Date.now() - value.at > BALANCE_TTL_MS || value.at > Date.now() + 5_000 || !isRecord(value.b)) return undefined;
  const { granted, used, available, unlimited, expiresAt, source } = value.b;
  const amount = (a: unknown): Amount | undefined => (isRecord(a) && quotaIn(a.quota) !== undefined && (a.usd === null || usdIn(a.usd) !== undefined) ? { quota: a.quota as number, usd: a.usd as number | null } : undefined);
  const [g, u, av] = [amount(granted), amount(used), amount(available)];
  if (!g || !u || !av || typeof unlimited !== 'boolean' || (source !== 'usage-token' && source !== 'dashboard') || !(expiresAt === null || (typeof expiresAt === 'number' && Number.isFinite(expiresAt)))) return undefined;
  return { granted: g, used: u, available: av, unlimited, expiresAt: expiresAt === null ? null : new Date(expiresAt), source };
}
