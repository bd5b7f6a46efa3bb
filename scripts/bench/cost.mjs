// `npm run bench:cost`: cost as billed, measured against the mock gateway (which bills every
// call with new-api's formula, src/testing/billing.ts, written apart from the SDK's
// src/core/cost/price.ts) served over HTTP on 127.0.0.1 behind a small node:http front of the
// bench's own that logs when each request arrived, its tenant and the log reads, and keeps
// every bill row a client's read of /api/log/token returned. One redis-server on a free
// 127.0.0.1 port holds the fleet's store.
//
// 1. Priced = billed: 4 processes × 50 mixed calls (cost: true, tags by tenant), paced to 10
//    calls a second for the fleet (the log holds the key's last 100 bills, read once per 5 s),
//    each call's priced quota compared with the mock's bill by X-Oneapi-Request-Id.
// 2. Reconciled: the onCost 'billed' event of each call, how long after the call; the fleet's
//    reads of /api/log/token per 5 s (counted at the front).
// 3. Spend by tag (client.spend({ by: 'tenant' })) vs the gateway's /api/usage/token delta.
// 4. A $0.01 budget for one tenant across 20 processes calling as fast as they can; then a
//    naive check-after counter (GET, send, INCRBY) with the same processes and store.
//
// Writes the "Cost as billed" section of docs/benchmarks.md (unless --no-docs) and
// .tmp/bench-cost.json. Every server and process it starts ends with it, bounded in time.
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, platform, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startRedis } from './fleet-servers.mjs';
import { withSection } from './sections.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    processes: { type: 'string', default: '4' },
    calls: { type: 'string', default: '200' },
    'budget-processes': { type: 'string', default: '20' },
    'no-docs': { type: 'boolean', default: false },
  },
});
const FLEET = Number(args.processes);
const CALLS = Number(args.calls);
const BUDGET_FLEET = Number(args['budget-processes']);
const KEY = 'sk-bench-cost-0123456789';
const QUOTA_PER_UNIT = 500_000;
const LIMIT_QUOTA = Math.round(0.01 * QUOTA_PER_UNIT);
const HEADING = '## Cost as billed (bench:cost)';
const started = Date.now();

const children = new Set();
let redis;
let front;
function killEverything() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  redis?.killNow?.() ?? redis?.kill?.();
  redis = undefined;
  front?.closeAllConnections?.();
  front?.close();
}
process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    killEverything();
    process.exit(130);
  });
}
// The whole run is bounded.
setTimeout(() => {
  console.error('bench:cost: over 10 minutes, stopped');
  process.exit(2);
}, 600_000).unref();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { Gateway } = await import('unified-gateway');
const { createMockGateway } = await import('unified-gateway/testing');
const { redisStore } = await import('unified-gateway/redis');
const { createClient } = await import('redis');

// The mock, its bills at 1 log read a second per key (new-api's rate limit, the default), behind the logging front.
const mock = createMockGateway({ apiKey: KEY, quota: 1_000_000_000 });
const log = [];
/** Every bill row a client's read of /api/log/token returned: request id → quota. */
const billed = new Map();
front = createServer(async (req, res) => {
  const arrived = Date.now();
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks);
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([, v]) => typeof v === 'string'));
  const answer = await mock.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: body.length ? body : undefined }));
  const text = Buffer.from(await answer.arrayBuffer());
  const out = {};
  answer.headers.forEach((v, k) => {
    if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') out[k] = v;
  });
  res.writeHead(answer.status, out);
  res.end(text);
  const path = (req.url ?? '').split('?')[0];
  log.push({ arrived, answered: Date.now(), method: req.method, path, status: answer.status, tenant: req.headers['x-bench-tenant'] ?? null, instance: req.headers['x-bench-instance'] ?? null, id: answer.headers.get('x-oneapi-request-id') });
  if (path === '/api/log/token' && answer.status === 200) collect(JSON.parse(text.toString('utf8')));
  // The mock's own request log (bodies included) is unused here: bounded.
  if (mock.requests.length > 500) mock.requests.length = 0;
});
front.keepAliveTimeout = 5_000;
await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${front.address().port}/v1`;

function collect(body) {
  for (const row of body?.data ?? []) if (row?.request_id) billed.set(row.request_id, row.quota);
}
const direct = (path) => mock.fetch(`http://127.0.0.1${path}`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) => r.json().then((json) => ({ status: r.status, json })));
const usedQuota = async () => (await direct('/api/usage/token')).json.data.total_used;
/** The bench's own read of the log (not through the front, not counted as the fleet's), past the mock's 1-a-second limit. */
async function readLogOnce() {
  for (let tries = 0; tries < 8; tries++) {
    await sleep(1_100);
    const { status, json } = await direct('/api/log/token');
    if (status === 200) return collect(json);
  }
}

