// One instance of the fleet `npm run bench:fleet` runs (forked by fleet.mjs, with an IPC
// channel): a client of the built package (`unified-gateway` through the package's exports)
// that makes calls for the scenario's duration and reports what it saw. Also the latency
// measurement (`latency`), in one process. Never run by hand.
import { performance } from 'node:perf_hooks';

const [, , role, configText] = process.argv;
const config = JSON.parse(configText ?? '{}');
const noop = () => undefined;

// Bounded whatever happens: the run gives every instance its duration and this much more.
setTimeout(() => process.exit(3), (config.durationMs ?? 60_000) + (config.startDelayMs ?? 0) + 240_000).unref();
// The run that forked this process is gone: so is this instance.
process.on('disconnect', () => process.exit(4));

/** A connected Redis client of the chosen library (a Redis Cluster's when `cluster` lists its nodes), and how to let it go. */
async function connectRedis(url, library, cluster) {
  if (cluster && library === 'ioredis') {
    const { Cluster } = await import('ioredis');
    const client = new Cluster(cluster, { lazyConnect: true });
    client.on('error', noop);
    await client.connect();
    return { client, close: () => client.disconnect() };
  }
  if (cluster) {
    const { createCluster } = await import('redis');
    const client = await createCluster({ rootNodes: cluster.map((n) => ({ url: `redis://${n.host}:${n.port}` })) })
      .on('error', noop)
      .connect();
    return { client, close: () => client.destroy() };
  }
  if (library === 'ioredis') {
    const { Redis } = await import('ioredis');
    const client = new Redis(url, { lazyConnect: true });
    // Both libraries emit 'error' while Redis is away: without a listener, Node exits.
    client.on('error', noop);
    await client.connect();
    return { client, info: () => client.info('commandstats'), close: () => client.disconnect() };
  }
  const { createClient } = await import('redis');
  const client = await createClient({ url }).on('error', noop).connect();
  return { client, info: () => client.info('commandstats'), close: () => client.destroy() };
}

/** The store an instance runs on: one Redis for the fleet (`redis`), or its own memory (`memory`). */
async function storeFor(kind) {
  const { memoryStore } = await import('unified-gateway');
  if (kind !== 'redis') return { store: memoryStore(), close: noop };
  const { redisStore } = await import('unified-gateway/redis');
  const redis = await connectRedis(config.redisURL, config.redisLibrary, config.redisCluster);
  return { store: redisStore(redis.client, { prefix: config.prefix }), close: redis.close, info: redis.info };
}

