// npm run bench:models: does every model behind the gateway take the same request (issue 31,
// docs/models.md)? Against the mock gateway's strict catalogue (src/testing, built), which
// answers each family's exact 400s, served over HTTP on 127.0.0.1:
//   1. the matrix: one canonical request (temperature 0.2, max_tokens 512, one tool,
//      include_usage when streamed), streamed and not, to every id of every family, through
//      ours with the user's rules (models-matrix.mjs RULES), ours without them, ours with the
//      rules but no tool drops, the official `openai` client and `@ai-sdk/openai-compatible`;
//   2. 5-step tool loops per family (its first id) through runTools, a hand-written loop and
//      the AI SDK provider (`unified-gateway/ai-sdk`), streamed and not;
//   3. the fleet: N processes (models-fleet-instance.mjs), each with `store: redisStore(...)`
//      on one redis-server started here on a free 127.0.0.1 port, calling a model the built-in
//      table does not know (`acme-reasoner`, of the openai-reasoning family) with max_tokens:
//      how many of the gateway's "max_tokens" 400s come after the first one was answered;
//   4. the cost of adaptation: 300 sequential calls to a model no rule names vs to gpt-5
//      (max_tokens renamed), CPU time per call in fresh processes; with --instructions, the
//      CPU instructions as bench:instructions counts them (valgrind; about 4 minutes more).
// Options: --processes N (20), --seconds S (60; the issue's run is 600), --only matrix,loops,fleet,cost,
// --instructions, --no-docs (leave docs/benchmarks.md alone), --merge (with --only: the parts
// run now over the last run's others, from .tmp/bench-models.json, and the docs from both). Without redis-server the fleet
// part says so and is skipped. Everything it starts ends with it, bounded in time.
import { fork, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, platform, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startRedis } from './fleet-servers.mjs';
import { KEY, runLoops, runMatrix, startMock } from './models-matrix.mjs';
import { withSection } from './sections.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    processes: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '60' },
    only: { type: 'string' },
    instructions: { type: 'boolean', default: false },
    'no-docs': { type: 'boolean', default: false },
    merge: { type: 'boolean', default: false },
  },
});
const N = Number(args.processes);
const SECONDS = Number(args.seconds);
const ONLY = args.only?.split(',');
const wanted = (part) => !ONLY || ONLY.includes(part);
const HEADING = '## Every model takes the same request (bench:models)';
const started = Date.now();
const children = new Set();
let redis;
function killEverything() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  redis?.killNow();
  redis = undefined;
}
process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killEverything();
    process.exit(130);
  });
}
// The whole run, bounded: the fleet's duration and 6 minutes for everything else.
setTimeout(() => {
  console.error('bench:models: over its time bound; stopping');
  killEverything();
  process.exit(1);
}, (SECONDS + 360) * 1000 * (args.instructions ? 2 : 1)).unref();

const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

// ---- 3. the fleet ----

/** The strict mock behind a node:http front of our own, which logs each chat request's arrival, answer, status and what it named. */
async function startLoggedMock() {
  const { mock } = await startMock([{ id: 'acme-reasoner', owned_by: 'acme', kind: 'chat', family: 'openai-reasoning' }]);
  const log = [];
  const server = createServer(async (req, res) => {
    const arrived = Date.now();
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([, v]) => typeof v === 'string'));
    const answer = await mock.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: body.length ? body : undefined }));
    const text = await answer.text();
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
    if (req.url?.endsWith('/chat/completions')) {
      let sent = {};
      try {
        sent = JSON.parse(body.toString('utf8'));
      } catch {}
      let param;
      try {
        param = JSON.parse(text)?.error?.param;
      } catch {}
      log.push({ arrived, answered: Date.now(), status: answer.status, model: sent.model, maxTokens: sent.max_tokens !== undefined, param, instance: req.headers['x-bench-instance'] });
    }
    if (mock.requests.length > 1_000) mock.reset(); // its own log, unused here: bounded
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, log, close: () => new Promise((resolve) => server.close(resolve) && server.closeAllConnections()) };
}

function spawnInstance(config) {
  const child = fork(fileURLToPath(new URL('./models-fleet-instance.mjs', import.meta.url)), [JSON.stringify(config)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const wait = (type, limitMs) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`instance ${config.id}: no '${type}' within ${limitMs} ms`)), limitMs);
      const onMessage = (m) => {
        if (m?.type !== type) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m);
      };
      child.on('message', onMessage);
      // A large last message may still be in the IPC pipe when 'exit' is told: given a moment to arrive first.
      child.once('exit', (code) => {
        setTimeout(() => {
          clearTimeout(timer);
          reject(new Error(`instance ${config.id} exited with ${code} before '${type}'`));
        }, 2_000);
      });
    });
  return { child, wait };
}

