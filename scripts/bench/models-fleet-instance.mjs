// One instance of `npm run bench:models`' fleet (forked by models.mjs, with an IPC channel): a
// client of the built package with `store: redisStore(...)` on the bench's redis-server,
// calling the strict mock with `max_tokens` for a model the built-in table does not know,
// one call at a time, 100 to 400 ms apart, for the run's duration. Reports every call and
// every change the client made to a request. Never run by hand.
const config = JSON.parse(process.argv[2] ?? '{}');
const noop = () => undefined;

// Bounded whatever happens; and gone with the run that forked it.
setTimeout(() => process.exit(3), config.durationMs + 120_000).unref();
process.on('disconnect', () => process.exit(4));

const { Gateway } = await import('unified-gateway');
const { redisStore } = await import('unified-gateway/redis');
const { createClient } = await import('redis');
const redis = await createClient({ url: config.redisURL }).on('error', noop).connect();
const adapted = [];
// When each chat request left this process (its fetch called), and how it was answered: what was
// sent after the fleet's first 400 had been answered, as against what only arrived after it.
const sent = [];
const timedFetch = async (input, init) => {
  const t = Date.now();
  const answer = await fetch(input, init);
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (url.endsWith('/chat/completions')) {
    let maxTokens = false;
    try {
      maxTokens = JSON.parse(String(init?.body)).max_tokens !== undefined;
    } catch {}
    sent.push({ t, status: answer.status, maxTokens });
  }
  return answer;
};
const client = new Gateway({
  fetch: timedFetch,
  apiKey: config.key,
  baseURL: config.url,
  store: redisStore(redis, { prefix: config.prefix }),
  maxRetries: 0,
  logLevel: 'off',
  defaultHeaders: { 'x-bench-instance': String(config.id) },
  onAdapt: (e) => adapted.push({ t: Date.now(), action: e.action, param: e.param, to: e.to, source: e.source }),
});
// Warm: the package loaded and a connection open, on a model no rule names and the default catalogue's.
await new Gateway({ apiKey: config.key, baseURL: config.url, maxRetries: 0, logLevel: 'off' }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'warm' }], max_tokens: 8 });
process.send({ type: 'ready' });
const go = await new Promise((resolve) => process.once('message', (m) => resolve(m.at)));
const end = go + config.durationMs;
let random = config.seed;
const next = () => (random = (Math.imul(random, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
await new Promise((r) => setTimeout(r, Math.max(0, go - Date.now())));
const calls = [];
while (Date.now() < end) {
  const t0 = Date.now();
  try {
    await client.chat.completions.create({ model: config.model, messages: [{ role: 'user', content: `ping ${calls.length}` }], max_tokens: 64 }, { signal: AbortSignal.timeout(10_000) });
    calls.push({ t0, t1: Date.now(), ok: true });
  } catch (error) {
    calls.push({ t0, t1: Date.now(), ok: false, error: `${error.name}: ${String(error.message).slice(0, 200)}` });
  }
  await new Promise((r) => setTimeout(r, 100 + next() * 300));
}
// Sent whole before the process ends: a large message still in the IPC pipe would be lost to process.exit().
await new Promise((resolve) => process.send({ type: 'result', id: config.id, calls, adapted, sent }, resolve));
redis.destroy();
process.disconnect();
process.exit(0);
