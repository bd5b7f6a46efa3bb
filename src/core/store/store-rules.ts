import type { BucketTake } from './rate-bucket.js';

/** A refused argument: the field, and the rule it broke (the two halves of a `ValidationError`). */
export type StoreProblem = [field: string, rule: string];

// The rules every store applies before it does anything, in one place: the memory store and
// the fail-open wrapper throw them as `ValidationError`s from here, and unified-gateway/redis
// throws the root's own class with the same words. A pure module, so that entry can bundle it
// without a second copy of the error classes.

/** What is wrong with a list of keys, or undefined when nothing is. */
export function keysProblem(keys: readonly string[]): StoreProblem | undefined {
  if (!Array.isArray(keys)) return ['keys', 'must be an array of strings'];
  const bad = keys.findIndex((k) => typeof k !== 'string');
  return bad === -1 ? undefined : [`keys[${bad}]`, 'must be a string'];
}

/** What is wrong with a `set`, or undefined when nothing is. */
export function setProblem(key: string, value: string, options: { ttlMs: number; ifAbsent?: boolean | undefined }): StoreProblem | undefined {
  if (typeof key !== 'string') return ['key', 'must be a string'];
  if (typeof value !== 'string') return ['value', 'must be a string'];
  const { ttlMs, ifAbsent } = (options ?? {}) as Partial<typeof options>;
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) return ['ttlMs', 'must be a finite number of ms above 0'];
  if (ifAbsent !== undefined && typeof ifAbsent !== 'boolean') return ['ifAbsent', 'must be a boolean'];
  return undefined;
}

/** What is wrong with a `take`, or undefined when nothing is. `maxWaitMs` may be `Infinity`. */
export function takeProblem(key: string, request: BucketTake): StoreProblem | undefined {
  if (typeof key !== 'string') return ['key', 'must be a string'];
  const { amount, perMs, capacity, maxWaitMs } = (request ?? {}) as Partial<BucketTake>;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return ['take.amount', 'must be a finite number'];
  if (typeof perMs !== 'number' || !Number.isFinite(perMs) || perMs <= 0) return ['take.perMs', 'must be a finite number above 0'];
  if (typeof capacity !== 'number' || !Number.isFinite(capacity) || capacity <= 0) return ['take.capacity', 'must be a finite number above 0'];
  if (typeof maxWaitMs !== 'number' || Number.isNaN(maxWaitMs) || maxWaitMs < 0) return ['take.maxWaitMs', 'must be a number of 0 or more'];
  return undefined;
}

/** What `Store.add` asks for: see there. */
export interface CounterAdd {
  amount: number;
  limit?: number | undefined;
  ttlMs: number;
}

/** What is wrong with an `add`, or undefined when nothing is. */
export function addProblem(key: string, request: CounterAdd): StoreProblem | undefined {
  if (typeof key !== 'string') return ['key', 'must be a string'];
  const { amount, limit, ttlMs } = (request ?? {}) as Partial<CounterAdd>;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return ['add.amount', 'must be a finite number'];
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isFinite(limit))) return ['add.limit', 'must be a finite number when given'];
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) return ['add.ttlMs', 'must be a finite number of ms above 0'];
  return undefined;
}

/**
 * The number a counter's stored value holds: a plain decimal (what `add` writes), finite;
 * anything else (absent, below zero, a bucket, JSON, `inf`, hex, padding) is untrusted and counts as 0.
 * src/redis/add-script.ts reads with the same pattern, so both stores agree on every value.
 */
export function counterValue(value: string | null | undefined): number {
  if (value === null || value === undefined || !/^[-+]?[0-9.]+[eE]?[-+]?[0-9]*$/.test(value)) return 0;
  const n = Number(value);
  // Below zero is no total any add could have left that a reader can trust (a hand edit, another app's value): 0.
  return Number.isFinite(n) && n >= 0 ? n : 0;
}