async function runFleet() {
  try {
    redis = await startRedis();
  } catch (error) {
    console.log(`fleet: skipped, redis-server could not start (${error.message}); set REDIS_SERVER to its path`);
    return undefined;
  }
  const gateway = await startLoggedMock();
  const prefix = `bench-models-${Date.now()}`;
  const durationMs = SECONDS * 1000;
  try {
    const instances = Array.from({ length: N }, (_, id) => spawnInstance({ id, seed: 1 + id * 7919, url: gateway.url, key: KEY, redisURL: redis.url, prefix, model: 'acme-reasoner', durationMs }));
    const readyFrom = Date.now();
    await Promise.all(instances.map((i) => i.wait('ready', 180_000)));
    const readyMs = Date.now() - readyFrom;
    gateway.log.length = 0;
    const go = Date.now() + 300;
    const results = Promise.all(instances.map((i) => i.wait('result', durationMs + 60_000)));
    for (const { child } of instances) child.send({ type: 'go', at: go });
    const reports = await results;
    const chat = gateway.log.filter((e) => e.model === 'acme-reasoner');
    const refusals = chat.filter((e) => e.status === 400 && e.param === 'max_tokens').sort((a, b) => a.arrived - b.arrived);
    const firstAnswered = Math.min(...refusals.map((e) => e.answered));
    // Each refusal with the call it belonged to (its instance's call in flight when it arrived): when that call started.
    const callsOf = new Map(reports.map((r) => [String(r.id), r.calls]));
    for (const e of refusals) e.callStarted = callsOf.get(e.instance)?.find((c) => c.t0 <= e.arrived && e.arrived <= c.t1)?.t0;
    for (const e of refusals) e.firstCall = callsOf.get(e.instance)?.[0]?.t0 === e.callStarted;
    const after = refusals.filter((e) => e.arrived > firstAnswered);
    // What each instance's fetch sent with max_tokens once the first 400 had been answered (one host: one clock).
    const sentAfter = reports.flatMap((r) => r.sent.filter((s) => s.maxTokens && s.t > firstAnswered).map((s) => ({ ...s, instance: r.id })));
    const calls = reports.flatMap((r) => r.calls);
    const learnedAt = reports.map((r) => r.adapted.find((a) => a.source === 'learned')?.t).filter((t) => t !== undefined);
    const out = {
      processes: N,
      seconds: SECONDS,
      readyMs,
      redis: redis.version,
      requests: chat.length,
      withMaxTokens: chat.filter((e) => e.maxTokens).length,
      refusals: refusals.length,
      refusalsInFlight: refusals.filter((e) => e.arrived <= firstAnswered).length,
      after: after.length,
      afterDetail: after.map((e) => ({ instance: e.instance, msAfterFirstAnswered: e.arrived - firstAnswered, callStartedMs: e.callStarted === undefined ? null : e.callStarted - firstAnswered, firstCall: e.firstCall })),
      afterStartedBefore: after.filter((e) => e.callStarted !== undefined && e.callStarted <= firstAnswered).length,
      afterFirstCalls: after.filter((e) => e.firstCall).length,
      maxPerInstance: Math.max(0, ...[...new Set(refusals.map((e) => e.instance))].map((i) => refusals.filter((e) => e.instance === i).length)),
      firstArrivedMs: refusals.length ? refusals[0].arrived - go : null,
      firstAnsweredMs: refusals.length ? firstAnswered - go : null,
      instancesMet: new Set(refusals.map((e) => e.instance)).size,
      instancesInFlight: new Set(refusals.filter((e) => e.arrived <= firstAnswered).map((e) => e.instance)).size,
      lastLearntMs: learnedAt.length ? Math.max(...learnedAt) - go : null,
      instancesLearnt: learnedAt.length,
      calls: calls.length,
      failed: calls.filter((c) => !c.ok).length,
      failures: [...new Set(calls.filter((c) => !c.ok).map((c) => c.error))].slice(0, 3),
      sentAfter: sentAfter.length,
      sentAfterRefused: sentAfter.filter((s) => s.status === 400).length,
      lastSentBeforeMs: Math.max(...reports.flatMap((r) => r.sent.filter((s) => s.maxTokens).map((s) => s.t))) - firstAnswered,
      otherStatuses: chat.filter((e) => e.status !== 200 && !(e.status === 400 && e.param === 'max_tokens')).length,
    };
    console.log(`fleet: ${N} processes × ${SECONDS} s (ready in ${(readyMs / 1000).toFixed(1)} s): ${out.requests} requests, ${out.refusals} max_tokens 400s (${out.refusalsInFlight} sent before the first was answered, ${out.after} after), ${out.failed} calls failed; ${out.instancesLearnt} instances learnt it, the last ${out.lastLearntMs} ms after the go`);
    if (out.after) console.log(`fleet: after the first: ${JSON.stringify(out.afterDetail)}`);
    console.log(`fleet: sent with max_tokens after the first 400 was answered: ${out.sentAfter} (${out.sentAfterRefused} refused); the last request with max_tokens left its process ${out.lastSentBeforeMs} ms from the first 400's answer (negative: before it)`);
    return out;
  } finally {
    killEverything();
    await gateway.close();
  }
}

