// npm run bench:fleet: what sharing state through Redis (docs/fleet.md) changes for a fleet.
// N instances (default 20; BENCH_FLEET_N), each a separate Node process using the built
// package through its exports (fleet-instance.mjs), call two local gateways (main and
// backup, node:http on 127.0.0.1, in this process: fleet-servers.mjs) while this script
// changes what the gateways do, and one redis-server it starts on a free loopback port
// (--save '' --appendonly no) and kills at the end; a read-only replica of it and a
// 3-master Redis Cluster for the scenarios that need them. Most scenarios run twice: every
// instance on one `redisStore` (shared), then every instance on its own `memoryStore()`
// (isolated); those about Redis itself run shared only. Writes the "## Fleet" section of
// docs/benchmarks.md.
//   BENCH_FLEET_ONLY=blackhole,limits   some scenarios only (docs/benchmarks.md is left alone)
//   BENCH_FLEET_REDIS=ioredis           the instances' Redis client (default node-redis)
//   node scripts/bench/fleet.mjs --render <its console output>
//                                       the section again from a run's printed figures (prose fixes)
// Without redis-server it says so and exits 0.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandStats, redisCliPath, redisServerPath, startCluster, startGateway, startRedis, startReplica, USAGE_TOKENS } from './fleet-servers.mjs';
import { withSection } from './sections.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const instanceScript = fileURLToPath(new URL('./fleet-instance.mjs', import.meta.url));
const N = Number(process.env.BENCH_FLEET_N ?? 20);
const ONLY = process.env.BENCH_FLEET_ONLY?.split(',').filter(Boolean);
const REDIS_LIBRARY = process.env.BENCH_FLEET_REDIS === 'ioredis' ? 'ioredis' : 'redis';
const HEADING = '## Fleet: shared state across processes';
/** The calls of a running fleet: one at a time per instance, 100 to 400 ms apart (uniform); BENCH_FLEET_GAP_MS=min,max for another pace. */
const GAP_MS = (process.env.BENCH_FLEET_GAP_MS ?? '100,400').split(',').map(Number);
const MODES = ['shared', 'isolated'];
/** The instances' `timeout` unless a scenario sets another. */
const TIMEOUT_MS = 500;
/** failoverCooldown in the probe scenarios: several cooldowns fit in a run. */
const PROBE_COOLDOWN_MS = 3_000;
/** The fleet's token budget in the tokensPerMinute scenario, and how long it runs (a full minute). */
const TPM = 3_000;
const TPM_RUN_MS = 60_000;
/** What a bench call reserves of the token budget: a token per 4 characters of its body (less max_tokens), plus max_tokens (src/core/policy/shared-rules.ts estimateTokens). */
const ESTIMATE = Math.ceil(JSON.stringify({ model: 'bench-a', messages: [{ role: 'user', content: 'ping' }] }).length / 4) + 8;

// Everything this run starts ends with it: on a normal end, an error, or a signal.
const children = new Set();
let redis;
let replica;
let cluster;
const gateways = [];
function killEverything() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  redis?.killNow();
  redis = undefined;
  replica?.killNow();
  replica = undefined;
  cluster?.killNow();
  cluster = undefined;
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const within = (t, from, to) => t >= from && t < to;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const distinct = (xs) => new Set(xs).size;
/** p-th percentile (0..100) of numbers, nearest rank. */
const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : null;
};

// The machine's load, sampled every 5 s while the bench runs (the 1-minute load average).
const loadSamples = [];
const sampleLoad = () => loadSamples.push({ t: Date.now(), load: loadavg()[0] });

