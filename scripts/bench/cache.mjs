// The response cache beside the AI SDK's documented caching recipe, on one script against a
// local mock gateway (127.0.0.1) that counts what reaches it. Part of `npm run bench`; alone
// (after `npm run build`): `npm run bench:cache`, which rewrites only its own section of
// docs/benchmarks.md. A minute or two on 2 cores.
//
// Three contestants make the same calls:
//   recipe           the AI SDK's "Caching Responses" middleware (docs/06-advanced/04-caching.mdx
//                    of the installed `ai`), reproduced as written: wrapLanguageModel over our
//                    provider on a client without a cache, the key JSON.stringify({ provider,
//                    modelId, params }), a stream's parts kept in flush() and replayed with
//                    simulateReadableStream. Its Upstash Redis is a Map behind the same calls
//                    (get parses JSON, set stores JSON and is not awaited, as in the recipe).
//   ours (AI SDK)    generateText / streamText over our provider on a client with `cache`.
//   ours (client)    the same requests through client.chat.completions.create.
// Each scenario starts from empty caches and a reset mock. Counts, not timings: nothing here
// depends on the machine's speed, except the replay times given for information.
//   node scripts/bench/cache.mjs                      everything; prints the section, writes it
//   node --expose-gc scripts/bench/cache.mjs memory <who> <url> <replies> <chars> <maxBytes>
//                                                     one memory run (ours | recipe) in this process; prints JSON
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { withSection } from './sections.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HEADING = '## Response cache: beside the AI SDK caching recipe';
const KEY = 'sk-bench-cache-0123456789abcdef';
const MODEL = 'gpt-4o-mini';
const CONCURRENT = 100;
const FLOOD = { replies: 300, chars: 100_000, maxBytes: 8 * 2 ** 20 };

const { Gateway, memoryStore } = await import('unified-gateway');
const { createUnifiedGateway } = await import('unified-gateway/ai-sdk');
const { createMockGateway } = await import('unified-gateway/testing');
const ai = await import('ai');
const { generateText, streamText, wrapLanguageModel, simulateReadableStream, jsonSchema, tool, Output } = ai;

/** The recipe's Upstash Redis client, in memory: values go in as JSON and come back parsed, as @upstash/redis does. */
function kv() {
  const map = new Map();
  return {
    map,
    get: async (key) => (map.has(key) ? JSON.parse(map.get(key)) : null),
    set: async (key, value) => {
      map.set(key, JSON.stringify(value));
      return 'OK';
    },
  };
}

/** The AI SDK's caching middleware, as its docs give it (ai 6: LanguageModelV3Middleware), over `redis`. */
function cacheMiddleware(redis) {
  return {
    wrapGenerate: async ({ doGenerate, params, model }) => {
      const cacheKey = JSON.stringify({ provider: model.provider, modelId: model.modelId, params });
      const cached = await redis.get(cacheKey);
      if (cached !== null) {
        return { ...cached, response: { ...cached.response, timestamp: cached?.response?.timestamp ? new Date(cached?.response?.timestamp) : undefined } };
      }
      const result = await doGenerate();
      redis.set(cacheKey, result);
      return result;
    },
    wrapStream: async ({ doStream, params, model }) => {
      const cacheKey = JSON.stringify({ provider: model.provider, modelId: model.modelId, params });
      const cached = await redis.get(cacheKey);
      if (cached !== null) {
        const formattedChunks = cached.map((p) => (p.type === 'response-metadata' && p.timestamp ? { ...p, timestamp: new Date(p.timestamp) } : p));
        return { stream: simulateReadableStream({ initialDelayInMs: 0, chunkDelayInMs: 10, chunks: formattedChunks }) };
      }
      const { stream, ...rest } = await doStream();
      const fullResponse = [];
      const transformStream = new TransformStream({
        transform(chunk, controller) {
          fullResponse.push(chunk);
          controller.enqueue(chunk);
        },
        flush() {
          redis.set(cacheKey, fullResponse);
        },
      });
      return { stream: stream.pipeThrough(transformStream), ...rest };
    },
  };
}

/** A middleware that keeps the stream parts a model hands up (outermost: what the cache returned). */
function partsCapture(into) {
  return {
    wrapStream: async ({ doStream }) => {
      const { stream, ...rest } = await doStream();
      const parts = [];
      into.push(parts);
      return { stream: stream.pipeThrough(new TransformStream({ transform: (part, c) => (parts.push(part), c.enqueue(part)) })), ...rest };
    },
  };
}

/** A fetch that sends any base URL and any key to the mock (for the base URL and API key scenarios). */
const toMock = (served, apiKey = KEY) => (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const target = new URL(served.url);
  return fetch(`${target.origin}${url.pathname}${url.search}`, { ...init, headers: { ...init?.headers, authorization: `Bearer ${apiKey}` } });
};

