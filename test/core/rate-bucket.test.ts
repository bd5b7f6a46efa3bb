import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketTtlMs, decodeBucket, encodeBucket, takeFromBucket, type BucketState, type BucketTake } from '../../src/core/store/rate-bucket.js';
import { bucketRows } from '../helpers/bucket-table.js';

describe('takeFromBucket', () => {
  it.each(bucketRows)('$name', ({ saved, now, take, taken, waitMs, level, at }) => {
    const { state, result } = takeFromBucket(decodeBucket(saved), now, take);
    expect(result).toEqual({ taken, waitMs });
    expect(state).toEqual({ level, at });
  });

  // An independent formulation (the generic cell rate algorithm): the bucket as the time it
  // will be full again. Taking `a` pushes that time `a / perMs` later; the caller waits for
  // whatever lies beyond `capacity / perMs` from now.
  function model(capacity: number, perMs: number) {
    let full = -Infinity;
    return (now: number, amount: number, maxWaitMs: number) => {
      const from = Math.max(full, now);
      if (amount < 0) {
        full = Math.max(now, from + amount / perMs);
        return { taken: true, waitMs: 0 };
      }
      const next = from + amount / perMs;
      const waitMs = Math.ceil(Math.max(0, next - now - capacity / perMs));
      if (waitMs > maxWaitMs) return { taken: false, waitMs };
      full = next;
      return { taken: true, waitMs };
    };
  }

  // Rates that are powers of two and whole amounts keep every figure exact, so the two must agree exactly.
  const rate = fc.constantFrom(1, 0.5, 0.25, 1 / 16, 1 / 1024);
  const step = fc.record({ dt: fc.integer({ min: 0, max: 5000 }), amount: fc.integer({ min: -20, max: 40 }), maxWaitMs: fc.constantFrom(0, 10, 1000, Infinity) });

  it('agrees with the cell rate model over any sequence of takes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), rate, fc.array(step, { maxLength: 60 }), (capacity, perMs, steps) => {
        const expected = model(capacity, perMs);
        let state: BucketState | undefined;
        let now = 1_000_000;
        for (const { dt, amount, maxWaitMs } of steps) {
          now += dt;
          const out = takeFromBucket(state, now, { amount, perMs, capacity, maxWaitMs });
          expect(out.result).toEqual(expected(now, amount, maxWaitMs));
          state = decodeBucket(encodeBucket(out.state));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never grants more than capacity plus the refill over the span plus what maxWaitMs lets it owe, even when the clock goes back', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        rate,
        fc.array(fc.record({ now: fc.integer({ min: 0, max: 100_000 }), amount: fc.integer({ min: 0, max: 40 }) }), { maxLength: 80 }),
        fc.constantFrom(0, 50, 500),
        (capacity, perMs, takes, maxWaitMs) => {
          let state: BucketState | undefined;
          let granted = 0;
          for (const { now, amount } of takes) {
            const out = takeFromBucket(state, now, { amount, perMs, capacity, maxWaitMs });
            if (!out.result.taken) continue;
            granted += amount;
            state = out.state;
          }
          const times = takes.map((t) => t.now);
          const span = times.length ? Math.max(...times) - Math.min(...times) : 0;
          expect(granted).toBeLessThanOrEqual(capacity + span * perMs + maxWaitMs * perMs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a bucket exactly until it would be full again, when its absence means the same', () => {
    const take: BucketTake = { amount: 0, perMs: 0.5, capacity: 10, maxWaitMs: 0 };
    expect(bucketTtlMs({ level: 4, at: 0 }, take)).toBe(12);
    expect(bucketTtlMs({ level: -1, at: 0 }, take)).toBe(22);
    expect(bucketTtlMs({ level: 10, at: 0 }, take)).toBe(1);
    const later = takeFromBucket({ level: 4, at: 0 }, 12, { ...take, amount: 1 });
    expect(later).toEqual(takeFromBucket(undefined, 12, { ...take, amount: 1 }));
  });
});

describe('decodeBucket', () => {
  it.each([
    ['7 1000', { level: 7, at: 1000 }],
    ['-1.25 1795641373243.3', { level: -1.25, at: 1795641373243.3 }],
    ['9.9999999999999995e-08 1e+12', { level: 1e-7, at: 1e12 }],
  ])('reads %j', (value, state) => {
    expect(decodeBucket(value)).toEqual(state);
  });

  it.each([null, '', '7', '7 ', ' 7', '7 1000 3', 'a b', '7 NaN', 'Infinity 1'])('finds no bucket in %j', (value) => {
    expect(decodeBucket(value)).toBeUndefined();
  });
});