/** Forks one process: `wait(type)` resolves with its next message of `type`, rejects on exit or after `limitMs`. */
function spawnInstance(role, config) {
  const child = fork(instanceScript, [role, JSON.stringify(config)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: withoutGatewayEnv() });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const wait = (type, limitMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`instance ${config.id ?? role}: no '${type}' within ${limitMs} ms`)), limitMs);
      const onMessage = (m) => {
        if (m?.type !== type) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m);
      };
      const onExit = (code) => {
        clearTimeout(timer);
        reject(new Error(`instance ${config.id ?? role} exited with ${code} before '${type}'`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return { child, wait };
}

/** The instances must not pick up the caller's gateway settings (a backup URL from the environment). */
function withoutGatewayEnv() {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('GATEWAY_')) delete env[name];
  return env;
}

/**
 * One run of a scenario: N instances forked and ready (warm, connected), the gateways reset,
 * then go; `timeline` entries run at their ms after the go, each given the instances (to
 * ask one for a cached call). `store` names another Redis for the shared run (`url`, or a
 * cluster's `nodes`, and the `library`); `stats` reads the server's INFO commandstats at
 * the go and once every instance has reported. Resolves with every instance's report, the
 * gateways' logs, the time of the go and what the timeline noted.
 */
async function runFleet({ scenario, mode, durationMs, instance = () => ({}), timeline = [], store = {}, stats = false }) {
  const [main, backup] = gateways;
  const prefix = `bench-${scenario}-${Date.now()}`;
  const loadAtStart = loadavg()[0];
  const instances = Array.from({ length: N }, (_, id) =>
    spawnInstance('instance', {
      id,
      seed: 1 + id * 7919,
      store: mode === 'shared' ? 'redis' : 'memory',
      redisURL: store.url ?? redis.url,
      redisCluster: store.nodes,
      redisLibrary: store.library ?? REDIS_LIBRARY,
      prefix,
      main: main.url,
      backup: backup.url,
      timeoutMs: TIMEOUT_MS,
      models: ['bench-a'],
      gapMs: GAP_MS,
      durationMs,
      ...instance(id),
    }),
  );
  try {
    const readyFrom = Date.now();
    await Promise.all(instances.map((i) => i.wait('ready', 240_000)));
    const readyMs = Date.now() - readyFrom;
    for (const gateway of gateways) await gateway.reset();
    const before = stats ? await commandStats(redis.port) : undefined;
    const go = Date.now() + 200;
    const results = Promise.all(instances.map((i) => i.wait('result', durationMs + 60_000)));
    for (const { child } of instances) child.send({ type: 'go', at: go });
    const marks = {};
    const noted = {};
    const steps = timeline.map(({ at, name, run }) =>
      sleep(go + at - Date.now()).then(async () => {
        marks[name] = Date.now();
        await run({ instances, noted });
      }),
    );
    const [reports] = await Promise.all([results, ...steps]);
    const after = stats ? await commandStats(redis.port) : undefined;
    return {
      go,
      durationMs,
      marks,
      noted,
      readyMs,
      load: [loadAtStart, loadavg()[0]],
      stats: stats ? { before, after } : undefined,
      reports: reports.map((r) => r.seen),
      main: [...main.log],
      backup: [...backup.log],
      mainPauseFrom: main.state.pause?.from,
      mainFailedOnceAt: main.state.failOnce?.at,
    };
  } finally {
    for (const { child } of instances) child.kill('SIGKILL');
    for (const gateway of gateways) await gateway.reset();
    // A scenario that killed Redis leaves it running for the next one.
    if (!(await redisAnswers())) await redis.restart();
  }
}

async function redisAnswers() {
  const { createClient } = await import('redis');
  const client = createClient({ url: redis.url, socket: { reconnectStrategy: false, connectTimeout: 1_000 } }).on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** Asks instance `id` for its cached call (the same question each time) and resolves with its answer. */
async function cachedCall(instances, id, question) {
  const { child, wait } = instances[id];
  const answer = wait('cache-result', 15_000);
  child.send({ type: 'cache-call', question });
  return answer;
}

const everyReport = (run, pick) => run.reports.flatMap((r, id) => pick(r, id));
const failedCalls = (run) => everyReport(run, (r) => r.failures);
const callCount = (run) => everyReport(run, (r) => r.calls).length;
const storeLines = (run, level) => run.reports.map((r) => r.storeLines.filter((l) => l.level === level).length);

/**
 * The attempts on the main that failed with `name` (an APITimeoutError: it timed out) in
 * [from, to), oldest first, each with when it was sent (its onRequest) and by which instance.
 */
function mainFailures(run, from, to, name) {
  return everyReport(run, (r, id) => {
    const sent = new Map(r.attempts.map((a) => [`${a.key}#${a.n}`, a.t]));
    return r.retries.filter((x) => x.base === 'main' && (!name || x.name === name) && within(x.t, from, to)).map((x) => ({ id, t: x.t, key: x.key, sentAt: sent.get(`${x.key}#${x.n}`) ?? x.t - TIMEOUT_MS }));
  }).sort((a, b) => a.t - b.t);
}

/**
 * A main that went dark at `dark` (light again at `light`): its timeouts, split as the fleet
 * sees them. The second timeout fleet-wide is the failure that marks it down for a shared
 * fleet (`found`); the two are what finding it costs. Attempts sent before `found` that time
 * out after it were in flight when it was found (another process's news never aborts them:
 * each times out once); attempts sent after it are what the news failed to prevent.
 */
function darkMain(run, dark, light) {
  const timeouts = mainFailures(run, dark, light + 1_000, 'APITimeoutError');
  const found = timeouts[1]?.t;
  const rest = timeouts.slice(2);
  const inFlight = rest.filter((x) => x.sentAt < found);
  const after = rest.filter((x) => x.sentAt >= found);
  const perCall = new Map();
  for (const x of timeouts) perCall.set(`${x.id}/${x.key}`, (perCall.get(`${x.id}/${x.key}`) ?? 0) + 1);
  const unanswered = run.main.filter((e) => within(e.t, dark, light));
  const sentAfterFound = found === undefined ? [] : unanswered.filter((e) => e.t >= found);
  return {
    timedOut: timeouts.length,
    cost: Math.min(2, timeouts.length) + after.length,
    inFlight: inFlight.length,
    after: after.length,
    timedOutTwice: [...perCall.values()].filter((n) => n > 1).length,
    instancesThatPaid: distinct(timeouts.map((x) => x.id)),
    foundAfterMs: found === undefined ? null : found - dark,
    unanswered: unanswered.length,
    sentAfterFound: sentAfterFound.length,
    lastAfterFoundMs: sentAfterFound.length ? sentAfterFound.at(-1).t - found : null,
    skipped: sum(run.reports.map((r) => r.fleet['base-skipped'] ?? 0)),
    failed: failedCalls(run).length,
    calls: callCount(run),
  };
}

// Each scenario: how it runs (the same for both modes), what it reads from a run, and in
// which modes it runs.
/**
 * The main gateway goes dark (accepts, never answers) for 10 s, 2 s after the start; the
 * backup is healthy. `gapMs`: the instances' pace, when not the usual one; `store`: the
 * shared run's Redis, when not the bench's one; `cache`: two instances ask the same cached
 * question before the main goes dark (one pays, the other should be answered by the cache).
 */
function blackhole(title, { gapMs, store, cache = false, modes = MODES, scenario = 'blackhole' } = {}) {
  return {
    title,
    modes,
    async run(mode) {
      const [main] = gateways;
      const question = `cached across processes? ${Date.now()}`;
      return runFleet({
        scenario,
        mode,
        durationMs: 14_000,
        store: typeof store === 'function' ? store() : store,
        instance: () => ({ ...(gapMs ? { gapMs } : {}), cache }),
        timeline: [
          ...(cache
            ? [
                {
                  at: 300,
                  name: 'cache',
                  run: async ({ instances, noted }) => {
                    noted.first = await cachedCall(instances, 0, question);
                    noted.second = await cachedCall(instances, 1, question);
                  },
                },
              ]
            : []),
          { at: 2_000, name: 'dark', run: () => (main.mode = 'blackhole') },
          { at: 12_000, name: 'light', run: () => (main.mode = 'ok') },
        ],
      });
    },
    read(run) {
      const { dark, light } = run.marks;
      const x = darkMain(run, dark, light);
      const warns = storeLines(run, 'warn');
      const out = { ...x, figure: x.timedOut, warnLines: sum(warns), mostWarnsInOneProcess: Math.max(0, ...warns), instancesWarned: warns.filter((n) => n > 0).length, infoLines: sum(storeLines(run, 'info')) };
      if (cache) {
        const sent = [...run.main, ...run.backup].filter((e) => e.model === 'bench-cache').length;
        out.cache = { sent, first: run.noted.first?.outcome ?? run.noted.first?.error, second: run.noted.second?.outcome ?? run.noted.second?.error, same: run.noted.first?.content !== undefined && run.noted.first?.content === run.noted.second?.content };
      }
      return out;
    },
  };
}

/**
 * 429s for `bench-a` on the main, 2 s in, for `ms`: with `Retry-After` (the seconds left)
 * unless `retryAfter` is false; `bench-b` served all along. `more`: the instances' options
 * beside their models.
 */
function pause(title, scenario, { more = {}, ms = 5_000, retryAfter = true } = {}) {
  return {
    title,
    modes: MODES,
    async run(mode) {
      const [main] = gateways;
      return runFleet({
        scenario,
        mode,
        durationMs: 12_000,
        instance: () => ({ models: ['bench-a', 'bench-b'], ...more }),
        timeline: [{ at: 0, name: 'armed', run: () => main.pause({ model: 'bench-a', armAt: Date.now() + 2_000, ms, retryAfter }) }],
      });
    },
    read(run) {
      const from = run.mainPauseFrom;
      const inPause = (e) => from !== undefined && e.t > from && e.t < from + ms;
      const before = (e) => from !== undefined && e.t >= from - 2_000 && e.t < from;
      const toA = run.main.filter((e) => e.model === 'bench-a' && inPause(e));
      const tooMany = run.main.filter((e) => e.status === 429);
      // When the first instance to get the 429 had learnt it (its onRetry comes after the pause is written), and who sent into the window when.
      const learnt = Math.min(...everyReport(run, (r) => r.retries.filter((x) => x.base === 'main' && x.status === 429 && x.t >= from).map((x) => x.t)));
      return {
        learntAfterMs: Number.isFinite(learnt) ? learnt - from : null,
        toMainAOffsetsMs: toA.map((e) => `${e.instance}@${e.t - from}`),
        // Sent before the pause was learnt, or within the 200 ms an instance's read of the store stands after it.
        toABeforeLearnt: toA.filter((e) => e.t < learnt).length,
        toAWithinView: toA.filter((e) => e.t >= learnt && e.t < learnt + 200).length,
        failures: [...new Set(failedCalls(run).map((f) => f.name))],
        // Calls for bench-a that took over a second (a call that waits silently for the pause's probe shows here, not in `paused`).
        slowA: everyReport(run, (r) => r.calls.filter((c) => c.model === 'bench-a' && c.ms > 1_000)).length,
        slowestA: Math.max(0, ...everyReport(run, (r) => r.calls.filter((c) => c.model === 'bench-a').map((c) => c.ms))),
        slowAList: everyReport(run, (r, id) => r.calls.filter((c) => c.model === 'bench-a' && c.ms > 1_000).map((c) => `${id}:${c.t0 - from}+${c.ms}`)).slice(0, 8),
        figure: retryAfter ? toA.length : tooMany.length,
        toMainA: toA.length,
        tooManyRequests: tooMany.length,
        instancesToA: distinct(toA.map((e) => e.instance)),
        toMainBBefore: run.main.filter((e) => e.model === 'bench-b' && before(e)).length,
        toMainBDuring: run.main.filter((e) => e.model === 'bench-b' && inPause(e)).length,
        toBackupA: run.backup.filter((e) => e.model === 'bench-a' && inPause(e)).length,
        paused: sum(run.reports.map((r) => r.fleet.paused ?? 0)),
        skipped: sum(run.reports.map((r) => r.fleet['base-skipped'] ?? 0)),
        failed: failedCalls(run).length,
        calls: callCount(run),
      };
    },
  };
}

/**
 * A dead main (`refuse`: nothing listens, connections are refused; `blackhole`: accepted,
 * never answered) from 1 s in to the end, with failoverCooldown 3 s: the requests that reach
 * it after it was found down (the second failure fleet-wide), by cooldown interval.
 */
function probes(title, scenario, how, modes) {
  const durationMs = 20_000;
  return {
    title,
    modes,
    async run(mode) {
      const [main] = gateways;
      return runFleet({
        scenario,
        mode,
        durationMs,
        instance: () => ({ cooldownMs: PROBE_COOLDOWN_MS }),
        timeline: [{ at: 1_000, name: 'dead', run: () => main.setMode(how) }],
      });
    },
    read(run) {
      const { dead } = run.marks;
      const end = run.go + durationMs;
      // The failure that marks it down: the second one fleet-wide (each instance's second, isolated).
      const failures = mainFailures(run, dead, end);
      const found = failures[1]?.t;
      const attempts = found === undefined ? [] : everyReport(run, (r, id) => r.attempts.filter((a) => a.base === 'main' && within(a.t, found, end)).map((a) => ({ ...a, id })));
      const intervals = found === undefined ? [] : Array.from({ length: Math.ceil((end - found) / PROBE_COOLDOWN_MS) }, (_, k) => attempts.filter((a) => within(a.t, found + k * PROBE_COOLDOWN_MS, found + (k + 1) * PROBE_COOLDOWN_MS)).length);
      const times = attempts.map((a) => a.t).sort((a, b) => a - b);
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      return {
        figure: intervals.length ? Math.max(...intervals) : null,
        foundAfterMs: found === undefined ? null : found - dead,
        intervals,
        afterFound: attempts.length,
        instances: distinct(attempts.map((a) => a.id)),
        closestMs: gaps.length ? Math.max(0, Math.min(...gaps)) : null,
        // The first requests after it was found: instance@ms after the failure that found it.
        firstOffsetsMs: [...attempts].sort((a, b) => a.t - b.t).slice(0, 6).map((a) => `${a.id}@${a.t - found}`),
        failed: failedCalls(run).length,
        calls: callCount(run),
      };
    },
  };
}

/** A healthy run of 10 s, shared only: the Redis commands it cost, per call and per second. */
function commands(title, scenario, more) {
  const durationMs = 10_000;
  return {
    title,
    modes: ['shared'],
    async run(mode) {
      return runFleet({ scenario, mode, durationMs, stats: true, instance: () => more });
    },
    read(run) {
      const { before, after } = run.stats;
      const by = {};
      for (const [name, calls] of Object.entries(after)) {
        // Less the bench's own INFO (and whatever redis-cli asks on connecting).
        if (name === 'info' || name.startsWith('command')) continue;
        const n = calls - (before[name] ?? 0);
        if (n > 0) by[name] = n;
      }
      const total = sum(Object.values(by));
      const calls = callCount(run);
      // commandstats counts what a script runs too: the rate bucket's TIME, GET and SET (every
      // take of these healthy runs is taken, so each script ran all three). The rest are what
      // the clients sent: round trips.
      const scripts = (by.eval ?? 0) + (by.evalsha ?? 0);
      const inScripts = Math.min(by.time ?? 0, scripts) + Math.min(by.get ?? 0, scripts) + Math.min(by.set ?? 0, scripts);
      const sent = total - inScripts;
      const seconds = durationMs / 1000;
      return { figure: total / calls, perCall: total / calls, perSecond: total / seconds, perInstanceSecond: total / seconds / N, sentPerCall: sent / calls, sentPerSecond: sent / seconds, total, sent, calls, by, failed: failedCalls(run).length };
    },
  };
}

/** Every instance's loop blocked for 300 ms every 1 to 3 s (in the turn of a call that starts), on a healthy Redis and gateways: shared only. */
function busy(title, scenario, library) {
  return {
    title,
    modes: ['shared'],
    async run(mode) {
      return runFleet({ scenario, mode, durationMs: 15_000, store: { library }, instance: () => ({ busy: { ms: 300, everyMs: [1_000, 3_000] } }) });
    },
    read(run) {
      const warns = storeLines(run, 'warn');
      const blocks = everyReport(run, (r) => r.blocks);
      return {
        figure: sum(warns),
        warnLines: sum(warns),
        instancesWarned: warns.filter((n) => n > 0).length,
        infoLines: sum(storeLines(run, 'info')),
        blocks: blocks.length,
        blockMs: percentile(blocks.map((b) => b.ms), 50),
        firstWarn: everyReport(run, (r) => r.storeLines.filter((l) => l.level === 'warn').map((l) => l.line))[0]?.slice(0, 160) ?? null,
        failed: failedCalls(run).length,
        calls: callCount(run),
      };
    },
  };
}

const scenarios = {
  blackhole: blackhole('main blackholed for 10 s'),
  // How many instances pay depends on how many have a call in flight when the main goes dark.
  blackholeQuiet: blackhole('the same, instances calling 1 to 3 s apart', { gapMs: [1_000, 3_000], scenario: 'blackhole-quiet' }),
  readonly: blackhole('the same, the store a read-only replica', { store: () => ({ url: replica.url }), modes: ['shared'], scenario: 'readonly' }),
  clusterRedis: blackhole('the same, on a Redis Cluster (node-redis `createCluster`)', { store: () => ({ nodes: cluster.nodes, library: 'redis' }), cache: true, modes: ['shared'], scenario: 'cluster-redis' }),
  clusterIoredis: blackhole('the same, on a Redis Cluster (ioredis `Cluster`)', { store: () => ({ nodes: cluster.nodes, library: 'ioredis' }), cache: true, modes: ['shared'], scenario: 'cluster-ioredis' }),
  probes: probes('main refusing connections, `failoverCooldown: 3000`', 'probes', 'refuse', MODES),
  probesDark: probes('main blackholed, `failoverCooldown: 3000`', 'probes-dark', 'blackhole', ['shared']),
  rateLimit: pause('429s without `Retry-After` for one model for 8 s (main and backup)', 'rate-limit', { ms: 8_000, retryAfter: false }),
  pause: pause('a 429 with `Retry-After: 5` for one model (main and backup)', 'pause'),
  // The same, with no backup to go to: the pause alone keeps the fleet off that model.
  pauseAlone: pause('the same 429, main only (no backup)', 'pause-alone', { more: { backup: undefined } }),
  slow500: {
    title: 'main answering in 3 s, one 500',
    modes: MODES,
    async run(mode) {
      const [main] = gateways;
      return runFleet({
        scenario: 'slow-500',
        mode,
        durationMs: 14_000,
        instance: () => ({ models: ['bench-a', 'bench-b'], timeoutMs: 10_000 }),
        timeline: [
          {
            at: 0,
            name: 'slow',
            run: () => {
              main.delayMs = 3_000;
              main.failOnce({ model: 'bench-a', armAt: Date.now() + 5_000, status: 500 });
            },
          },
        ],
      });
    },
    read(run) {
      const end = run.go + run.durationMs;
      // Cut: a request the client gave up before its answer, before the bench stopped the calls still going at the end.
      const cut = run.main.filter((e) => e.cut && e.t < end - 3_500);
      const failedOnce = run.mainFailedOnceAt === undefined ? 0 : 1;
      const resent = run.backup.length - failedOnce;
      const ms = everyReport(run, (r) => r.calls.filter((c) => c.ok).map((c) => c.ms));
      return {
        figure: cut.length + resent,
        cutOnMain: cut.length,
        resentToBackup: resent,
        the500: failedOnce,
        retries: everyReport(run, (r) => r.retries).length,
        skipped: sum(run.reports.map((r) => r.fleet['base-skipped'] ?? 0)),
        p50: percentile(ms, 50),
        p99: percentile(ms, 99),
        max: ms.length ? Math.max(...ms) : null,
        answered: ms.length,
        failed: failedCalls(run).length,
        calls: callCount(run),
      };
    },
  },
  tpm: {
    title: `\`limits: { tokensPerMinute: ${TPM} }\` over a minute`,
    modes: MODES,
    async run(mode) {
      return runFleet({ scenario: 'tpm', mode, durationMs: TPM_RUN_MS, instance: () => ({ limits: { tokensPerMinute: TPM }, gapMs: [0, 0] }) });
    },
    read(run) {
      const served = [...run.main, ...run.backup].filter((e) => e.status === 200);
      const inMinute = served.filter((e) => within(e.t, run.go, run.go + 60_000));
      const tokens = sum(inMinute.map((e) => e.tokens));
      const slots = Array.from({ length: 6 }, (_, k) => sum(inMinute.filter((e) => within(e.t, run.go + k * 10_000, run.go + (k + 1) * 10_000)).map((e) => e.tokens)));
      const failures = failedCalls(run);
      return {
        figure: tokens / TPM,
        tokens,
        requests: inMinute.length,
        slots,
        held: sum(run.reports.map((r) => r.fleet.held ?? 0)),
        refused: failures.filter((f) => f.name === 'RateLimitError').length,
        failed: failures.length,
      };
    },
  },
  limits: {
    title: '`limits: { requestsPerMinute: 120 }` over 20 s',
    modes: MODES,
    async run(mode) {
      return runFleet({ scenario: 'limits', mode, durationMs: 20_000, instance: () => ({ limits: { requestsPerMinute: 120 }, gapMs: [0, 0] }) });
    },
    read(run) {
      const seen = [...run.main, ...run.backup];
      const inRun = seen.filter((e) => within(e.t, run.go, run.go + 20_000));
      const slots = [0, 1, 2, 3].map((k) => inRun.filter((e) => within(e.t, run.go + k * 5_000, run.go + (k + 1) * 5_000)).length);
      const failures = failedCalls(run);
      return {
        figure: inRun.length,
        served: inRun.length,
        after: seen.length - inRun.length,
        slots,
        held: sum(run.reports.map((r) => r.fleet.held ?? 0)),
        refused: failures.filter((f) => f.name === 'RateLimitError').length,
        failed: failures.length,
      };
    },
  },
  quota: {
    title: '`insufficient_quota`',
    modes: MODES,
    async run(mode) {
      return runFleet({
        scenario: 'quota',
        mode,
        durationMs: 6_000,
        // Instances arrive one by one over 4 s, as a fleet scales out or functions start cold.
        instance: (id) => ({ startDelayMs: Math.round((id * 4_000) / N) }),
        timeline: [{ at: -100, name: 'out', run: () => gateways.forEach((g) => (g.mode = 'quota')) }],
      });
    },
    read(run) {
      const seen = [...run.main, ...run.backup];
      const late = seen.filter((e) => e.t >= run.go + 1_000);
      const failures = failedCalls(run);
      return {
        figure: late.length,
        billableAfter1s: late.length,
        instancesAfter1s: distinct(late.map((e) => e.instance)),
        sent: seen.length,
        refusedUnsent: failures.filter((f) => f.unsent).length,
        calls: callCount(run),
      };
    },
  },
  commandsMain: commands('a healthy run, main only', 'commands-main', { backup: undefined }),
  commandsBackup: commands('a healthy run, main and backup', 'commands-backup', {}),
  commandsLimits: commands('a healthy run, main and backup, `limits` (budgets never reached)', 'commands-limits', { limits: { requestsPerMinute: 60_000, tokensPerMinute: 6_000_000 } }),
  busy: busy('each loop blocked for 300 ms every 1 to 3 s (node-redis)', 'busy', 'redis'),
  busyIoredis: busy('the same, ioredis', 'busy-ioredis', 'ioredis'),
  outage: {
    title: 'Redis killed for 3 s, then restarted empty',
    modes: MODES,
    async run(mode) {
      const [main] = gateways;
      return runFleet({
        scenario: 'outage',
        mode,
        durationMs: 16_000,
        timeline: [
          { at: 3_000, name: 'killed', run: () => redis.kill() },
          { at: 6_000, name: 'restarted', run: () => redis.restart() },
          { at: 9_000, name: 'dark', run: () => (main.mode = 'blackhole') },
          { at: 13_000, name: 'light', run: () => (main.mode = 'ok') },
        ],
      });
    },
    read(run) {
      const { killed, restarted, dark, light } = run.marks;
      const slowest = Math.max(0, ...everyReport(run, (r) => r.calls).filter((c) => within(c.t0, killed, restarted + 2_000)).map((c) => c.ms));
      const backAt = run.reports.map((r) => r.storeLines.find((l) => l.level === 'info' && l.t >= restarted)?.t).filter((t) => t !== undefined);
      const warns = storeLines(run, 'warn');
      const x = darkMain(run, dark, light);
      return {
        figure: failedCalls(run).length,
        failed: failedCalls(run).length,
        failures: failedCalls(run).slice(0, 3),
        calls: callCount(run),
        warned: warns.filter((n) => n > 0).length,
        warnLines: sum(warns),
        mostWarnsInOneProcess: Math.max(0, ...warns),
        back: backAt.length,
        lastBackAfterRestartMs: backAt.length ? Math.max(...backAt) - restarted : null,
        slowestCallMs: slowest,
        dark: x,
      };
    },
  },
};

/** What a healthy call costs with each store, in one process (fleet-instance.mjs latency). */
async function measureLatency() {
  const [main, backup] = gateways;
  const { wait } = spawnInstance('latency', { redisURL: redis.url, redisLibrary: REDIS_LIBRARY, prefix: `bench-latency-${Date.now()}`, main: main.url, backup: backup.url, warmup: 300, rounds: 3_000, durationMs: 240_000 });
  return wait('result', 300_000);
}

const fmt = (n, d = 1) => (n === null || n === undefined ? '–' : Number.isFinite(n) ? n.toFixed(d) : String(n));
const verdict = (ok) => (ok ? 'met' : '**NOT met**');
const secs = (ms) => (ms === null || ms === undefined ? '–' : `${fmt(ms / 1000, 2)} s`);

/** The section of docs/benchmarks.md, figures and what they mean. */
function section(results, latency, meta) {
  const budget = 40;
  const has = (name, mode = 'shared') => results[name]?.[mode] !== undefined;
  const sh = (name) => results[name]?.shared;
  const is = (name) => results[name]?.isolated;
  /** A row of the summary: `show(x)` a run's figure (isolated '–' for a scenario that runs shared only), `met(shared, isolated)`. */
  const row = (name, counted, target, show, met, isolatedOf = is(name)) => {
    if (!has(name)) return undefined;
    // null: a figure with no isolated counterpart.
    if (isolatedOf === null) isolatedOf = undefined;
    const isolated = isolatedOf === undefined ? '–' : show(isolatedOf, 'isolated');
    // A verdict that needs the isolated figure says nothing when that run was left out (BENCH_FLEET_ONLY).
    const ok = met?.(sh(name), isolatedOf);
    return `| ${scenarios[name].title} | ${counted} | ${target} | ${show(sh(name), 'shared')} | ${isolated} | ${ok === undefined ? '' : verdict(ok)} |`;
  };
  const dark = (x, mode) => (mode === 'shared' ? `${x.timedOut}: ${x.inFlight} in flight when found, ${x.cost} besides` : `${x.timedOut}`);
  const lat = latency?.stats;
  const added = lat ? lat.redis.p50 - lat.none.p50 : undefined;
  const blackholeIsolated = is('blackhole');
  const table = [
    row('blackhole', 'attempts on the main that timed out, fleet-wide', '≤ 3 shared besides those in flight when it was found; ≥ N isolated', dark, (s, i) => (i === undefined ? undefined : s.cost <= 3 && i.timedOut >= N)),
    row('blackholeQuiet', 'the same', 'the same', dark, (s, i) => (i === undefined ? undefined : s.cost <= 3 && i.timedOut >= N)),
    row('readonly', 'the same (isolated: the first run\'s)', 'shared ≤ isolated', (x) => `${x.timedOut}`, (s, i) => (i === undefined ? undefined : s.timedOut <= i.timedOut), blackholeIsolated),
    row('readonly', 'warn lines from the store guard, the most in one process (one outage)', '≤ 1', (x) => `${x.mostWarnsInOneProcess} (${x.warnLines} in all)`, (s) => s.mostWarnsInOneProcess <= 1, null),
    ...['clusterRedis', 'clusterIoredis'].flatMap((name) => [
      row(name, 'the same (isolated: the first run\'s)', '≤ 3 shared besides those in flight when it was found (each timed out once)', (x, mode) => (mode === 'shared' ? `${x.timedOut}: ${x.inFlight} in flight when found (${x.timedOutTwice} timed out twice), ${x.cost} besides` : `${x.timedOut}`), (s) => s.cost <= 3 && s.timedOutTwice === 0, blackholeIsolated),
      row(name, 'one question asked by instance 0, then by instance 1 (a cache on the store): requests the gateways saw', '1, the second answered by the cache', (x) => `${x.cache.sent} (the second: ${x.cache.second})`, (s) => s.cache.sent === 1 && s.cache.second === 'hit', null),
    ]),
    row('probes', 'requests that reached the main after it was found down: the most in one cooldown (3 s)', '≤ 1 shared', (x) => `${fmt(x.figure, 0)} (${x.intervals.join(', ')})`, (s) => s.figure !== null && s.figure <= 1),
    row('probesDark', 'the same', '≤ 1 shared', (x) => `${fmt(x.figure, 0)} (${x.intervals.join(', ')})`, (s) => s.figure !== null && s.figure <= 1),
    row('rateLimit', '429s the main answered', 'shared ≤ isolated', (x) => `${x.tooManyRequests}`, (s, i) => (i === undefined ? undefined : s.tooManyRequests <= i.tooManyRequests)),
    row('pause', 'requests to the main for that model in the pause, after the 429', '≤ 1 shared', (x) => `${x.figure}`, (s) => s.figure <= 1),
    row('pauseAlone', 'the same', '≤ 1 shared', (x) => `${x.figure}`, (s) => s.figure <= 1),
    row('slow500', 'healthy calls cut: aborted on the main, or sent again to the backup', '0', (x) => `${x.figure}`, (s, i) => (i === undefined ? undefined : s.figure === 0 && i.figure === 0)),
    row('slow500', 'p50 / p99 of the answered calls', '(none: for comparison)', (x) => `${fmt(x.p50, 0)} / ${fmt(x.p99, 0)} ms`),
    row('tpm', 'tokens the gateways served in the first minute, over the budget', '≤ 1.05 × shared', (x) => `${fmt(x.figure, 3)} × (${x.tokens} tokens)`, (s) => s.figure <= 1.05),
    row('limits', 'requests the gateways saw in the 20 s', `≤ ${budget} + ${N} shared (the budget, one in flight per instance)`, (x) => `${x.figure}`, (s) => s.figure <= budget + N),
    row('quota', 'requests that reached a gateway after the first 1 s', '0 shared', (x) => `${x.figure}`, (s) => s.figure === 0),
    ...['commandsMain', 'commandsBackup', 'commandsLimits'].map((name) => row(name, 'Redis commands per call (per second, fleet-wide), from INFO commandstats; of them sent by the clients', '(none: for sizing)', (x) => `${fmt(x.perCall, 3)} (${fmt(x.perSecond, 1)}/s); sent ${fmt(x.sentPerCall, 3)} (${fmt(x.sentPerSecond, 1)}/s)`)),
    row('busy', 'warn lines from the store guard: false outages', '0', (x) => `${x.warnLines} (${x.instancesWarned} processes)`, (s) => s.warnLines === 0),
    row('busyIoredis', 'the same', '0', (x) => `${x.warnLines} (${x.instancesWarned} processes)`, (s) => s.warnLines === 0),
    row('outage', 'calls that failed', '0', (x) => `${x.figure}`, (s, i) => (i === undefined ? undefined : s.figure === 0 && i.figure === 0)),
    row('outage', 'the last instance to log the store back (`answers again`), after the restart', '≤ 3 s', (x) => secs(x.lastBackAfterRestartMs), (s) => s.lastBackAfterRestartMs !== null && s.lastBackAfterRestartMs <= 3_000, null),
    row('outage', 'then a dark main found by one: the last request another instance sent it, after it was found', '≤ 3 s', (x) => (x.dark.sentAfterFound ? secs(x.dark.lastAfterFoundMs) : 'none sent'), (s) => s.dark.foundAfterMs !== null && (s.dark.lastAfterFoundMs ?? 0) <= 3_000, null),
    lat && `| a healthy call | wall time added to p50 (p99) vs no \`store\` option | p50 < 1 ms | ${fmt(added, 3)} ms (${fmt(lat.redis.p99 - lat.none.p99, 2)} ms) | \`memoryStore()\`: ${fmt(lat.memory.p50 - lat.none.p50, 3)} ms (${fmt(lat.memory.p99 - lat.none.p99, 2)} ms) | ${verdict(added < 1)} |`,
  ].filter(Boolean);

  /** A scenario's figures, a row each, shared and isolated side by side (for each of `names` that ran). */
  const details = (names, rows) => {
    const present = names.filter((n) => has(n));
    if (!present.length) return '';
    const cols = present.flatMap((n) => scenarios[n].modes.filter((m) => has(n, m)).map((m) => [n, m]));
    const head = cols.map(([n, m]) => (present.length > 1 ? `${scenarios[n].title}: ${m}` : m)).join(' | ');
    return `\n| | ${head} |\n|---|${cols.map(() => '---|').join('')}\n${rows.map(([label, show]) => `| ${label} | ${cols.map(([n, m]) => show(results[n][m])).join(' | ')} |`).join('\n')}\n`;
  };
  /** A subsection, when one of its scenarios ran. */
  const part = (names, text) => (names.some((n) => has(n)) ? text : '');
  const darkRows = [
    ['requests the dark main received', (x) => x.unanswered],
    ['attempts that timed out (instances that paid)', (x) => `${x.timedOut} (${x.instancesThatPaid})`],
    ['the second timeout, which marks it down for a shared fleet, after the main went dark', (x) => secs(x.foundAfterMs)],
    ['of the timeouts: in flight when it was found / sent after it was found', (x) => `${x.inFlight} / ${x.after}`],
    ['calls that timed out twice on the main', (x) => x.timedOutTwice],
    ['requests sent to it after it was found (the last, after it)', (x) => `${x.sentAfterFound} (${secs(x.lastAfterFoundMs)})`],
    ['calls that started on the backup (`base-skipped`)', (x) => x.skipped],
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
  ];
  const c = (name) => sh(name)?.cache;

  return `${HEADING}

Made by \`${meta.command}\` on ${meta.date} (${meta.minutes} minute${meta.minutes === 1 ? "" : "s"}): ${meta.machine}, Node ${process.version},
redis-server ${meta.redisVersion}, ${meta.library} as the instances' Redis client unless a row
says otherwise, **N = ${N}** instances. The machine's 1-minute load average was
${fmt(meta.loadStart, 1)} at the start and ${fmt(meta.loadEnd, 1)} at the end (sampled every 5 s: ${fmt(meta.loadMin, 1)} to
${fmt(meta.loadMax, 1)}, mean ${fmt(meta.loadMean, 1)}), on ${cpus().length} cores shared with other work: timings are a loaded machine's.

${N} instances, each a separate Node process using the built package through its exports,
call two local gateways (main and backup: small node:http servers on 127.0.0.1, in the
bench's own process, that log every request) while the bench changes what the gateways do.
Most scenarios run twice: **shared**, every instance on one \`redisStore\` (one redis-server
on a free loopback port, \`--save '' --appendonly no\`, a fresh \`prefix\` per run), and
**isolated**, every instance on its own \`memoryStore()\`: what ${N} processes learn without
Redis. Those about Redis itself run shared only (–). Unless a scenario says otherwise an
instance makes one call at a time (\`chat.completions.create\`, \`max_tokens: 8\`), ${GAP_MS[0]} to ${GAP_MS[1]} ms
apart (a seeded uniform draw), with \`timeout: ${TIMEOUT_MS}\` and the defaults of \`failoverCooldown\`
(30 s) and \`maxRetries\` (2). What was sent is counted from the gateways' logs, what each
call went through from the instances' hooks (\`onRequest\`, \`onRetry\`, \`onFleet\`, \`onCache\`)
and log lines. Before the clock starts each instance has made one call with another client:
it is warm, and has learnt nothing.

| scenario | counted | target | shared | isolated | |
|---|---|---|---|---|---|
${table.join('\n')}

${part(['blackhole', 'blackholeQuiet', 'readonly', 'clusterRedis', 'clusterIoredis'], `
### Main blackholed

From 2 s after the start the main gateway accepts requests and never answers, for 10 s;
the backup is healthy. The runs: the usual pace; each instance calling 1 to 3 s apart; the
instances' store a read-only replica of the Redis (a second redis-server with
\`--replicaof\`, which answers reads and refuses every write with READONLY); and a 3-master
Redis Cluster on loopback, once through node-redis \`createCluster\` and once through
ioredis \`Cluster\`.
${details(['blackhole', 'blackholeQuiet', 'readonly', 'clusterRedis', 'clusterIoredis'], darkRows)}
A base is down for the fleet after the second failure that says so (fleet-wide, with no
answer from it between them), and the news never aborts an attempt already in flight: at
the usual pace nearly every instance has sent a request into the dark before the second
timeout, and each of those times out once, then goes to the backup. What sharing saves is
every request after that: isolated, each instance needs two timeouts of its own. The
figure held to ≤ 3 is the two that found it plus the requests sent after it was found
(an instance reads the store at most every 200 ms).
${part(['readonly'], `
On the read-only replica the first write (the evidence of the first timeout) is refused:
each process's guard logs the store out once (${sh('readonly')?.warnLines ?? '–'} warn lines in all, at most ${sh('readonly')?.mostWarnsInOneProcess ?? '–'} in one process, ${sh('readonly')?.infoLines ?? '–'} 'answers again')
and keeps its state in its own memory, as isolated; its check of the store is a write, so
a store that answers reads but refuses writes stays out.
`)}${part(['clusterRedis', 'clusterIoredis'], `
On the cluster, before the main went dark, instance 0 asked a question through a second
client with \`cache: { store }\` on the same cluster, then instance 1 asked the same:
node-redis: ${c('clusterRedis') ? `${c('clusterRedis').sent} request, the first ${c('clusterRedis').first}, the second ${c('clusterRedis').second}${c('clusterRedis').same ? ', the same answer' : ''}` : '–'}; ioredis: ${c('clusterIoredis') ? `${c('clusterIoredis').sent} request, the first ${c('clusterIoredis').first}, the second ${c('clusterIoredis').second}${c('clusterIoredis').same ? ', the same answer' : ''}` : '–'}.
The fleet's keys carry the account as a hash tag (\`{…}\`): one account's records share a
slot, and a read of them is one MGET.
`)}
`)}${part(['probes', 'probesDark'], `
### Probes of a dead main

From 1 s after the start the main is dead to the end of the 20 s run: nothing listens on
its port (connections refused), or, in the second run, it accepts and never answers.
\`failoverCooldown: 3000\`. Counted: the attempts the instances sent to the main (their
\`onRequest\`) after it was found down (the second failure fleet-wide), by 3 s interval
from then.
${details(
  ['probes', 'probesDark'],
  [
    ['found down, after it died', (x) => secs(x.foundAfterMs)],
    ['requests to the main after that, by 3 s interval', (x) => x.intervals.join(', ')],
    ['in all (instances)', (x) => `${x.afterFound} (${x.instances})`],
    ['the closest two of them', (x) => (x.closestMs === null ? '–' : `${x.closestMs} ms`)],
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
  ],
)}
Shared, one instance probes per cooldown: the probe lock is taken with the cooldown as its
ttl, and a failed probe marks the main down for another cooldown. Isolated, each instance
probes on its own clock.${['probes', 'probesDark']
  .filter((n) => sh(n) && sh(n).closestMs !== null && sh(n).closestMs < PROBE_COOLDOWN_MS)
  .map(
    (n) => ` In the ${n === 'probes' ? 'refused' : 'blackholed'} run the closest two requests after the main was found
came ${sh(n).closestMs} ms apart, far less than the probe lock's ttl: at most one of the two was a probe;
the other came from an instance whose read of the store (it stands 200 ms) predated the
down record, as the requests "sent after it was found" of a dark main do${sh(n).firstOffsetsMs ? ` (the first requests, instance@ms after it was found: ${sh(n).firstOffsetsMs.join(', ')})` : ''}.`,
  )
  .join('')}
`)}${part(['rateLimit', 'pause', 'pauseAlone'], `
### 429s for one model

From 2 s after the start the main gateway answers 429 to every request for \`bench-a\`:
for 8 s without \`Retry-After\` (a rate limiter's plain 429, the first run), or for 5 s
with \`Retry-After\` (the seconds left); \`bench-b\` is served all along. Instances call
both models at random. The last run has the main alone (no backup to go to: only the pause
keeps the fleet off \`bench-a\`).
${details(
  ['rateLimit', 'pause', 'pauseAlone'],
  [
    ['429s the main answered', (x) => x.tooManyRequests],
    ['requests to the main for `bench-a` in the window, after the first 429 (instances)', (x) => `${x.toMainA} (${x.instancesToA})`],
    ['requests to the backup for `bench-a` in the window', (x) => x.toBackupA],
    ['requests to the main for `bench-b`: the 2 s before the first 429 → the window', (x) => `${x.toMainBBefore} → ${x.toMainBDuring}`],
    ['of them sent before the first 429 was learnt / within 200 ms after', (x) => `${x.toABeforeLearnt} / ${x.toAWithinView}`],
    ['… each as instance@ms after the first 429 (the first 8)', (x) => x.toMainAOffsetsMs.slice(0, 8).join(', ') || '–'],
    ['calls that waited out a pause (`paused`)', (x) => x.paused],
    ['calls for `bench-a` that took over 1 s (the slowest)', (x) => `${x.slowA} (${secs(x.slowestA)})`],
    ['calls that skipped the main (`base-skipped`)', (x) => x.skipped],
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}${x.failures.length ? ` (${x.failures.join(', ')})` : ''}`],
  ],
)}
A 429 without \`Retry-After\` pauses that model on that base for the fleet for a short
while that grows like the backoff (0.5 s, 1 s, 2 s… while the 429s go on), so the main
sees about one request per pause; with \`Retry-After\` the pause is what the server asked.
With a backup the calls for \`bench-a\` go there meanwhile and the main keeps serving
\`bench-b\`: a 429 is one model's pause on one base, never the base's health. With the main
alone, a one-at-a-time instance waiting out the pause sends nothing else, so \`bench-b\` slows too.
An instance's read of the store stands for 200 ms: a call that read it just before the pause
was written still goes to the main once (the "within 200 ms" row).${
    (sh('rateLimit')?.slowA ?? 0) > 0
      ? ` When a pause runs out, one call probes the main under a lock (kept 5 s) and every
