// One process of `npm run bench:cost` (forked by cost.mjs, with an IPC channel): a client of
// the built package with `cost: true` and `store: redisStore(...)` on the bench's redis-server,
// calling the mock gateway over HTTP on 127.0.0.1. Roles:
// - `mixed`: a paced list of mixed calls (chat with cached tokens, streamed and not,
//   embeddings, images, a video, per-request and tiered models), tagged by tenant; reports
//   each call's priced cost and request id, and every onCost event with its time.
// - `budget`: a $0.01 budget for one tenant, calls as fast as it can until refused (the SDK's
//   reservation); then the same with a naive check-after counter (GET, send, INCRBY).
// Never run by hand.
const config = JSON.parse(process.argv[2] ?? '{}');
const noop = () => undefined;

// Bounded whatever happens; and gone with the run that forked it.
setTimeout(() => process.exit(3), config.limitMs ?? 180_000).unref();
process.on('disconnect', () => process.exit(4));

const { Gateway, BudgetExceededError } = await import('unified-gateway');
const { redisStore } = await import('unified-gateway/redis');
const { createClient } = await import('redis');
const redis = await createClient({ url: config.redisURL, socket: { reconnectStrategy: false, connectTimeout: 2_000 } }).on('error', noop).connect();
const store = redisStore(redis, { prefix: config.prefix });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const message = (type) => new Promise((resolve) => {
  const on = (m) => {
    if (m?.type !== type) return;
    process.off('message', on);
    resolve(m);
  };
  process.on('message', on);
});
const events = [];
const onCost = (e) => events.push({ t: Date.now(), id: e.requestID, source: e.cost.source, quota: e.cost.quota, delta: e.delta.quota, tenant: e.tags.tenant ?? null });
// Reconciling tells onCost again only when the bill differs from the price; every reconciled call says so in a debug line, counted here as its billed event.
const reconciled = /^\[unified-gateway\] reconciled (\S+) \(.*\): billed (\d+) quota/;
const quiet = () => undefined;
const logger = {
  error: quiet,
  warn: quiet,
  info: quiet,
  debug(line) {
    const m = reconciled.exec(line);
    if (m && !events.some((e) => e.id === m[1] && e.source === 'billed')) events.push({ t: Date.now(), id: m[1], source: 'billed', quota: Number(m[2]), delta: 0, tenant: null });
  },
};
const base = { apiKey: config.key, baseURL: config.url, maxRetries: 0, logLevel: 'debug', logger, defaultHeaders: { 'x-bench-instance': String(config.id) } };

// Warm: the package loaded and a connection open (billed before the run reads the usage it starts from).
await new Gateway(base).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'warm' }], max_tokens: 8 });

/** A long system prefix, repeated call after call with a cache hint (the mock's prompt cache reports it as cached tokens). */
const PREFIX = Array.from({ length: 300 }, (_, i) => `rule ${i}: answer briefly and cite the policy section.`).join(' ');
const LONG = Array.from({ length: 1_400 }, (_, i) => `word${i % 97}`).join(' ');
const cachedChat = (stream) => ({
  model: 'claude-3-5-sonnet-20241022',
  messages: [
    { role: 'system', content: [{ type: 'text', text: PREFIX, cache_control: { type: 'ephemeral' } }] },
    { role: 'user', content: `Question ${Math.floor(Math.random() * 1e6)}: what applies?` },
  ],
  max_tokens: 64,
  ...(stream ? { stream: true } : {}),
});
const ask = (model, content, stream = false) => ({ model, messages: [{ role: 'user', content }], max_tokens: 64, ...(stream ? { stream: true } : {}) });

