// One benchmark measurement in a fresh process:
//   node scripts/bench/client.mjs <ours|ours-shared|openai|floor> <sse|json-seq|json-par|big|stall|cold|create-many|embed-memory|iterate-ratelimit> <port> <runs>
// Prints one JSON line: { ms: [per run], text?: {length, hash}, rssPeakMB?, heapPeakMB? }.
import { createHash } from 'node:crypto';

const [who, scenario, port, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const base = (s) => `http://127.0.0.1:${port}/${s}/v1`;
const KEY = 'bench-key';
const messages = [{ role: 'user', content: 'benchmark' }];

async function makeClients(s) {
  if (who === 'ours-shared') {
    // A client with a memory store and a response cache: every call a miss (its content
    // differs), so it pays for the lookup, the fleet's look at the store and keeping the answer.
    const { Gateway, memoryStore } = await import('unified-gateway');
    const c = new Gateway({ apiKey: KEY, baseURL: base(s), idleTimeout: 2_000, store: memoryStore(), cache: {} });
    let n = 0;
    return {
      chat: () => c.chat.completions.create({ model: 'bench-model', messages: [{ role: 'user', content: `benchmark ${n++}` }] }),
      stream: async (onText) => {
        const stream = await c.chat.completions.create({ model: 'bench-model', messages: [{ role: 'user', content: `benchmark ${n++}` }], stream: true });
        for await (const chunk of stream) onText(chunk.choices[0]?.delta.content ?? '');
      },
    };
  }
  if (who === 'ours') {
    const { Gateway } = await import('unified-gateway');
    const c = new Gateway({ apiKey: KEY, baseURL: base(s), idleTimeout: 2_000 });
    return {
      chat: () => c.chat.completions.create({ model: 'bench-model', messages }),
      stream: async (onText) => {
        const stream = await c.chat.completions.create({ model: 'bench-model', messages, stream: true });
        for await (const chunk of stream) onText(chunk.choices[0]?.delta.content ?? '');
      },
    };
  }
  if (who === 'openai') {
    const { default: OpenAI } = await import('openai');
    const c = new OpenAI({ apiKey: KEY, baseURL: base(s) });
    return {
      chat: () => c.chat.completions.create({ model: 'bench-model', messages }),
      stream: async (onText) => {
        const stream = await c.chat.completions.create({ model: 'bench-model', messages, stream: true });
        for await (const chunk of stream) onText(chunk.choices[0]?.delta.content ?? '');
      },
    };
  }
  // The floor: plain fetch and the smallest SSE parser that is correct for this server.
  const post = (stream) =>
    fetch(`${base(s)}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench-model', messages, stream }),
    });
  return {
    chat: async () => (await post(false)).json(),
    stream: async (onText) => {
      const res = await post(true);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buf = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buf += decoder.decode(value, { stream: true });
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const event = buf.slice(0, end);
          buf = buf.slice(end + 2);
          if (!event.startsWith('data: ')) continue;
          const data = event.slice(6);
          if (data === '[DONE]') return;
          onText(JSON.parse(data).choices[0]?.delta.content ?? '');
        }
      }
    },
  };
}

const now = () => performance.now();
const out = { who, scenario, ms: [] };

if (scenario === 'cold') {
  // Cold start to first answer: this process has imported nothing yet. Timed from before
  // the import to the parsed answer of one chat call (process start-up is the same for all).
  const t = now();
  await (await makeClients('json')).chat();
  out.ms.push(now() - t);
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

if (scenario === 'create-many') {
  // Bulk embedding against a server that serves RATE requests a second (server.mjs).
  const { Gateway } = await import('unified-gateway');
  const c = new Gateway({ apiKey: KEY, baseURL: base('ratelimit'), maxRetries: 20, logLevel: 'off' });
  await fetch(`${base('ratelimit')}/reset`, { method: 'POST' });
  const input = Array.from({ length: 10_000 }, (_, i) => `text number ${i}`);
  const t = now();
  const res = await c.embeddings.createMany({ model: 'bench-embed', input }, { batchSize: 50, concurrency: 8 });
  out.ms.push(now() - t);
  out.stats = await (await fetch(`${base('ratelimit')}/stats`)).json();
  out.vectors = res.data.length;
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

/** CPU time this process has used, in ms: steadier than wall time on a shared machine. */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
out.cpu = [];

/** `n` texts, made as they are read: the input itself takes no memory. */
function* texts(n) {
  for (let i = 0; i < n; i++) yield `text number ${i}`;
}

if (scenario === 'embed-memory') {
  // Memory while embedding BENCH_EMBED_INPUTS texts of 256 dimensions from a local server
  // without a limit (server.mjs "vectors"), with BENCH_EMBED_METHOD (iterate or createMany)
  // and BENCH_EMBED_VECTORS (float32 or number). Run with --expose-gc.
  const { Gateway } = await import('unified-gateway');
  const total = Number(process.env.BENCH_EMBED_INPUTS ?? 1_000_000);
  const method = process.env.BENCH_EMBED_METHOD ?? 'iterate';
  const float32 = (process.env.BENCH_EMBED_VECTORS ?? 'float32') === 'float32';
  const c = new Gateway({ apiKey: KEY, baseURL: base('vectors'), logLevel: 'off' });
  const options = { batchSize: 500, concurrency: 4, float32 };
  /** Embeds `n` texts; checks the order and touches every vector, as a consumer that stores them would. */
  const run = async (n) => {
    let count = 0;
    let sum = 0;
    const body = { model: 'bench-embed', input: method === 'iterate' ? texts(n) : Array.from(texts(n)) };
    const all = method === 'iterate' ? c.embeddings.iterate(body, options) : (await c.embeddings.createMany(body, options)).data;
    for await (const e of all) {
      if (e.index !== count || e.embedding.length !== 256) throw new Error(`vector ${count} came as ${e.index} with ${e.embedding.length} dimensions`);
      sum += e.embedding[count % 256];
      count++;
    }
    return { count, sum };
  };
  await run(5_000); // warm-up: the code loaded, the connections open
  globalThis.gc?.();
  globalThis.gc?.();
  const before = process.memoryUsage();
  const keys = ['heapUsed', 'arrayBuffers', 'external', 'rss'];
  const peak = Object.fromEntries(keys.map((k) => [k, 0]));
  let samples = 0;
  const sample = () => {
    const m = process.memoryUsage();
    samples++;
    for (const k of keys) peak[k] = Math.max(peak[k], m[k] - before[k]);
  };
  const timer = setInterval(sample, 10);
  const t = now();
  const c0 = cpu();
  const result = await run(total);
  out.ms.push(now() - t);
  out.cpu.push(cpu() - c0);
  clearInterval(timer);
  sample();
  const MB = 2 ** 20;
  Object.assign(out, { method, float32, inputs: result.count, samples, heapPeakMB: peak.heapUsed / MB, arrayBuffersPeakMB: peak.arrayBuffers / MB, externalPeakMB: peak.external / MB, rssPeakMB: peak.rss / MB });
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

if (scenario === 'iterate-ratelimit') {
  // embeddings.iterate of BENCH_EMBED_INPUTS texts against a server that serves RATE requests a second (server.mjs).
  const { Gateway } = await import('unified-gateway');
  const total = Number(process.env.BENCH_EMBED_INPUTS ?? 30_000);
  const c = new Gateway({ apiKey: KEY, baseURL: base('ratelimit'), maxRetries: 20, logLevel: 'off' });
  // Warm-up: one request loads the code and opens a connection; then the server starts over.
  for await (const e of c.embeddings.iterate({ model: 'bench-embed', input: texts(10) })) void e;
  await fetch(`${base('ratelimit')}/reset`, { method: 'POST' });
  let count = 0;
  const t = now();
  for await (const e of c.embeddings.iterate({ model: 'bench-embed', input: texts(total) }, { batchSize: 50, concurrency: 8 })) {
    if (e.index !== count++) throw new Error(`vector ${count - 1} came as ${e.index}`);
  }
  out.ms.push(now() - t);
  out.stats = await (await fetch(`${base('ratelimit')}/stats`)).json();
  out.vectors = count;
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
}

if (scenario === 'sse') {
  const c = await makeClients('sse');
  for (let i = 0; i < runs + 1; i++) {
    let text = '';
    const t = now();
    const c0 = cpu();
    await c.stream((s) => (text += s));
    const ms = now() - t;
    if (i > 0) out.cpu.push(cpu() - c0);
    if (i > 0) out.ms.push(ms); // the first run warms up
    out.text = { length: text.length, hash: createHash('sha256').update(text).digest('hex').slice(0, 16) };
  }
} else if (scenario === 'json-seq' || scenario === 'json-par') {
  const c = await makeClients('json');
  const total = scenario === 'json-seq' ? 300 : 960;
  const width = scenario === 'json-seq' ? 1 : 16;
  for (let i = 0; i < runs + 2; i++) {
    const t = now();
    const c0 = cpu();
    await Promise.all(
      Array.from({ length: width }, async () => {
        for (let j = 0; j < total / width; j++) await c.chat();
      }),
    );
    const ms = now() - t;
    if (i > 1) out.cpu.push((cpu() - c0) / total);
    if (i > 1) out.ms.push(ms / total); // ms per request; two runs warm up
  }
} else if (scenario === 'big') {
  const c = await makeClients('big');
  await (await makeClients('json')).chat(); // warm the client and its imports first
  globalThis.gc?.();
  const baseline = process.memoryUsage();
  let rssPeak = baseline.rss;
  let heapPeak = baseline.heapUsed;
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 10);
  let chars = 0;
  const t = now();
  await c.stream((s) => {
    chars += s.length;
  });
  out.ms.push(now() - t);
  clearInterval(sample);
  out.text = { length: chars };
  out.baselineRssMB = baseline.rss / 2 ** 20;
  out.rssPeakMB = (rssPeak - baseline.rss) / 2 ** 20;
  out.heapPeakMB = (heapPeak - baseline.heapUsed) / 2 ** 20;
} else if (scenario === 'stall') {
  const c = await makeClients('stall');
  const LIMIT = 10_000;
  const t = now();
  const outcome = await Promise.race([
    c.stream(() => undefined).then(
      () => 'ended without error',
      (e) => `${e?.name ?? 'Error'}: ${e?.message ?? e}`,
    ),
    new Promise((r) => setTimeout(() => r(`no error after ${LIMIT / 1000} s (still waiting)`), LIMIT)),
  ]);
  out.ms.push(now() - t);
  out.outcome = String(outcome).slice(0, 120);
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
