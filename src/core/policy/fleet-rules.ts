import { isRecord } from '../../internal/is-record.js';
import type { FailureKind } from './decide.js';
import { MAX_SERVER_WAIT_MS } from './waits.js';

// What the state a fleet shares means for one call, decided by pure functions over plain
// data (test/core/fleet-rules.test.ts tests them as tables); fleet/fleet.ts reads and writes
// the records and decides nothing itself.
//
// Three gates, each kept as records that expire by their ttl in the store, so no instance
// compares its clock with another's (docs/fleet.md, "What is shared"):
// - a base's health: `down` (for failoverCooldown), then `was-down` until one instance has
//   probed it back;
// - a model's pause on a base after a 429: `pause` (as long as the server asked, or a backoff
//   that grows while the 429s go on), then `was-paused` until one instance has been answered;
// - the account's quota: `quota` (for failoverCooldown), then `was-quota` until a probe is answered.
// While the first record lives the gate is closed; once only the second is left, one instance
// at a time (holding a lock) probes, and an answer clears both.

/** The format of every record, in its key: processes of two versions never read each other's records (a rolling upgrade). */
export const FLEET_FORMAT = 2;

/**
 * How far two hosts' clocks may disagree. A record says when it was written and for how long
 * (`at`, `ttl`): one read back longer than that after it was written, and this much more, has
 * outlived its ttl (a store that lost it, a hand edit, a record of another version) and is
 * ignored; a pause is never waited longer than its own length, whoever's clock wrote it.
 */
export const CLOCK_SKEW_MS = 60_000;

/** The longest ttl a record may say it has (failoverCooldown's own bound, about 24.8 days). */
const MAX_RECORD_TTL_MS = 2 ** 31 - 1;

/**
 * Failures that say a base is down (no answer at all: refused, reset, timed out; or a 5xx
 * from another model than the last one) that mark it down for the fleet, with no answer from
 * the base between them. One failure says little: a slow generation, one model's upstream.
 */
export const DOWN_AFTER = 2;

/** How long a failure counts as evidence against its base (longer, and two failures are unrelated). */
export const EVIDENCE_MS = 600_000;

/** A model's 5xx counts against its base once in this time: one model's failures are that model's, not the base's. */
export const MODEL_5XX_MS = 60_000;

/** How long a `was-…` record outlives its gate's closed period: the time a probe has to happen in. */
export const PROBE_DUE_MS = 600_000;

/** After a pause, how long the instances that did not win its probe wait for the probe's answer, at most. */
export const PAUSE_PROBE_WAIT_MS = 5_000;

/** The longest message a quota record keeps (the gateway's words, quoted in refusals). */
const MAX_MESSAGE = 300;

/** A model's pause on a base: nobody sends there until the record expires; `at` and `ms` (when it was written, how long it is) only say how long to sleep before looking again. */
export interface PauseRecord {
  at: number;
  ms: number;
}

/** The pauses a model had in a row without an answer (429s without `Retry-After` grow the next). */
export interface PausedRecord {
  strikes: number;
}

/** The account's quota ran out, as the gateway said at `at`. */
export interface QuotaRecord {
  at: number;
  /** The server's message, as the refusal quotes it (never the request's URL: the store holds no base URL). */
  message: string;
}

/** A gate: `open` (send), `closed` (do not), or `probe-due` (one instance, holding a lock, may try). */
export type Gate = 'open' | 'closed' | 'probe-due';

/** What the fleet knows that concerns one call (one model), as read from its records. */
export interface FleetView {
  quota: QuotaRecord | undefined;
  quotaWas: boolean;
  /** Per base URL: whether its `down`, `was-down` and evidence records exist. */
  down: Readonly<Record<string, boolean | undefined>>;
  downWas: Readonly<Record<string, boolean | undefined>>;
  evidence: Readonly<Record<string, boolean | undefined>>;
  /** Per base URL, for the call's model. */
  pause: Readonly<Record<string, PauseRecord | undefined>>;
  paused: Readonly<Record<string, PausedRecord | undefined>>;
}

/** A view with nothing in it. */
export const EMPTY_VIEW: FleetView = { quota: undefined, quotaWas: false, down: {}, downWas: {}, evidence: {}, pause: {}, paused: {} };

/** The record kinds, and what each value must be when read back (store data is untrusted input). */
export type RecordKind = 'down' | 'was-down' | 'evidence' | 'pause' | 'was-paused' | 'quota' | 'was-quota';

/**
 * A record's value as written: what it says (`fields`), when it was written and for how long
 * (its ttl in the store is the same), so that a reader can tell a record that outlived it.
 */
