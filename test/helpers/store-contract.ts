import { describe, expect, it } from 'vitest';
import { ValidationError, type Store } from '../../src/index.js';

// What every Store must do, run against memoryStore() (test/core/store.test.ts) and
// redisStore() over node-redis and ioredis, 5 and 6, on a real Redis (test/redis/redis-store.test.ts).

/** The store under test, as `n` handles that share their state the way `n` processes would. */
export type StoresOf = (n: number) => Store[];

let serial = 0;
/** A key no other test touches (the Redis server is shared by the tests of a file). */
const fresh = (name: string) => `${name}-${++serial}-${Math.random().toString(36).slice(2, 8)}`;

/** Calls `check` every 20 ms until it is true, for at most `limitMs`; resolves whether it became true. */
export async function eventually(check: () => Promise<boolean>, limitMs = 3000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function storeContract(stores: StoresOf): void {
  const one = () => stores(1)[0] as Store;

  describe('get, set and delete', () => {
    it('gets what was set, null for what was not, in the order asked, in one call', async () => {
      const store = one();
      const [a, b, none] = [fresh('a'), fresh('b'), fresh('none')];
      expect(await store.set(a, 'one', { ttlMs: 60_000 })).toBe(true);
      expect(await store.set(b, 'two', { ttlMs: 60_000 })).toBe(true);
      expect(await store.get([b, none, a])).toEqual(['two', null, 'one']);
      expect(await store.get([])).toEqual([]);
    });

    it('replaces a value on set', async () => {
      const store = one();
      const key = fresh('replace');
      await store.set(key, 'first', { ttlMs: 60_000 });
      expect(await store.set(key, 'second', { ttlMs: 60_000 })).toBe(true);
      expect(await store.get([key])).toEqual(['second']);
    });

    it('sets with ifAbsent only when the key does not exist, and says so', async () => {
      const store = one();
      const key = fresh('lock');
      expect(await store.set(key, 'mine', { ttlMs: 60_000, ifAbsent: true })).toBe(true);
      expect(await store.set(key, 'yours', { ttlMs: 60_000, ifAbsent: true })).toBe(false);
      expect(await store.get([key])).toEqual(['mine']);
    });

    it('forgets a value when its ttl runs out, and frees a lock then; a value with a long ttl stays', async () => {
      const store = one();
      const [short, long, lock] = [fresh('short'), fresh('long'), fresh('lock')];
      await store.set(long, 'stays', { ttlMs: 3_600_000 });
      await store.set(short, 'goes', { ttlMs: 30 });
      await store.set(lock, 'held', { ttlMs: 30, ifAbsent: true });
      expect(await eventually(async () => (await store.get([short]))[0] === null)).toBe(true);
      expect(await eventually(() => store.set(lock, 'again', { ttlMs: 60_000, ifAbsent: true }))).toBe(true);
      expect(await store.get([long, lock])).toEqual(['stays', 'again']);
    });

    it('deletes the keys named, ignores absent ones, keeps the rest', async () => {
      const store = one();
      const [a, b, c] = [fresh('a'), fresh('b'), fresh('c')];
      for (const key of [a, b, c]) await store.set(key, key, { ttlMs: 60_000 });
      await store.delete([a, fresh('never-set'), c]);
      await store.delete([]);
      expect(await store.get([a, b, c])).toEqual([null, b, null]);
    });

    it('keeps values of a few MB, any characters, byte for byte', async () => {
      const store = one();
      const key = fresh('big');
      const value = JSON.stringify({ text: 'ünïcødé 🚀 "quoted" \n\r\t\\ \u0000 '.repeat(60_000), n: 1 });
      expect(value.length).toBeGreaterThan(2_000_000);
      expect(await store.set(key, value, { ttlMs: 60_000 })).toBe(true);
      expect((await store.get([key]))[0] === value).toBe(true);
    });

    it('keeps keys apart whatever their characters', async () => {
      const store = one();
      const base = fresh('odd');
      const keys = [`${base} space`, `${base}:colon`, `${base}:colon:`, `${base}é`, `${base}🚀`, `${base}\n`];
      for (const [i, key] of keys.entries()) await store.set(key, String(i), { ttlMs: 60_000 });
      expect(await store.get(keys)).toEqual(keys.map((_, i) => String(i)));
    });

    it('refuses bad arguments with ValidationError', async () => {
      const store = one();
      const key = fresh('bad');
      await expect(store.set(key, 'v', { ttlMs: 0 })).rejects.toBeInstanceOf(ValidationError);
      await expect(store.set(key, 'v', { ttlMs: Number.NaN })).rejects.toMatchObject({ field: 'ttlMs' });
      await expect(store.set(key, 42 as unknown as string, { ttlMs: 1000 })).rejects.toMatchObject({ field: 'value' });
      await expect(store.get([key, 7 as unknown as string])).rejects.toMatchObject({ field: 'keys[1]' });
      await expect(store.take(key, { amount: 1, perMs: 0, capacity: 1, maxWaitMs: 0 })).rejects.toMatchObject({ field: 'take.perMs' });
      await expect(store.take(key, { amount: Number.POSITIVE_INFINITY, perMs: 1, capacity: 1, maxWaitMs: 0 })).rejects.toMatchObject({ field: 'take.amount' });
      expect(await store.get([key])).toEqual([null]);
    });
  });

  describe('locks across clients', () => {
    it('gives a lock to exactly one of many clients trying at once', async () => {
      const handles = stores(8);
      for (let round = 0; round < 5; round++) {
        const key = fresh('race');
        const results = await Promise.all(handles.flatMap((store, i) => [0, 1, 2].map((j) => store.set(key, `${i}.${j}`, { ttlMs: 60_000, ifAbsent: true }))));
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect(await (handles[0] as Store).get([key])).toEqual([`${Math.floor(winner / 3)}.${winner % 3}`]);
      }
    });
  });

  describe('rate buckets', () => {
    // Slow enough that a test's own duration refills a fraction of a unit (1 per 1000 s).
    const slow = { perMs: 1e-6, capacity: 10 };

    it('never grants more than capacity plus the refill, whatever many clients take at once', async () => {
      const handles = stores(6);
      const key = fresh('bucket');
      const perMs = 0.01; // 10 per second
      const started = Date.now();
      let granted = 0;
      // Each client takes one unit at a time, 40 times, as fast as it can.
      await Promise.all(
        handles.map(async (store) => {
          for (let i = 0; i < 40; i++) {
            const { taken, waitMs } = await store.take(key, { amount: 1, perMs, capacity: 5, maxWaitMs: 0 });
            if (taken) {
              expect(waitMs).toBe(0);
              granted++;
            }
          }
        }),
      );
      const elapsed = Date.now() - started;
      expect(granted).toBeGreaterThanOrEqual(5);
      // One more for the ms the server clock may run ahead of ours at either end.
      expect(granted).toBeLessThanOrEqual(5 + Math.floor((elapsed + 2) * perMs) + 1);
    });

    it('takes nothing when the wait would pass maxWaitMs, and says how long it would be', async () => {
      const store = one();
      const key = fresh('refuse');
      expect(await store.take(key, { amount: 7, ...slow, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
      const refused = await store.take(key, { amount: 5, ...slow, maxWaitMs: 0 });
      expect(refused.taken).toBe(false);
      // 2 units short at 1e-6 per ms: about 2e6 ms, less what refilled meanwhile.
      expect(refused.waitMs).toBeGreaterThan(1_900_000);
      expect(refused.waitMs).toBeLessThanOrEqual(2_000_000);
      // The refusal took nothing: the 3 left are still there.
      expect(await store.take(key, { amount: 3, ...slow, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
    });

    it('reserves past zero within maxWaitMs, and later takes wait behind the reservation', async () => {
      const store = one();
      const key = fresh('reserve');
      await store.take(key, { amount: 10, ...slow, maxWaitMs: 0 });
      const first = await store.take(key, { amount: 1, ...slow, maxWaitMs: Number.POSITIVE_INFINITY });
      expect(first.taken).toBe(true);
      expect(first.waitMs).toBeGreaterThan(900_000);
      const second = await store.take(key, { amount: 1, ...slow, maxWaitMs: 5_000_000 });
      expect(second.taken).toBe(true);
      expect(second.waitMs).toBeGreaterThan(first.waitMs + 900_000);
    });

    it('gives budget back with a negative amount, never above capacity', async () => {
      const store = one();
      const key = fresh('give-back');
      await store.take(key, { amount: 10, ...slow, maxWaitMs: 0 });
      expect(await store.take(key, { amount: -4, ...slow, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
      expect(await store.take(key, { amount: 4, ...slow, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
      expect((await store.take(key, { amount: 1, ...slow, maxWaitMs: 0 })).taken).toBe(false);
      await store.take(key, { amount: -100, ...slow, maxWaitMs: 0 });
      expect((await store.take(key, { amount: 11, ...slow, maxWaitMs: 0 })).taken).toBe(false);
      expect(await store.take(key, { amount: 10, ...slow, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
    });

    it('shares one bucket between clients', async () => {
      const [a, b] = stores(2) as [Store, Store];
      const key = fresh('shared');
      expect((await a.take(key, { amount: 6, ...slow, maxWaitMs: 0 })).taken).toBe(true);
      expect((await b.take(key, { amount: 6, ...slow, maxWaitMs: 0 })).taken).toBe(false);
      expect((await b.take(key, { amount: 4, ...slow, maxWaitMs: 0 })).taken).toBe(true);
    });

    it('is a key like any other: deleting it refills the bucket', async () => {
      const store = one();
      const key = fresh('reset');
      await store.take(key, { amount: 10, ...slow, maxWaitMs: 0 });
      expect((await store.get([key]))[0]).toEqual(expect.any(String));
      await store.delete([key]);
      expect(await store.take(key, { amount: 10, ...slow, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
    });
  });
}