/** The three contestants, fresh: empty caches over the served mock. */
function contestants(served, { store, fetch, apiKey = KEY, baseURL = served.url } = {}) {
  const plain = new Gateway({ apiKey, baseURL, maxRetries: 0, ...(fetch ? { fetch } : {}) });
  const cached = new Gateway({ apiKey, baseURL, maxRetries: 0, cache: { store: store ?? memoryStore() }, ...(fetch ? { fetch } : {}) });
  const redis = kv();
  return {
    redis,
    cached,
    recipe: (id = MODEL, extra = []) => wrapLanguageModel({ model: createUnifiedGateway({ client: plain })(id), middleware: [...extra, cacheMiddleware(redis)] }),
    ours: (id = MODEL, extra = []) => (extra.length ? wrapLanguageModel({ model: createUnifiedGateway({ client: cached })(id), middleware: extra }) : createUnifiedGateway({ client: cached })(id)),
  };
}

const readText = async (result) => {
  let text = '';
  for await (const part of result.fullStream) if (part.type === 'text-delta') text += part.text;
  return text;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Output-changing settings, one at a time, as the AI SDK takes them: each pair must miss. */
const weather = (description = 'The weather in a city') => ({ weather: tool({ description, inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }) }) });
const base = { prompt: 'What is a cache?', temperature: 0 };
const sdkFields = [
  ['model', {}, { model: 'gpt-4o' }],
  ['temperature', {}, { temperature: 0.5 }],
  ['messages (the prompt)', {}, { prompt: 'What is a store?' }],
  ['system message', {}, { system: 'Answer in French.' }],
  ['maxOutputTokens (max_tokens)', {}, { maxOutputTokens: 50 }],
  ['seed', {}, { seed: 7 }],
  ['topP (top_p)', {}, { topP: 0.9 }],
  ['stopSequences (stop)', {}, { stopSequences: ['\n\n'] }],
  ['presencePenalty', {}, { presencePenalty: 0.5 }],
  ['frequencyPenalty', {}, { frequencyPenalty: 0.5 }],
  ['tools', {}, { tools: weather() }],
  ['a tool’s description', { tools: weather() }, { tools: weather('Weather, in Celsius') }],
  ['toolChoice', { tools: weather() }, { tools: weather(), toolChoice: 'required' }],
  ['output: an object schema (response_format)', {}, { output: Output.object({ schema: jsonSchema({ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] }) }) }],
  ['providerOptions (reasoning_effort)', {}, { providerOptions: { unifiedGateway: { reasoning_effort: 'low' } } }],
  ['providerOptions (user)', {}, { providerOptions: { unifiedGateway: { user: 'customer-42' } } }],
];

/** The same, as chat body fields on the client. */
const chatBase = { model: MODEL, messages: [{ role: 'user', content: 'What is a cache?' }], temperature: 0 };
const tools = [{ type: 'function', function: { name: 'weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
const clientFields = [
  ['model', { model: 'gpt-4o' }],
  ['temperature', { temperature: 0.5 }],
  ['messages', { messages: [{ role: 'user', content: 'What is a store?' }] }],
  ['a message’s role', { messages: [{ role: 'system', content: 'What is a cache?' }, { role: 'user', content: 'What is a cache?' }] }],
  ['max_tokens', { max_tokens: 50 }],
  ['max_completion_tokens', { max_completion_tokens: 50 }],
  ['seed', { seed: 7 }],
  ['top_p', { top_p: 0.9 }],
  ['stop', { stop: ['\n\n'] }],
  ['presence_penalty', { presence_penalty: 0.5 }],
  ['frequency_penalty', { frequency_penalty: 0.5 }],
  ['n', { n: 2 }],
  ['logit_bias', { logit_bias: { 1734: -100 } }],
  ['logprobs', { logprobs: true, top_logprobs: 2 }],
  ['tools', { tools }],
  ['tool_choice', { tools, tool_choice: 'required' }],
  ['parallel_tool_calls', { tools, parallel_tool_calls: false }],
  ['response_format', { response_format: { type: 'json_object' } }],
  ['response_format schema', { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { answer: { type: 'string' } } } } } }],
  ['reasoning_effort', { reasoning_effort: 'low' }],
  ['user', { user: 'customer-42' }],
  ['stream', { stream: true }],
];

/** Reordered but equal: each pair should hit. */
const reorderedSdk = [
  ['generateText’s options reordered', { prompt: 'What is a cache?', temperature: 0 }, { temperature: 0, prompt: 'What is a cache?' }],
  [
    'a tool’s JSON schema reordered',
    { prompt: 'x', tools: { weather: tool({ description: 'w', inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }) }) } },
    { prompt: 'x', tools: { weather: tool({ description: 'w', inputSchema: jsonSchema({ required: ['city'], properties: { city: { type: 'string' } }, type: 'object' }) }) } },
  ],
  [
    'an output schema reordered',
    { prompt: 'x', output: Output.object({ schema: jsonSchema({ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] }) }) },
    { prompt: 'x', output: Output.object({ schema: jsonSchema({ required: ['answer'], properties: { answer: { type: 'string' } }, type: 'object' }) }) },
  ],
  ['providerOptions reordered', { prompt: 'x', providerOptions: { unifiedGateway: { user: 'u1', reasoning_effort: 'low' } } }, { prompt: 'x', providerOptions: { unifiedGateway: { reasoning_effort: 'low', user: 'u1' } } }],
];

