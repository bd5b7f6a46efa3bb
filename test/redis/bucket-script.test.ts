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
