import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOpenStore } from '../../src/core/store/fail-open-store.js';
import { memoryStore, ValidationError, type Store } from '../../src/index.js';
import { addContract, storeContract } from '../helpers/store-contract.js';

type Mode = 'ok' | 'hang' | 'reject' | 'throw' | 'garbage' | 'late-reject';

/** A store over memory that behaves as `mode.now` says, and records the operations it was asked for. */
function flakyStore() {
  const inner = memoryStore();
  const mode: { now: Mode } = { now: 'ok' };
  const calls: string[] = [];
  const behave = <T>(name: string, run: () => Promise<T>): Promise<T> => {
    calls.push(name);
    switch (mode.now) {
      case 'ok':
        return run();
      case 'hang':
        return new Promise<T>(() => {});
      case 'reject':
        return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379\n    at a stack line'));
      case 'late-reject':
        return new Promise<T>((_, reject) => setTimeout(() => reject(new Error('too late')), 1000));
      case 'throw':
        throw new Error('thrown, not rejected');
      case 'garbage':
        return Promise.resolve('not an answer' as T);
    }
  };
  const store: Store = {
    get: (keys) => behave('get', () => inner.get(keys)),
    set: (key, value, options) => behave('set', () => inner.set(key, value, options)),
    delete: (keys) => behave('delete', () => inner.delete(keys)),
    take: (key, take) => behave('take', () => inner.take(key, take)),
    add: (key, add) => behave('add', () => (inner.add as NonNullable<Store['add']>).call(inner, key, add)),
  };
  return { store, inner, mode, calls };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  vi.useRealTimers();
  // Rejections are reported after the microtask queue drains: give them a turn.
  await new Promise((r) => setTimeout(r, 10));
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

describe('failOpenStore: the Store contract over a store that works', () => {
  const { store } = flakyStore();
  const wrapped = failOpenStore(store, { log: () => {} });
  storeContract((n) => Array.from({ length: n }, () => wrapped));
});

describe('failOpenStore: the counters part of the contract over a store that is down (memory answers)', () => {
  const { store, mode } = flakyStore();
  mode.now = 'reject';
  const wrapped = failOpenStore(store, { log: () => {} });
  addContract((n) => Array.from({ length: n }, () => wrapped));
});

describe('failOpenStore: the counters part of the contract over a store without add (memory answers)', () => {
  const { store } = flakyStore();
  const { add: _, ...withoutAdd } = store;
  const fallback = memoryStore();
  const wrapped = failOpenStore(withoutAdd, { log: () => {}, fallback });
  addContract(
    (n) => Array.from({ length: n }, () => wrapped),
    fallback,
  );
});

describe('failOpenStore', () => {
  const setup = (options: { timeoutMs?: number; retryMs?: number } = {}) => {
    const flaky = flakyStore();
    const lines: Array<[string, string]> = [];
    const wrapped = failOpenStore(flaky.store, { timeoutMs: 250, retryMs: 1000, ...options, log: (level, line) => lines.push([level, line]) });
    return { ...flaky, lines, wrapped };
  };

  it('passes operations to the store while it answers, and logs nothing', async () => {
    const { wrapped, inner, lines } = setup();
    expect(await wrapped.set('k', 'v', { ttlMs: 60_000 })).toBe(true);
    expect(await inner.get(['k'])).toEqual(['v']);
    expect(await wrapped.get(['k'])).toEqual(['v']);
    expect(await wrapped.take('b', { amount: 1, perMs: 1, capacity: 1, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
    await wrapped.delete(['k']);
    expect(await inner.get(['k'])).toEqual([null]);
    expect(lines).toEqual([]);
  });

  it.each<[Mode, RegExp]>([
    ['hang', /timed out after 250 ms/],
    ['reject', /Error: connect ECONNREFUSED 127\.0\.0\.1:6379\)/],
    ['throw', /thrown, not rejected/],
    ['garbage', /answered string, not a store's answer/],
  ])("answers from this process's memory when the store's operations %s, and warns once", async (behaviour, reason) => {
    vi.useFakeTimers();
    const { wrapped, mode, lines, inner } = setup();
    mode.now = behaviour;
    const pending = Promise.all([
      wrapped.set('k', 'v', { ttlMs: 60_000 }),
      wrapped.get(['other']),
      wrapped.take('b', { amount: 2, perMs: 0.001, capacity: 3, maxWaitMs: 0 }),
      wrapped.delete(['nothing']),
    ]);
    // The timeout, and the one more turn of the loop a late timer gives the answer.
    await vi.advanceTimersByTimeAsync(251);
    expect(await pending).toEqual([true, [null], { taken: true, waitMs: 0 }, undefined]);
    expect(await wrapped.get(['k'])).toEqual(['v']);
    expect((await wrapped.take('b', { amount: 2, perMs: 0.001, capacity: 3, maxWaitMs: 0 })).taken).toBe(false);
    expect(await inner.get(['k'])).toEqual([null]);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[0]).toBe('warn');
    expect(lines[0]?.[1]).toMatch(/^\[unified-gateway\] the store is unreachable \(.*\), going on with this process's memory$/);
    expect(lines[0]?.[1]).toMatch(reason);
    // One line: the rejection's stack stays out of the log.
    expect(lines[0]?.[1]).not.toMatch(/\n/);
  });

  it('waits for no store while it is unreachable: only one check every retryMs reaches it', async () => {
    vi.useFakeTimers();
    const { wrapped, mode, calls } = setup();
    mode.now = 'hang';
    const first = wrapped.get(['a']);
    await vi.advanceTimersByTimeAsync(251);
    await first;
    calls.length = 0;
    // Within retryMs of the failure: memory answers at once, the store is not asked.
    for (let i = 0; i < 20; i++) expect(await wrapped.get(['a'])).toEqual([null]);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    for (let i = 0; i < 20; i++) expect(await wrapped.get(['a'])).toEqual([null]);
    // One check, a write (a store that only reads is still out); the others answered from memory.
    expect(calls).toEqual(['set']);
  });

  it('goes back to the store when a check finds it answering, and says so once', async () => {
    vi.useFakeTimers();
    const { wrapped, mode, lines, calls, inner } = setup();
    mode.now = 'reject';
    await wrapped.set('k', 'memory', { ttlMs: 60_000 });
    mode.now = 'ok';
    await inner.set('k', 'shared', { ttlMs: 60_000 });
    // Still within retryMs: memory.
    expect(await wrapped.get(['k'])).toEqual(['memory']);
    await vi.advanceTimersByTimeAsync(1000);
    calls.length = 0;
    expect(await wrapped.get(['k'])).toEqual(['memory']);
    await vi.advanceTimersByTimeAsync(0);
    expect(await wrapped.get(['k'])).toEqual(['shared']);
    expect(calls).toEqual(['set', 'get']);
    expect(lines.map(([level]) => level)).toEqual(['warn', 'info']);
    expect(lines[1]?.[1]).toBe('[unified-gateway] the store answers again: state is shared again');
  });

  it('keeps answering from memory while checks fail, warning no more', async () => {
    vi.useFakeTimers();
    const { wrapped, mode, lines, calls } = setup();
    mode.now = 'reject';
    for (let round = 0; round < 5; round++) {
      expect(await wrapped.set('k', String(round), { ttlMs: 60_000 })).toBe(true);
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(await wrapped.get(['k'])).toEqual(['4']);
    // The checks (writes) reached the store; every failed one kept the outage going.
    expect(calls.filter((c) => c === 'set').length).toBeGreaterThanOrEqual(4);
    expect(lines).toHaveLength(1);
  });

  it('warns again for a second outage', async () => {
    vi.useFakeTimers();
    const { wrapped, mode, lines } = setup();
    mode.now = 'reject';
    await wrapped.get(['k']);
    mode.now = 'ok';
    await vi.advanceTimersByTimeAsync(1000);
    await wrapped.get(['k']);
    await vi.advanceTimersByTimeAsync(0);
    mode.now = 'reject';
    await wrapped.get(['k']);
    expect(lines.map(([level]) => level)).toEqual(['warn', 'info', 'warn']);
  });

  it('swallows the late rejection of an operation it gave up on', async () => {
    vi.useFakeTimers();
    const { wrapped, mode } = setup();
    mode.now = 'late-reject';
    const answer = wrapped.get(['k']);
    await vi.advanceTimersByTimeAsync(251);
    expect(await answer).toEqual([null]);
    // The store's own rejection comes now; afterEach fails the test if it went unhandled.
    await vi.advanceTimersByTimeAsync(1000);
  });

  it('is not an outage when the answer came while the event loop was busy: a late timer gives it one more turn', async () => {
    const { store, inner } = flakyStore();
    const lines: string[] = [];
    const wrapped = failOpenStore(store, { timeoutMs: 50, log: (_, line) => lines.push(line) });
    await inner.set('k', 'shared', { ttlMs: 60_000 });
    // The store answers on the next macrotask, as a socket's data would; the loop is blocked past the timeout before it can run.
    const slow: Store = { ...store, get: (keys) => new Promise((resolve) => setImmediate(() => resolve(inner.get(keys)))) };
    const busy = failOpenStore(slow, { timeoutMs: 50, log: (_, line) => lines.push(line) });
    const read = busy.get(['k']);
    const until = performance.now() + 120;
    while (performance.now() < until) {
      // A long synchronous task: the timer is due long before the loop can run it.
    }
    expect(await read).toEqual(['shared']);
    expect(await wrapped.get(['k'])).toEqual(['shared']);
    expect(lines).toEqual([]);
  });

  // The command goes out on the next check phase (node-redis writes in setImmediate); its answer comes 5 ms later.
  it.for([
    { timeoutMs: 50, blockMs: 120, case: 'the timer fires long after its time' },
    // The timer fires only 30 ms late, yet the command had no moment to go out and come back.
    { timeoutMs: 100, blockMs: 130, case: 'a little longer than the timeout: the timer barely late, its whole window lost' },
  ])('is not an outage when the command itself was still to be written when the loop got busy ($case)', async ({ timeoutMs, blockMs }) => {
    const { store, inner } = flakyStore();
    const lines: string[] = [];
    await inner.set('k', 'shared', { ttlMs: 60_000 });
    const deferred: Store = { ...store, get: (keys) => new Promise((resolve) => setImmediate(() => setTimeout(() => resolve(inner.get(keys)), 5))) };
    const busy = failOpenStore(deferred, { timeoutMs, log: (_, line) => lines.push(line) });
    const read = busy.get(['k']);
    const until = performance.now() + blockMs;
    while (performance.now() < until) {
      // A long synchronous task queued before the command could be written.
    }
    expect(await read).toEqual(['shared']);
    expect(lines).toEqual([]);
  });

  it('treats a store that answers reads but refuses writes (a read-only replica) as out, with one warning, until it takes writes again', async () => {
    vi.useFakeTimers();
    const { store, inner } = flakyStore();
    let readOnly = true;
    const replica: Store = { ...store, set: (...args) => (readOnly ? Promise.reject(new Error("READONLY You can't write against a read only replica.")) : inner.set(...args)) };
    const lines: Array<[string, string]> = [];
    const wrapped = failOpenStore(replica, { timeoutMs: 250, retryMs: 1000, log: (level, line) => lines.push([level, line]) });
    expect(await wrapped.set('k', 'memory', { ttlMs: 60_000 })).toBe(true);
    for (let second = 0; second < 10; second++) {
      await vi.advanceTimersByTimeAsync(1000);
      // Reads would work: the state stays in memory all the same, one source of truth per outage.
      expect(await wrapped.get(['k'])).toEqual(['memory']);
    }
    expect(lines.map(([level]) => level)).toEqual(['warn']);
    expect(lines[0]?.[1]).toMatch(/READONLY/);
    readOnly = false;
    await vi.advanceTimersByTimeAsync(1000);
    await wrapped.get(['k']);
    await vi.advanceTimersByTimeAsync(0);
    expect(lines.map(([level]) => level)).toEqual(['warn', 'info']);
  });

  it('refuses bad arguments before any store sees them, and does not count them as an outage', async () => {
    const { wrapped, calls, lines } = setup();
    await expect(wrapped.set('k', 'v', { ttlMs: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(wrapped.take('k', { amount: 1, perMs: 1, capacity: 0, maxWaitMs: 0 })).rejects.toMatchObject({ field: 'take.capacity' });
    await expect(wrapped.get('k' as unknown as string[])).rejects.toMatchObject({ field: 'keys' });
    expect(calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("passes add to the store while it answers, and answers it from memory when the store's add fails, warning once", async () => {
    vi.useFakeTimers();
    const { wrapped, inner, mode, lines } = setup();
    const add = { amount: 2, limit: 3, ttlMs: 60_000 };
    expect(await wrapped.add('n', add)).toEqual({ added: true, total: 2 });
    expect(await inner.get(['n'])).toEqual(['2']);
    mode.now = 'hang';
    const pending = wrapped.add('n', add);
    await vi.advanceTimersByTimeAsync(251);
    // Memory knows nothing of the store's 2: its own count starts at 0.
    expect(await pending).toEqual({ added: true, total: 2 });
    expect(await wrapped.add('n', add)).toEqual({ added: false, total: 2 });
    expect(await inner.get(['n'])).toEqual(['2']);
    expect(lines.map(([level]) => level)).toEqual(['warn']);
    expect(lines[0]?.[1]).toMatch(/timed out after 250 ms/);
  });

  it.each([
    ['a string', 'not an answer'],
    ['no total', { added: true }],
    ['a total that is not a number', { added: true, total: '3' }],
    ['a total of NaN', { added: true, total: Number.NaN }],
    ['added that is not a boolean', { added: 1, total: 3 }],
    ['null', null],
  ])("takes an add's answer of %s for an outage", async (_, answer) => {
    const lines: string[] = [];
    const store: Store = { ...flakyStore().store, add: async () => answer as never };
    const wrapped = failOpenStore(store, { log: (__, line) => lines.push(line) });
    expect(await wrapped.add('n', { amount: 1, ttlMs: 60_000 })).toEqual({ added: true, total: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/not a store's answer/);
  });

  it('keeps the counters of a store without add in memory (the fallback), with no warning, and never asks that store', async () => {
    const { store, calls } = flakyStore();
    const { add: _, ...withoutAdd } = store;
    const lines: string[] = [];
    const fallback = memoryStore();
    const wrapped = failOpenStore(withoutAdd, { log: (__, line) => lines.push(line), fallback });
    expect(await wrapped.add('n', { amount: 4, limit: 5, ttlMs: 60_000 })).toEqual({ added: true, total: 4 });
    expect(await wrapped.add('n', { amount: 4, limit: 5, ttlMs: 60_000 })).toEqual({ added: false, total: 4 });
    expect(await fallback.get(['n'])).toEqual(['4']);
    expect(calls).toEqual([]);
    expect(lines).toEqual([]);
    // Its other operations still go to it: it is not down.
    await wrapped.set('k', 'v', { ttlMs: 60_000 });
    expect(calls).toEqual(['set']);
    expect(await wrapped.get(['n'])).toEqual([null]);
  });

  it('keeps counters in a memory store of its own when neither the store nor the fallback has add', async () => {
    const { store } = flakyStore();
    const { add: _, ...withoutAdd } = store;
    const { add: __, ...fallbackWithoutAdd } = flakyStore().store;
    const wrapped = failOpenStore(withoutAdd, { log: () => {}, fallback: fallbackWithoutAdd });
    expect(await wrapped.add('n', { amount: 4, limit: 5, ttlMs: 60_000 })).toEqual({ added: true, total: 4 });
    expect(await wrapped.add('n', { amount: 1, limit: 5, ttlMs: 60_000 })).toEqual({ added: true, total: 5 });
    expect(await wrapped.add('n', { amount: 1, limit: 5, ttlMs: 60_000 })).toEqual({ added: false, total: 5 });
  });

  it('refuses a bad add before any store sees it, and does not count it as an outage', async () => {
    const { wrapped, calls, lines } = setup();
    await expect(wrapped.add('k', { amount: 1, limit: Number.NaN, ttlMs: 1000 })).rejects.toMatchObject({ field: 'add.limit' });
    await expect(wrapped.add('k', { amount: 1, ttlMs: 0 })).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('survives a logger that throws', async () => {
    const flaky = flakyStore();
    flaky.mode.now = 'reject';
    const wrapped = failOpenStore(flaky.store, {
      log: () => {
        throw new Error('logger broke');
      },
    });
    expect(await wrapped.set('k', 'v', { ttlMs: 1000 })).toBe(true);
  });

  it('uses the fallback it is given', async () => {
    const fallback = memoryStore();
    await fallback.set('k', 'from the fallback', { ttlMs: 60_000 });
    const flaky = flakyStore();
    flaky.mode.now = 'reject';
    const wrapped = failOpenStore(flaky.store, { log: () => {}, fallback });
    expect(await wrapped.get(['k'])).toEqual(['from the fallback']);
  });
});
