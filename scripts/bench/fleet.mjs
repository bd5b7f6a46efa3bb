// npm run bench:fleet: what sharing state through Redis (docs/fleet.md) changes for a fleet.
// N instances (default 8; BENCH_FLEET_N), each a separate Node process using the built
// package through its exports (fleet-instance.mjs), call two local gateways (main and
// backup, node:http on 127.0.0.1, in this process: fleet-servers.mjs) while this script
// changes what the gateways do, and one redis-server it starts on a free loopback port
// (--save '' --appendonly no) and kills at the end. Each scenario runs twice: every
// instance on one `redisStore` (shared), then every instance on its own `memoryStore()`
// (isolated). Writes the "## Fleet" section of docs/benchmarks.md.
//   BENCH_FLEET_ONLY=blackhole,limits   some scenarios only (docs/benchmarks.md is left alone)
//   BENCH_FLEET_REDIS=ioredis           the instances' Redis client (default node-redis)
// Without redis-server it says so and exits 0.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redisServerPath, startGateway, startRedis } from './fleet-servers.mjs';
import { withSection } from './sections.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const instanceScript = fileURLToPath(new URL('./fleet-instance.mjs', import.meta.url));
const N = Number(process.env.BENCH_FLEET_N ?? 8);
const ONLY = process.env.BENCH_FLEET_ONLY?.split(',').filter(Boolean);
const REDIS_LIBRARY = process.env.BENCH_FLEET_REDIS === 'ioredis' ? 'ioredis' : 'redis';
const HEADING = '## Fleet: shared state across processes';
/** The calls of a running fleet: one at a time per instance, 100 to 400 ms apart (uniform); BENCH_FLEET_GAP_MS=min,max for another pace. */
const GAP_MS = (process.env.BENCH_FLEET_GAP_MS ?? '100,400').split(',').map(Number);
const MODES = ['shared', 'isolated'];

// Everything this run starts ends with it: on a normal end, an error, or a signal.
const children = new Set();
let redis;
const gateways = [];
function killEverything() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  redis?.killNow();
  redis = undefined;
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const within = (t, from, to) => t >= from && t < to;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const distinct = (xs) => new Set(xs).size;

/** Forks one process: resolves with its first message of `type`, rejects on exit or after `limitMs`. */
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
 * then go; `timeline` entries run at their ms after the go. Resolves with every instance's
 * report, the gateways' logs and the time of the go.
 */
