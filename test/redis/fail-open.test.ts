import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failOpenStore } from '../../src/core/store/fail-open-store.js';
import { redisStore } from '../../src/redis/index.js';
import { redisLibraries } from '../helpers/redis-clients.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { eventually } from '../helpers/store-contract.js';

// A real Redis killed while a client works through it, then started again on the same port
// (empty: it saves nothing). Commands in flight when the connection drops are rejected; later
// ones are queued while the client reconnects (both libraries' default), so an outage looks
// like operations that hang: the wrapper's timeout answers them.
describeWithRedis('failOpenStore over a Redis that dies and comes back', () => {
  let server: RedisServer;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    server = await startRedisServer();
  }, 20_000);
  afterAll(async () => {
    await server?.stop();
  }, 10_000);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  describe.each(redisLibraries)('over %s', (_, connect) => {
    it('fails no operation, warns once, and shares state again once Redis is back', { timeout: 30_000 }, async () => {
      const { client, close } = await connect(server.url);
      const lines: Array<[string, string]> = [];
      // 1 s rather than the default 250 ms: on a loaded test machine a healthy Redis must not look down.
      const store = failOpenStore(redisStore(client, { prefix: 'fo' }), { timeoutMs: 1000, retryMs: 100, log: (level, line) => lines.push([level, line]) });
      let done = 0;
      const failures: unknown[] = [];
      let working = true;
      // A caller that keeps working through the outage, one operation of each kind per round.
      const worker = (async () => {
        for (let round = 0; working && round < 5000; round++) {
          try {
            await store.set(`w${round % 10}`, String(round), { ttlMs: 60_000 });
            await store.get([`w${round % 10}`, 'missing']);
            await store.take('bucket', { amount: 1, perMs: 1, capacity: 100, maxWaitMs: 1000 });
            await store.add('counter', { amount: 1, limit: 1000, ttlMs: 60_000 });
            await store.delete([`w${(round + 5) % 10}`]);
            done++;
          } catch (error) {
            failures.push(error);
          }
          await new Promise((r) => setTimeout(r, 2));
        }
      })();
      try {
        expect(await eventually(async () => done >= 5)).toBe(true);
        expect(lines).toEqual([]);

        await server.kill();
        const before = done;
        expect(await eventually(async () => lines.length > 0, 5000)).toBe(true);
        expect(lines[0]?.[0]).toBe('warn');
        expect(await eventually(async () => done >= before + 20, 5000)).toBe(true);

        await server.restart();
        const witness = await connect(server.url);
        try {
          await redisStore(witness.client, { prefix: 'fo' }).set('witness', 'written after the restart', { ttlMs: 60_000 });
          // Sharing resumes: what another process writes to the new Redis is read through the wrapper.
          expect(await eventually(async () => (await store.get(['witness']))[0] === 'written after the restart', 15_000)).toBe(true);
        } finally {
          witness.close();
        }
        const after = done;
        expect(await eventually(async () => done >= after + 5)).toBe(true);
      } finally {
        working = false;
        await worker;
        close();
      }
      expect(failures).toEqual([]);
      expect(lines.map(([level]) => level)).toEqual(['warn', 'info']);
      expect(lines[0]?.[1]).toMatch(/the store is unreachable \(.+\), going on with this process's memory/);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    });
  });
});