// ---- 4. the cost of adaptation ----

async function startBenchServer() {
  const server = spawn(process.execPath, [join(root, 'scripts/bench/server.mjs'), '15'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(server);
  const port = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
  return { port, stop: () => (server.kill(), children.delete(server)) };
}

function runNode(argv, limitMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: limitMs });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr = (stderr + d).slice(-20_000)));
    child.on('close', (status) => {
      children.delete(child);
      if (status !== 0) reject(new Error(`${argv.slice(0, 3).join(' ')} failed (${status}): ${stderr.slice(-1500)}`));
      else resolve({ stdout, stderr });
    });
  });
}

async function runCost() {
  const server = await startBenchServer();
  const script = join(root, 'scripts/bench/models-cost.mjs');
  try {
    // CPU time per call: plain and adapted in fresh processes, alternating, 5 measured rounds of 300 each.
    const cpu = { plain: [], adapted: [] };
    let adaptedCalls = 0;
    for (let pair = 0; pair < 4; pair++) {
      for (const kind of pair % 2 ? ['adapted', 'plain'] : ['plain', 'adapted']) {
        const { stdout } = await runNode([process.execPath, script, kind, server.port, '5'], 120_000);
        const r = JSON.parse(stdout.trim().split('\n').at(-1));
        cpu[kind].push(...r.cpuMsPerCall);
        if (kind === 'adapted') adaptedCalls = r.adapted;
      }
    }
    const out = { rounds: cpu.plain.length, cpuPlainUs: median(cpu.plain) * 1000, cpuAdaptedUs: median(cpu.adapted) * 1000, adaptedCalls };
    console.log(`cost: CPU per call (median of ${cpu.plain.length} rounds of 300): plain ${out.cpuPlainUs.toFixed(0)} µs, adapted ${out.cpuAdaptedUs.toFixed(0)} µs (${pct(out.cpuAdaptedUs - out.cpuPlainUs, out.cpuPlainUs)})`);
    if (args.instructions) {
      // As bench:instructions counts: under callgrind, 1 and 4 measured rounds; a third of the difference is one round of 300 calls.
      const count = async (kind, runs) => {
        const v8 = ['--single-threaded', '--predictable-gc-schedule'];
        const { stderr } = await runNode(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all-non-file', process.execPath, ...v8, script, kind, server.port, String(runs)], 900_000);
        return Number(stderr.match(/Collected : (\d+)/)[1]);
      };
      const per = {};
      for (const kind of ['plain', 'adapted']) {
        const [one, four] = await Promise.all([count(kind, 1), count(kind, 4)]);
        per[kind] = (four - one) / 3;
      }
      out.instructionsPlain = per.plain;
      out.instructionsAdapted = per.adapted;
      console.log(`cost: instructions per 300 calls: plain ${(per.plain / 1e6).toFixed(1)} M, adapted ${(per.adapted / 1e6).toFixed(1)} M (${pct(per.adapted - per.plain, per.plain)})`);
    }
    return out;
  } finally {
    server.stop();
  }
}

// ---- the report ----

const M = (n) => `${(n / 1e6).toFixed(1)} M`;

function section(r, meta) {
  const lines = [HEADING, ''];
  lines.push(`Measured by \`${meta.command}\` on ${meta.date}: ${meta.machine}, Node ${process.version}; load average ${meta.load} (the machine was shared with other builds). ${meta.minutes} minutes in all, the build aside. Against the mock gateway's [strict catalogue](mock-gateway.md#the-strict-catalogue) served over HTTP on 127.0.0.1, which answers each family's exact 400s.`);
  if (r.matrix) {
    const m = r.matrix;
    lines.push('', `### The canonical request, to every model`, '');
    lines.push(`One request (\`temperature: 0.2\`, \`max_tokens: 512\`, one tool, \`stream_options.include_usage\` when streamed), streamed and not, to **every id** of the ${m.families} families (${m.ids} ids, ${m.ids * 2} calls per client). A call is *answered* (a completion, or a whole stream), *refused before sending* (\`UnsupportedParameterError\` and the mock received nothing for it), a *gateway 4xx* (the gateway's 400 or 404 reached the caller), or *other*. "4xx on the wire" counts every 4xx the client's \`fetch\` received, those it learnt from and answered past included.`);
    lines.push('', '| client | answered | refused before sending | gateway 4xx | other | 4xx on the wire | answered with a parameter left out |', '|---|---|---|---|---|---|---|');
    for (const row of m.rows) {
      const t = row.totals;
      lines.push(`| ${row.path} | ${t.answered}/${t.calls} (${pct(t.answered, t.calls)}) | ${t.refused} | ${t.gateway} | ${t.other} | ${t.wire4xx} | ${t.ruleDrops ? `${t.ruleDrops}, each by a rule (onAdapt)` : '0'}${t.silentDrops ? `; **${t.silentDrops} silently**` : ''} |`);
    }
    const fails = (key) => {
      const row = m.rows.find((x) => x.key === key);
      return Object.entries(row.perFamily)
        .filter(([, f]) => f.answered < f.calls)
        .map(([name, f]) => `\`${name}\` ${f.calls - f.answered}/${f.calls}`)
        .join(', ');
    };
    lines.push('');
    lines.push(`**Your rules** (the first row) are what a user writes for these families (\`scripts/bench/models-matrix.mjs\`, \`RULES\`): \`temperature\` and \`top_p\` dropped for \`gpt-5*\`, \`o1*\`, \`o3*\`, \`o4*\`, and for OpenRouter's \`openai/gpt-5*\` and \`openai/o4*\` (the built-in table reads an id by its last segment, so it refuses \`temperature: 0.2\` for them too, though OpenRouter would take it); \`tools\` (with \`tool_choice\` and \`parallel_tool_calls\`) dropped for \`o1-mini\` and \`deepseek-r1\`, which take none: the request does not force a tool call, so an answer without tools is one a user may accept, and says so. \`max_tokens\` needs no rule: the built-in table renames it for the reasoning models, and the responses-only models (\`o1-pro\`, \`o3-pro\`, the codex ones) go through \`/v1/responses\`. Target: at least 99 % answered, the rest refused before sending: **${r.matrix.rows[0].totals.answered / r.matrix.rows[0].totals.calls >= 0.99 && r.matrix.rows[0].totals.gateway === 0 && r.matrix.rows[0].totals.other === 0 ? 'met' : 'not met'}**.`);
    lines.push('');
    lines.push(`**No rules**: not answered: ${fails('b')}. Every temperature the reasoning models do not take is refused before sending (the built-in table; \`o1-pro\`, \`o3-pro\`, \`gpt-5-codex\` and \`gpt-5.1-codex\` are reasoning models too), and \`o1-mini\`'s tools; none of the answered calls reached the mock without a parameter the request had (renames aside), and no refused call reached it. The one gateway 400 is \`deepseek-r1\`'s first call: the built-in table does not know that it takes no tools, so the first call is sent and refused ("deepseek-r1 does not support Function Calling"), the client learns it, and the streamed call after it is refused before sending.`);
    lines.push(`**Your rules without the tool drops**: not answered: ${fails('a2')}.`);
    lines.push(`**openai** and **@ai-sdk/openai-compatible** send the request as written: not answered: ${fails('c')} (openai), ${fails('d')} (AI SDK). The gpt-5 family and the o-series answer 400 \`Unsupported parameter: 'max_tokens' … Use 'max_completion_tokens' instead.\` (the first rule the gateway checks), o1-mini 404 \`tools is not supported in this model\`, deepseek-r1 400 \`does not support Function Calling\`, the responses-only models 404 (\`not a chat model\`, \`only supported in v1/responses\`). Neither has a way to adapt a request to its model; OpenRouter's \`openai/gpt-5\` is answered, as OpenRouter takes the request as written.`);
  }
  if (r.loops) {
    const ways = [...new Set(r.loops.map((x) => x.way))];
    const fams = [...new Set(r.loops.map((x) => x.family))];
    lines.push('', '### 5-step tool loops, per family', '');
    lines.push(`Each family's first id, with the rules above, through six ways of running a tool loop. The mock calls the first tool and answers once a tool result comes back, so a loop would end after two steps: it is scripted (\`mock.script\`: four tool calls, then an answer; each reply carries the family's own reasoning, signatures and stream quirks) to run five. Steps are the model calls answered; 400s, those on the wire.`);
    lines.push('', `| family | ${ways.join(' | ')} |`, `|---|${ways.map(() => '---').join('|')}|`);
    for (const fam of fams) {
      const cells = ways.map((w) => {
        const x = r.loops.find((y) => y.family === fam && y.way === w);
        return `${x.steps} step${x.steps === 1 ? '' : 's'}${x.wire4xx ? `, **${x.wire4xx} × ${x.wire400 ? '400' : '4xx'}**` : ''}${x.ok ? '' : ' (failed)'}`;
      });
      lines.push(`| \`${fam}\` | ${cells.join(' | ')} |`);
    }
    const bad = r.loops.filter((x) => x.wire4xx > 0 && x.family !== 'new-api-claude');
    const nac = r.loops.find((x) => x.family === 'new-api-claude' && x.error);
    lines.push('');
    lines.push(`400s outside \`new-api-claude\`: ${bad.length === 0 ? '**0** (target met)' : `**${bad.length}** (${bad.map((x) => `${x.family} ${x.way}`).join(', ')}; target not met)`}. \`new-api-claude\` fails at its second step in every way, with its documented error (new-api drops the thinking signature; [chat.md](chat.md#families-behind-the-gateway-the-strict-mock)): \`${nac ? nac.error.replace(/`/g, "'").slice(0, 140) : 'none'}…\`.`);
    lines.push(`Loops that ran fewer than five steps, and why: \`deepseek-r1\` and \`o1-mini\` take no tools (the rules drop them: one answer, no loop). \`openai-pro\` and \`openai-codex\` answer on \`/v1/responses\` (the chat request converted, the answer read back as chat), where the mock plays the same script as output items and refuses a \`function_call_output\` whose call is not in the input, as OpenAI does.`);
  }
  if (r.fleet) {
    const f = r.fleet;
    lines.push('', '### Learnt once per fleet', '');
    lines.push(`${f.processes} processes (each a \`Gateway\` with \`store: redisStore(...)\` on one redis-server ${f.redis} on 127.0.0.1, \`maxRetries: 0\`) call one strict mock over HTTP for ${f.seconds} s, one call at a time, 100 to 400 ms apart, all starting at the same instant: \`acme-reasoner\`, an id the built-in table does not know, in the \`openai-reasoning\` family (it refuses \`max_tokens\`), with \`max_tokens: 64\`. The mock sits behind a small node:http front of the bench's own that logs when each request arrived and was answered.`);
    lines.push('', '| requests | max_tokens 400s | arrived before the first was answered | arrived after it | calls failed | instances that met it |', '|---|---|---|---|---|---|');
    lines.push(`| ${f.requests} | ${f.refusals} | ${f.refusalsInFlight} | ${f.after} | ${f.failed} | ${f.instancesMet}/${f.processes} |`);
    lines.push('');
    lines.push(`The first 400 was answered ${f.firstAnsweredMs} ms after the start; ${f.refusalsInFlight} requests (from ${f.instancesInFlight} instances, the first included) had arrived by then. Each refused request was sent again with \`max_completion_tokens\` by its client (a rename keeps the meaning), so no call failed for it. After the first 400 was answered: **${f.after}** more arrived; target 0 after: **${f.after === 0 ? 'met' : 'not met'}**.${f.after ? ` Of those, ${f.afterFirstCalls} were their instance's first call and ${f.afterStartedBefore} belonged to a call that had started before the first 400 was answered (and arrived after it: ${f.processes} processes on ${cpus().length} cores at a load of ${meta.load}); calls started after it that met the 400: **${f.after - f.afterStartedBefore}**. Each, with when it arrived and when its call started, relative to the first 400's answer: ${f.afterDetail.map((x) => `instance ${x.instance}: +${x.msAfterFirstAnswered} ms (started ${x.callStartedMs === null ? '?' : `${x.callStartedMs >= 0 ? '+' : ''}${x.callStartedMs} ms`}${x.firstCall ? ', its first call' : ''})`).join('; ')}.` : ''} At most ${f.maxPerInstance} such 400 per instance; every instance that met none learnt it from the store. All adapted their later requests by what was learnt; the last started doing so ${f.lastLearntMs} ms after the start.${f.failed ? ` Failed calls: ${f.failures.join('; ')}.` : ''}`);
    if (f.sentAfter !== undefined) lines.push('', `Timed where each request leaves (a \`fetch\` of each instance's own that notes when it was called; one host, one clock): requests with \`max_tokens\` that left a process after the first 400 was answered: **${f.sentAfter}** (${f.sentAfterRefused} refused); target 0 once the first 400 is answered: **${f.sentAfter === 0 ? 'met' : 'not met'}**. The last request with \`max_tokens\` left its process ${Math.abs(f.lastSentBeforeMs)} ms ${f.lastSentBeforeMs <= 0 ? 'before' : 'after'} that answer${f.sentAfter === 0 && f.after ? `: the ${f.after} 400s that arrived after it had left their processes before it (${f.processes} processes on ${cpus().length} cores take that long to deliver a request over loopback)` : ''}.`);
  }
  if (r.cost) {
    const c = r.cost;
    lines.push('', '### What adaptation costs', '');
    lines.push(`300 sequential small chat calls (scripts/bench/server.mjs, as bench:instructions' "300 sequential requests" row), \`max_tokens: 512\` each, to \`bench-model\` (no rule names it: the request goes as written) and to \`gpt-5\` (the built-in rule renames \`max_tokens\` on every call, and \`onAdapt\` is told).`);
    lines.push('', '| measure | no rule (bench-model) | adapted (gpt-5) | difference |', '|---|---|---|---|');
    lines.push(`| client CPU per call (median of ${c.rounds} rounds of 300, 8 fresh processes) | ${c.cpuPlainUs.toFixed(0)} µs | ${c.cpuAdaptedUs.toFixed(0)} µs | ${pct(c.cpuAdaptedUs - c.cpuPlainUs, c.cpuPlainUs)} |`);
    if (c.instructionsPlain) lines.push(`| CPU instructions per 300 calls (callgrind, as bench:instructions) | ${M(c.instructionsPlain)} | ${M(c.instructionsAdapted)} | ${pct(c.instructionsAdapted - c.instructionsPlain, c.instructionsPlain)} (${((c.instructionsAdapted - c.instructionsPlain) / 300 / 1000).toFixed(1)}k a call) |`);
    lines.push('');
    lines.push(`Target: adaptation at most 2 % of the 300-request row${c.instructionsPlain ? `: **${(c.instructionsAdapted - c.instructionsPlain) / c.instructionsPlain <= 0.02 ? 'met' : 'not met'}** (by the instruction counts)` : ' (CPU time only in this run: it moves by several % with the machine\'s load, read the instruction counts: `--instructions`)'}.`);
  }
  return lines.join('\n') + '\n';
}

