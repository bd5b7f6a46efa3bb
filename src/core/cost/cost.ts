import { isRecord } from '../../internal/is-record.js';
import { ValidationError } from '../errors.js';
import type { Store } from '../store/store.js';


// What a client prices, budgets and reports (docs/cost.md): the public types, and the checks
// of the options that name them, run at construction and at each call before anything is
// sent. The pricing itself (stage.ts and what it uses) is loaded with the first call of a
// client that has `cost` or `budgets`: a client without them carries none of it.

/** An amount as the gateway keeps it (quota units) and in US dollars (null where the gateway's unit is not money). */
export interface Amount {
  quota: number;
  usd: number | null;
}

/**
 * What one call cost: `priced` with the gateway's own ratios (`/api/pricing`, `/api/status`),
 * `billed` once the gateway's log for its request id says what was charged, `estimated`
 * where a figure was missing (a tiered model's expression the client cannot evaluate, a
 * stream cut before its usage, a raw `asResponse()` body it never read).
 */
export interface Cost extends Amount {
  source: 'priced' | 'billed' | 'estimated';
}

/** Tags of a call: who or what it is for (`tenant`, `feature`, `user`). Spend is kept per tag; budgets select calls by them. */
export type CostTags = Readonly<Record<string, string>>;

/** Told when a call is priced, and again, with the difference, when the gateway billed another figure: the sum of `delta` is what was billed. */
export interface CostEvent {
  /** The model that answered (a fallback's, after one). */
  model: string;
  /** The call's cost as now known. */
  cost: Cost;
  /** What this event adds: the whole price the first time, then billed − priced. */
  delta: Amount;
  /** The gateway's `X-Oneapi-Request-Id` (else `x-request-id`), or null. */
  requestID: string | null;
  tags: CostTags;
}

/** A budget's window: calendar hours, days and months in UTC, or for as long as the store keeps it. */
export type BudgetWindow = 'hour' | 'day' | 'month' | 'total';

/**
 * A limit on what the calls it selects may cost together, across every process on the store:
 * a call that could break it is refused before it is sent (`BudgetExceededError`).
 * @example { name: 'acme-daily', usd: 5, per: 'day', where: { tenant: 'acme' } }
 */
export interface Budget {
  /** Names the budget in errors and in the store; unique among the client's budgets. */
  name: string;
  /** The limit in US dollars, compared in quota (`usd` × the gateway's `quota_per_unit`). */
  usd: number;
  per: BudgetWindow;
  /** The calls it holds: those whose `tags` have every one of these values. @default every call */
  where?: CostTags | undefined;
}

/** The client's `cost` option: `true`, or the gateway group the key bills in when it may use several. */
export type CostOption = boolean | { group?: string | undefined };

/** What the key may still spend, from the gateway (`/api/usage/token`, else the OpenAI-shaped billing endpoints). */
export interface Balance {
  granted: Amount;
  used: Amount;
  available: Amount;
  unlimited: boolean;
  /** null when the key does not expire. */
  expiresAt: Date | null;
  /** Which endpoint said so. */
  source: 'usage-token' | 'dashboard';
}

/** Spend recorded in this client's store, by one tag. */
export interface SpendReport {
  /** The tag grouped by. */
  by: string;
  /** The start of the first UTC day counted (spend is kept per day). */
  since: Date;
  total: Amount;
  /** One row per value of the tag, the most spent first; `value` null for calls without the tag. */
  groups: Array<Amount & { value: string | null }>;
}

/** What the client resolved of `cost`, `budgets` and `onCost`. */
export interface CostSettings {
  group: string | undefined;
  budgets: readonly Budget[];
  onCost: ((event: CostEvent) => void) | undefined;
}

const WINDOWS: readonly string[] = ['hour', 'day', 'month', 'total'];
/** The most budgets a client takes, and tags a call carries: each one is a store operation per call. */
const MAX_BUDGETS = 100;
const MAX_TAGS = 16;
const MAX_TAG_CHARS = 256;