/** Runs every scenario against one served mock; returns the figures. */
export async function runCacheBenchmarks(log = (line) => process.stdout.write(`${line}\n`)) {
  const mock = createMockGateway({ apiKey: KEY });
  const served = await mock.listen();
  const sent = () => mock.requests.filter((r) => r.path === 'chat/completions').length;
  const out = { fields: [], clientFields: [], reordered: [] };
  const scenario = async (name, fn) => {
    mock.reset();
    const result = await fn();
    log(`cache: ${name} done`);
    return result;
  };
  try {
    // 1. Identical calls, one after another.
    out.sequential = await scenario('identical calls', async () => {
      const r = {};
      for (const who of ['recipe', 'ours']) {
        const c = contestants(served);
        mock.reset();
        for (let i = 0; i < 10; i++) {
          await generateText({ model: c[who](), ...base });
          await settle(); // the recipe does not await its set: give it the time Upstash would take
        }
        r[who] = sent();
      }
      const c = contestants(served);
      mock.reset();
      for (let i = 0; i < 10; i++) await c.cached.chat.completions.create(chatBase);
      r.client = sent();
      return r;
    });

    // 2. Identical calls at once.
    out.concurrent = await scenario('concurrent calls', async () => {
      const r = {};
      for (const stream of [false, true]) {
        const row = {};
        for (const who of ['recipe', 'ours']) {
          const c = contestants(served);
          mock.reset();
          await Promise.all(Array.from({ length: CONCURRENT }, () => (stream ? readText(streamText({ model: c[who](), ...base })) : generateText({ model: c[who](), ...base }))));
          row[who] = sent();
        }
        const c = contestants(served);
        mock.reset();
        const read = await Promise.all(
          Array.from({ length: CONCURRENT }, async () => {
            const res = await c.cached.chat.completions.create({ ...chatBase, ...(stream ? { stream: true } : {}) });
            const chunks = [];
            if (stream) for await (const chunk of res) chunks.push(chunk);
            return chunks;
          }),
        );
        row.client = sent();
        if (stream) {
          // Every caller must read the whole stream: the same chunks as every other caller, and
          // those a plain client (no cache) reads of the same call (but for the id and created
          // time the mock gives each request).
          const plain = new Gateway({ apiKey: KEY, baseURL: served.url, maxRetries: 0 });
          const whole = [];
          for await (const chunk of await plain.chat.completions.create({ ...chatBase, stream: true })) whole.push(chunk);
          const bare = (chunks) => chunks.map(({ id, created, ...rest }) => rest);
          row.chunks = whole.length;
          row.everyChunk = read.filter((chunks) => isDeepStrictEqual(chunks, read[0]) && isDeepStrictEqual(bare(chunks), bare(whole))).length;
        }
        r[stream ? 'streamed' : 'json'] = row;
      }
      return r;
    });

    // 3. One output-changing field differs: every second call must miss.
    await scenario('fields that change the answer', async () => {
      for (const [name, a, b] of sdkFields) {
        const row = { name };
        for (const who of ['recipe', 'ours']) {
          const c = contestants(served);
          mock.reset();
          const call = ({ model = MODEL, ...extra }) => generateText({ ...base, ...extra, model: c[who](model) });
          await call(a);
          await settle();
          const before = sent();
          await call(b);
          row[who] = sent() > before ? 'miss' : 'hit';
        }
        out.fields.push(row);
      }
      for (const [name, change] of clientFields) {
        const c = contestants(served);
        mock.reset();
        const call = async (body) => {
          const res = await c.cached.chat.completions.create(body);
          if (body.stream) for await (const _ of res);
        };
        await call(name === 'tool_choice' || name === 'parallel_tool_calls' ? { ...chatBase, tools } : name === 'response_format schema' ? { ...chatBase, response_format: { type: 'json_object' } } : chatBase);
        const before = sent();
        await call({ ...chatBase, ...change });
        out.clientFields.push({ name, client: sent() > before ? 'miss' : 'hit' });
      }
      // Controls: the same request again must hit, or the misses above mean nothing.
      const c = contestants(served);
      mock.reset();
      await c.cached.chat.completions.create(chatBase);
      await c.cached.chat.completions.create(structuredClone(chatBase));
      out.control = sent() === 1;
    });

    // 4. Equal requests whose properties come in another order.
    await scenario('property order', async () => {
      for (const [name, a, b] of reorderedSdk) {
        const row = { name };
        for (const who of ['recipe', 'ours']) {
          const c = contestants(served);
          mock.reset();
          await generateText({ model: c[who](), ...a });
          await settle();
          const before = sent();
          await generateText({ model: c[who](), ...b });
          row[who] = sent() > before ? 'miss' : 'hit';
        }
        out.reordered.push(row);
      }
      const c = contestants(served);
      mock.reset();
      await c.cached.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }], temperature: 0, response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object', properties: { answer: { type: 'string' } } } } } });
      await c.cached.chat.completions.create({ response_format: { json_schema: { schema: { properties: { answer: { type: 'string' } }, type: 'object' }, name: 'a' }, type: 'json_schema' }, temperature: 0, messages: [{ content: 'x', role: 'user' }], model: MODEL });
      out.reorderedClient = sent() === 1 ? 'hit' : 'miss';
    });

    // 5. A stream replayed: the same chunks (ours: the same bytes), and how long a replay takes.
    out.replay = await scenario('stream replay', async () => {
      const r = {};
      for (const who of ['recipe', 'ours']) {
        const c = contestants(served);
        mock.reset();
        const parts = [];
        await readText(streamText({ model: c[who](MODEL, [partsCapture(parts)]), ...base }));
        await settle();
        const started = performance.now();
        await readText(streamText({ model: c[who](MODEL, [partsCapture(parts)]), ...base }));
        const ms = performance.now() - started;
        const [live, again] = parts;
        r[who] = { sent: sent(), parts: live.length, identical: isDeepStrictEqual(live, again), sameJSON: JSON.stringify(live) === JSON.stringify(again), ms, differs: firstDifference(live, again) };
      }
      // The client: the gateway's SSE bytes, kept by a fetch that copies the body on its way.
      const upstream = [];
      const copying = (input, init) =>
        fetch(input, init).then((res) => {
          if (!(res.headers.get('content-type') ?? '').includes('event-stream') || !res.body) return res;
          const [mine, theirs] = res.body.tee();
          upstream.push(new Response(theirs).arrayBuffer());
          return new Response(mine, { status: res.status, headers: res.headers });
        });
      const c = contestants(served, { fetch: copying });
      mock.reset();
      const body = { ...chatBase, messages: [{ role: 'user', content: 'Stream a reply with ünïcödé, "quotes" and emoji 🚀 in it.' }], stream: true };
      const live = [];
      for await (const chunk of await c.cached.chat.completions.create(body)) live.push(chunk);
      const again = [];
      const started = performance.now();
      for await (const chunk of await c.cached.chat.completions.create(body)) again.push(chunk);
      const ms = performance.now() - started;
      const bytes = Buffer.from(await upstream[0]);
      const replayed = Buffer.from(await (await c.cached.chat.completions.create(body).asResponse()).arrayBuffer());
      r.client = { sent: sent(), chunks: live.length, identical: isDeepStrictEqual(live, again), bytes: bytes.length, sameBytes: bytes.equals(replayed), ms };
      return r;
    });

    // 6. A stream cut mid-way (after text), then the same call; and one the reader left.
    out.cut = await scenario('cut streams', async () => {
      const r = {};
      for (const who of ['recipe', 'ours']) {
        const c = contestants(served);
        mock.reset();
        mock.inject({ type: 'stream_cut', afterFrames: 3, path: 'chat/completions' });
        const errors = [];
        const first = await readText(streamText({ model: c[who](), ...base, onError: ({ error }) => errors.push(error) }));
        await settle();
        const again = [];
        const second = await readText(streamText({ model: c[who](), ...base, onError: ({ error }) => again.push(error) }));
        r[who] = { sent: sent(), first, second, secondFailed: again.length > 0 };
      }
      // The recipe over a model whose stream errors (the AI SDK's mock model) instead of sending an error part.
      const { MockLanguageModelV3 } = await import('ai/test');
      const failing = new MockLanguageModelV3({
        doStream: async () => ({
          stream: new ReadableStream({
            start(controller) {
              controller.enqueue({ type: 'stream-start', warnings: [] });
              controller.enqueue({ type: 'text-start', id: 't' });
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'Half a ' });
              controller.error(new Error('socket hang up'));
            },
          }),
        }),
      });
      const redis = kv();
      const model = wrapLanguageModel({ model: failing, middleware: cacheMiddleware(redis) });
      for (let i = 0; i < 2; i++) await readText(streamText({ model, ...base, onError: () => undefined })).catch(() => undefined);
      await settle();
      r.recipeErroring = { sent: failing.doStreamCalls.length };
      // Left early: the caller aborts after the first text. (Breaking out of fullStream is no
      // way to leave: streamText reads the model's stream to its end for its own promises.)
      for (const who of ['recipe', 'ours']) {
        const c = contestants(served);
        mock.reset();
        for (const leave of [true, false]) {
          const stop = new AbortController();
          const result = streamText({ model: c[who](), ...base, abortSignal: stop.signal, onError: () => undefined });
          await (async () => {
            for await (const p of result.fullStream) if (leave && p.type === 'text-delta') stop.abort();
          })().catch(() => undefined);
          await settle();
        }
        r[`${who}Left`] = { sent: sent() };
      }
      {
        const c = contestants(served);
        mock.reset();
        for (const leave of [true, false]) {
          for await (const chunk of await c.cached.chat.completions.create({ ...chatBase, stream: true })) if (leave && chunk.choices[0]?.delta.content) break;
        }
        r.clientLeft = { sent: sent() };
      }
      const c = contestants(served);
      mock.reset();
      mock.inject({ type: 'stream_cut', afterFrames: 3, path: 'chat/completions' });
      await (async () => {
        for await (const _ of await c.cached.chat.completions.create({ ...chatBase, stream: true }));
      })().catch(() => undefined);
      let text = '';
      for await (const chunk of await c.cached.chat.completions.create({ ...chatBase, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      r.client = { sent: sent(), second: text };
      return r;
    });

    // 7. Whose answer: another API key, another base URL (another gateway) asking the same.
    out.separation = await scenario('keys and base URLs', async () => {
      const r = {};
      for (const who of ['recipe', 'ours']) {
        // One store (the recipe's Map, our memoryStore) shared by clients of two keys and two base URLs.
        const store = memoryStore();
        const redis = kv();
        const make = (apiKey, baseURL) => {
          const client = new Gateway({ apiKey, baseURL, maxRetries: 0, fetch: toMock(served), ...(who === 'ours' ? { cache: { store } } : {}) });
          const model = createUnifiedGateway({ client })(MODEL);
          return who === 'recipe' ? wrapLanguageModel({ model, middleware: cacheMiddleware(redis) }) : model;
        };
        mock.reset();
        await generateText({ model: make('sk-tenant-a-0000000000', 'https://gateway-a.example/v1'), ...base });
        await settle();
        let before = sent();
        await generateText({ model: make('sk-tenant-b-1111111111', 'https://gateway-a.example/v1'), ...base });
        const key = sent() > before ? 'miss' : 'hit';
        before = sent();
        await generateText({ model: make('sk-tenant-a-0000000000', 'https://gateway-b.example/v1'), ...base });
        const baseURL = sent() > before ? 'miss' : 'hit';
        // Keys given as functions (rotating tokens), one per tenant, on the same store.
        await generateText({ model: make(() => 'sk-tenant-c-2222222222', 'https://gateway-c.example/v1'), ...base });
        await settle();
        before = sent();
        await generateText({ model: make(() => 'sk-tenant-d-3333333333', 'https://gateway-c.example/v1'), ...base });
        r[who] = { key, base: baseURL, keyFunction: sent() > before ? 'miss' : 'hit' };
      }
      return r;
    });

    // 8. A reply that quotes the API key: is the key in the store?
    out.secret = await scenario('secrets', async () => {
      const r = {};
      for (const who of ['recipe', 'ours']) {
        const values = [];
        const inner = memoryStore();
        const store = { get: (k) => inner.get(k), set: (k, v, o) => (values.push(k, v), inner.set(k, v, o)), delete: (k) => inner.delete(k), take: (k, t) => inner.take(k, t) };
        const c = contestants(served, { store });
        mock.reset();
        mock.script({ content: `The key you sent is ${KEY}.` });
        await generateText({ model: c[who](), ...base });
        await settle();
        const kept = who === 'recipe' ? [...c.redis.map.entries()].flat() : values;
        r[who] = { stored: kept.length > 0, key: kept.some((v) => v.includes(KEY)) };
      }
      return r;
    });

    // 9. Embeddings input by input (ours only: the recipe caches language models).
    out.embeddings = await scenario('embeddings', async () => {
      const c = contestants(served);
      mock.reset();
      const corpus = Array.from({ length: 500 }, (_, i) => `Document ${i}: ${'lorem ipsum '.repeat(8)}`);
      await c.cached.embeddings.createMany({ model: 'text-embedding-3-small', input: corpus }, { batchSize: 100 });
      const first = mock.requests.length;
      const edited = corpus.map((text, i) => (i % 100 === 7 ? `${text} (edited)` : text));
      const res = await c.cached.embeddings.createMany({ model: 'text-embedding-3-small', input: edited }, { batchSize: 100 });
      const inputs = mock.requests.slice(first).flatMap((q) => q.body.input);
      return { corpus: corpus.length, edited: edited.filter((t) => t.endsWith('(edited)')).length, firstRequests: first, requests: mock.requests.length - first, inputsSent: inputs.length, inOrder: res.data.every((e, i) => e.index === i) };
    });
  } finally {
    await served.close();
  }

  // 10. Memory under a flood of large replies, each contestant in a fresh process.
  out.memory = {};
  for (const who of ['none', 'ours', 'recipe']) {
    const flood = createMockGateway({ apiKey: KEY });
    const server = await flood.listen();
    try {
      // Warm-up replies are small; then one large reply per call, each different.
      flood.script([...Array.from({ length: 5 }, () => ({ content: 'warm' })), ...Array.from({ length: FLOOD.replies }, (_, i) => ({ content: `${i} `.padEnd(FLOOD.chars, 'abcdefghij') }))]);
      const args = ['--expose-gc', fileURLToPath(import.meta.url), 'memory', who, server.url, String(FLOOD.replies), String(FLOOD.chars), String(FLOOD.maxBytes)];
      // Not execFileSync: the mock answering the child lives in this process's event loop.
      const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 300_000 });
      out.memory[who] = JSON.parse(stdout.trim().split('\n').pop());
      out.memory[who].sent = flood.requests.length;
    } finally {
      await server.close();
    }
    log(`cache: memory (${who}) done`);
  }
  out.flood = FLOOD;
  out.ai = JSON.parse(readFileSync(join(root, 'node_modules/ai/package.json'), 'utf8')).version;
  return out;
}

