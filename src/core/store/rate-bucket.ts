/**
 * The rate bucket behind `Store.take`, as a pure function over plain data: the memory store
 * runs it, and the Redis store's Lua script (src/redis/bucket-script.ts) is a line-by-line
 * copy of it. Both are tested against the same table.
 */

/** What a take asks for: see `Store.take`. */
export interface BucketTake {
  amount: number;
  perMs: number;
  capacity: number;
  maxWaitMs: number;
}

/** What a take answers: whether it was taken, and the ms to wait before sending. */
export interface BucketResult {
  taken: boolean;
  waitMs: number;
}

/** A bucket as stored: its level (below zero while reservations are outstanding) at a time in ms. */
export interface BucketState {
  level: number;
  at: number;
}

/** How far a bucket is believed: no reservation reaches an hour's refill ahead, no bucket was written an hour ahead of this clock. */
export const BELIEVED_MS = 3_600_000;

/**
 * Takes `request.amount` from the bucket at time `now`. An absent bucket is full, and so is
 * one no take could have left. The bucket
 * first refills for the time since `state.at`, never above capacity; a clock that went back
 * refills nothing and the bucket keeps its later time, so no interval refills twice. Then a
 * negative amount is given back (never above capacity), and a positive one is taken when the
 * level it leaves would refill to zero within `maxWaitMs`. A refused take changes nothing:
 * its `waitMs` is the wait it would have needed.
 */
export function takeFromBucket(saved: BucketState | undefined, now: number, request: BucketTake): { state: BucketState; result: BucketResult } {
  const { amount, perMs, capacity, maxWaitMs } = request;
  // What a store gives back is untrusted: a bucket no take could have left (a debt of more than
  // an hour's refill, a level above capacity, a time an hour ahead) is not believed: a full one.
  const state = saved && saved.level <= capacity && saved.level >= -(capacity + perMs * BELIEVED_MS) && saved.at <= now + BELIEVED_MS ? saved : undefined;
  const at = state ? Math.max(now, state.at) : now;
  const level = state ? Math.min(capacity, state.level + (at - state.at) * perMs) : capacity;
  if (amount < 0) return { state: { level: Math.min(capacity, level - amount), at }, result: { taken: true, waitMs: 0 } };
  const after = level - amount;
  const waitMs = after < 0 ? Math.ceil(-after / perMs) : 0;
  if (waitMs > maxWaitMs) return { state: { level, at }, result: { taken: false, waitMs } };
  return { state: { level: after, at }, result: { taken: true, waitMs } };
}

/** How long a bucket must be kept: until it has refilled, when its absence means "full" again. */
export function bucketTtlMs(state: BucketState, request: BucketTake): number {
  return Math.max(1, Math.ceil((request.capacity - state.level) / request.perMs));
}

/** A bucket as a store value: `"<level> <at>"`, the form the Lua script reads and writes too. */
export const encodeBucket = (state: BucketState): string => `${state.level} ${state.at}`;

/** The bucket a store value holds, or undefined when it holds none (absent, or something else). */
export function decodeBucket(value: string | null | undefined): BucketState | undefined {
  const [level, at, rest] = (value ?? '').split(' ');
  const state = { level: Number(level), at: Number(at) };
  return rest === undefined && level !== '' && at !== undefined && at !== '' && Number.isFinite(state.level) && Number.isFinite(state.at) ? state : undefined;
}
