import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeBucket } from '../../src/core/store/rate-bucket.js';
import { BUCKET_SCRIPT } from '../../src/redis/bucket-script.js';
import { bucketRows } from '../helpers/bucket-table.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';

// The Lua script against the same table as takeFromBucket (test/core/rate-bucket.test.ts),
// with the time given instead of the server's, on a real Redis.
describeWithRedis('the bucket script', () => {
  let server: RedisServer;
  let redis: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = await createClient({ url: server.url }).on('error', () => {}).connect();
  }, 20_000);
  afterAll(async () => {
    redis?.destroy();
    await server?.stop();
  }, 10_000);

  it.each(bucketRows)('$name', async ({ saved, now, take, taken, waitMs, level, at }) => {
    const key = 'bucket';
    if (saved === null) await redis.del(key);
    else await redis.set(key, saved);
    const maxWaitMs = Math.min(take.maxWaitMs, Number.MAX_VALUE);
    // In one transaction: a bucket written for a few ms (its ttl is real time) is read before it expires.
    const [reply, stored] = (await redis
      .multi()
      .addCommand(['EVAL', BUCKET_SCRIPT, '1', key, String(take.amount), String(take.perMs), String(take.capacity), String(maxWaitMs), String(now)])
      .get(key)
      .exec()) as unknown as [[number, string], string | null];
    expect({ taken: reply[0] === 1, waitMs: Number(reply[1]) }).toEqual({ taken, waitMs });
    // A refused take writes nothing; a granted one writes the bucket as takeFromBucket gives it.
    if (taken) expect(decodeBucket(stored)).toEqual({ level, at });
    else expect(stored).toBe(saved);
  });
});

describeWithRedis('the bucket script and keys of another type', () => {
  let server: RedisServer;
  let redis: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = await createClient({ url: server.url }).on('error', () => {}).connect();
  }, 20_000);
  afterAll(async () => {
    redis?.destroy();
    await server?.stop();
  }, 10_000);

  it.each([
    ['a hash', (key: string) => redis.hSet(key, 'level', '-1e300')],
    ['a list', (key: string) => redis.rPush(key, ['x', 'y'])],
  ])('takes from a full bucket where the key holds %s (no WRONGTYPE error: what a store gives back is untrusted)', async (_, plant) => {
    const key = 'typed-bucket';
    await redis.del(key);
    await plant(key);
    // A slow refill (1 unit a second): the key's ttl is the time to refill, 3 s here; at 0.5
    // a ms it was 6 ms, and the get below found it expired on a busy machine.
    const reply = (await redis.sendCommand(['EVAL', BUCKET_SCRIPT, '1', key, '3', '0.001', '10', '100', '1000'])) as [number, string];
    expect([Number(reply[0]), Number(reply[1])]).toEqual([1, 0]);
    expect(decodeBucket(await redis.get(key))).toEqual({ level: 7, at: 1000 });
  });
});