/** Where two part lists first differ: the part's index, the path inside it, and each side's value there. */
function firstDifference(a, b) {
  const show = (v, has) => (has ? (v === undefined ? 'undefined' : JSON.stringify(v) ?? String(v)) : 'absent');
  const walk = (x, y, path) => {
    if (isDeepStrictEqual(x, y)) return undefined;
    if (x && y && typeof x === 'object' && typeof y === 'object' && Array.isArray(x) === Array.isArray(y) && Object.getPrototypeOf(x) === Object.getPrototypeOf(y)) {
      for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
        const found = Object.hasOwn(x, key) && Object.hasOwn(y, key) ? walk(x[key], y[key], [...path, key]) : { path: [...path, key], live: show(x[key], Object.hasOwn(x, key)), replay: show(y[key], Object.hasOwn(y, key)) };
        if (found) return found;
      }
    }
    return { path, live: show(x, true), replay: show(y, true) };
  };
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const found = walk(a[i], b[i], []);
    if (found) return { at: i, type: a[i]?.type, ...found, path: found.path.join('.') };
  }
  return undefined;
}

/** One memory run: warm up, take a baseline after gc, make `replies` calls, gc, and say what stayed. */
async function memoryRun(who, url, replies, chars, maxBytes) {
  const heap = () => {
    global.gc();
    global.gc();
    return process.memoryUsage().heapUsed;
  };
  const warm = new Gateway({ apiKey: KEY, baseURL: url, maxRetries: 0 });
  for (let i = 0; i < 5; i++) await generateText({ model: createUnifiedGateway({ client: warm })(MODEL), prompt: `warm ${i}` });
  let model;
  let held;
  if (who === 'ours') {
    const inner = memoryStore({ maxBytes });
    const keys = new Set();
    const store = { get: (k) => inner.get(k), set: (k, v, o) => (keys.add(k), inner.set(k, v, o)), delete: (k) => inner.delete(k), take: (k, t) => inner.take(k, t) };
    model = createUnifiedGateway({ client: new Gateway({ apiKey: KEY, baseURL: url, maxRetries: 0, cache: { store } }) })(MODEL);
    held = async () => {
      const list = [...keys];
      const values = await inner.get(list);
      const kept = values.map((v, i) => [list[i], v]).filter(([, v]) => v !== null);
      return { entries: kept.length, accounted: kept.reduce((n, [k, v]) => n + 2 * (k.length + v.length), 0) };
    };
  } else if (who === 'none') {
    model = createUnifiedGateway({ client: new Gateway({ apiKey: KEY, baseURL: url, maxRetries: 0 }) })(MODEL);
    held = async () => ({ entries: 0, accounted: 0 });
  } else {
    const redis = kv();
    model = wrapLanguageModel({ model: createUnifiedGateway({ client: new Gateway({ apiKey: KEY, baseURL: url, maxRetries: 0 }) })(MODEL), middleware: cacheMiddleware(redis) });
    held = async () => ({ entries: redis.map.size, accounted: [...redis.map].reduce((n, [k, v]) => n + 2 * (k.length + v.length), 0) });
  }
  const baseline = heap();
  let peak = 0;
  for (let i = 0; i < replies; i++) {
    const { text } = await generateText({ model, prompt: `flood ${i}` });
    if (text.length !== chars) throw new Error(`reply ${i} has ${text.length} characters, not ${chars}`);
    if (i % 25 === 24) peak = Math.max(peak, heap() - baseline);
  }
  await settle();
  const retained = heap() - baseline;
  return { who, replies, chars, maxBytes, retainedMB: retained / 2 ** 20, peakMB: Math.max(peak, retained) / 2 ** 20, ...(await held()) };
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : String(n));
const MB = (bytes) => `${fmt(bytes / 2 ** 20)} MiB`;
const count = (rows, who, want) => `${rows.filter((r) => r[who] === want).length} of ${rows.length}`;

