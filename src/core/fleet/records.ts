import type { FleetInfo } from '../hooks.js';
import type { FleetView, RecordKind } from '../policy/fleet-rules.js';
import type { RetryPacing } from '../policy/waits.js';
import type { Store } from '../store/store.js';
import type { ModelParamRules } from '../adapt/model-rules.js';

// What a fleet is made of (fleet.ts `Fleet` over a FleetMemory), as the shared half
// (shared-fleet.ts) sees it: settings, memory, how records are named here.

/** How long a read of the store stands for this process. */
export const VIEW_MS = 200;

/** Request and token budgets for the whole fleet (`new Gateway({ limits })`). */
export interface Limits {
  /** Requests per minute, every instance on the store together. */
  requestsPerMinute?: number | undefined;
  /** Tokens per minute (estimated before sending, reconciled with the reply's usage). */
  tokensPerMinute?: number | undefined;
}

/** A client's settings of its fleet. */
export interface FleetSettings {
  main: string;
  backup: string | undefined;
  cooldownMs: number;
  limits: Limits | undefined;
  retry: RetryPacing;
  /** The API key that names this account's records in a store (hashed); undefined for a key function, which is never called for it. */
  accountKey: (() => string) | undefined;
  /** Told when the fleet's state changes what a call does. */
  onFleet: ((info: FleetInfo) => void) | undefined;
  /** The client's line logger: a store's outages. */
  log: (level: 'warn' | 'info' | 'debug', line: string) => void;
}

/** A record this process wrote, until its ttl. */
export interface Mine {
  value: string;
  expiresAt: number;
}

/**
 * What clients made by `withOptions()` share with the client they came from (unless they
 * name another store): the store, what this process learnt and last read, and its buckets.
 */
export interface FleetMemory {
  /** The user's store (its guard is put on where it is used), or undefined: this process only. */
  readonly store: Store | undefined;
  /** Records this process wrote, by local name: the whole truth without a store. */
  readonly mine: Map<string, Mine>;
  /** What the store said, by model, read at `at`. */
  readonly reads: Map<string, { at: number; values: Map<string, string> }>;
  /** What the gateway's 400s taught about each model (adapt/lessons.ts), until `expiresAt`; with a store, also what it said at the last read. */
  readonly learned: Map<string, { rules: ModelParamRules; expiresAt: number }>;
  /** The buckets of `limits` without a store, made on first use. */
  buckets?: Store | undefined;
}

/** A new fleet memory over the user's `store`, or over this process's memory alone. */
export function fleetMemory(store: Store | undefined): FleetMemory {
  return { store, mine: new Map(), reads: new Map(), learned: new Map() };
}

/** A record: its kind, and the base URL and model it is about. */
export type RecordName = [kind: string, base?: string, model?: string];

/** A record's local name (nothing leaves the process under it). */
export const nameOf = (kind: string, base = '', model = '') => `${kind}|${base}|${model}`;

/** What the shared half of a fleet uses of it (fleet.ts `Fleet` is one). */
export interface FleetParts {
  readonly settings: FleetSettings;
  readonly memory: FleetMemory;
  readonly shared: boolean;
  lastView(model: string | undefined): FleetView;
  learnt(model: string): ModelParamRules | undefined;
  viewOf(model: string | undefined, read: Map<string, string> | undefined): FleetView;
  remember(name: RecordName, value: string, ttlMs: number): void;
  forget(names: RecordName[]): void;
  tell(info: FleetInfo): void;
}

/** A record's kind, in the shared half's signatures. */
export type { RecordKind };
