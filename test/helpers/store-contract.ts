import { describe, expect, it } from 'vitest';
import { ValidationError, type Store } from '../../src/index.js';
import { addRows } from './add-table.js';

// What every Store must do, run against memoryStore() (test/core/store.test.ts) and
// redisStore() over node-redis and ioredis, 5 and 6, on a real Redis (test/redis/redis-store.test.ts).
// The optional `add` has its own part, addContract, which storeContract runs too: the fail-open
// guard runs it alone over a store that is down and over one without `add` (test/core/fail-open-store.test.ts).

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

  addContract(stores);
}

/** The store's `add`, which every store under this contract must have. */
const adder = (store: Store) => {
  if (typeof store.add !== 'function') throw new TypeError('the store under test has no add');
  return store.add.bind(store);
};

/**
 * What every store with `add` must do: the table of test/helpers/add-table.ts, and more.
 * `keys` is where the counters' keys are written (a value planted) and read: the store itself,
 * unless its counters live elsewhere (the fail-open guard over a store without `add` keeps them
 * in its fallback).
 */
export function addContract(stores: StoresOf, keys?: Store): void {
  const one = () => stores(1)[0] as Store;
  const keysOf = (store: Store) => keys ?? store;

  describe('counters (add)', () => {
    it.each(addRows)('$name', async ({ saved, add, added, total }) => {
      const store = one();
      const key = fresh('row');
      if (saved !== null) expect(await keysOf(store).set(key, saved, { ttlMs: 60_000 })).toBe(true);
      expect(await adder(store)(key, add)).toEqual({ added, total });
      const [left] = await keysOf(store).get([key]);
      if (added) expect(Number(left)).toBe(total);
      else expect(left).toBe(saved);
    });

    it('never passes the limit, whatever many clients add at once: 100 adds of 1 to a limit of 37', async () => {
      const handles = stores(8);
      const key = fresh('race');
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => adder(handles[i % handles.length] as Store)(key, { amount: 1, limit: 37, ttlMs: 60_000 })));
      const granted = results.filter((r) => r.added);
      expect(granted).toHaveLength(37);
      // Each add saw the one before it: the totals granted are 1 to 37, each once.
      expect(granted.map((r) => r.total).sort((x, y) => x - y)).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
      expect(results.filter((r) => !r.added).every((r) => r.total === 37)).toBe(true);
      expect(await keysOf(handles[0] as Store).get([key])).toEqual(['37']);
    });

    it('settles reservations at once from many clients: 100 adds of 3 then 100 of -3 leave 0', async () => {
      const handles = stores(8);
      const key = fresh('settle');
      const add = (i: number, amount: number) => adder(handles[i % handles.length] as Store)(key, { amount, limit: 1000, ttlMs: 60_000 });
      expect((await Promise.all(Array.from({ length: 100 }, (_, i) => add(i, 3)))).every((r) => r.added)).toBe(true);
      expect((await Promise.all(Array.from({ length: 100 }, (_, i) => add(i, -3)))).every((r) => r.added)).toBe(true);
      expect(await adder(one())(key, { amount: 0, ttlMs: 60_000 })).toEqual({ added: true, total: 0 });
    });

    it('expires a key it creates after ttlMs', async () => {
      const store = one();
      const key = fresh('short');
      expect(await adder(store)(key, { amount: 1, ttlMs: 30 })).toEqual({ added: true, total: 1 });
      expect(await eventually(async () => (await keysOf(store).get([key]))[0] === null)).toBe(true);
      // Gone means 0 again.
      expect(await adder(store)(key, { amount: 1, ttlMs: 60_000 })).toEqual({ added: true, total: 1 });
    });

    it("keeps an existing key's expiry when it adds: a later ttlMs neither shortens nor extends it", async () => {
      const store = one();
      const [long, short, garbage] = [fresh('long'), fresh('short'), fresh('garbage')];
      await adder(store)(long, { amount: 1, ttlMs: 3_600_000 });
      expect(await adder(store)(long, { amount: 1, ttlMs: 1 })).toEqual({ added: true, total: 2 });
      await adder(store)(short, { amount: 1, ttlMs: 300 });
      expect(await adder(store)(short, { amount: 1, ttlMs: 3_600_000 })).toEqual({ added: true, total: 2 });
      // A value that is not a number counts as 0, but the key is there: it keeps its expiry too.
      await keysOf(store).set(garbage, 'garbage', { ttlMs: 300 });
      expect(await adder(store)(garbage, { amount: 5, ttlMs: 3_600_000 })).toEqual({ added: true, total: 5 });
      await new Promise((r) => setTimeout(r, 30));
      expect(await keysOf(store).get([long])).toEqual(['2']);
      expect(await eventually(async () => (await keysOf(store).get([short, garbage])).every((v) => v === null))).toBe(true);
      expect(await keysOf(store).get([long])).toEqual(['2']);
    });

    it('shares one counter between clients, and reads it with get like any key; deleting it resets it', async () => {
      const [a, b] = stores(2) as [Store, Store];
      const key = fresh('shared');
      expect(await adder(a)(key, { amount: 6, limit: 10, ttlMs: 60_000 })).toEqual({ added: true, total: 6 });
      expect(await adder(b)(key, { amount: 6, limit: 10, ttlMs: 60_000 })).toEqual({ added: false, total: 6 });
      expect(await adder(b)(key, { amount: 4, limit: 10, ttlMs: 60_000 })).toEqual({ added: true, total: 10 });
      expect(await keysOf(a).get([key])).toEqual(['10']);
      await keysOf(b).delete([key]);
      expect(await adder(a)(key, { amount: 6, limit: 10, ttlMs: 60_000 })).toEqual({ added: true, total: 6 });
    });

    it('refuses bad arguments with ValidationError, and writes nothing', async () => {
      const store = one();
      const key = fresh('bad');
      const add = adder(store);
      await expect(add(key, { amount: Number.NaN, ttlMs: 1000 })).rejects.toBeInstanceOf(ValidationError);
      await expect(add(key, { amount: Number.POSITIVE_INFINITY, ttlMs: 1000 })).rejects.toMatchObject({ field: 'add.amount' });
      await expect(add(key, { amount: '1' as unknown as number, ttlMs: 1000 })).rejects.toMatchObject({ field: 'add.amount' });
      await expect(add(key, { amount: 1, limit: Number.POSITIVE_INFINITY, ttlMs: 1000 })).rejects.toMatchObject({ field: 'add.limit' });
      await expect(add(key, { amount: 1, limit: Number.NaN, ttlMs: 1000 })).rejects.toMatchObject({ field: 'add.limit' });
      await expect(add(key, { amount: 1, limit: '5' as unknown as number, ttlMs: 1000 })).rejects.toMatchObject({ field: 'add.limit' });
      await expect(add(key, { amount: 1, ttlMs: 0 })).rejects.toMatchObject({ field: 'add.ttlMs' });
      await expect(add(key, { amount: 1, ttlMs: -5 })).rejects.toMatchObject({ field: 'add.ttlMs' });
      await expect(add(key, { amount: 1, ttlMs: Number.POSITIVE_INFINITY })).rejects.toMatchObject({ field: 'add.ttlMs' });
      await expect(add(key, undefined as unknown as { amount: number; ttlMs: number })).rejects.toMatchObject({ field: 'add.amount' });
      await expect(add(7 as unknown as string, { amount: 1, ttlMs: 1000 })).rejects.toMatchObject({ field: 'key' });
      expect(await keysOf(store).get([key])).toEqual([null]);
    });
  });
}