/** The section of docs/benchmarks.md these figures make. */
export function cacheSection(r) {
  const { memory: m, flood } = r;
  const word = (x) => (x === 'miss' ? 'miss' : '**hit**');
  const hitWord = (x) => (x === 'hit' ? 'hit' : '**miss**');
  return `${HEADING}

\`new Gateway({ cache })\` against the caching middleware the AI SDK documents ("Caching
Responses", \`docs/06-advanced/04-caching.mdx\` of \`ai\` ${r.ai}), on one script against a local mock
gateway (\`createMockGateway().listen()\` on 127.0.0.1) that counts the requests reaching it.
The recipe is reproduced as written: \`wrapLanguageModel\` over our AI SDK provider on a client
without a cache; the key \`JSON.stringify({ provider, modelId, params })\`; \`doGenerate\`'s result
kept whole; a stream's parts kept in the \`TransformStream\`'s \`flush()\` and replayed with
\`simulateReadableStream\` (10 ms a part). Its Upstash Redis is a \`Map\` behind the same two
calls: \`get\` parses JSON, \`set\` stores JSON and is not awaited, as in the recipe (each step
waits 20 ms, so its writes land before the next call). **ours (AI SDK)** makes the same
\`generateText\` / \`streamText\` calls over our provider on a client with
\`cache: { store: memoryStore() }\`; **ours (client)** makes the same requests with
\`client.chat.completions.create\`. Every scenario starts with empty caches. The counts do not
depend on the machine; the replay times and the heap figures are given for information.
\`scripts/bench/cache.mjs\`.

| upstream requests | AI SDK recipe | ours (AI SDK) | ours (client) |
|---|---|---|---|
| 10 identical calls, one after another | ${r.sequential.recipe} | ${r.sequential.ours} | ${r.sequential.client} |
| ${CONCURRENT} identical calls at once | ${r.concurrent.json.recipe} | ${r.concurrent.json.ours} | ${r.concurrent.json.client} |
| ${CONCURRENT} identical streamed calls at once | ${r.concurrent.streamed.recipe} | ${r.concurrent.streamed.ours} | ${r.concurrent.streamed.client} |
| ${CONCURRENT} identical streamed calls at once, each caller reading every chunk (target: 1 request, ${CONCURRENT} callers with all ${r.concurrent.streamed.chunks} chunks) | | | ${r.concurrent.streamed.client}; ${r.concurrent.streamed.everyChunk} callers with every chunk: ${r.concurrent.streamed.client === 1 && r.concurrent.streamed.everyChunk === CONCURRENT ? 'met' : '**NOT met**'} |
| a stream cut after text, then the same call | ${r.cut.recipe.sent} (the cut one replayed) | ${r.cut.ours.sent} | ${r.cut.client.sent} |
| a stream left after its first text (aborted; the client: \`break\`), then the same call | ${r.cut.recipeLeft.sent} | ${r.cut.oursLeft.sent} | ${r.cut.clientLeft.sent} |
| a stream, then the same stream (replayed) | ${r.replay.recipe.sent} | ${r.replay.ours.sent} | ${r.replay.client.sent} |

Identical calls at once: the recipe reads its cache before any of them has an answer, so
each one is sent. Ours sends one and the others wait for its answer (each gets its own
copy). ${
    r.concurrent.streamed.client === 1
      ? `Identical streams at once are joined too: one stream is
opened, and every caller reads it from its first chunk at its own pace (through the client,
${r.concurrent.streamed.everyChunk} of ${CONCURRENT} callers read all ${r.concurrent.streamed.chunks} chunks, deep-equal to what a client without a cache
reads of the same call)${r.concurrent.streamed.ours === 1 ? '' : `; through the AI SDK, ${r.concurrent.streamed.ours} requests`}.`
      : `A burst of identical streams was paid ${r.concurrent.streamed.client === CONCURRENT ? 'once per call' : `${r.concurrent.streamed.client} times`} through the client (${r.concurrent.streamed.everyChunk} of ${CONCURRENT} callers read all ${r.concurrent.streamed.chunks} chunks).`
  }

**One field that changes the answer differs** (a call, then the same call with one change;
the second must be sent). Through the AI SDK, ${sdkFields.length} settings: the recipe misses ${count(r.fields, 'recipe', 'miss')}, ours
${count(r.fields, 'ours', 'miss')}. Through the client, ${r.clientFields.length} chat body fields: ours misses ${count(r.clientFields, 'client', 'miss')}.
The control (the same body again, a copy) hits: ${r.control ? 'yes' : '**no**'}.

| setting (AI SDK) | recipe | ours |
|---|---|---|
${r.fields.map((f) => `| ${f.name} | ${word(f.recipe)} | ${word(f.ours)} |`).join('\n')}

Client body fields, each a miss where it should be: ${r.clientFields.map((f) => (f.client === 'miss' ? `\`${f.name}\`` : `**\`${f.name}\` hit**`)).join(', ')}.

