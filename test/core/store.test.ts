import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStore, ValidationError, type Store } from '../../src/index.js';
import { storeContract } from '../helpers/store-contract.js';

describe('memoryStore: the Store contract', () => {
  const store = memoryStore();
  // Processes sharing a memory store are one process: every handle is the same store.
  storeContract((n) => Array.from({ length: n }, () => store));
});

describe('memoryStore', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Each entry counts 2 × (key + value) characters: 'kN' + 8 characters = 20 bytes.
  const fill = async (store: Store, count: number) => {
    for (let i = 0; i < count; i++) await store.set(`k${i}`, 'v'.repeat(8), { ttlMs: 60_000 });
  };

  it('holds no more than maxBytes, dropping the least recently used first', async () => {
    const store = memoryStore({ maxBytes: 100 });
    await fill(store, 5);
    expect(await store.get(['k0', 'k1', 'k2', 'k3', 'k4'])).toEqual(Array(5).fill('vvvvvvvv'));
    // Reading k0 makes it recent; the next entry pushes out k1, the least recently used.
    await store.get(['k0']);
    await store.set('k5', 'v'.repeat(8), { ttlMs: 60_000 });
    expect(await store.get(['k0', 'k1', 'k2', 'k5'])).toEqual(['vvvvvvvv', null, 'vvvvvvvv', 'vvvvvvvv']);
  });

  it('makes room for a large entry by dropping as many as it takes', async () => {
    const store = memoryStore({ maxBytes: 100 });
    await fill(store, 5);
    expect(await store.set('big', 'x'.repeat(37), { ttlMs: 60_000 })).toBe(true);
    expect(await store.get(['k0', 'k1', 'k2', 'k3', 'k4', 'big'])).toEqual([null, null, null, null, 'vvvvvvvv', 'x'.repeat(37)]);
  });

  it('keeps no entry larger than the whole bound, and says so; the old value goes', async () => {
    const store = memoryStore({ maxBytes: 100 });
    await store.set('k', 'small', { ttlMs: 60_000 });
    expect(await store.set('k', 'x'.repeat(50), { ttlMs: 60_000 })).toBe(false);
    expect(await store.get(['k'])).toEqual([null]);
  });

  it('counts a replaced value once', async () => {
    const store = memoryStore({ maxBytes: 100 });
    await fill(store, 5);
    for (let i = 0; i < 10; i++) await store.set('k4', 'w'.repeat(8), { ttlMs: 60_000 });
    expect(await store.get(['k0', 'k4'])).toEqual(['vvvvvvvv', 'wwwwwwww']);
  });

  it('frees what an expired entry held', async () => {
    vi.useFakeTimers({ now: 0 });
    const store = memoryStore({ maxBytes: 100 });
    await store.set('old', 'v'.repeat(8), { ttlMs: 10 });
    await fill(store, 4);
    vi.setSystemTime(20);
    expect(await store.get(['old'])).toEqual([null]);
    await store.set('k4', 'v'.repeat(8), { ttlMs: 60_000 });
    expect(await store.get(['k0', 'k4'])).toEqual(['vvvvvvvv', 'vvvvvvvv']);
  });

  it('expires by the clock, a lock included', async () => {
    vi.useFakeTimers({ now: 0 });
    const store = memoryStore();
    await store.set('lock', 'a', { ttlMs: 1000, ifAbsent: true });
    vi.setSystemTime(999);
    expect(await store.set('lock', 'b', { ttlMs: 1000, ifAbsent: true })).toBe(false);
    vi.setSystemTime(1000);
    expect(await store.set('lock', 'b', { ttlMs: 1000, ifAbsent: true })).toBe(true);
  });

  it('refills a rate bucket by the clock', async () => {
    vi.useFakeTimers({ now: 0 });
    const store = memoryStore();
    const take = { amount: 10, perMs: 0.01, capacity: 10, maxWaitMs: 0 };
    expect(await store.take('b', take)).toEqual({ taken: true, waitMs: 0 });
    expect(await store.take('b', { ...take, amount: 1 })).toEqual({ taken: false, waitMs: 100 });
    vi.setSystemTime(100);
    expect(await store.take('b', { ...take, amount: 1 })).toEqual({ taken: true, waitMs: 0 });
    // A full bucket is the same as none: it is dropped once it has refilled.
    vi.setSystemTime(1100);
    expect(await store.get(['b'])).toEqual([null]);
  });

  it('counts a counter in maxBytes like any entry, once however often it changes, and as used when added to', async () => {
    const store = memoryStore({ maxBytes: 100 });
    const add = store.add?.bind(store);
    if (!add) throw new TypeError('memoryStore() has no add');
    await fill(store, 4);
    // 'c' and a total of '1' count 2 × 2 = 4 bytes; 'c' at '1000000' counts 16: 80 + 16 fits.
    expect(await add('c', { amount: 1, ttlMs: 60_000 })).toEqual({ added: true, total: 1 });
    for (let i = 0; i < 20; i++) await add('c', { amount: 49_999, ttlMs: 60_000 });
    expect(await store.get(['c', 'k0', 'k1', 'k2', 'k3'])).toEqual(['999981', ...Array(4).fill('vvvvvvvv')]);
    // Reading k0 to k3 leaves c the least recently used; adding to it makes it recent again:
    // the next entry pushes out k0, not c.
    await store.get(['k0', 'k1', 'k2', 'k3']);
    await add('c', { amount: 19, ttlMs: 60_000 });
    await store.set('k4', 'v'.repeat(8), { ttlMs: 60_000 });
    expect(await store.get(['k0', 'c', 'k4'])).toEqual([null, '1000000', 'vvvvvvvv']);
  });

  it('changes nothing for an add whose entry would be larger than the whole bound', async () => {
    const store = memoryStore({ maxBytes: 20 });
    const add = store.add?.bind(store);
    if (!add) throw new TypeError('memoryStore() has no add');
    expect(await add('key', { amount: 5, ttlMs: 60_000 })).toEqual({ added: true, total: 5 });
    // 'key' and '0.30000000000000004' are 44 bytes: the 5 stays.
    expect(await add('key', { amount: -4.7, ttlMs: 60_000 })).toEqual({ added: false, total: 5 });
    expect(await store.get(['key'])).toEqual(['5']);
  });

  it("expires a counter by the clock: at the ttl of the add that made it, whatever later adds say", async () => {
    vi.useFakeTimers({ now: 0 });
    const store = memoryStore();
    const add = store.add?.bind(store);
    if (!add) throw new TypeError('memoryStore() has no add');
    expect(await add('n', { amount: 1, limit: 10, ttlMs: 1000 })).toEqual({ added: true, total: 1 });
    vi.setSystemTime(500);
    expect(await add('n', { amount: 1, limit: 10, ttlMs: 60_000 })).toEqual({ added: true, total: 2 });
    vi.setSystemTime(999);
    expect(await add('n', { amount: 20, limit: 10, ttlMs: 60_000 })).toEqual({ added: false, total: 2 });
    expect(await store.get(['n'])).toEqual(['2']);
    vi.setSystemTime(1000);
    expect(await store.get(['n'])).toEqual([null]);
    // The window is over: the next add starts a new one.
    expect(await add('n', { amount: 1, limit: 10, ttlMs: 1000 })).toEqual({ added: true, total: 1 });
    vi.setSystemTime(1999);
    expect(await store.get(['n'])).toEqual(['1']);
    vi.setSystemTime(2000);
    expect(await store.get(['n'])).toEqual([null]);
  });

  it('is bounded at 64 MiB by default', async () => {
    const store = memoryStore();
    const mib = 'x'.repeat(2 ** 19); // 1 MiB as UTF-16
    for (let i = 0; i < 64; i++) await store.set(`m${String(i).padStart(2, '0')}`, mib.slice(4), { ttlMs: 60_000 });
    expect((await store.get(['m63']))[0]).not.toBeNull();
    await store.set('one-more', mib, { ttlMs: 60_000 });
    expect(await store.get(['m00', 'm01', 'one-more'])).toEqual([null, mib.slice(4), mib]);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1'])('refuses maxBytes %j', (maxBytes) => {
    expect(() => memoryStore({ maxBytes: maxBytes as number })).toThrow(ValidationError);
  });

  it.each([
    [{ maxbytes: 1 }, 'maxbytes', /is not a memoryStore option: use maxBytes/],
    [{ maxBytes: 100, ttl: 5 }, 'ttl', /is not a memoryStore option/],
    [null, 'options', /must be an object such as \{ maxBytes: 16 \* 2 \*\* 20 \} \(got null\)/],
    [64, 'options', /must be an object.*\(got number\)/],
    [[], 'options', /must be an object.*\(got an array\)/],
  ])('refuses %j with a ValidationError naming %s', (options, field, rule) => {
    let thrown: unknown;
    try {
      memoryStore(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({ field });
    expect((thrown as Error).message).toMatch(rule);
  });

  it('takes no options, an empty object or maxBytes undefined', () => {
    for (const store of [memoryStore(), memoryStore(undefined), memoryStore({}), memoryStore({ maxBytes: undefined })]) expect(typeof store.get).toBe('function');
  });
});
