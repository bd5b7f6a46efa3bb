import { createClient, RESP_TYPES } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { redisStore, type RedisClientLike, type RedisStoreOptions } from '../../src/redis/index.js';
import { keySlot } from '../../src/redis/key-slot.js';
import { redisLibraries, type Connected } from '../helpers/redis-clients.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { storeContract } from '../helpers/store-contract.js';

type NodeRedis = ReturnType<typeof createClient>;

describeWithRedis('redisStore on a real Redis', () => {
  let server: RedisServer;
  /** Eight connected clients of each library, by its name. */
  const clients = new Map<string, Connected[]>();
  // A plain client to look at what the stores left in Redis.
  let raw: NodeRedis;

  beforeAll(async () => {
    server = await startRedisServer();
    for (const [name, connect] of redisLibraries) clients.set(name, await Promise.all(Array.from({ length: 8 }, () => connect(server.url))));
    raw = await createClient({ url: server.url }).on('error', () => {}).connect();
  }, 30_000);

  afterAll(async () => {
    for (const connected of clients.values()) for (const { close } of connected) close();
    raw?.destroy();
    await server?.stop();
  }, 10_000);

  const of = (name: string): RedisClientLike[] => (clients.get(name) ?? []).map((c) => c.client);

  /** The server's clock in ms (TIME), the clock its expiries are set on. */
  const serverMs = async () => {
    const [seconds, micros] = await raw.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };
  /**
   * Checks that `key` expires `ttlMs` after a moment within what `write` took, on the server's
   * clock: its PEXPIRETIME (Redis 7) lies between TIME before and after, plus `ttlMs`. No
   * assertion on how long anything took here, which a busy machine could stretch.
   */
  const expectTtl = async (key: string, ttlMs: number, write: () => Promise<unknown>) => {
    const before = await serverMs();
    await write();
    const after = await serverMs();
    const expiresAt = await raw.pExpireTime(key);
    expect(expiresAt - ttlMs).toBeGreaterThanOrEqual(before);
    expect(expiresAt - ttlMs).toBeLessThanOrEqual(after);
  };

  describe.each(redisLibraries.map(([name]) => name))('over %s: the Store contract', (name) => {
    storeContract((n) => of(name).slice(0, n).map((client) => redisStore(client, { prefix: 'contract' })));
  });

  describe.each(redisLibraries.map(([name]) => name))('over %s', (library) => {
    const client = () => of(library)[0] as RedisClientLike;
    const prefix = `t-${library.replace(/\W/g, '')}`;

    it("keeps each key at '<prefix>:<key>', 'ug' by default", async () => {
      await expectTtl(`${prefix}:a:b`, 60_000, () => redisStore(client(), { prefix }).set('a:b', 'one', { ttlMs: 60_000 }));
      await redisStore(client()).set(`${prefix}-default`, 'two', { ttlMs: 60_000 });
      expect(await raw.get(`${prefix}:a:b`)).toBe('one');
      expect(await raw.get(`ug:${prefix}-default`)).toBe('two');
    });

    it('keeps stores of different prefixes apart', async () => {
      const [a, b] = [redisStore(client(), { prefix: `${prefix}-a` }), redisStore(client(), { prefix: `${prefix}-b` })];
      await a.set('k', 'from a', { ttlMs: 60_000 });
      expect(await b.get(['k'])).toEqual([null]);
      expect(await b.set('k', 'from b', { ttlMs: 60_000, ifAbsent: true })).toBe(true);
      expect((await a.take('bucket', { amount: 5, perMs: 1e-6, capacity: 5, maxWaitMs: 0 })).taken).toBe(true);
      expect((await b.take('bucket', { amount: 5, perMs: 1e-6, capacity: 5, maxWaitMs: 0 })).taken).toBe(true);
    });

    it('reads any number of keys with one MGET', async () => {
      const store = redisStore(client(), { prefix });
      await raw.configResetStat();
      await store.get(['x1', 'x2', 'x3', 'x4']);
      const stats = await raw.info('commandstats');
      expect(stats).toMatch(/cmdstat_mget:calls=1,/);
      expect(stats).not.toMatch(/cmdstat_get:/);
    });

    it('runs the bucket by EVALSHA, and by EVAL when the server lost the script', async () => {
      const store = redisStore(client(), { prefix });
      const take = { amount: 1, perMs: 1e-6, capacity: 10, maxWaitMs: 0 };
      await raw.scriptFlush();
      await raw.configResetStat();
      expect(await store.take('script', take)).toEqual({ taken: true, waitMs: 0 });
      expect(await store.take('script', take)).toEqual({ taken: true, waitMs: 0 });
      let stats = await raw.info('commandstats');
      // The first EVALSHA finds no script (NOSCRIPT), EVAL loads it, the second EVALSHA runs it.
      expect(stats).toMatch(/cmdstat_evalsha:calls=2,.*failed_calls=1\b/);
      expect(stats).toMatch(/cmdstat_eval:calls=1,/);
      await raw.scriptFlush();
      expect(await store.take('script', take)).toEqual({ taken: true, waitMs: 0 });
      stats = await raw.info('commandstats');
      expect(stats).toMatch(/cmdstat_eval:calls=2,/);
      expect(await raw.get(`${prefix}:script`)).toMatch(/^7(\.\d+)? \d/);
    });

    it('writes nothing for a refused take, and keeps a bucket until it is full again', async () => {
      const store = redisStore(client(), { prefix });
      // 4 units at 0.001 per ms refill in 4000 ms.
      await expectTtl(`${prefix}:kept`, 4000, () => store.take('kept', { amount: 4, perMs: 0.001, capacity: 10, maxWaitMs: 0 }));
      const saved = await raw.get(`${prefix}:kept`);
      expect((await store.take('kept', { amount: 100, perMs: 0.001, capacity: 10, maxWaitMs: 0 })).taken).toBe(false);
      expect(await raw.get(`${prefix}:kept`)).toBe(saved);
    });

    it('runs the counter by EVALSHA, and by EVAL when the server lost the script', async () => {
      const store = redisStore(client(), { prefix });
      const add = (amount: number) => (store.add as NonNullable<typeof store.add>)('counted', { amount, limit: 10, ttlMs: 60_000 });
      await raw.del(`${prefix}:counted`);
      await raw.scriptFlush();
      await raw.configResetStat();
      expect(await add(4)).toEqual({ added: true, total: 4 });
      expect(await add(4)).toEqual({ added: true, total: 8 });
      let stats = await raw.info('commandstats');
      expect(stats).toMatch(/cmdstat_evalsha:calls=2,.*failed_calls=1\b/);
      expect(stats).toMatch(/cmdstat_eval:calls=1,/);
      await raw.scriptFlush();
      expect(await add(4)).toEqual({ added: false, total: 8 });
      stats = await raw.info('commandstats');
      expect(stats).toMatch(/cmdstat_eval:calls=2,/);
      expect(await raw.get(`${prefix}:counted`)).toBe('8');
    });

    it('gives ttlMs only to a key it creates: an existing key keeps its expiry (within the ms PTTL rounds off), or its lack of one', async () => {
      const store = redisStore(client(), { prefix });
      const add = (key: string, ttlMs: number) => (store.add as NonNullable<typeof store.add>)(key, { amount: 1, ttlMs });
      await raw.del([`${prefix}:window`, `${prefix}:forever`]);
      await expectTtl(`${prefix}:window`, 60_000, () => add('window', 60_000));
      const expiresAt = await raw.pExpireTime(`${prefix}:window`);
      expect(await add('window', 3_600_000)).toEqual({ added: true, total: 2 });
      expect(await add('window', 1)).toEqual({ added: true, total: 3 });
      // Set again with what PTTL said was left (whole ms, rounded down): at most 1 ms earlier per add.
      const kept = await raw.pExpireTime(`${prefix}:window`);
      expect(kept).toBeLessThanOrEqual(expiresAt);
      expect(kept).toBeGreaterThanOrEqual(expiresAt - 2);
      // A key someone set with no expiry stays without one.
      await raw.set(`${prefix}:forever`, '5');
      expect(await add('forever', 1000)).toEqual({ added: true, total: 6 });
      expect(await raw.pTTL(`${prefix}:forever`)).toBe(-1);
      await raw.del(`${prefix}:forever`);
    });

    it.each([
      ['a hash', (key: string) => raw.hSet(key, 'total', '5')],
      ['a list', (key: string) => raw.rPush(key, ['5', '6'])],
      ['a set', (key: string) => raw.sAdd(key, '5')],
    ])('replaces a key that holds %s with a new counter, and its ttl (no WRONGTYPE: what a store gives back is untrusted)', async (_, plant) => {
      const store = redisStore(client(), { prefix });
      const key = `${prefix}:typed`;
      await raw.del(key);
      await plant(key);
      await raw.pExpire(key, 3_600_000);
      await expectTtl(key, 60_000, async () => expect(await (store.add as NonNullable<typeof store.add>)('typed', { amount: 2, limit: 10, ttlMs: 60_000 })).toEqual({ added: true, total: 2 }));
      expect(await raw.type(key)).toBe('string');
      expect(await raw.get(key)).toBe('2');
    });

    it('writes nothing for a refused add', async () => {
      const store = redisStore(client(), { prefix });
      const key = `${prefix}:full`;
      await raw.set(key, '9', { PX: 60_000 });
      const before = await raw.pExpireTime(key);
      expect(await (store.add as NonNullable<typeof store.add>)('full', { amount: 2, limit: 10, ttlMs: 1 })).toEqual({ added: false, total: 9 });
      expect(await raw.get(key)).toBe('9');
      expect(await raw.pExpireTime(key)).toBe(before);
    });
  });

  it('reads values a client maps to Buffers as text', async () => {
    const store = redisStore(raw.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }), { prefix: 'buffers' });
    await store.set('k', 'ünïcødé 🚀', { ttlMs: 60_000 });
    expect(await store.get(['k', 'none'])).toEqual(['ünïcødé 🚀', null]);
    expect(await store.take('b', { amount: 1, perMs: 1, capacity: 10, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
    expect(await store.add?.('n', { amount: 0.5, ttlMs: 60_000 })).toEqual({ added: true, total: 0.5 });
  });
});

describe('redisStore without a server', () => {
  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a plain object', {}],
    ['a URL', 'redis://127.0.0.1:6379'],
    // A function has call() (Function.prototype.call): it once passed for an ioredis client.
    ['a function', async () => 'OK'],
    ['an object whose call is not a function', { call: 'MGET' }],
  ])('refuses %s as the client, saying what it takes', (_, client) => {
    expect(() => redisStore(client as unknown as RedisClientLike)).toThrow(ValidationError);
    expect(() => redisStore(client as unknown as RedisClientLike)).toThrow(
      'Invalid client: must be a connected client of node-redis (createClient() or createCluster() from "redis") or of ioredis (new Redis() or new Cluster()), major 5 or 6',
    );
  });

  it('refuses a node-redis Sentinel client, whose sendCommand takes other arguments, naming what to use instead', () => {
    const sentinel = { sendCommand: async () => 'OK', getMasterNode: () => undefined, getSentinelNode: () => undefined };
    expect(() => redisStore(sentinel)).toThrow(ValidationError);
    expect(() => redisStore(sentinel)).toThrow(/node-redis Sentinel client \(createSentinel\(\)\), which redisStore does not take: give it an ioredis client with `sentinels`/);
  });

  it('refuses an empty or non-string prefix', () => {
    const client = { sendCommand: async () => null };
    expect(() => redisStore(client, { prefix: '' })).toThrow(ValidationError);
    expect(() => redisStore(client, { prefix: 7 as unknown as string })).toThrow(/prefix/);
    expect(() => redisStore(client, { prefix: null as unknown as string })).toThrow('Invalid prefix: must be a non-empty string');
  });

  it('refuses options that are not an object, and an option it does not know (a misspelt prefix would go unused)', () => {
    const client = { sendCommand: async () => null };
    expect(() => redisStore(client, null as unknown as RedisStoreOptions)).toThrow("Invalid options: must be an object such as { prefix: 'ug' }");
    expect(() => redisStore(client, 'ug' as unknown as RedisStoreOptions)).toThrow(ValidationError);
    expect(() => redisStore(client, { prefx: 'mine' } as unknown as RedisStoreOptions)).toThrow('Invalid prefx: is not an option of redisStore() (it takes prefix)');
    expect(() => redisStore(client, { prefix: 'mine', ttl: 5 } as unknown as RedisStoreOptions)).toThrow(/Invalid ttl: is not an option/);
    expect(() => redisStore(client, { prefix: undefined })).not.toThrow();
    expect(() => redisStore(client, {})).not.toThrow();
  });

  it('sends one MGET or DEL per slot to a node-redis cluster client, each routed by a key of its slot, and puts the values back in order', async () => {
    const sent: Array<[firstKey: string | undefined, readonly: boolean | undefined, args: string[]]> = [];
    const cluster = {
      nodeClient: () => undefined,
      sendCommand: async (firstKey: string | undefined, readonly: boolean | undefined, args: string[]) => {
        sent.push([firstKey, readonly, args]);
        return args[0] === 'MGET' ? args.slice(1).map((name) => `value of ${name}`) : 'OK';
      },
    };
    const store = redisStore(cluster, { prefix: 'p' });
    // p:{t}:a and p:{t}:b share the slot of `t`; p:x and p:y are each hashed whole.
    const keys = ['{t}:a', 'x', '{t}:b', 'y'];
    expect([keySlot('p:x'), keySlot('p:y')]).not.toContain(keySlot('t'));
    expect(keySlot('p:x')).not.toBe(keySlot('p:y'));
    expect(await store.get(keys)).toEqual(keys.map((key) => `value of p:${key}`));
    expect(sent).toEqual([
      ['p:{t}:a', true, ['MGET', 'p:{t}:a', 'p:{t}:b']],
      ['p:x', true, ['MGET', 'p:x']],
      ['p:y', true, ['MGET', 'p:y']],
    ]);
    sent.length = 0;
    await store.delete(keys);
    expect(await store.set('{t}:c', 'v', { ttlMs: 1000, ifAbsent: true })).toBe(true);
    expect(sent).toEqual([
      ['p:{t}:a', false, ['DEL', 'p:{t}:a', 'p:{t}:b']],
      ['p:x', false, ['DEL', 'p:x']],
      ['p:y', false, ['DEL', 'p:y']],
      ['p:{t}:c', false, ['SET', 'p:{t}:c', 'v', 'PX', '1000', 'NX']],
    ]);
  });

  it('groups keys for an ioredis Cluster by the slots of the names it sends, its own keyPrefix included', async () => {
    const sent: string[][] = [];
    const call = async (...args: string[]) => (sent.push(args), args[0] === 'MGET' ? args.slice(1).map(() => 'v') : 1);
    // Two keys of one slot without the keyPrefix, of two with it.
    const [a, b] = findKeys();
    await redisStore({ call, isCluster: true, options: { keyPrefix: 'app:' } } as RedisClientLike).get([a, b]);
    expect(sent).toEqual([['MGET', `ug:${a}`], ['MGET', `ug:${b}`]]);
    sent.length = 0;
    await redisStore({ call, isCluster: true, options: {} } as RedisClientLike).get([a, b]);
    expect(sent).toEqual([['MGET', `ug:${a}`, `ug:${b}`]]);
    sent.length = 0;
    // One server: one MGET whatever the slots.
    await redisStore({ call, isCluster: false } as RedisClientLike).get([a, b, 'other']);
    expect(sent).toEqual([['MGET', `ug:${a}`, `ug:${b}`, 'ug:other']]);
  });

  it('sends ioredis clients commands by call(), node-redis clients by sendCommand(), nothing for bad arguments', async () => {
    const sent: unknown[] = [];
    const io = { call: async (...args: unknown[]) => (sent.push(['call', ...args]), 'OK'), sendCommand: async () => 'wrong method' };
    const node = { sendCommand: async (args: string[]) => (sent.push(['sendCommand', ...args]), 'OK') };
    expect(await redisStore(io).set('k', 'v', { ttlMs: 1.5, ifAbsent: true })).toBe(true);
    expect(await redisStore(node, { prefix: 'p' }).set('k', 'v', { ttlMs: 1000 })).toBe(true);
    await expect(redisStore(node).set('k', 'v', { ttlMs: -1 })).rejects.toBeInstanceOf(ValidationError);
    await redisStore(node).get([]);
    await redisStore(node).delete([]);
    expect(sent).toEqual([
      ['call', 'SET', 'ug:k', 'v', 'PX', '2', 'NX'],
      ['sendCommand', 'SET', 'p:k', 'v', 'PX', '1000'],
    ]);
  });

  it('rejects when the server answers something that is not a store answer', async () => {
    const store = redisStore({ sendCommand: async () => 'surprise' });
    await expect(store.get(['a'])).rejects.toThrow(/MGET answered string/);
    await expect(store.take('a', { amount: 1, perMs: 1, capacity: 1, maxWaitMs: 0 })).rejects.toThrow(/bucket script answered string/);
  });
});

/** Two keys, `a-<i>` and `bb-<j>`, in one slot as the store names them (`ug:<key>`) but not under `app:` (i, j below 5000). */
function findKeys(): [string, string] {
  const bySlot = new Map<number, string>();
  for (let i = 0; i < 5000; i++) bySlot.set(keySlot(`ug:a-${i}`), `a-${i}`);
  for (let j = 0; j < 5000; j++) {
    const [a, b] = [bySlot.get(keySlot(`ug:bb-${j}`)), `bb-${j}`];
    if (a !== undefined && keySlot(`app:ug:${a}`) !== keySlot(`app:ug:${b}`)) return [a, b];
  }
  throw new Error('no such keys');
}
