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