/** Blocks this process's event loop for `ms` (a long synchronous task), without spinning a core. */
const blockLoop = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const ask = (client, model, options) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 8 }, options);
const message = (then) => new Promise((resolve) => process.once('message', (m) => resolve(then(m))));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An instance: one call at a time, `gapMs` (a uniform draw in [min, max]) between calls,
 * from `startDelayMs` after the go until `durationMs` after it; a call still waiting at the
 * end (held for budget, paused) is aborted, and counted as stopped, not failed.
 * `busy: { ms, everyMs: [min, max] }`: now and then (a draw in everyMs) the loop is blocked
 * for `ms`, in the same turn of the event loop as a call that starts (queued before the
 * call's own work: a request handler doing `ms` of work beside one making a call).
 * `cache`: a second client, with `cache: { store }` on the same store, makes one call
 * whenever the run asks (`cache-call`), and says whether the cache answered it.
 */
async function instance() {
  const { Gateway } = await import('unified-gateway');
  // Warm: the package loaded and compiled, a connection open, before the clock starts. A
  // client of its own, so the instance's client starts with nothing learnt or spent.
  await ask(new Gateway({ apiKey: 'bench-key', baseURL: config.backup ?? config.main }), 'warm-up');
  const { store, close } = await storeFor(config.store);
  const seen = { attempts: [], retries: [], failures: [], fleet: {}, fleetTimes: [], storeLines: [], calls: [], blocks: [] };
  const baseOf = (url) => (url === config.main ? 'main' : 'backup');
  const logger = {
    error: noop,
    debug: noop,
    warn: (line) => line.includes('the store') && seen.storeLines.push({ t: Date.now(), level: 'warn', line }),
    info: (line) => line.includes('the store') && seen.storeLines.push({ t: Date.now(), level: 'info', line }),
  };
  const client = new Gateway({
    apiKey: 'bench-key',
    baseURL: config.main,
    backupBaseURL: config.backup,
    timeout: config.timeoutMs,
    ...(config.cooldownMs !== undefined ? { failoverCooldown: config.cooldownMs } : {}),
    store,
    limits: config.limits,
    defaultHeaders: { 'x-bench-instance': String(config.id) },
    logLevel: 'info',
    logger,
    hooks: {
      // Each attempt, by its call's Idempotency-Key and number: when it was sent, and where.
      onRequest: (e) => seen.attempts.push({ t: Date.now(), base: baseOf(e.baseURL), key: e.idempotencyKey, n: e.attempt }),
      onRetry: (e) => seen.retries.push({ t: Date.now(), base: baseOf(e.baseURL), name: e.error.name, key: e.idempotencyKey, n: e.attempt, status: e.status }),
      onFleet: (e) => {
        seen.fleet[e.event] = (seen.fleet[e.event] ?? 0) + 1;
        seen.fleetTimes.push({ t: Date.now(), event: e.event, waitMs: e.waitMs });
      },
    },
  });
  if (config.cache) {
    // Its own client (the fleet's calls stay uncached), on the same store, keeping answers a minute.
    let outcome;
    const cached = new Gateway({ apiKey: 'bench-key', baseURL: config.main, backupBaseURL: config.backup, timeout: 5_000, store, cache: { store, ttl: 60_000 }, logger, logLevel: 'info', hooks: { onCache: (e) => (outcome = e.outcome) } });
    process.on('message', async (m) => {
      if (m?.type !== 'cache-call') return;
      const t0 = Date.now();
      outcome = undefined;
      try {
        const reply = await cached.chat.completions.create({ model: 'bench-cache', messages: [{ role: 'user', content: m.question }], max_tokens: 8 });
        process.send({ type: 'cache-result', id: config.id, outcome, content: reply.choices[0]?.message.content, ms: Date.now() - t0 });
      } catch (error) {
        process.send({ type: 'cache-result', id: config.id, outcome, error: `${error.name}: ${error.message}`.slice(0, 200), ms: Date.now() - t0 });
      }
    });
  }
  process.send({ type: 'ready' });
  const go = await message((m) => m.at);
  const end = go + config.durationMs;
  const stop = new AbortController();
  setTimeout(() => stop.abort(), Math.max(0, end - Date.now()));
  let random = config.seed;
  // A small seeded generator: each instance's pacing is the same from run to run.
  const next = () => ((random = (Math.imul(random, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
  await sleep(Math.max(0, go + (config.startDelayMs ?? 0) - Date.now()));
  const busy = config.busy;
  const nextBusy = () => Date.now() + busy.everyMs[0] + next() * (busy.everyMs[1] - busy.everyMs[0]);
  let busyAt = busy ? nextBusy() : Number.POSITIVE_INFINITY;
  while (Date.now() < end) {
    const model = config.models[Math.floor(next() * config.models.length)];
    const t0 = Date.now();
    if (Date.now() >= busyAt) {
      busyAt = nextBusy();
      // Queued before the call's first step: it runs after the call's synchronous part and
      // promise jobs, in the same turn of the loop (node-redis writes its commands later in
      // that turn, ioredis at once).
      setImmediate(() => {
        const from = Date.now();
        blockLoop(busy.ms);
        seen.blocks.push({ t: from, ms: Date.now() - from });
      });
    }
    try {
      await ask(client, model, { signal: stop.signal });
      seen.calls.push({ t0, ms: Date.now() - t0, ok: true, model });
    } catch (error) {
      const stopped = stop.signal.aborted;
      seen.calls.push({ t0, ms: Date.now() - t0, ok: false, stopped, model });
      if (!stopped) seen.failures.push({ t: t0, name: error.name, code: error.code ?? null, unsent: /nothing was sent/.test(error.message), message: String(error.message).slice(0, 200) });
    }
    const [min, max] = config.gapMs;
    if (max > 0) await sleep(min + next() * (max - min));
  }
  process.send({ type: 'result', id: config.id, seen });
  await close();
  process.disconnect();
  process.exit(0);
}

/** p-th percentile (0..100) of sorted numbers, nearest rank. */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/**
 * What the fleet adds to a healthy call: three clients on the same main and backup, called
 * in turn (the order rotating each round), one call at a time: no store option (the
 * client's own memory), an explicit memoryStore() (the fleet's code, no network), and a
 * redisStore. Wall time per call; the Redis commands the redis client sent, from the
 * server's INFO commandstats.
 */
async function latency() {
  const { Gateway, memoryStore } = await import('unified-gateway');
  const { redisStore } = await import('unified-gateway/redis');
  const redis = await connectRedis(config.redisURL, config.redisLibrary);
  const base = { apiKey: 'bench-key', baseURL: config.main, backupBaseURL: config.backup };
  const clients = {
    none: new Gateway(base),
    memory: new Gateway({ ...base, store: memoryStore() }),
    redis: new Gateway({ ...base, store: redisStore(redis.client, { prefix: config.prefix }) }),
  };
  const names = Object.keys(clients);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const paired = [];
  const commands = async () => {
    let total = 0;
    for (const [, calls] of (await redis.info()).matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) total += Number(calls);
    return total;
  };
  for (let round = 0; round < config.warmup + config.rounds; round++) {
    if (round === config.warmup) times.start = await commands();
    const took = {};
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length];
      const t0 = performance.now();
      await ask(clients[name], 'bench-a');
      took[name] = performance.now() - t0;
    }
    if (round >= config.warmup) {
      for (const name of names) times[name].push(took[name]);
      paired.push(took.redis - took.none);
    }
  }
  // Less the INFO call that reads the count.
  const sent = (await commands()) - times.start - 1;
  const stats = {};
  for (const name of names) {
    const sorted = [...times[name]].sort((a, b) => a - b);
    stats[name] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
  }
  const diffs = paired.sort((a, b) => a - b);
  process.send({ type: 'result', stats, pairedP50: percentile(diffs, 50), redisCommandsPerCall: sent / config.rounds, rounds: config.rounds });
  redis.close();
  process.disconnect();
  process.exit(0);
}

if (role === 'latency') await latency();
else await instance();
