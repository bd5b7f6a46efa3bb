import { createClient, RESP_TYPES } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { redisStore, type RedisClientLike } from '../../src/redis/index.js';
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

  describe.each(redisLibraries.map(([name]) => name))('over %s: the Store contract', (name) => {
    storeContract((n) => of(name).slice(0, n).map((client) => redisStore(client, { prefix: 'contract' })));
  });

  describe.each(redisLibraries.map(([name]) => name))('over %s', (library) => {
    const client = () => of(library)[0] as RedisClientLike;
    const prefix = `t-${library.replace(/\W/g, '')}`;

    it("keeps each key at '<prefix>:<key>', 'ug' by default", async () => {
      await redisStore(client(), { prefix }).set('a:b', 'one', { ttlMs: 60_000 });
      await redisStore(client()).set(`${prefix}-default`, 'two', { ttlMs: 60_000 });
      expect(await raw.get(`${prefix}:a:b`)).toBe('one');
      expect(await raw.get(`ug:${prefix}-default`)).toBe('two');
      const ttl = await raw.pTTL(`${prefix}:a:b`);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
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
      await store.take('kept', { amount: 4, perMs: 0.001, capacity: 10, maxWaitMs: 0 });
      const saved = await raw.get(`${prefix}:kept`);
      const ttl = await raw.pTTL(`${prefix}:kept`);
      // 4 units at 0.001 per ms refill in 4000 ms (less whatever this machine took since).
      expect(ttl).toBeGreaterThan(1000);
      expect(ttl).toBeLessThanOrEqual(4000);
      expect((await store.take('kept', { amount: 100, perMs: 0.001, capacity: 10, maxWaitMs: 0 })).taken).toBe(false);
      expect(await raw.get(`${prefix}:kept`)).toBe(saved);
    });
  });

  it('reads values a client maps to Buffers as text', async () => {
    const store = redisStore(raw.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }), { prefix: 'buffers' });
    await store.set('k', 'ünïcødé 🚀', { ttlMs: 60_000 });
    expect(await store.get(['k', 'none'])).toEqual(['ünïcødé 🚀', null]);
    expect(await store.take('b', { amount: 1, perMs: 1, capacity: 10, maxWaitMs: 0 })).toEqual({ taken: true, waitMs: 0 });
  });
});

describe('redisStore without a server', () => {
  it.each([
    ['nothing', undefined],
    ['a plain object', {}],
    ['a URL', 'redis://127.0.0.1:6379'],
  ])('refuses %s as the client', (_, client) => {
    expect(() => redisStore(client as unknown as RedisClientLike)).toThrow(ValidationError);
    expect(() => redisStore(client as unknown as RedisClientLike)).toThrow(/node-redis client .* or an ioredis client/);
  });

  it('refuses an empty or non-string prefix', () => {
    const client = { sendCommand: async () => null };
    expect(() => redisStore(client, { prefix: '' })).toThrow(ValidationError);
    expect(() => redisStore(client, { prefix: 7 as unknown as string })).toThrow(/prefix/);
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