other call for that model waits for its answer, up to 5 s, with no \`paused\` event and even
with a healthy backup; a probe answered with another 429 keeps its lock the whole 5 s, so
from the second 429 on the calls for \`bench-a\` wait there (the calls over 1 s) and the main
is probed every 5 s or so rather than after a growing pause.`
      : ''
  }${
    (sh('pauseAlone')?.slowestA ?? 0) > 6_000
      ? ` With the main alone the longest waits (${secs(sh('pauseAlone').slowestA)}) are those of the
instances that got a 429 themselves: their own memory keeps the pause's records (the
\`was-paused\` record for a minute more), ahead of what the store says, so when another
instance's probe has ended the pause their calls still wait the 5 s out.`
      : ''
  }
`)}${part(['slow500'], `
### One 500 among slow answers

The main answers every request after 3 s (healthy, slow); 5 s after the start its next
request for \`bench-a\` gets a 500 at once; the backup answers at once. Instances have
\`timeout: 10000\` and call \`bench-a\` and \`bench-b\` at random.
${details(
  ['slow500'],
  [
    ['requests on the main cut by the client before their answer', (x) => x.cutOnMain],
    ['requests the backup saw (the 500\'s retry is one)', (x) => `${x.resentToBackup + x.the500}`],
    ['calls that started on the backup (`base-skipped`)', (x) => x.skipped],
    ['latency of the answered calls: p50 / p99 / max', (x) => `${fmt(x.p50, 0)} / ${fmt(x.p99, 0)} / ${fmt(x.max, 0)} ms`],
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
  ],
)}
One model's 5xx counts against its base once a minute, and a base is down only after a
second failure: one 500 moves only its own call to the backup; the calls in flight on the
main (up to one per instance, each 3 s long) are left to finish.
`)}${part(['tpm', 'limits'], `
### Limits

Every instance calls back to back (a call waits for its share; the bench aborts the calls
still waiting at the end), with \`limits: { tokensPerMinute: ${TPM} }\` for a minute, or
\`limits: { requestsPerMinute: 120 }\` for 20 s. A call reserves its estimate (a token
per 4 characters of the body and \`max_tokens\`: ${ESTIMATE} here) and gives back what the reply's
usage (${USAGE_TOKENS} tokens) says it did not use; the gateways count the usage they answered. The
buckets start with a second's worth (${TPM / 60} tokens, 2 requests) and refill evenly.
${details(
  ['tpm'],
  [
    ['tokens served in the first minute (requests)', (x) => `${x.tokens} (${x.requests})`],
    ['… by 10 s', (x) => x.slots.join(', ')],
    ['calls held for budget (`held`) / refused', (x) => `${x.held} / ${x.refused}`],
  ],
)}${
    sh('tpm') && sh('tpm').slots[0] < sh('tpm').slots[1]
      ? `The first 10 s served less than the rest: each instance's first call reserved its estimate
(${ESTIMATE} tokens) before any answer had given back what it did not use (${ESTIMATE - USAGE_TOKENS}).
`
      : ''
  }${details(
  ['limits'],
  [
    ['requests the gateways saw, by 5 s', (x) => x.slots.join(', ')],
    ['calls held for budget (`held`)', (x) => x.held],
    ['calls refused (`RateLimitError`, nothing sent)', (x) => x.refused],
    ['requests after the 20 s', (x) => x.after],
  ],
)}`)}${part(['quota'], `
### Quota exhausted

Both gateways answer every request 429 \`insufficient_quota\` from the start; the
instances start one by one over 4 s, as a fleet scales out or functions start cold.
${details(
  ['quota'],
  [
    ['requests that reached a gateway', (x) => x.sent],
    ['of them after the first second (instances)', (x) => `${x.billableAfter1s} (${x.instancesAfter1s})`],
    ['calls refused at once, nothing sent', (x) => `${x.refusedUnsent} of ${x.calls}`],
  ],
)}
`)}${part(['commandsMain', 'commandsBackup', 'commandsLimits'], `
### Redis commands

Healthy runs of 10 s, shared: the server's \`INFO commandstats\` at the go and at the end
(less the bench's own INFO), over the calls the instances made and over the seconds.
${details(
  ['commandsMain', 'commandsBackup', 'commandsLimits'],
  [
    ['calls made', (x) => x.calls],
    ['Redis commands', (x) => x.total],
    ['per call', (x) => fmt(x.perCall, 3)],
    ['per second, fleet-wide (per instance)', (x) => `${fmt(x.perSecond, 1)} (${fmt(x.perInstanceSecond, 2)})`],
    ['by command', (x) => Object.entries(x.by).map(([k, v]) => `${k} ${v}`).join(', ')],
    ['of them sent by the clients (round trips): per call; per second', (x) => `${fmt(x.sentPerCall, 3)}; ${fmt(x.sentPerSecond, 1)}`],
  ],
)}
\`INFO commandstats\` counts the commands a script runs as well (the rate bucket's TIME, GET
and SET); the last row leaves them out. Without \`limits\` a call reads the records it needs
(one MGET) unless its process read them less than 200 ms before, and writes nothing while
all is well; at this pace (one call every 100 to 400 ms per instance) most calls read. With
\`limits\` each call also takes its shares from the two buckets (a script each, \`EVALSHA\`)
and, once answered, gives back the tokens its usage says it did not use (a third).
`)}${part(['busy', 'busyIoredis'], `
### A busy event loop

Every instance blocks its event loop (a synchronous wait) for 300 ms every 1 to 3 s, in
the same turn of the loop as a call that starts: queued before the call's own work, as a
request handler doing 300 ms of work beside one making a call would be. Redis and the
gateways are healthy throughout (15 s).
${details(
  ['busy', 'busyIoredis'],
  [
    ['blocks (the median, measured)', (x) => `${x.blocks} (${fmt(x.blockMs, 0)} ms)`],
    ['warn lines from the store guard (processes)', (x) => `${x.warnLines} (${x.instancesWarned})`],
    ['\'answers again\' lines', (x) => x.infoLines],
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
  ],
)}${sh('busy')?.firstWarn ? `\nThe line: \`${sh('busy').firstWarn}\`.\n` : ''}
A store operation whose 250 ms a block took (the timer fired more than 50 ms late, or, as
Node measures its loop, the loop was idle for less than half the window) waits once more,
for the time it lost: an answer that came in during the block is read, and a command the
client had not yet written when the block began (node-redis writes its commands in a
\`setImmediate\` of the turn they are made in; ioredis at once) goes out and comes back
before the store could count as out.${
    (sh('busy')?.warnLines ?? 0) > 0 ? ` Here the guard still took the store for out ${sh('busy').warnLines} times with node-redis: the window lost was longer than the one more wait.` : ''
  }
`)}${part(['outage'], `
### Redis killed

3 s after the start Redis is killed (SIGKILL); 3 s later it is restarted, empty, on the
same port; 3 s after that the main gateway goes dark for 4 s, which one instance finds and,
with Redis back, the fleet shares.
${details(
  ['outage'],
  [
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
    ['instances that logged the outage (warn lines; the most in one)', (x) => `${x.warned} (${x.warnLines}; ${x.mostWarnsInOneProcess})`],
    ['instances that logged the store back; the last, after the restart', (x) => `${x.back}; ${secs(x.lastBackAfterRestartMs)}`],
    ['the slowest call started during the outage', (x) => `${fmt(x.slowestCallMs, 0)} ms`],
    ['the dark main: timeouts (in flight when found, sent after)', (x) => `${x.dark.timedOut} (${x.dark.inFlight}, ${x.dark.after})`],
    ['requests sent to it after it was found (the last, after it)', (x) => `${x.dark.sentAfterFound} (${secs(x.dark.lastAfterFoundMs)})`],
  ],
)}
Each process's guard checks the store once a second while it is out (a write), so every
instance shares again about a second after Redis is back; what Redis held is gone, and
the dark main after it is found once for all.
`)}${
  lat
    ? `
### A healthy call

One process, three clients on the same main and backup, called in turn (the order
rotating each round), ${latency.rounds} rounds after 300 to warm up: no \`store\` option,
\`store: memoryStore()\` and \`store: redisStore(...)\`. Wall time per call:

| store | p50 | p99 | mean |
|---|---|---|---|
| none | ${fmt(lat.none.p50, 3)} ms | ${fmt(lat.none.p99, 3)} ms | ${fmt(lat.none.mean, 3)} ms |
| \`memoryStore()\` | ${fmt(lat.memory.p50, 3)} ms | ${fmt(lat.memory.p99, 3)} ms | ${fmt(lat.memory.mean, 3)} ms |
| \`redisStore\` | ${fmt(lat.redis.p50, 3)} ms | ${fmt(lat.redis.p99, 3)} ms | ${fmt(lat.redis.mean, 3)} ms |

The median of the paired differences (redis minus none, in the same round):
${fmt(latency.pairedP50, 3)} ms. The Redis client sent ${fmt(latency.redisCommandsPerCall, 3)} Redis commands per call: reads are
cached for 200 ms, so about one call in ${fmt(1 / latency.redisCommandsPerCall, 0)} waits for a round trip to Redis. The p99
figures move with the machine's load more than with the store.
`
    : ''
}
Rerun: \`npm run bench:fleet\` (builds first; about ${meta.minutes} minute${meta.minutes === 1 ? "" : "s"} here). \`BENCH_FLEET_N\` sets the
number of instances, \`BENCH_FLEET_GAP_MS=min,max\` their pace, \`BENCH_FLEET_REDIS=ioredis\`
their Redis client, \`BENCH_FLEET_ONLY=blackhole,limits\` runs some scenarios (and leaves
this file alone). \`npm run bench\` does not run it (it needs redis-server and redis-cli,
and minutes of its own); it keeps this section as it was measured.
`.replace(/\n{3,}/g, '\n\n');
}