// --merge: the parts run now over the last run's others (.tmp/bench-models.json), and the docs written from both.
const last = args.merge ? JSON.parse(readFileSync(join(root, '.tmp/bench-models.json'), 'utf8')) : undefined;
const results = last ? { ...last.results } : {};
if (wanted('matrix')) results.matrix = await runMatrix();
if (wanted('loops')) results.loops = await runLoops();
if (wanted('fleet')) results.fleet = await runFleet();
if (wanted('cost')) results.cost = await runCost();
const load = loadavg()[0].toFixed(1);
const flags = [args.processes !== '20' ? `--processes ${N}` : '', `--seconds ${SECONDS}`, args.instructions ? '--instructions' : ''].filter(Boolean).join(' ');
const meta = {
  command: `npm run bench:models -- ${flags}`,
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} × ${cpus()[0]?.model.trim().split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${platform()} ${release()}`,
  load,
  minutes: Math.round((Date.now() - started) / 60_000),
};
const text = section(results, meta);
console.log(`\n${text}`);
mkdirSync(join(root, '.tmp'), { recursive: true });
writeFileSync(join(root, '.tmp/bench-models.json'), JSON.stringify({ results, meta }, null, 1));
if ((!ONLY || args.merge) && !args['no-docs']) {
  const docs = join(root, 'docs/benchmarks.md');
  writeFileSync(docs, withSection(readFileSync(docs, 'utf8'), HEADING, text, '## Rerun'));
  console.log('bench:models: docs/benchmarks.md updated');
}
killEverything();
process.exit(0);