try {
  redis = await startRedis();
} catch (error) {
  console.log(`bench:cost: redis-server could not start (${error.message}); set REDIS_SERVER to its path. Nothing measured.`);
  process.exit(0);
}
const instanceScript = join(root, 'scripts/bench/cost-instance.mjs');
function spawn(config) {
  const child = fork(instanceScript, [JSON.stringify({ key: KEY, url, redisURL: redis.url, ...config })], { cwd: root, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.add(child);
  const messages = [];
  const waiters = [];
  child.on('message', (m) => {
    messages.push(m);
    for (const w of [...waiters]) if (w.type === m.type) (waiters.splice(waiters.indexOf(w), 1), w.resolve(m));
  });
  child.on('exit', () => children.delete(child));
  const next = (type, ms = 120_000) =>
    new Promise((resolve, reject) => {
      const i = messages.findIndex((m) => m.type === type);
      if (i >= 0) return resolve(messages.splice(i, 1)[0]);
      const w = { type, resolve };
      waiters.push(w);
      setTimeout(() => reject(new Error(`instance ${config.id}: no '${type}' in ${ms} ms`)), ms).unref();
      child.once('exit', (code) => reject(new Error(`instance ${config.id} exited (${code}) before '${type}'`)));
    });
  return { child, next, send: (m) => child.send(m) };
}

const pricing = (await direct('/api/pricing')).json.data;
const entryOf = (model) => pricing.find((p) => p.model_name === model);
const MODEL_OF = { 'chat-cached': 'claude-3-5-sonnet-20241022', 'chat-cached-stream': 'claude-3-5-sonnet-20241022', chat: 'gpt-4o-mini', 'chat-stream': 'gpt-4o-mini', embeddings: 'text-embedding-3-small', 'image-n2': 'dall-e-3', 'video-10s': 'vendor_video2', 'per-request-chat': 'per-request-chat', 'tiered-short': 'tiered-chat', 'tiered-long': 'tiered-chat' };
const pct = (a, b) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(a === b ? 0 : 1)}%`);
const q = (n) => Math.round(n).toLocaleString('en-US');
const usd = (quota) => `$${(quota / QUOTA_PER_UNIT).toFixed(4)}`;

// ---- Parts 1–3: the mixed fleet ----
console.log(`bench:cost: ${FLEET} processes × ${CALLS / FLEET} mixed calls, redis-server ${redis.version} on ${redis.url}, mock on ${url}`);
const perProcess = Math.ceil(CALLS / FLEET);
const gapMs = Math.ceil((1_000 * FLEET) / 10); // 10 calls a second for the fleet: 50 bills per 5 s, within the log's 100
const mixedPrefix = `bench-cost-mixed-${Date.now()}:`;
const fleet = Array.from({ length: FLEET }, (_, id) => spawn({ role: 'mixed', id, calls: perProcess, gapMs, tenants: ['acme', 'globex', 'initech'], prefix: mixedPrefix, waitBilledMs: 30_000, limitMs: 240_000 }));
await Promise.all(fleet.map((f) => f.next('ready')));
const usedBefore = await usedQuota();
const goAt = Date.now() + 300;
const logFrom = log.length;
for (const f of fleet) f.send({ type: 'go', at: goAt });
const results = await Promise.all(fleet.map((f) => f.next('result', 240_000)));
const mixedEnd = Date.now();
const usedAfter = await usedQuota();
const calls = results.flatMap((r) => r.calls.map((c) => ({ ...c, instance: r.id, model: MODEL_OF[c.kind] })));
const events = results.flatMap((r) => r.events);
if (calls.some((c) => c.id && !billed.has(c.id))) await readLogOnce();

// 1. priced vs billed
const answered = calls.filter((c) => c.ok);
const rows = answered.map((c) => {
  const entry = entryOf(c.model);
  const type = entry?.quota_type === 1 ? 'per-request' : entry?.billing_mode === 'tiered_expr' ? 'tiered' : 'ratio';
  return { ...c, type, bill: c.id ? billed.get(c.id) : undefined };
});
const ratioRows = rows.filter((r) => r.type !== 'per-request');
const equal = (r) => r.bill !== undefined && r.quota === r.bill;
const mismatches = rows.filter((r) => !equal(r));
const byKind = {};
for (const r of rows) {
  const k = (byKind[r.kind] ??= { kind: r.kind, model: r.model, type: r.type, calls: 0, equal: 0, priced: 0, billed: 0 });
  k.calls++;
  if (equal(r)) k.equal++;
  k.priced += r.quota ?? 0;
  k.billed += r.bill ?? 0;
}
const cachedCalls = rows.filter((r) => r.kind.startsWith('chat-cached'));

// 2. reconciled
const billedEvents = new Map();
for (const e of events) if (e.source === 'billed' && !billedEvents.has(e.id)) billedEvents.set(e.id, e.t);
const lags = answered.filter((c) => c.id && billedEvents.has(c.id)).map((c) => (billedEvents.get(c.id) - c.t1) / 1_000).sort((a, b) => a - b);
const within10 = lags.filter((s) => s <= 10).length;
const reads = log.slice(logFrom).filter((r) => r.path === '/api/log/token');
const readTimes = reads.map((r) => r.arrived).sort((a, b) => a - b);
let maxPer5s = 0;
for (let i = 0; i < readTimes.length; i++) {
  let j = i;
  while (j < readTimes.length && readTimes[j] - readTimes[i] < 5_000) j++;
  maxPer5s = Math.max(maxPer5s, j - i);
}
const readSpan = (mixedEnd - goAt) / 1_000;
const readers = new Set(reads.map((r) => r.instance));
const gaps = readTimes.slice(1).map((t, i) => (t - readTimes[i]) / 1_000);

// 3. spend by tag vs usage
const spendStore = await createClient({ url: redis.url, socket: { reconnectStrategy: false } }).on('error', () => {}).connect();
const spend = await new Gateway({ apiKey: KEY, baseURL: url, store: redisStore(spendStore, { prefix: mixedPrefix }), cost: true, logLevel: 'off' }).spend({ by: 'tenant' });
const spendSum = spend.groups.reduce((s, g) => s + g.quota, 0);
const usageDelta = usedAfter - usedBefore;
const pricedSum = answered.reduce((s, c) => s + (c.quota ?? 0), 0);

const part1 = {
  calls: calls.length,
  answered: answered.length,
  failed: calls.filter((c) => !c.ok).map((c) => `${c.kind}: ${c.error}`),
  ratio: { calls: ratioRows.length, equal: ratioRows.filter(equal).length },
  perRequest: { calls: rows.length - ratioRows.length, equal: rows.filter((r) => r.type === 'per-request' && equal(r)).length },
  mismatches: mismatches.map((r) => ({ kind: r.kind, model: r.model, priced: r.quota, source: r.source, billed: r.bill ?? null })),
  byKind: Object.values(byKind),
  cached: { calls: cachedCalls.length },
};
const part2 = {
  billedEvents: lags.length,
  of: answered.filter((c) => c.id).length,
  within10,
  p50: lags[Math.floor(lags.length / 2)] ?? null,
  max: lags.at(-1) ?? null,
  reads: reads.length,
  reads200: reads.filter((r) => r.status === 200).length,
  reads429: reads.filter((r) => r.status === 429).length,
  readers: readers.size,
  maxPer5s,
  seconds: readSpan,
  minGap: gaps.length ? Math.min(...gaps) : null,
};
const part3 = { spend: spend.groups.map((g) => ({ value: g.value, quota: g.quota })), spendSum, spendTotal: spend.total.quota, usageDelta, pricedSum, warmCalls: FLEET };
console.log('1.', JSON.stringify(part1, null, 1));
console.log('2.', JSON.stringify(part2));
console.log('3.', JSON.stringify(part3));
await spendStore.destroy();

// ---- Part 4: a $0.01 budget across 20 processes ----
const budgetPrefix = `bench-cost-budget-${Date.now()}:`;
const tenant = 'capped';
const phaseMs = 20_000;
const budgetFleet = Array.from({ length: BUDGET_FLEET }, (_, id) => spawn({ role: 'budget', id, tenant, prefix: budgetPrefix, phaseMs, afterMs: 2_000, waitBilledMs: 12_000, limitMs: 180_000 }));
await Promise.all(budgetFleet.map((f) => f.next('ready', 120_000)));
const before4 = await usedQuota();
const sdkLogFrom = log.length;
const goSdk = Date.now() + 500;
for (const f of budgetFleet) f.send({ type: 'go-sdk', at: goSdk });
await Promise.all(budgetFleet.map((f) => f.next('done-sdk', 120_000)));
await sleep(300);
const after4 = await usedQuota();
const naiveLogFrom = log.length;
const goNaive = Date.now() + 500;
for (const f of budgetFleet) f.send({ type: 'go-naive', at: goNaive });
const budgetResults = await Promise.all(budgetFleet.map((f) => f.next('result', 120_000)));
await sleep(300);
const after5 = await usedQuota();

const sdkSent = budgetResults.flatMap((r) => r.sdk.sent);
const refusals = budgetResults.flatMap((r) => r.sdk.refusals).sort((a, b) => a - b);
const firstRefusal = refusals[0] ?? null;
const worst = Math.max(...budgetResults.map((r) => r.sdk.worstQuota));
const sdkArrivals = log.slice(sdkLogFrom, naiveLogFrom).filter((r) => r.path === '/v1/chat/completions' && r.tenant === tenant);
const afterRefusal = firstRefusal === null ? [] : sdkArrivals.filter((r) => r.arrived > firstRefusal);
const sentById = new Map(sdkSent.map((c) => [c.id, c]));
const afterRefusalStartedAfter = afterRefusal.filter((r) => (sentById.get(r.id)?.t0 ?? 0) > firstRefusal).length;
const sdkBilled = after4 - before4;
const sdkBilledEvents = budgetResults.reduce((s, r) => s + (r.sdk.billed ?? 0), 0);
const naiveSent = budgetResults.flatMap((r) => r.naive.sent);
const naiveRefusals = budgetResults.flatMap((r) => r.naive.refusals).sort((a, b) => a - b);
const naiveBilled = after5 - after4;
const naiveArrivals = log.slice(naiveLogFrom).filter((r) => r.path === '/v1/chat/completions' && r.tenant === `${tenant}-naive`);
const naiveAfter = naiveRefusals[0] === undefined ? [] : naiveArrivals.filter((r) => r.arrived > naiveRefusals[0]);
const sdkSpan = sdkArrivals.length ? (Math.max(...sdkArrivals.map((r) => r.arrived)) - goSdk) / 1_000 : 0;
const part4 = {
  processes: BUDGET_FLEET,
  limit: LIMIT_QUOTA,
  sdk: {
    sent: sdkSent.length,
    arrivals: sdkArrivals.length,
    billed: sdkBilled,
    overspend: sdkBilled - LIMIT_QUOTA,
    worst,
    maxBilledOne: Math.max(0, ...sdkSent.map((c) => c.quota ?? 0)),
    refusals: refusals.length,
    firstRefusalMs: firstRefusal === null ? null : firstRefusal - goSdk,
    arrivedAfterFirstRefusal: afterRefusal.length,
    startedAfterFirstRefusal: afterRefusalStartedAfter,
    lastArrivalAfterRefusalMs: afterRefusal.length ? Math.max(...afterRefusal.map((r) => r.arrived)) - firstRefusal : null,
    errors: budgetResults.reduce((s, r) => s + r.sdk.errors, 0),
    billedEvents: sdkBilledEvents,
    callsPerSecond: sdkSpan > 0 ? sdkArrivals.length / sdkSpan : null,
  },
  naive: {
    sent: naiveSent.length,
    arrivals: naiveArrivals.length,
    billed: naiveBilled,
    overspend: naiveBilled - LIMIT_QUOTA,
    arrivedAfterFirstRefusal: naiveAfter.length,
    errors: budgetResults.reduce((s, r) => s + r.naive.errors, 0),
  },
};
console.log('4.', JSON.stringify(part4));

// ---- Report ----
const meta = { date: new Date().toISOString().slice(0, 10), node: process.version, cores: cpus().length, cpu: cpus()[0]?.model?.trim() ?? 'unknown', memGB: Math.round(totalmem() / 2 ** 30), platform: platform(), redis: redis.version, seconds: Math.round((Date.now() - started) / 1_000) };
mkdirSync(join(root, '.tmp'), { recursive: true });
writeFileSync(join(root, '.tmp/bench-cost.json'), JSON.stringify({ meta, part1, part2, part3, part4 }, null, 2));

const lines = [];
lines.push(HEADING, '');
lines.push(`\`npm run bench:cost\` (${meta.date}; ${meta.cores} cores, ${meta.cpu}, ${meta.memGB} GB, ${meta.platform}, Node ${meta.node}, redis-server ${meta.redis}; ${meta.seconds} s in all). The mock gateway (\`unified-gateway/testing\`, which bills every call with new-api's formula in \`src/testing/billing.ts\`, written apart from the SDK's \`src/core/cost/price.ts\`) is served over HTTP on 127.0.0.1 behind a small node:http front of the bench's own that logs each request's arrival, tenant and the reads of \`/api/log/token\` (the mock allows 1 a second per key, new-api's default). Every process is a \`Gateway\` of the built package with \`cost: true\` and \`store: redisStore(...)\` (node-redis) on one redis-server on 127.0.0.1.`);
lines.push('');
lines.push(`**Priced = billed.** ${FLEET} processes make ${CALLS} mixed calls (${perProcess} each, one every ${gapMs} ms: 10 a second for the fleet, so the 50 bills of a 5 s read interval stay within the log's last 100), tagged by tenant: chat with \`cache_control\` on a 300-rule system prefix repeated to \`claude-3-5-sonnet-20241022\` (cached tokens reported from the second call of each process), streamed and not; \`gpt-4o-mini\` streamed and not; embeddings; \`dall-e-3\` with \`n: 2\`; a 10 s video; \`per-request-chat\`; \`tiered-chat\` short and long (1,400 words, its long-context tier). Each call's priced quota (\`withResponse().cost\`, a stream's \`cost()\`) is compared with the mock's bill for its \`X-Oneapi-Request-Id\`.`);
lines.push('');
lines.push('| Calls | Model | Pricing | Priced = billed | Priced quota | Billed quota |');
lines.push('|---|---|---|--:|--:|--:|');
for (const k of part1.byKind.sort((a, b) => a.kind.localeCompare(b.kind))) lines.push(`| ${k.kind} | \`${k.model}\` | ${k.type} | ${k.equal} of ${k.calls} | ${q(k.priced)} | ${q(k.billed)} |`);
lines.push('');
lines.push(`Ratio-priced calls (quota_type 0, the tiered model's expression included): priced equals billed exactly on **${part1.ratio.equal} of ${part1.ratio.calls} (${pct(part1.ratio.equal, part1.ratio.calls)})**; per-request calls ${part1.perRequest.equal} of ${part1.perRequest.calls}.${part1.mismatches.length ? ` The rest: ${part1.mismatches.map((m) => `${m.kind} priced ${m.priced ?? 'null'} (${m.source}) vs billed ${m.billed ?? 'not in the log'}`).join('; ')}.` : ' None differed.'}${part1.failed.length ? ` Failed calls: ${part1.failed.join('; ')}.` : ''}`);
lines.push('');
lines.push(`**Reconciled.** **${part2.billedEvents} of ${part2.of}** answered calls were matched with their bill in the gateway's log (each says so in a \`debug\` log line; \`onCost\` hears again only of a bill that differs from the price, none here) (${pct(part2.billedEvents, part2.of)}), ${part2.within10} of them within 10 s of the call's end (median ${part2.p50?.toFixed(1)} s, at most ${part2.max?.toFixed(1)} s). The ${FLEET} processes read \`/api/log/token\` ${part2.reads} times in ${part2.seconds.toFixed(0)} s (${part2.reads200} answered, ${part2.reads429} refused with 429), from ${part2.readers} process${part2.readers === 1 ? '' : 'es'} as the lock passed, at most **${part2.maxPer5s} in any 5 s** (the shortest gap between two reads ${part2.minGap?.toFixed(2)} s).`);
lines.push('');
lines.push(`**Spend by tag.** \`client.spend({ by: 'tenant' })\` on the fleet's store after the run: ${part3.spend.map((g) => `${g.value ?? 'untagged'} ${q(g.quota)}`).join(', ')}, **${q(part3.spendSum)} quota** in all; the gateway's \`/api/usage/token\` \`total_used\` rose by **${q(part3.usageDelta)}** over the same calls: ${part3.usageDelta === 0 ? '–' : `${((100 * Math.abs(part3.spendSum - part3.usageDelta)) / part3.usageDelta).toFixed(3)}%`} apart.`);
lines.push('');
lines.push(`**A $0.01 budget across ${BUDGET_FLEET} processes.** \`budgets: [{ name: 'capped-daily', usd: 0.01, per: 'day', where: { tenant: 'capped' } }]\` (${q(LIMIT_QUOTA)} quota), each process calling \`gpt-4o-mini\` with \`max_tokens: 64\` one call after another as fast as it can (${part4.sdk.callsPerSecond?.toFixed(0) ?? '–'} answered calls a second for the fleet, the 2 cores shared by 20 processes, the mock and Redis), until it has been refused with nothing sent for 2 s. Then, with the same processes and store, a naive check-after counter: each process \`GET\`s the tenant's spend, sends if it is below $0.01, and \`INCRBY\`s the priced quota after the answer.`);
lines.push('');
lines.push('| Scheme | Requests sent | Billed (usage delta) | Overspend | Sent after the first refusal |');
lines.push('|---|--:|--:|--:|--:|');
lines.push(`| SDK budget (reserve worst case in the store, then send) | ${part4.sdk.arrivals} | ${q(part4.sdk.billed)} (${usd(part4.sdk.billed)}) | ${q(part4.sdk.overspend)} quota (one request's worst case: ${q(part4.sdk.worst)}) | ${part4.sdk.arrivedAfterFirstRefusal}${part4.sdk.arrivedAfterFirstRefusal ? ` (${part4.sdk.startedAfterFirstRefusal} started after it)` : ''} |`);
lines.push(`| Naive check-after counter (GET, send, INCRBY) | ${part4.naive.arrivals} | ${q(part4.naive.billed)} (${usd(part4.naive.billed)}) | ${q(part4.naive.overspend)} quota | ${part4.naive.arrivedAfterFirstRefusal} |`);
lines.push('');
lines.push(`The SDK's processes were refused ${part4.sdk.refusals} times (the first ${part4.sdk.firstRefusalMs} ms after the start). A single call was billed at most ${q(part4.sdk.maxBilledOne)} quota against its reserved worst case of ${q(part4.sdk.worst)} (every prompt byte a token at full price, 64 completion tokens), so ${BUDGET_FLEET} processes' reservations in flight (${q(BUDGET_FLEET * part4.sdk.worst)}) pass $0.01 at the start: a call whose room is held by reservations in flight waits for them to settle, and the first refusal comes only when what was spent leaves no room for a call's worst case (what is left unspent is then less than one call's worst case, and spending only grows). Reconciling at this rate: ${part4.sdk.billedEvents} of ${part4.sdk.sent} of these calls were matched with their bill (waited for up to 12 s after the naive phase, whose ${part4.naive.sent} calls also went into the key's last 100 bills); the log holds 100 bills and the fleet reads it once per 5 s, so above 20 billed calls a second for the key a call can leave the log unread, and keeps its priced cost (equal to the bill here).`);
lines.push('');
const section = `${lines.join('\n')}\n`;
console.log(`\n${section}`);
if (!args['no-docs']) {
  const file = join(root, 'docs/benchmarks.md');
  writeFileSync(file, withSection(readFileSync(file, 'utf8'), HEADING, section, '## Rerun'));
  console.log('bench:cost: docs/benchmarks.md updated');
}
killEverything();
process.exit(0);