/** Replaces this section of `markdown` (or adds it before "## Rerun"). */
export function withFleetSection(markdown, text) {
  return withSection(markdown, HEADING, text, '## Rerun');
}

/** This section as it stands in `markdown` (for `npm run bench`, which rewrites the rest). */
export function fleetSectionOf(markdown) {
  const start = markdown.indexOf(HEADING);
  if (start < 0) return undefined;
  const next = markdown.indexOf('\n## ', start + HEADING.length);
  return markdown.slice(start, next >= 0 ? next + 1 : undefined);
}

/**
 * The section again from a run's console output (the figures it printed), with this file's
 * prose: to correct the prose without running 20 processes again.
 */
function renderFromLog(text) {
  const n = Number(text.match(/^bench:fleet: (\d+) instances/m)?.[1]);
  if (n !== N) throw new Error(`the log is of ${n} instances, this run would say ${N} (set BENCH_FLEET_N)`);
  const made = text.match(/^Made by `([^`]+)` on (\S+) \((\d+) minutes?\): (.+), Node v/m);
  const loads = text.match(/^load: (.*)$/m)[1].split(' ').map(Number);
  const results = {};
  for (const [, name, mode, json] of text.matchAll(/^(\w+) \((shared|isolated); ready[^)]*\): (\{.*\})$/gm)) (results[name] ??= {})[mode] = JSON.parse(json);
  const latency = text.match(/^latency: (\{.*\})$/m);
  const meta = {
    command: made[1],
    date: made[2],
    minutes: Number(made[3]),
    machine: made[4],
    redisVersion: text.match(/redis-server (\S+) on /)[1],
    library: text.match(/^(node-redis|ioredis) as the instances'/m)?.[1] ?? 'node-redis',
    loadStart: loads[0],
    loadEnd: loads.at(-1),
    loadMin: Math.min(...loads),
    loadMax: Math.max(...loads),
    loadMean: sum(loads) / loads.length,
  };
  return section(results, latency ? JSON.parse(latency[1]) : undefined, meta);
}

/** A run's figures for the console: long lists shortened. */
const brief = (x) => JSON.stringify(x, (key, value) => (Array.isArray(value) && value.length > 12 ? [...value.slice(0, 12), `…${value.length - 12} more`] : value));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (GAP_MS.length !== 2 || !GAP_MS.every((ms) => Number.isFinite(ms) && ms >= 0) || GAP_MS[0] > GAP_MS[1]) {
    console.error(`BENCH_FLEET_GAP_MS must be min,max in ms, got ${process.env.BENCH_FLEET_GAP_MS}`);
    process.exit(2);
  }
  if (!Number.isInteger(N) || N < 2 || N > 64) {
    console.error(`BENCH_FLEET_N must be a whole number from 2 to 64, got ${process.env.BENCH_FLEET_N}`);
    process.exit(2);
  }
  const unknown = ONLY?.filter((name) => name !== 'latency' && !(name in scenarios));
  if (unknown?.length) {
    console.error(`BENCH_FLEET_ONLY: no scenario ${unknown.join(', ')} (there are ${[...Object.keys(scenarios), 'latency'].join(', ')})`);
    process.exit(2);
  }
  if (process.argv[2] === '--render') {
    const text = renderFromLog(readFileSync(process.argv[3], 'utf8'));
    const docs = join(root, 'docs/benchmarks.md');
    writeFileSync(docs, withFleetSection(readFileSync(docs, 'utf8'), text));
    console.log(`${text}\nbench:fleet: docs/benchmarks.md updated from ${process.argv[3]}`);
    process.exit(0);
  }
  if (!redisServerPath || !redisCliPath) {
    console.log('bench:fleet: redis-server or redis-cli is not installed (apt-get install redis-server, brew install redis, or set REDIS_SERVER and REDIS_CLI to their paths); nothing measured.');
    process.exit(0);
  }
  process.on('exit', killEverything);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      killEverything();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error(error);
    killEverything();
    process.exit(1);
  });
  const started = Date.now();
  sampleLoad();
  const sampler = setInterval(sampleLoad, 5_000);
  redis = await startRedis();
  gateways.push(await startGateway('main'), await startGateway('backup'));
  console.log(`bench:fleet: ${N} instances, redis-server ${redis.version} on ${redis.url}, gateways ${gateways.map((g) => g.url).join(' and ')}; load ${loadavg()[0].toFixed(1)}`);
  const results = {};
  try {
    for (const name of Object.keys(scenarios)) {
      if (ONLY && !ONLY.includes(name)) continue;
      // The Redis a scenario needs besides the bench's own, started for it and stopped after.
      if (name === 'readonly') replica = await startReplica(redis);
      if (name.startsWith('cluster') && !cluster) cluster = await startCluster();
      results[name] = {};
      for (const mode of scenarios[name].modes) {
        const run = await scenarios[name].run(mode);
        results[name][mode] = scenarios[name].read(run);
        console.log(`${name} (${mode}; ready in ${(run.readyMs / 1000).toFixed(1)} s; load ${run.load.map((l) => l.toFixed(1)).join(' → ')}): ${brief(results[name][mode])}`);
      }
      if (name === 'readonly') {
        await replica.stop();
        replica = undefined;
      }
      if (name === 'clusterIoredis' || (name === 'clusterRedis' && ONLY && !ONLY.includes('clusterIoredis'))) {
        await cluster.stop();
        cluster = undefined;
      }
    }
    const latency = !ONLY || ONLY.includes('latency') ? await measureLatency() : undefined;
    if (latency) console.log(`latency: ${JSON.stringify(latency)}`);
    clearInterval(sampler);
    sampleLoad();
    const loads = loadSamples.map((s) => s.load);
    const env = ['BENCH_FLEET_N', 'BENCH_FLEET_GAP_MS', 'BENCH_FLEET_REDIS'].filter((name) => process.env[name] !== undefined).map((name) => `${name}=${process.env[name]} `);
    const meta = {
      command: `${env.join('')}npm run bench:fleet`,
      date: new Date().toISOString().slice(0, 10),
      minutes: Math.round((Date.now() - started) / 60_000),
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${platform()} ${release()}`,
      redisVersion: redis.version,
      library: REDIS_LIBRARY === 'ioredis' ? 'ioredis' : 'node-redis',
      loadStart: loads[0],
      loadEnd: loads.at(-1),
      loadMin: Math.min(...loads),
      loadMax: Math.max(...loads),
      loadMean: sum(loads) / loads.length,
    };
    console.log(`load: ${loads.map((l) => l.toFixed(1)).join(' ')}`);
    const text = section(results, latency, meta);
    console.log(`\n${text}`);
    if (!ONLY) {
      const docs = join(root, 'docs/benchmarks.md');
      writeFileSync(docs, withFleetSection(readFileSync(docs, 'utf8'), text));
      console.log('bench:fleet: docs/benchmarks.md updated');
    }
  } finally {
    clearInterval(sampler);
    await Promise.all(gateways.map((g) => g.close()));
    await redis?.stop();
    redis = undefined;
    await replica?.stop();
    replica = undefined;
    await cluster?.stop();
    cluster = undefined;
    killEverything();
  }
  process.exit(0);
}
