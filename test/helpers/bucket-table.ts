import type { BucketTake } from '../../src/core/store/rate-bucket.js';

/**
 * One take from a rate bucket: what the store held (`saved`, null for nothing), the time,
 * the request, and what must come out. test/core/rate-bucket.test.ts runs it through
 * `takeFromBucket`, test/redis/bucket-script.test.ts through the Lua script on a real Redis.
 * The rates are powers of two, so every figure is exact in floating point.
 */
export interface BucketRow {
  name: string;
  saved: string | null;
  now: number;
  take: BucketTake;
  taken: boolean;
  waitMs: number;
  /** The bucket after the take (for a refused take: as it stands, refilled, though nothing is written). */
  level: number;
  at: number;
}

const r = (amount: number, maxWaitMs = 100, capacity = 10, perMs = 0.5): BucketTake => ({ amount, perMs, capacity, maxWaitMs });

export const bucketRows: BucketRow[] = [
  { name: 'an absent bucket is full', saved: null, now: 1000, take: r(3), taken: true, waitMs: 0, level: 7, at: 1000 },
  { name: 'takes from what is left', saved: '7 1000', now: 1000, take: r(3), taken: true, waitMs: 0, level: 4, at: 1000 },
  { name: 'refills at perMs for the time passed', saved: '4 1000', now: 1004, take: r(6), taken: true, waitMs: 0, level: 0, at: 1004 },
  { name: 'refills no higher than capacity', saved: '0 1000', now: 100_000, take: r(1), taken: true, waitMs: 0, level: 9, at: 100_000 },
  { name: 'a take past the level is a reservation: the wait until it refills to zero', saved: '2 1000', now: 1000, take: r(5), taken: true, waitMs: 6, level: -3, at: 1000 },
  { name: 'a wait that is not a whole ms is rounded up', saved: '0 0', now: 0, take: r(1.25), taken: true, waitMs: 3, level: -1.25, at: 0 },
  { name: 'a wait of exactly maxWaitMs is taken', saved: '0 1000', now: 1000, take: r(50), taken: true, waitMs: 100, level: -50, at: 1000 },
  { name: 'a wait past maxWaitMs takes nothing and says how long it would be', saved: '0 1000', now: 1000, take: r(60), taken: false, waitMs: 120, level: 0, at: 1000 },
  { name: 'maxWaitMs 0 takes only what is there', saved: '1 0', now: 0, take: r(2, 0), taken: false, waitMs: 2, level: 1, at: 0 },
  { name: 'a refusal reports the bucket refilled', saved: '-10 1000', now: 1010, take: r(1, 0), taken: false, waitMs: 12, level: -5, at: 1010 },
  { name: 'maxWaitMs Infinity waits as long as it takes', saved: '0 0', now: 0, take: r(1000, Infinity), taken: true, waitMs: 2000, level: -1000, at: 0 },
  { name: 'a reservation on top of debt waits for both', saved: '-40 1000', now: 1000, take: r(1), taken: true, waitMs: 82, level: -41, at: 1000 },
  { name: 'a negative amount gives budget back', saved: '-3 1000', now: 1000, take: r(-5), taken: true, waitMs: 0, level: 2, at: 1000 },
  { name: 'giving back stops at capacity', saved: '9 1000', now: 1000, take: r(-5), taken: true, waitMs: 0, level: 10, at: 1000 },
  { name: 'giving back to an absent bucket leaves it full', saved: null, now: 1000, take: r(-5), taken: true, waitMs: 0, level: 10, at: 1000 },
  { name: 'zero asks how long until the debt is paid', saved: '-2 1000', now: 1000, take: r(0), taken: true, waitMs: 4, level: -2, at: 1000 },
  { name: 'a clock that went back refills nothing and keeps the later time', saved: '4 2000', now: 1000, take: r(1), taken: true, waitMs: 0, level: 3, at: 2000 },
  { name: 'a value that is not a bucket counts as a full one', saved: 'not a bucket', now: 1000, take: r(1), taken: true, waitMs: 0, level: 9, at: 1000 },
  { name: 'a debt no take could have left (more than an hour of refill) counts as a full bucket', saved: '-1e300 1000', now: 1000, take: r(3), taken: true, waitMs: 0, level: 7, at: 1000 },
  { name: 'a bucket written more than an hour ahead of this clock counts as a full one', saved: '0 99999999', now: 1000, take: r(3), taken: true, waitMs: 0, level: 7, at: 1000 },
  { name: 'a level above capacity counts as a full bucket', saved: '1e300 1000', now: 1000, take: r(3), taken: true, waitMs: 0, level: 7, at: 1000 },
  { name: 'fractions of a unit refill', saved: '0 0', now: 1, take: r(0.5, 0, 10, 0.5), taken: true, waitMs: 0, level: 0, at: 1 },
  { name: 'a slow rate (1/1024 per ms)', saved: '0 0', now: 0, take: r(1, 2000, 10, 1 / 1024), taken: true, waitMs: 1024, level: -1, at: 0 },
];