**Equal requests in another property order** (the second should be answered from the cache):

| reordered | recipe | ours |
|---|---|---|
${r.reordered.map((f) => `| ${f.name} | ${hitWord(f.recipe)} | ${hitWord(f.ours)} |`).join('\n')}
| a chat body, every object's keys reordered (client) | | ${hitWord(r.reorderedClient)} |

The AI SDK rebuilds its call options in one order, so reordering \`generateText\`'s own
options does not change the recipe's key; what it passes through as given (a tool's or an
output's JSON schema, \`providerOptions\`) does. Ours keys on a canonical form (every object's
keys sorted, at every depth).

**A stream replayed.** Ours (client): the gateway's SSE body (${r.replay.client.bytes} bytes, copied on its way in by a
wrapping \`fetch\`) against \`asResponse()\` of the cached call: byte-identical ${r.replay.client.sameBytes ? 'yes' : '**no**'}; the ${r.replay.client.chunks} chunks of the
replay deep-equal to the live ones: ${r.replay.client.identical ? 'yes' : '**no**'} (replayed in ${fmt(r.replay.client.ms)} ms). Through the AI SDK, the stream parts the
model handed up (captured by an outer middleware) on the live call and on the replay:

| | parts | deep-equal | equal as JSON | replay time |
|---|---|---|---|---|
| recipe | ${r.replay.recipe.parts} | ${r.replay.recipe.identical ? 'yes' : 'no'} | ${r.replay.recipe.sameJSON ? 'yes' : 'no'} | ${fmt(r.replay.recipe.ms)} ms |
| ours (AI SDK) | ${r.replay.ours.parts} | ${r.replay.ours.identical ? 'yes' : 'no'} | ${r.replay.ours.sameJSON ? 'yes' : 'no'} | ${fmt(r.replay.ours.ms)} ms |
${r.replay.recipe.differs ? `\nThe recipe's first difference is in part ${r.replay.recipe.differs.at} (\`${r.replay.recipe.differs.type}\`), at \`${r.replay.recipe.differs.path}\`: live ${r.replay.recipe.differs.live}, replayed ${r.replay.recipe.differs.replay}. Its Redis keeps JSON, which has no \`undefined\`, no \`Date\` (the recipe restores \`response-metadata\`'s timestamp by hand) and no Error class.\n` : ''}
**A stream cut mid-way.** The mock cuts the connection after three frames (two pieces of
text). The recipe's \`flush()\` runs whenever the stream it wraps closes normally, and a
provider reports a failure inside the stream as an \`error\` part and then closes (ours does,
as the specification asks): the cut stream was kept, and the same call again was answered
from it with no request: the same ${JSON.stringify(r.cut.recipe.second)} (the first call showed ${JSON.stringify(r.cut.recipe.first)}) and the same error${r.cut.recipe.secondFailed ? '' : ' (**not** seen this run)'}. Over
a model whose stream errors instead (the AI SDK's \`MockLanguageModelV3\`), nothing is kept:
${r.cut.recipeErroring.sent} calls, ${r.cut.recipeErroring.sent} streams. Ours keeps a stream only when it ended normally (\`[DONE]\` after
a finish reason): the same call was sent again and completed, ${JSON.stringify(r.cut.ours.second)}.

**Whose answer.** A second API key asking the same on the same store: recipe ${word(r.separation.recipe.key)}, ours
${word(r.separation.ours.key)} (entries are separated by a hash of the key unless \`shareAcrossKeys: true\`). The
same call to another base URL (another gateway) on the same store: recipe ${word(r.separation.recipe.base)}, ours ${word(r.separation.ours.base)}.
Two keys given as functions (\`apiKey: () => token\`, one per tenant) on the same store: recipe ${word(r.separation.recipe.keyFunction)},
ours ${word(r.separation.ours.keyFunction)}${r.separation.ours.keyFunction === 'hit' ? ' (a key function is never called to name entries, so clients with key functions share them: see docs/cache.md, "Whose answers")' : ''}.
A reply quoting the API key: kept with the key in it: recipe ${r.secret.recipe.key ? '**yes**' : 'no'}, ours ${r.secret.ours.key ? '**yes**' : 'no'} (replies are
kept with the client's keys replaced).

**Embeddings, input by input** (ours; the recipe covers language models): \`createMany\` of
${r.embeddings.corpus} documents (batches of 100) took ${r.embeddings.firstRequests} requests; after editing ${r.embeddings.edited} of them, the same
\`createMany\` sent ${r.embeddings.requests} request${r.embeddings.requests === 1 ? '' : 's'} holding ${r.embeddings.inputsSent} input${r.embeddings.inputsSent === 1 ? '' : 's'}, and returned all ${r.embeddings.corpus} vectors in input order (${r.embeddings.inOrder ? 'yes' : '**no**'}).

**Memory under a flood of large replies.** ${flood.replies} \`generateText\` calls, each answered with a
different ${flood.chars.toLocaleString('en-US')}-character reply (${MB(flood.replies * flood.chars)} of text), in a fresh process (\`--expose-gc\`);
the V8 heap (\`heapUsed\`, after two \`gc()\`) over a baseline taken after five warm-up calls.
Ours: \`cache: { store: memoryStore({ maxBytes: ${flood.maxBytes / 2 ** 20} * 2 ** 20 }) }\`. The recipe: its \`Map\`, which
stands for Redis here and is bounded by nothing in the recipe (with Redis, the bound is the
server's \`maxmemory\` and eviction policy, outside the process).

| | requests | entries held at the end | their size, as memoryStore counts it (2 × characters) | heap retained | heap, the most seen |
|---|---|---|---|---|---|
| ours, \`maxBytes\` ${MB(flood.maxBytes)} | ${m.ours.sent} | ${m.ours.entries} | ${MB(m.ours.accounted)} | ${fmt(m.ours.retainedMB)} MiB | ${fmt(m.ours.peakMB)} MiB |
| recipe (a \`Map\`) | ${m.recipe.sent} | ${m.recipe.entries} | ${MB(m.recipe.accounted)} | ${fmt(m.recipe.retainedMB)} MiB | ${fmt(m.recipe.peakMB)} MiB |
| no cache (the control) | ${m.none.sent} | | | ${fmt(m.none.retainedMB)} MiB | ${fmt(m.none.peakMB)} MiB |

Ours stayed within \`maxBytes\` by its own count (${m.ours.accounted <= flood.maxBytes ? 'met' : '**not met**'}) and in the heap (${m.ours.retainedMB * 2 ** 20 <= flood.maxBytes ? 'met' : '**not met**'}). The count is
two bytes a character; V8 keeps these ASCII strings at one, so the entries take about half of
it in the heap, and the rest of what is retained is there without a cache too (the control:
code compiled and state kept after the baseline).
Each recipe entry holds the reply twice (the text, and \`response.body\` with the same text),
about ${fmt(m.recipe.accounted / m.recipe.entries / 2 / flood.chars, 1)} × its length, where ours holds the reply once (${fmt(m.ours.accounted / Math.max(1, m.ours.entries) / 2 / flood.chars, 1)} ×).

Rerun this section alone: \`npm run bench:cache\`.
`;
}

/** Replaces this section of `markdown` (or adds it before the partial objects). */
export function withCacheSection(markdown, section) {
  return withSection(markdown, HEADING, section, '## Partial objects');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === 'memory') {
    const [who, url, replies, chars, maxBytes] = process.argv.slice(3);
    console.log(JSON.stringify(await memoryRun(who, url, Number(replies), Number(chars), Number(maxBytes))));
  } else {
    const results = await runCacheBenchmarks();
    const section = cacheSection(results);
    const docs = join(root, 'docs/benchmarks.md');
    writeFileSync(docs, withCacheSection(readFileSync(docs, 'utf8'), section));
    console.log(section);
  }
}