export function recordText(ttlMs: number, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...fields, at: Date.now(), ttl: ttlMs });
}

/**
 * A record's value as read back from a store, checked: the record, or undefined when it is
 * absent, of the wrong shape, or stale (read more than CLOCK_SKEW_MS after its own ttl ran
 * out); then it is ignored, as if absent: never an error, never a number out of bounds. An
 * evidence bucket is whatever its store wrote (only its existence counts).
 */
export function readRecord(kind: RecordKind, text: string | null | undefined, now: number): PauseRecord | PausedRecord | QuotaRecord | true | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  if (kind === 'evidence') return true;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !isTime(value.at) || typeof value.ttl !== 'number' || !(value.ttl > 0 && value.ttl <= MAX_RECORD_TTL_MS)) return undefined;
  if (now > value.at + value.ttl + CLOCK_SKEW_MS) return undefined;
  if (kind === 'down' || kind === 'was-down' || kind === 'was-quota') return true;
  if (kind === 'pause') return { at: value.at, ms: Math.min(value.ttl, MAX_SERVER_WAIT_MS) };
  if (kind === 'was-paused') return Number.isInteger(value.strikes) && (value.strikes as number) >= 0 ? { strikes: Math.min(value.strikes as number, 30) } : undefined;
  return typeof value.message === 'string' ? { at: value.at, message: value.message.slice(0, MAX_MESSAGE) } : undefined;
}

/** A time in ms since the epoch that a record may hold: finite, after 2020 and before 2100. */
const isTime = (n: unknown): n is number => typeof n === 'number' && n > 1.5e12 && n < 4.1e12;

/** The quota gate. */
export const quotaGate = (view: FleetView): Gate => (view.quota ? 'closed' : view.quotaWas ? 'probe-due' : 'open');

/** A base's health gate. */
export const healthGate = (view: FleetView, base: string): Gate => (view.down[base] ? 'closed' : view.downWas[base] ? 'probe-due' : 'open');

/** The call's model's pause gate on a base. */
export const pauseGate = (view: FleetView, base: string): Gate => (view.pause[base] ? 'closed' : view.paused[base] ? 'probe-due' : 'open');

/** Whether a retry may go to `base` now: it is not down for the fleet (a probe may be due). */
export const isAvailable = (view: FleetView, base: string): boolean => healthGate(view, base) !== 'closed';

/** Where a call's first attempt goes; `probe` when it would be the one to try a base back (it must hold the probe lock, else `otherwise`). */
export interface BaseChoice {
  base: string;
  probe: boolean;
}

/**
 * The main base, unless the fleet knows it is down and there is a backup: then the backup,
 * except when a probe of the main is due: then the main for the one instance that takes
 * the probe lock (the caller takes it, and goes to the backup without it).
 */
export function chooseBase(view: FleetView, bases: { main: string; backup: string | undefined }): BaseChoice {
  const gate = healthGate(view, bases.main);
  if (gate === 'open' || !bases.backup) return { base: bases.main, probe: false };
  return gate === 'probe-due' ? { base: bases.main, probe: true } : { base: bases.backup, probe: false };
}

/**
 * What a failed attempt teaches the fleet:
 * - `quota`: the account is out of credit (a quota error, whatever its status);
 * - `pause`: a 429 that is not a quota error: that model pauses on that base, for the
 *   server's `Retry-After` (bounded) or, without one, a backoff that grows with each 429 in a row;
 * - `evidence`: no answer at all (refused, reset, timed out): evidence against the base;
 * - `model-5xx`: a 5xx: evidence against the base once per model per {@link MODEL_5XX_MS};
 * - nothing for the rest (a 4xx is the request's, a missing model the model's).
 */
export type Lesson = { kind: 'quota'; message: string } | { kind: 'pause'; retryAfterMs: number | null } | { kind: 'evidence' } | { kind: 'model-5xx' } | undefined;

export function lessonOf(failure: { kind: FailureKind; status: number | null; quotaMessage: string | undefined; retryAfterMs: number | null }): Lesson {
  if (failure.kind === 'quota') return { kind: 'quota', message: (failure.quotaMessage ?? 'insufficient_quota').slice(0, MAX_MESSAGE) };
  if (failure.status === 429) return { kind: 'pause', retryAfterMs: failure.retryAfterMs };
  if (failure.kind === 'connection') return { kind: 'evidence' };
  if (failure.kind === 'unavailable' && failure.status !== null && failure.status >= 500) return { kind: 'model-5xx' };
  return undefined;
}
