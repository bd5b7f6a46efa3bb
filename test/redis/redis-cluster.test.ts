import { createHash } from 'node:crypto';
import { Cluster } from 'ioredis';
import { Cluster as Cluster6 } from 'ioredis6';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore, type RedisClientLike } from '../../src/redis/index.js';
import { keySlot } from '../../src/redis/key-slot.js';
import { redisClusterLibraries, type Connected } from '../helpers/redis-clients.js';
import { describeWithRedisCluster, startRedisCluster, type RedisCluster } from '../helpers/redis-cluster.js';
import { storeContract } from '../helpers/store-contract.js';

type NodeRedis = ReturnType<typeof createClient>;

/** Two keys in one slot as `kp:<key>` but in two as `app:kp:<key>` (searched among 5000 × 5000). */
function sameSlotUnlessPrefixed(): [string, string] {
  const bySlot = new Map<number, string>();
  for (let i = 0; i < 5000; i++) bySlot.set(keySlot(`kp:a-${i}`), `a-${i}`);
  for (let j = 0; j < 5000; j++) {
    const [a, b] = [bySlot.get(keySlot(`kp:bb-${j}`)), `bb-${j}`];
    if (a !== undefined && keySlot(`app:kp:${a}`) !== keySlot(`app:kp:${b}`)) return [a, b];
  }
  throw new Error('no such keys');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** Keys as the fleet names one account's records: its hash tag first, so they share a slot. */
const tagged = ['down', 'probe', 'pause', 'quota', 'rpm'].map((kind, i) => `{a1b2c3}:${kind}:${sha256(String(i)).slice(0, 24)}`);
/** Keys as the response cache names them: no braces, so Redis hashes the whole key. */
const cached = Array.from({ length: 12 }, (_, i) => `cache:2:${sha256(`request ${i}`)}`);

describeWithRedisCluster('redisStore on a Redis Cluster', () => {
  let cluster: RedisCluster;
  /** Eight connected cluster clients of each library, by its name. */
  const clients = new Map<string, Connected[]>();
  /** A plain client of each node, to see what the stores left where (a node's KEYS lists its own keys only). */
  let nodes: NodeRedis[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster();
    for (const [name, connect] of redisClusterLibraries) clients.set(name, await Promise.all(Array.from({ length: 8 }, () => connect(cluster.nodes))));
    nodes = await Promise.all(cluster.nodes.map((n) => createClient({ url: `redis://${n.host}:${n.port}` }).on('error', () => {}).connect()));
  }, 60_000);

  afterAll(async () => {
    for (const connected of clients.values()) for (const { close } of connected) close();
    for (const node of nodes) node.destroy();
    await cluster?.stop();
  }, 20_000);

  const of = (name: string): RedisClientLike[] => (clients.get(name) ?? []).map((c) => c.client);
  /** The index of the node that holds each of `names` (full names, prefix included); -1 where none does. */
  const homes = async (names: string[]): Promise<number[]> => {
    const held = await Promise.all(nodes.map(async (node) => new Set(await node.keys('*'))));
    return names.map((name) => held.findIndex((keys) => keys.has(name)));
  };
  /** How many times each node ran `command` since the last reset, summed. */
  const calls = async (command: string): Promise<number> => {
    const counts = await Promise.all(nodes.map(async (node) => Number((await node.info('commandstats')).match(new RegExp(`^cmdstat_${command}:calls=(\\d+),`, 'm'))?.[1] ?? 0)));
    return counts.reduce((a, b) => a + b, 0);
  };
  const resetStats = () => Promise.all(nodes.map((node) => node.configResetStat()));
  /** The distinct slots of `names`, as the server computes them. */
  const slots = async (names: string[]) => new Set(await Promise.all(names.map((name) => (nodes[0] as NodeRedis).clusterKeySlot(name)))).size;

  it('finds the slot of every key as the cluster does (CLUSTER KEYSLOT)', async () => {
    const odd = ['', '{', '}', '{}', '}{', '{}{x}', '{x}{y}', '{{x}}', 'x{', 'é', '🚀{🚀}', 'a b\n', `ug:{a1b2c3}:down:${sha256('')}`, 'ug:{}:x', 'ug:{ug}'];
    const keys = [...odd, ...tagged, ...cached].flatMap((key) => [key, `ug:${key}`]);
    const fromServer = await Promise.all(keys.map((key) => (nodes[0] as NodeRedis).clusterKeySlot(key)));
    expect(keys.map(keySlot)).toEqual(fromServer);
  });

  describe.each(redisClusterLibraries.map(([name]) => name))('over %s: the Store contract', (name) => {
    storeContract((n) => of(name).slice(0, n).map((client) => redisStore(client, { prefix: 'contract' })));
  });

  describe.each(redisClusterLibraries.map(([name]) => name))('over %s', (library) => {
    const client = () => of(library)[0] as RedisClientLike;
    const prefix = `t-${library.replace(/\W/g, '')}`;
    const named = (key: string) => `${prefix}:${key}`;

    it('keeps the keys of one hash tag on one node, and spreads cache keys over the nodes', async () => {
      const store = redisStore(client(), { prefix });
      for (const key of [...tagged, ...cached]) expect(await store.set(key, key, { ttlMs: 60_000 })).toBe(true);
      const taggedHomes = await homes(tagged.map(named));
      const cachedHomes = await homes(cached.map(named));
      expect(taggedHomes).not.toContain(-1);
      expect(cachedHomes).not.toContain(-1);
      expect(new Set(taggedHomes).size).toBe(1);
      expect(new Set(cachedHomes).size).toBeGreaterThanOrEqual(2);
      await store.delete([...tagged, ...cached]);
    });

    it('reads keys of many slots in one get, in the order asked, with one MGET per slot; deletes them with one DEL per slot', async () => {
      const store = redisStore(client(), { prefix });
      const absent = ['absent:1', '{a1b2c3}:absent', 'cache:2:absent'];
      const keys = [cached[0], absent[0], ...tagged, cached[1], absent[1], ...cached.slice(2), absent[2]] as string[];
      for (const key of [...tagged, ...cached]) await store.set(key, `value of ${key}`, { ttlMs: 60_000 });
      // The keys really are on more than one node: a single MGET of them would be refused (CROSSSLOT).
      expect(new Set(await homes([...tagged, ...cached].map(named))).size).toBeGreaterThanOrEqual(2);
      const expected = keys.map((key) => (absent.includes(key) ? null : `value of ${key}`));

      await resetStats();
      expect(await store.get(keys)).toEqual(expected);
      expect(await calls('mget')).toBe(await slots(keys.map(named)));
      expect(await calls('get')).toBe(0);

      // One account's records: one slot, one MGET.
      await resetStats();
      expect(await store.get(tagged)).toEqual(tagged.map((key) => `value of ${key}`));
      expect(await calls('mget')).toBe(1);

      await resetStats();
      await store.delete(keys);
      expect(await calls('del')).toBe(await slots(keys.map(named)));
      expect(await store.get(keys)).toEqual(keys.map(() => null));
      expect(await homes([...tagged, ...cached].map(named))).toEqual([...tagged, ...cached].map(() => -1));
    });

    it('runs the bucket on the node of its key: by EVALSHA, and by EVAL on each node that lost the script', async () => {
      const store = redisStore(client(), { prefix });
      const take = { amount: 1, perMs: 1e-6, capacity: 10, maxWaitMs: 0 };
      // Buckets on every node: keys whose slots lie in each third of the slot range.
      const buckets = cached.map((key) => `${key}:rpm`);
      await Promise.all(nodes.map((node) => node.scriptFlush()));
      await resetStats();
      for (const bucket of buckets) expect(await store.take(bucket, take)).toEqual({ taken: true, waitMs: 0 });
      for (const bucket of buckets) expect(await store.take(bucket, take)).toEqual({ taken: true, waitMs: 0 });
      const bucketHomes = await homes(buckets.map(named));
      expect(bucketHomes).not.toContain(-1);
      const used = new Set(bucketHomes).size;
      expect(used).toBeGreaterThanOrEqual(2);
      // Each node used answers NOSCRIPT once, then keeps the script EVAL sent it.
      expect(await calls('eval')).toBe(used);
      expect(await calls('evalsha')).toBe(2 * buckets.length);
      for (const bucket of buckets) expect(await (nodes[bucketHomes[buckets.indexOf(bucket)] as number] as NodeRedis).get(named(bucket))).toMatch(/^8(\.\d+)? \d/);
      await store.delete(buckets);
    });

    it('runs the counter on the node of its key: by EVALSHA, and by EVAL on each node that lost the script', async () => {
      const store = redisStore(client(), { prefix });
      const add = store.add as NonNullable<typeof store.add>;
      const counters = cached.map((key) => `${key}:count`);
      await store.delete(counters);
      await Promise.all(nodes.map((node) => node.scriptFlush()));
      await resetStats();
      for (const counter of counters) expect(await add(counter, { amount: 3, limit: 5, ttlMs: 60_000 })).toEqual({ added: true, total: 3 });
      for (const counter of counters) expect(await add(counter, { amount: 3, limit: 5, ttlMs: 60_000 })).toEqual({ added: false, total: 3 });
      const counterHomes = await homes(counters.map(named));
      expect(counterHomes).not.toContain(-1);
      const used = new Set(counterHomes).size;
      expect(used).toBeGreaterThanOrEqual(2);
      expect(await calls('eval')).toBe(used);
      expect(await calls('evalsha')).toBe(2 * counters.length);
      for (const [i, counter] of counters.entries()) expect(await (nodes[counterHomes[i] as number] as NodeRedis).get(named(counter))).toBe('3');
      await store.delete(counters);
    });
  });

  describe.each([
    ['ioredis 5', Cluster],
    ['ioredis 6', Cluster6],
  ] as const)('over an %s Cluster with a keyPrefix of its own', (_, ClusterClass) => {
    it('groups keys by the slots of the names the server sees, the keyPrefix included', async () => {
      const client = new ClusterClass(cluster.nodes, { lazyConnect: true, keyPrefix: 'app:' });
      client.on('error', () => {});
      await client.connect();
      try {
        const store = redisStore(client, { prefix: 'kp' });
        // Keys in one slot as the store names them (`kp:<key>`), in two as the server sees them (`app:kp:<key>`).
        const pair = sameSlotUnlessPrefixed();
        const keys = [...pair, ...cached];
        for (const key of keys) await store.set(key, `value of ${key}`, { ttlMs: 60_000 });
        expect(await homes(keys.map((key) => `app:kp:${key}`))).not.toContain(-1);
        expect(await store.get(keys)).toEqual(keys.map((key) => `value of ${key}`));
        await store.delete(keys);
        expect(await homes(keys.map((key) => `app:kp:${key}`))).toEqual(keys.map(() => -1));
      } finally {
        client.disconnect();
      }
    });
  });
});