/** The mixed calls, one of each kind per round. */
const KINDS = [
  ['chat-cached', (c, o) => c.chat.completions.create(cachedChat(false), o)],
  ['chat-cached-stream', (c, o) => c.chat.completions.create(cachedChat(true), o)],
  ['chat', (c, o) => c.chat.completions.create(ask('gpt-4o-mini', 'Hello there, how are you today?'), o)],
  ['chat-stream', (c, o) => c.chat.completions.create(ask('gpt-4o-mini', 'Tell me a short story.', true), o)],
  ['embeddings', (c, o) => c.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha beta gamma', 'delta epsilon'] }, o)],
  ['image-n2', (c, o) => c.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse at dusk', n: 2 }, o)],
  ['video-10s', (c, o) => c.videos.create({ model: 'vendor_video2', prompt: 'waves on rocks', duration: 10 }, o)],
  ['per-request-chat', (c, o) => c.chat.completions.create(ask('per-request-chat', 'Hello per request'), o)],
  ['tiered-short', (c, o) => c.chat.completions.create(ask('tiered-chat', 'A short prompt for the tiered model.'), o)],
  ['tiered-long', (c, o) => c.chat.completions.create(ask('tiered-chat', LONG, true), o)],
];

async function mixed() {
  const client = new Gateway({ ...base, store, cost: true, onCost });
  process.send({ type: 'ready' });
  const { at } = await message('go');
  await sleep(Math.max(0, at - Date.now()));
  const calls = [];
  for (let i = 0; i < config.calls; i++) {
    const [kind, make] = KINDS[(i + config.id * 3) % KINDS.length];
    const tenant = config.tenants[i % config.tenants.length];
    const t0 = Date.now();
    const row = { kind, tenant, t0 };
    try {
      const { data, response, cost } = await make(client, { tags: { tenant }, headers: { 'x-bench-tenant': tenant }, signal: AbortSignal.timeout(20_000) }).withResponse();
      let priced = cost;
      if (data && typeof data.cost === 'function' && typeof data[Symbol.asyncIterator] === 'function') {
        for await (const _ of data);
        priced = await data.cost();
      }
      Object.assign(row, { t1: Date.now(), ok: true, id: response.headers.get('x-oneapi-request-id'), quota: priced?.quota ?? null, source: priced?.source ?? null });
    } catch (error) {
      Object.assign(row, { t1: Date.now(), ok: false, error: `${error.name}: ${String(error.message).slice(0, 200)}` });
    }
    calls.push(row);
    await sleep(Math.max(0, t0 + config.gapMs - Date.now()));
  }
  // Wait for every answered call's billed event (bounded).
  const ids = new Set(calls.filter((c) => c.id).map((c) => c.id));
  const deadline = Date.now() + config.waitBilledMs;
  while (Date.now() < deadline && [...ids].some((id) => !events.some((e) => e.id === id && e.source === 'billed'))) await sleep(200);
  process.send({ type: 'result', id: config.id, calls, events });
}

async function budget() {
  const limitQuota = Math.round(0.01 * 500_000);
  const client = new Gateway({ ...base, store, cost: true, onCost, budgets: [{ name: 'capped-daily', usd: 0.01, per: 'day', where: { tenant: config.tenant } }] });
  // On the same store: the naive calls are priced (for INCRBY) and reconciled by the same one reader per fleet.
  const plain = new Gateway({ ...base, store, cost: true });
  const body = () => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Summarise ticket ${Math.floor(Math.random() * 1e6)} in one line.` }], max_tokens: 64 });
  process.send({ type: 'ready' });

  // The SDK's budget: until this process has been refused with nothing sent for `afterMs` (a refused call sends nothing; room freed by a settled reservation is taken).
  const sdk = { sent: [], refusals: [], worstQuota: 0, errors: 0 };
  const go = await message('go-sdk');
  await sleep(Math.max(0, go.at - Date.now()));
  const stopAt = go.at + config.phaseMs;
  let lastSent = go.at;
  while (Date.now() < stopAt && !(sdk.refusals.length > 0 && Date.now() - lastSent > config.afterMs)) {
    const t0 = Date.now();
    try {
      const { response, cost } = await client.chat.completions.create(body(), { tags: { tenant: config.tenant }, headers: { 'x-bench-tenant': config.tenant }, signal: AbortSignal.timeout(10_000) }).withResponse();
      sdk.sent.push({ t0, t1: Date.now(), id: response.headers.get('x-oneapi-request-id'), quota: cost?.quota ?? null });
      lastSent = Date.now();
    } catch (error) {
      if (error instanceof BudgetExceededError) {
        sdk.refusals.push(Date.now());
        // The call's worst case as the refusal states it (in USD, to 1e-6: ±0.5 quota).
        const worstUsd = Number(/may cost up to \$([\d.e-]+)/.exec(error.message)?.[1] ?? 0);
        sdk.worstQuota = Math.max(sdk.worstQuota, Math.round(worstUsd * 500_000));
        await sleep(5);
      } else {
        sdk.errors++;
      }
    }
  }
  process.send({ type: 'done-sdk' });

  // The naive scheme, same processes and store: read spent, send if below, add after the answer.
  const naive = { sent: [], refusals: [], errors: 0 };
  const goNaive = await message('go-naive');
  await sleep(Math.max(0, goNaive.at - Date.now()));
  const key = `${config.prefix}naive:${config.tenant}`;
  const naiveStop = goNaive.at + config.phaseMs;
  while (Date.now() < naiveStop) {
    const spent = Number((await redis.get(key)) ?? 0);
    if (spent >= limitQuota) {
      naive.refusals.push(Date.now());
      break;
    }
    const t0 = Date.now();
    try {
      const { response, cost } = await plain.chat.completions.create(body(), { headers: { 'x-bench-tenant': `${config.tenant}-naive` }, signal: AbortSignal.timeout(10_000) }).withResponse();
      naive.sent.push({ t0, t1: Date.now(), id: response.headers.get('x-oneapi-request-id'), quota: cost?.quota ?? null });
      await redis.incrBy(key, cost?.quota ?? 0);
    } catch {
      naive.errors++;
    }
  }
  // The SDK phase's billed events: waited for (bounded), as the reconciler reads the log once per 5 s per fleet.
  const billedIds = new Set();
  const waitUntil = Date.now() + config.waitBilledMs;
  do {
    for (const e of events) if (e.source === 'billed') billedIds.add(e.id);
    if (sdk.sent.every((c) => billedIds.has(c.id))) break;
    await sleep(250);
  } while (Date.now() < waitUntil);
  sdk.billed = sdk.sent.filter((c) => billedIds.has(c.id)).length;
  process.send({ type: 'result', id: config.id, sdk, naive });
}

try {
  await (config.role === 'mixed' ? mixed() : budget());
} finally {
  await sleep(100);
  redis.destroy();
  process.disconnect();
  process.exit(0);
}