async function runFleet({ scenario, mode, durationMs, instance = () => ({}), timeline = [] }) {
  const [main, backup] = gateways;
  const prefix = `bench-${scenario}-${Date.now()}`;
  const instances = Array.from({ length: N }, (_, id) =>
    spawnInstance('instance', {
      id,
      seed: 1 + id * 7919,
      store: mode === 'shared' ? 'redis' : 'memory',
      redisURL: redis.url,
      redisLibrary: REDIS_LIBRARY,
      prefix,
      main: main.url,
      backup: backup.url,
      timeoutMs: 500,
      models: ['bench-a'],
      gapMs: GAP_MS,
      durationMs,
      ...instance(id),
    }),
  );
  try {
    await Promise.all(instances.map((i) => i.wait('ready', 60_000)));
    for (const gateway of gateways) gateway.reset();
    const go = Date.now() + 200;
    const results = Promise.all(instances.map((i) => i.wait('result', durationMs + 30_000)));
    for (const { child } of instances) child.send({ type: 'go', at: go });
    const marks = {};
    const steps = timeline.map(({ at, name, run }) =>
      sleep(go + at - Date.now()).then(async () => {
        marks[name] = Date.now();
        await run();
      }),
    );
    const [reports] = await Promise.all([results, ...steps]);
    return { go, marks, reports: reports.map((r) => r.seen), main: [...main.log], backup: [...backup.log], mainPauseFrom: main.state.pause?.from };
  } finally {
    for (const { child } of instances) child.kill('SIGKILL');
    for (const gateway of gateways) gateway.reset();
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

const everyReport = (run, pick) => run.reports.flatMap(pick);
const failedCalls = (run) => everyReport(run, (r) => r.failures);
const callCount = (run) => everyReport(run, (r) => r.calls).length;

// Each scenario: how it runs (the same for both modes) and what it reads from a run.
/**
 * The main gateway goes dark (accepts, never answers) for 10 s, 2 s after the start; the
 * backup is healthy. `gapMs`: the instances' pace, when not the usual one.
 */
function blackhole(title, gapMs) {
  return {
    title,
    async run(mode) {
      const [main] = gateways;
      return runFleet({
        scenario: 'blackhole',
        mode,
        durationMs: 14_000,
        instance: () => (gapMs ? { gapMs } : {}),
        timeline: [
          { at: 2_000, name: 'dark', run: () => (main.mode = 'blackhole') },
          { at: 12_000, name: 'light', run: () => (main.mode = 'ok') },
        ],
      });
    },
    read(run) {
      const { dark, light } = run.marks;
      const attempts = everyReport(run, (r) => r.retries.map((x) => ({ ...x, id: r.id }))).filter((x) => x.base === 'main' && within(x.t, dark, light + 1_000));
      const timedOut = run.reports.map((r) => r.retries.filter((x) => x.base === 'main' && x.name === 'APITimeoutError' && within(x.t, dark, light + 1_000)).length + r.failures.filter((f) => f.name === 'APITimeoutError').length);
      const moved = attempts.filter((x) => x.moved).length;
      const unanswered = run.main.filter((e) => within(e.t, dark, light));
      const last = unanswered.at(-1);
      const firstTimeout = Math.min(...everyReport(run, (r) => r.retries).filter((x) => x.base === 'main' && x.name === 'APITimeoutError' && x.t >= dark).map((x) => x.t));
      return {
        figure: sum(timedOut),
        timedOut: sum(timedOut),
        instancesThatPaid: timedOut.filter((n) => n > 0).length,
        moved,
        unanswered: unanswered.length,
        lastSentAfterMs: last ? last.t - dark : null,
        firstTimeoutAfterMs: Number.isFinite(firstTimeout) ? firstTimeout - dark : null,
        sentAfterFirstTimeout: unanswered.filter((e) => e.t >= firstTimeout).length,
        failed: failedCalls(run).length,
        calls: callCount(run),
      };
    },
  };
}

/** A 429 with `Retry-After: 5` for `bench-a` on the main, 2 s in; `bench-b` served all along. `more`: the instances' options beside their models. */
function pause(title, scenario, more = {}) {
  return {
    title,
    async run(mode) {
      const [main] = gateways;
      return runFleet({
        scenario,
        mode,
        durationMs: 12_000,
        instance: () => ({ models: ['bench-a', 'bench-b'], ...more }),
        timeline: [{ at: 0, name: 'armed', run: () => main.pause({ model: 'bench-a', armAt: Date.now() + 2_000, ms: 5_000 }) }],
      });
    },
    read(run) {
      const from = run.mainPauseFrom;
      const inPause = (e) => from !== undefined && e.t > from && e.t < from + 5_000;
      const before = (e) => from !== undefined && e.t >= from - 5_000 && e.t < from;
      const toA = run.main.filter((e) => e.model === 'bench-a' && inPause(e));
      return {
        figure: toA.length,
        toMainA: toA.length,
        tooManyRequests: run.main.filter((e) => e.status === 429).length,
        instancesToA: distinct(toA.map((e) => e.instance)),
        toMainBBefore: run.main.filter((e) => e.model === 'bench-b' && before(e)).length,
        toMainBDuring: run.main.filter((e) => e.model === 'bench-b' && inPause(e)).length,
        paused: sum(run.reports.map((r) => r.fleet.paused ?? 0)),
        skipped: sum(run.reports.map((r) => r.fleet['base-skipped'] ?? 0)),
        failed: failedCalls(run).length,
        calls: callCount(run),
      };
    },
  };
}

const scenarios = {
  blackhole: blackhole('main blackholed for 10 s'),
  // How many instances pay depends on how many have a call in flight when the main goes dark.
  blackholeQuiet: blackhole('the same, instances calling 1 to 3 s apart', [1_000, 3_000]),
  pause: pause('a 429 with `Retry-After: 5` for one model (main and backup)', 'pause'),
  // The same, with no backup to go to: the pause alone keeps the fleet off that model.
  pauseAlone: pause('the same 429, main only (no backup)', 'pause-alone', { backup: undefined }),
  quota: {
    title: '`insufficient_quota`',
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
  limits: {
    title: '`limits: { requestsPerMinute: 120 }` over 20 s',
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
  outage: {
    title: 'Redis killed for 3 s, then restarted',
    async run(mode) {
      const [main] = gateways;
      return runFleet({
        scenario: 'outage',
        mode,
        durationMs: 16_000,
        timeline: [
          { at: 3_000, name: 'killed', run: () => redis.kill() },
          { at: 6_000, name: 'restarted', run: () => redis.restart() },
          { at: 10_000, name: 'mainFails', run: () => (main.mode = 'unavailable') },
        ],
      });
    },
    read(run) {
      const { killed, restarted, mainFails } = run.marks;
      const lines = everyReport(run, (r) => r.storeLines);
      const slowest = Math.max(0, ...everyReport(run, (r) => r.calls).filter((c) => within(c.t0, killed, restarted + 2_000)).map((c) => c.ms));
      const toMain = run.main.filter((e) => e.t >= mainFails);
      const backAt = run.reports.map((r) => r.storeLines.find((l) => l.level === 'info')?.t).filter((t) => t !== undefined);
      return {
        figure: failedCalls(run).length,
        failed: failedCalls(run).length,
        failures: failedCalls(run).slice(0, 3),
        calls: callCount(run),
        warned: run.reports.filter((r) => r.storeLines.some((l) => l.level === 'warn')).length,
        warnLines: lines.filter((l) => l.level === 'warn').length,
        back: backAt.length,
        lastBackAfterRestartMs: backAt.length ? Math.max(...backAt) - restarted : null,
        slowestCallMs: slowest,
        toMainAfterFail: toMain.length,
        instancesToMainAfterFail: distinct(toMain.map((e) => e.instance)),
        toMainOffsetsMs: toMain.map((e) => e.t - mainFails),
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
const verdict = (ok) => (ok ? 'met' : '**not met**');

/** The section of docs/benchmarks.md, figures and what they mean. */
function section(results, latency, meta) {
  const budget = 40;
  const pair = (name) => (results[name]?.shared && results[name]?.isolated ? results[name] : undefined);
  const row = (name, counted, target, met) => {
    const x = pair(name);
    return x && `| ${scenarios[name].title} | ${counted} | ${target} | ${x.shared.figure} | ${x.isolated.figure} | ${verdict(met(x.shared, x.isolated))} |`;
  };
  /** A scenario's figures, a row each, shared and isolated side by side (for each of `names`). */
  const details = (names, rows) => {
    const present = names.filter(pair);
    if (!present.length) return '';
    const head = present.length > 1 ? present.map((n) => `${scenarios[n].title}: shared | isolated`).join(' | ') : 'shared | isolated';
    return `\n| | ${head} |\n|---|${present.map(() => '---|---|').join('')}\n${rows
      .map(([label, show]) => `| ${label} | ${present.map((n) => `${show(results[n].shared)} | ${show(results[n].isolated)}`).join(' | ')} |`)
      .join('\n')}\n`;
  };
  /** A subsection, when one of its scenarios ran. */
  const part = (names, text) => (names.some(pair) ? text : '');
  const s = (ms) => (ms === null || ms === undefined ? '–' : `${fmt(ms / 1000, 2)} s`);
  const lat = latency?.stats;
  const added = lat ? lat.redis.p50 - lat.none.p50 : undefined;
  const table = [
    row('blackhole', 'attempts that timed out, fleet-wide', '≤ 3 shared; ≥ N isolated', (sh, is) => sh.figure <= 3 && is.figure >= N),
    row('blackholeQuiet', 'the same', '≤ 3 shared; ≥ N isolated', (sh, is) => sh.figure <= 3 && is.figure >= N),
    row('pause', 'requests to the main for that model in the pause, after the 429', '≤ 1 shared', (sh) => sh.figure <= 1),
    row('pauseAlone', 'the same', '≤ 1 shared', (sh) => sh.figure <= 1),
    row('quota', 'requests that reached a gateway after the first 1 s', '0 shared', (sh) => sh.figure === 0),
    row('limits', 'requests the gateways saw in the 20 s', `≤ ${budget} + ${N} (the budget, one in flight per instance)`, (sh) => sh.figure <= budget + N),
    row('outage', 'calls that failed', '0', (sh, is) => sh.figure === 0 && is.figure === 0),
    lat && `| a healthy call | wall time added to p50 (p99) vs no \`store\` option | p50 < 1 ms | ${fmt(added, 3)} ms (${fmt(lat.redis.p99 - lat.none.p99, 2)} ms) | \`memoryStore()\`: ${fmt(lat.memory.p50 - lat.none.p50, 3)} ms (${fmt(lat.memory.p99 - lat.none.p99, 2)} ms) | ${verdict(added < 1)} |`,
  ].filter(Boolean);

  return `${HEADING}

Measured by \`npm run bench:fleet\` on ${meta.date}: ${meta.machine}, Node ${process.version},
redis-server ${meta.redisVersion}, ${meta.library} as the instances' Redis client. The 1-minute
load average was ${fmt(meta.loadStart, 1)} at the start and ${fmt(meta.loadEnd, 1)} at the end, on ${cpus().length} cores shared with other work.

${N} instances, each a separate Node process using the built package through its exports,
call two local gateways (main and backup: small node:http servers on 127.0.0.1, in the
bench's own process, that log every request) while the bench changes what the gateways do.
Each scenario runs twice: **shared**, every instance on one \`redisStore\` (one redis-server
on a free loopback port, \`--save '' --appendonly no\`, a fresh \`prefix\` per run), and
**isolated**, every instance on its own \`memoryStore()\`: what ${N} processes learn without
Redis. Unless a scenario says otherwise an instance makes one call at a time
(\`chat.completions.create\`, \`max_tokens: 8\`), ${GAP_MS[0]} to ${GAP_MS[1]} ms apart (a seeded uniform
draw), with \`timeout: 500\` and the defaults of \`failoverCooldown\` (30 s) and \`maxRetries\`
(2). What was sent is counted from the gateways' logs, what each call went through from the
instances' hooks (\`onRetry\`, \`onFleet\`) and log lines. Before the clock starts each
instance has made one call with another client: it is warm, and has learnt nothing.

| scenario | counted | target | shared (\`redisStore\`) | isolated (\`memoryStore()\` each) | |
|---|---|---|---|---|---|
${table.join('\n')}

${part(['blackhole', 'blackholeQuiet'], `
### Main blackholed

From 2 s after the start the main gateway accepts requests and never answers, for 10 s;
the backup is healthy. The first run has the usual pace; the second has each instance
calling 1 to 3 s apart.
${details(
  ['blackhole', 'blackholeQuiet'],
  [
    ['requests the dark main received', (x) => x.unanswered],
    ['attempts that timed out (instances that paid)', (x) => `${x.timedOut} (${x.instancesThatPaid})`],
    ['attempts moved early: the base went down elsewhere', (x) => x.moved],
    ['the first timeout, after the main went dark', (x) => s(x.firstTimeoutAfterMs)],
    ['the last request to reach the dark main', (x) => s(x.lastSentAfterMs)],
    ['requests sent to it after the first timeout', (x) => x.sentAfterFirstTimeout],
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
  ],
)}
No instance can know before the first timeout (\`timeout\` after the first request into the
dark): an attempt sent before it is in flight either way, and it ends by its own timeout
unless the poll of the store (every 50 ms while an attempt is in flight) sees the base
go down first, which moves it on early.

`)}${part(['pause', 'pauseAlone'], `
### A 429 for one model

From 2 s after the start, the main gateway's first request for \`bench-a\` gets 429
\`Retry-After: 5\`, and so does every request for \`bench-a\` in the 5 s that follow;
\`bench-b\` is served all along. Instances call both models at random. The first run has
main and backup; the second the main alone (no backup to go to: only the pause keeps the
fleet off \`bench-a\`).
${details(
  ['pause', 'pauseAlone'],
  [
    ['requests to the main for \`bench-a\` in the pause, after the first 429 (instances)', (x) => `${x.toMainA} (${x.instancesToA})`],
    ['429s the main answered', (x) => x.tooManyRequests],
    ['requests to the main for \`bench-b\`: the 2 s before the first 429 → the 5 s of the pause', (x) => `${x.toMainBBefore} → ${x.toMainBDuring}`],
    ['calls that waited out the pause (\`paused\`)', (x) => x.paused],
    ['calls that skipped the main (\`base-skipped\`)', (x) => x.skipped],
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
  ],
)}
With a backup, the calls for \`bench-a\` go to the backup during the pause and the main
keeps serving \`bench-b\`: a 429 is the pause of one base and model, never the base's health
for every model (no call skipped the main). With the main alone, a one-at-a-time instance
waiting out the pause sends nothing else meanwhile, so \`bench-b\` slows too.

`)}${part(['quota'], `
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
`)}${part(['limits'], `
### Limits

Every instance has \`limits: { requestsPerMinute: 120 }\` and calls back to back for 20 s
(a call waits for its share; the bench aborts the calls still waiting at the end). The
budget for 20 s is ${budget} requests; the bucket starts with a second's worth (2).
${details(
  ['limits'],
  [
    ['requests the gateways saw, by 5 s', (x) => x.slots.join(', ')],
    ['calls held for budget (\`held\`)', (x) => x.held],
    ['calls refused (\`RateLimitError\`, nothing sent)', (x) => x.refused],
    ['requests after the 20 s', (x) => x.after],
  ],
)}
`)}${part(['outage'], `
### Redis killed

3 s after the start Redis is killed (SIGKILL); 3 s later it is restarted, empty, on the
same port; 4 s after that the main gateway starts answering 503, which the instances learn
and, with Redis back, share.
${details(
  ['outage'],
  [
    ['calls that failed, of', (x) => `${x.failed} of ${x.calls}`],
    ['instances that logged the outage (warn lines)', (x) => `${x.warned} (${x.warnLines})`],
    ['instances that logged the store back; the last, after the restart', (x) => `${x.back}; ${s(x.lastBackAfterRestartMs)}`],
    ['the slowest call started during the outage', (x) => `${fmt(x.slowestCallMs, 0)} ms`],
    ['requests to the main once it answers 503 (instances)', (x) => `${x.toMainAfterFail} (${x.instancesToMainAfterFail})`],
    ['the last of them, after the first 503', (x) => (x.toMainOffsetsMs.length ? `${Math.max(...x.toMainOffsetsMs)} ms` : '–')],
  ],
)}
Shared, an instance that read the store less than 200 ms before the first 503 still sends
to the main once (reads are cached for 200 ms); the rest skip it.
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
${fmt(latency.pairedP50, 3)} ms. The Redis client sent ${fmt(latency.redisCommandsPerCall, 3)} Redis commands per call (the
server's \`INFO commandstats\`): reads are cached for 200 ms, so about one call in
${fmt(1 / latency.redisCommandsPerCall, 0)} waits for a round trip to Redis. The p99 figures move with the machine's
load more than with the store.
`
    : ''
}
Rerun: \`npm run bench:fleet\` (builds first; about five minutes). \`BENCH_FLEET_N\` sets the
number of instances, \`BENCH_FLEET_GAP_MS=min,max\` their pace, \`BENCH_FLEET_REDIS=ioredis\`
their Redis client, \`BENCH_FLEET_ONLY=blackhole,limits\` runs some scenarios (and leaves
this file alone). \`npm run bench\` does not run it (it needs redis-server, and minutes of
its own); it keeps this section as it was measured.
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (GAP_MS.length !== 2 || !GAP_MS.every((ms) => Number.isFinite(ms) && ms >= 0) || GAP_MS[0] > GAP_MS[1]) {
    console.error(`BENCH_FLEET_GAP_MS must be min,max in ms, got ${process.env.BENCH_FLEET_GAP_MS}`);
    process.exit(2);
  }
  if (!Number.isInteger(N) || N < 2 || N > 64) {
    console.error(`BENCH_FLEET_N must be a whole number from 2 to 64, got ${process.env.BENCH_FLEET_N}`);
    process.exit(2);
  }
  if (!redisServerPath) {
    console.log('bench:fleet: redis-server is not installed (apt-get install redis-server, brew install redis, or set REDIS_SERVER to its path); nothing measured.');
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
  const loadStart = loadavg()[0];
  redis = await startRedis();
  gateways.push(await startGateway('main'), await startGateway('backup'));
  console.log(`bench:fleet: ${N} instances, redis-server ${redis.version} on ${redis.url}, gateways ${gateways.map((g) => g.url).join(' and ')}`);
  const results = {};
  try {
    for (const name of Object.keys(scenarios)) {
      if (ONLY && !ONLY.includes(name)) continue;
      results[name] = {};
      for (const mode of MODES) {
        const run = await scenarios[name].run(mode);
        results[name][mode] = scenarios[name].read(run);
        console.log(`${name} (${mode}): ${JSON.stringify(results[name][mode])}`);
      }
    }
    const latency = !ONLY || ONLY.includes('latency') ? await measureLatency() : undefined;
    if (latency) console.log(`latency: ${JSON.stringify(latency)}`);
    const meta = {
      date: new Date().toISOString().slice(0, 10),
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${platform()} ${release()}`,
      redisVersion: redis.version,
      library: REDIS_LIBRARY === 'ioredis' ? 'ioredis' : 'node-redis',
      loadStart,
      loadEnd: loadavg()[0],
    };
    const text = section(results, latency, meta);
    console.log(`\n${text}`);
    if (!ONLY) {
      const docs = join(root, 'docs/benchmarks.md');
      writeFileSync(docs, withFleetSection(readFileSync(docs, 'utf8'), text));
      console.log('bench:fleet: docs/benchmarks.md updated');
    }
  } finally {
    await Promise.all(gateways.map((g) => g.close()));
    await redis?.stop();
    redis = undefined;
    killEverything();
  }
  process.exit(0);
}