/** `cost`, `budgets` and `onCost`, checked: undefined when none is set (then no call is priced). */
export function resolveCost(options: { cost?: unknown; budgets?: unknown; onCost?: unknown; store?: Store | undefined }): CostSettings | undefined {
  const { cost, budgets, onCost } = options;
  if (cost !== undefined && typeof cost !== 'boolean' && !(isRecord(cost) && Object.keys(cost).every((k) => k === 'group') && (cost.group === undefined || (typeof cost.group === 'string' && cost.group !== '')))) {
    throw new ValidationError('cost', 'must be true, false or { group: string }');
  }
  if (onCost !== undefined && typeof onCost !== 'function') throw new ValidationError('onCost', 'must be a function (event) => void');
  const checked = checkBudgets(budgets);
  if (!cost && checked.length === 0) {
    if (onCost !== undefined) throw new ValidationError('onCost', 'needs cost: true (or budgets): without them no call is priced');
    return undefined;
  }
  return { group: isRecord(cost) ? (cost.group as string | undefined) : undefined, budgets: checked, onCost: onCost as CostSettings['onCost'] };
}

function checkBudgets(value: unknown): Budget[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ValidationError('budgets', 'must be an array of { name, usd, per, where? }');
  if (value.length > MAX_BUDGETS) throw new ValidationError('budgets', `must hold at most ${MAX_BUDGETS} budgets`);
  const names = new Set<string>();
  return value.map((budget: unknown, i) => {
    const at = `budgets[${i}]`;
    if (!isRecord(budget)) throw new ValidationError(at, 'must be an object { name, usd, per, where? }');
    for (const key of Object.keys(budget)) if (!['name', 'usd', 'per', 'where'].includes(key)) throw new ValidationError(`${at}.${key}`, 'is not a budget field (name, usd, per, where)');
    const { name, usd, per, where } = budget;
    if (typeof name !== 'string' || name === '' || name.length > 128) throw new ValidationError(`${at}.name`, 'must be a string of 1 to 128 characters');
    if (names.has(name)) throw new ValidationError(`${at}.name`, `'${name}' names two budgets`);
    names.add(name);
    if (typeof usd !== 'number' || !Number.isFinite(usd) || usd <= 0 || usd > 1e9) throw new ValidationError(`${at}.usd`, 'must be a number of US dollars above 0');
    if (typeof per !== 'string' || !WINDOWS.includes(per)) throw new ValidationError(`${at}.per`, "must be 'hour', 'day', 'month' or 'total'");
    if (where !== undefined) checkTags(`${at}.where`, where);
    return { name, usd, per: per as BudgetWindow, ...(where === undefined ? {} : { where: { ...(where as CostTags) } }) };
  });
}

/** A call's `tags` (or a budget's `where`): a map of at most MAX_TAGS strings. */
export function checkTags(field: string, value: unknown): void {
  if (value === undefined) return;
  if (!isRecord(value) || Array.isArray(value)) throw new ValidationError(field, 'must be an object of strings, e.g. { tenant: "acme" }');
  const entries = Object.entries(value);
  if (entries.length > MAX_TAGS) throw new ValidationError(field, `must hold at most ${MAX_TAGS} tags`);
  for (const [key, tag] of entries) {
    if (key === '' || key.length > 64 || key === '__proto__') throw new ValidationError(`${field}.${key}`, 'must be named by 1 to 64 characters');
    if (typeof tag !== 'string' || tag.length > MAX_TAG_CHARS) throw new ValidationError(`${field}.${key}`, `must be a string of at most ${MAX_TAG_CHARS} characters`);
  }
}

/** The client's cost state (CoreConfig.cost): its settings, how it reads the gateway, and its ledger without a store. */
export interface CostState {
  readonly settings: CostSettings;
  /** A GET of an absolute URL on the gateway's origin through the client's request path, its body as text. */
  readonly get: (url: string) => Promise<unknown>;
  /** Where budgets and spend are kept without a store: this process, shared by the clients withOptions() makes (a memory store made with the first use, cost/ledger.ts). */
  readonly memory: { store?: Store };
  /** Models missing from the gateway's table, warned about once each. */
  readonly unknown: Set<string>;
}

