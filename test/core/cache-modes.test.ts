import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, Gateway, GatewayError, memoryStore, type ChatCompletionChunk, type GatewayOptions, type Store } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

// The response cache where two modes meet (issue 29): joined × streamed × raw × fallback ×
// withOptions × per-call credentials × what a store gives back. Nothing here sleeps: a gate
// holds the gateway's answers until the test releases them, and the callers that join a call
// in flight are known to have joined once the store answered their lookup.

const KEY = 'sk-cache-modes-key-0123456789';
const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'cache me' }], temperature: 0 };
const streamBody = { ...body, stream: true as const };

/** A mock gateway behind a gate: while closed, requests arrive (counted) and wait until it opens. */
function gated(mockOptions: Parameters<typeof createMockGateway>[0] = {}) {
  const mock = createMockGateway({ apiKey: KEY, ...mockOptions });
  let open = true;
  let waiting: Array<() => void> = [];
  let arrived: Array<() => void> = [];
  let arrivals = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    arrivals++;
    for (const resolve of arrived) resolve();
    arrived = [];
    const signal = init?.signal;
    if (!open) {
      await new Promise<void>((resolve, reject) => {
        waiting.push(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    return mock.fetch(input, init);
  };
  return {
    mock,
    fetch,
    sent: (path: string) => mock.requests.filter((r) => r.path === path).length,
    /** Requests that reached the gate, answered or not. */
    arrivals: () => arrivals,
    close: () => void (open = false),
    /** Resolves when the next request reaches the gate. */
    next: () => new Promise<void>((resolve) => arrived.push(resolve)),
    open: () => {
      open = true;
      for (const resolve of waiting) resolve();
      waiting = [];
    },
  };
}

/** A store that tells the test each time a lookup was answered (a caller reaches the flights right after). */
function watched(inner: Store = memoryStore()) {
  let reads = 0;
  const waiters: Array<{ at: number; resolve: () => void }> = [];
  const store: Store = {
    get: async (keys) => {
      const values = await inner.get(keys);
      reads++;
      for (const w of waiters.filter((x) => x.at <= reads)) w.resolve();
      return values;
    },
    set: (key, value, options) => inner.set(key, value, options),
    delete: (keys) => inner.delete(keys),
    take: (key, take) => inner.take(key, take),
  };
  /** Resolves once `n` more lookups were answered, and the callers behind them have had their turn. */
  const lookups = (n: number) => new Promise<void>((resolve) => waiters.push({ at: reads + n, resolve: () => setImmediate(resolve) }));
  return { store, lookups };
}

function client(fetch: typeof globalThis.fetch, store: Store, more: GatewayOptions = {}) {
  return new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch, maxRetries: 0, cache: { store }, ...more });
}

const name = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e as Error).constructor.name);
const read = async (stream: AsyncIterable<ChatCompletionChunk>) => {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
};

describe('identical calls at once share one request, owned by none of them', () => {
  it('answers the others when the first caller aborts: one request, never a second', async () => {
    const gate = gated();
    const { store, lookups } = watched();
    const c = client(gate.fetch, store);
    gate.close();
    const controller = new AbortController();
    const first = name(c.chat.completions.create(body, { signal: controller.signal }));
    await gate.next();
    const joined = name(c.chat.completions.create(body));
    await lookups(1);
    controller.abort();
    gate.open();
    expect(await Promise.all([first, joined])).toEqual(['APIUserAbortError', 'ok']);
    expect(gate.sent('chat/completions')).toBe(1);
  });

  it('stops a joined caller that aborts at once, and answers the first', async () => {
    const gate = gated();
    const { store, lookups } = watched();
    const c = client(gate.fetch, store);
    gate.close();
    const first = name(c.chat.completions.create(body));
    await gate.next();
    const controller = new AbortController();
    const joined = name(c.chat.completions.create(body, { signal: controller.signal }));
    await lookups(1);
    controller.abort();
    // Stopped while the request is still held at the gate: its abort did not wait for the answer.
    expect(await joined).toBe('APIUserAbortError');
    gate.open();
    expect(await first).toBe('ok');
    expect(gate.sent('chat/completions')).toBe(1);
  });

  it("asks again for a joined caller when the first caller's shorter per-attempt timeout ran out", async () => {
    const gate = gated();
    const { store, lookups } = watched();
    const c = client(gate.fetch, store);
    gate.close();
    const first = name(c.chat.completions.create(body, { timeout: 50 }));
    await gate.next();
    const joined = name(c.chat.completions.create(body));
    await lookups(1);
    expect(await first).toBe('APITimeoutError');
    gate.open();
    expect(await joined).toBe('ok');
    // The first request, which timed out at the gate, and the one the joined caller asked again.
    expect(gate.arrivals()).toBe(2);
  });

  it('cancels the request once every caller waiting for it left', async () => {
    const gate = gated();
    const { store, lookups } = watched();
    const c = client(gate.fetch, store);
    gate.close();
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map((controller) => name(c.chat.completions.create(body, { signal: controller.signal })));
    await gate.next();
    await lookups(1);
    for (const controller of controllers) controller.abort();
    expect(await Promise.all(calls)).toEqual(['APIUserAbortError', 'APIUserAbortError']);
    gate.open();
    // Nothing was kept: the next identical call is sent.
    expect((await c.chat.completions.create(body).withResponse()).cache).toBe('miss');
  });

  it('makes one request for 100 identical streamed calls at once, and each caller reads every chunk', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    gate.close();
    const opened = Array.from({ length: 100 }, () => c.chat.completions.create(streamBody).withResponse());
    await gate.next();
    gate.open();
    const streams = await Promise.all(opened);
    const all = await Promise.all(streams.map((s) => read(s.data)));
    expect(gate.sent('chat/completions')).toBe(1);
    expect(streams.filter((s) => s.cache === 'miss')).toHaveLength(1);
    expect(streams.filter((s) => s.cache === 'hit')).toHaveLength(99);
    expect(all.every((chunks) => JSON.stringify(chunks) === JSON.stringify(all[0]))).toBe(true);
    expect(all[0]?.length).toBeGreaterThan(2);
    // Each caller has its own objects: what one does to a chunk reaches nobody else.
    expect(all[0]?.[0]).not.toBe(all[1]?.[0]);
  });

  it('keeps the stream going for the others when the first reader breaks out early', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    const [first, second] = await Promise.all([c.chat.completions.create(streamBody), c.chat.completions.create(streamBody)]);
    for await (const _ of first) break;
    const rest = await read(second);
    expect(rest.length).toBeGreaterThan(2);
    expect((await c.chat.completions.create(streamBody).withResponse()).cache).toBe('hit');
    expect(gate.sent('chat/completions')).toBe(1);
  });

  it('cancels the request of a cached stream aborted without being read, when no other caller reads it', async () => {
    const mock = createMockGateway({ apiKey: KEY });
    const signals: AbortSignal[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (init?.signal) signals.push(init.signal);
      // Frames then silence, and a body that does not end on abort (a custom fetch's may not).
      const first = await (await mock.fetch(input, init)).text();
      const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode(first.replace('data: [DONE]\n\n', ''))) });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const c = client(fetch, memoryStore());
    const stream = await c.chat.completions.create(streamBody);
    expect(signals.some((s) => s.aborted)).toBe(false);
    stream.controller.abort();
    expect(signals.every((s) => s.aborted)).toBe(true);
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('leaves no timer behind once every reader of a cached stream left (the process can exit)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const mock = createMockGateway({ apiKey: KEY });
      const c = client(mock.fetch, memoryStore());
      const stream = await c.chat.completions.create(streamBody);
      for await (const _ of stream) break;
      await Promise.resolve();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives each caller of a cut stream its own partial', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    gate.mock.inject({ type: 'stream_cut', afterFrames: 3 });
    const [a, b] = await Promise.all([c.chat.completions.create(streamBody), c.chat.completions.create(streamBody)]);
    const errors = await Promise.all([read(a).catch((e: unknown) => e), read(b).catch((e: unknown) => e)]);
    expect(errors.map((e) => (e as Error).name)).toEqual(['StreamInterruptedError', 'StreamInterruptedError']);
    expect(errors[0]).not.toBe(errors[1]);
    expect((errors[0] as { partial: unknown }).partial).toEqual((errors[1] as { partial: unknown }).partial);
  });

  it('joins identical embeddings calls at once (10 calls, 1 request)', async () => {
    const gate = gated();
    const { store, lookups } = watched();
    const c = client(gate.fetch, store);
    gate.close();
    const looked = lookups(10);
    const calls = Array.from({ length: 10 }, () => c.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }));
    await gate.next();
    await looked;
    gate.open();
    const all = await Promise.all(calls);
    expect(gate.sent('embeddings')).toBe(1);
    expect(new Set(all.map((r) => JSON.stringify(r.data))).size).toBe(1);
  });
});

describe('raw calls (asResponse) and the cache', () => {
  it('never joins a raw call with an ordinary one: each gets its own result, body and all', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    const [raw, parsed] = await Promise.all([c.chat.completions.create(body).asResponse(), c.chat.completions.create(body)]);
    expect(parsed.choices[0]?.message.content).toBeTypeOf('string');
    const text = (await raw.json()) as { choices: unknown[] };
    expect(text.choices).toHaveLength(1);
    // And the other way round.
    const [parsed2, raw2] = await Promise.all([c.chat.completions.create({ ...body, seed: 2 }), c.chat.completions.create({ ...body, seed: 2 }).asResponse()]);
    expect(parsed2.choices).toHaveLength(1);
    expect(((await raw2.json()) as { choices: unknown[] }).choices).toHaveLength(1);
  });

  it('answers a raw embeddings call: a hit with the whole body, a miss as the gateway sent it', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    const miss = await c.embeddings.create({ model: 'text-embedding-3-small', input: ['x', 'y'] }).asResponse();
    expect(((await miss.json()) as { data: unknown[] }).data).toHaveLength(2);
    await c.embeddings.create({ model: 'text-embedding-3-small', input: ['x', 'y'] });
    const hit = await c.embeddings.create({ model: 'text-embedding-3-small', input: ['x', 'y'] }).asResponse();
    expect(hit.headers.get('x-unified-gateway-cache')).toBe('hit');
    expect(((await hit.json()) as { data: unknown[] }).data).toHaveLength(2);
  });

  it('replays a kept stream to a raw call as an event stream', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    await read(await c.chat.completions.create(streamBody));
    const raw = await c.chat.completions.create(streamBody).asResponse();
    const text = await raw.text();
    expect(raw.headers.get('content-type')).toBe('text/event-stream');
    expect(text).toMatch(/^data: \{/);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('whose answer it is', () => {
  it("never serves Bob Alice's answer when one client forwards each end user's token per call", async () => {
    const gate = gated();
    // The mock takes one key; what matters is what the cache answers.
    const fetch: typeof globalThis.fetch = (input, init) => gate.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${KEY}` } });
    const c = client(fetch, memoryStore());
    await c.chat.completions.create(body, { headers: { Authorization: 'Bearer alice-token-0001' } });
    const bob = await c.chat.completions.create(body, { headers: { Authorization: 'Bearer bob-token-0002' } }).withResponse();
    expect(bob.cache).toBe('miss');
    expect(gate.sent('chat/completions')).toBe(2);
    expect((await c.chat.completions.create(body, { headers: { authorization: 'Bearer alice-token-0001' } }).withResponse()).cache).toBe('hit');
    // api-key and x-api-key headers partition the same way.
    expect((await c.chat.completions.create(body, { headers: { 'x-api-key': 'carol-0003' } }).withResponse()).cache).toBe('miss');
  });

  it("keeps clients with key functions apart: a key function's current key partitions", async () => {
    const gate = gated();
    const fetch: typeof globalThis.fetch = (input, init) => gate.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${KEY}` } });
    const store = memoryStore();
    await client(fetch, store, { apiKey: () => 'sk-tenant-one-000000' }).chat.completions.create(body);
    expect((await client(fetch, store, { apiKey: () => 'sk-tenant-two-000000' }).chat.completions.create(body).withResponse()).cache).toBe('miss');
    expect((await client(fetch, store, { apiKey: async () => 'sk-tenant-one-000000' }).chat.completions.create(body).withResponse()).cache).toBe('hit');
  });

  it('is one gateway whatever the case of its scheme and host', async () => {
    const gate = gated();
    const store = memoryStore();
    await client(gate.fetch, store).chat.completions.create(body);
    const upper = new Gateway({ apiKey: KEY, baseURL: 'HTTP://MOCK.LOCAL/v1', fetch: gate.fetch, cache: { store } });
    expect((await upper.chat.completions.create(body).withResponse()).cache).toBe('hit');
  });
});

describe('the model that answered', () => {
  it('keeps a fallback model answer under that model, never under the one asked for', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    gate.mock.inject({ type: 'status', status: 503, body: { error: { message: 'No available channel', code: 'model_not_found' } } });
    const fell = await c.chat.completions.create({ ...body, model: 'gpt-4o-mini' }, { fallbackModels: ['gpt-4o'] });
    expect(fell.model).toBe('gpt-4o');
    expect((await c.chat.completions.create({ ...body, model: 'gpt-4o' }).withResponse()).cache).toBe('hit');
    // The model asked for never answered: its call is sent again.
    const before = gate.sent('chat/completions');
    expect((await c.chat.completions.create({ ...body, model: 'gpt-4o-mini' }).withResponse()).cache).toBe('miss');
    expect(gate.sent('chat/completions')).toBe(before + 1);
  });

  it('never mixes two models in one embeddings answer: a call that may fall back sends every input', async () => {
    const gate = gated();
    const c = client(gate.fetch, memoryStore());
    await c.embeddings.create({ model: 'text-embedding-3-small', input: ['kept'] });
    gate.mock.inject({ type: 'status', status: 503, body: { error: { message: 'No available channel', code: 'model_not_found' } } });
    const res = await c.embeddings.create({ model: 'text-embedding-3-small', input: ['kept', 'new'] }, { fallbackModels: ['text-embedding-3-large'] }).withResponse();
    expect(res.data.model).toBe('text-embedding-3-large');
    expect(gate.mock.requests.at(-1)?.body).toMatchObject({ model: 'text-embedding-3-large', input: ['kept', 'new'] });
    // The fallback's vectors are not the requested model's: a later batch of it misses them.
    const later = await c.embeddings.create({ model: 'text-embedding-3-small', input: ['new'] }).withResponse();
    expect(later.cache).toBe('miss');
  });

  it('refuses a reply with fewer vectors than inputs, and keeps nothing of it', async () => {
    let short = true;
    const mock = createMockGateway({ apiKey: KEY });
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const res = await mock.fetch(input, init);
      if (!short) return res;
      const json = (await res.json()) as { data: unknown[] };
      return Response.json({ ...json, data: json.data.slice(0, 1) });
    };
    const c = client(fetch, memoryStore());
    await expect(c.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] })).rejects.toThrow(/1 embeddings for the 2 inputs sent/);
    short = false;
    expect((await c.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }).withResponse()).cache).toBe('miss');
  });
});

describe('what a store gives back is untrusted', () => {
  it('serves no garbage and throws no raw error, whatever a cache key holds (1,000 runs)', async () => {
    const mock = createMockGateway({ apiKey: KEY });
    const garbage = fc.oneof(
      fc.constant('null'),
      fc.constant('{}'),
      fc.constant('"a string"'),
      fc.constant('{"body":null}'),
      fc.constant('{"v":2,"path":"chat/completions","body":{}}'),
      fc.constant('{"v":2,"path":"chat/completions","frames":["{"],"usageAsked":false}'),
      fc.constant('{"v":1,"body":{"choices":[]}}'),
      fc.constant('{"v":2,"path":"embeddings","vector":[null]}'),
      fc.string(),
      fc.json(),
    );
    // One client for every run; its store reads back the run's garbage at every key.
    const inner = memoryStore();
    let current = '';
    let writes = 0;
    const hostile: Store = { get: async (keys) => keys.map(() => current), set: (...a) => (writes++, inner.set(...a)), delete: (k) => inner.delete(k), take: (...a) => inner.take(...a) };
    const c = client(mock.fetch, hostile);
    await fc.assert(
      fc.asyncProperty(garbage, fc.constantFrom('chat', 'stream', 'embeddings'), async (value, call) => {
        current = value;
        const before = writes;
        if (call === 'embeddings') {
          const emb = await c.embeddings.create({ model: 'text-embedding-3-small', input: ['a'] }).withResponse();
          expect(emb.cache).toBe('miss');
          expect(emb.data.data).toHaveLength(1);
        } else {
          const res = await c.chat.completions.create(call === 'stream' ? streamBody : body).withResponse();
          // A miss, sent and answered; the wrong entry is replaced by what came back.
          expect(res.cache).toBe('miss');
          if (call === 'stream') await read(res.data as unknown as AsyncIterable<ChatCompletionChunk>);
          else expect((res.data as { choices: unknown[] }).choices).toHaveLength(1);
        }
        await vi.waitFor(() => expect(writes).toBeGreaterThan(before), { interval: 1 });
      }),
      { numRuns: 1_000 },
    );
  }, 120_000);

  it('serves no entry whose answer is not of its endpoint shape: a miss, sent, and replaced', async () => {
    const mock = createMockGateway({ apiKey: KEY });
    const inner = memoryStore();
    const keys: string[] = [];
    const store: Store = { get: (k) => inner.get(k), set: (k, v, o) => (keys.push(k), inner.set(k, v, o)), delete: (k) => inner.delete(k), take: (...a) => inner.take(...a) };
    const c = client(mock.fetch, store);
    await c.chat.completions.create(body);
    await read(await c.chat.completions.create(streamBody));
    await vi.waitFor(() => expect(keys).toHaveLength(2), { interval: 1 });
    const [answerKey, framesKey] = keys as [string, string];
    const plant = (key: string, entry: Record<string, unknown>) => inner.set(key, JSON.stringify({ v: 2, path: 'chat/completions', ...entry }), { ttlMs: 60_000 });
    for (const planted of [{ body: { choices: [{}] } }, { body: { choices: [{ message: { role: 'assistant', content: 42 } }] } }, { body: { choices: [] } }, { body: { choices: [{ message: { content: 'x', tool_calls: ['call'] } }] } }]) {
      await plant(answerKey, planted);
      const res = await c.chat.completions.create(body).withResponse();
      expect(res.cache, JSON.stringify(planted)).toBe('miss');
      expect(res.data.choices[0]?.message.content).toBeTypeOf('string');
    }
    for (const frames of [['{"choices":"x"}'], [], ['{}'], ['{"choices":[{"delta":{"content":7}}]}']]) {
      await plant(framesKey, { frames, usageAsked: false });
      const written = keys.length;
      const res = await c.chat.completions.create(streamBody).withResponse();
      expect(res.cache, JSON.stringify(frames)).toBe('miss');
      expect((await res.data.finalChatCompletion()).choices[0]?.message.content).toBeTypeOf('string');
      // The stream is kept once it ended: wait for that write before planting over it.
      await vi.waitFor(() => expect(keys.length).toBe(written + 1), { interval: 1 });
    }
  });

  it('removes a key a model quoted across several stream frames before keeping the stream, and replays what the gateway sent, not what a caller changed', async () => {
    const secret = KEY;
    // A model's tokens split the quoted key over five chunks.
    const pieces = ['The key is ', secret.slice(0, 6), secret.slice(6, 15), secret.slice(15), '.'];
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
    const frames = [chunk({ role: 'assistant', content: '' }), ...pieces.map((content) => chunk({ content })), chunk({}, 'stop')];
    const sse = `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')}data: [DONE]\n\n`;
    const fetch: typeof globalThis.fetch = async () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
    const values: string[] = [];
    const inner = memoryStore();
    const recording: Store = { get: (k) => inner.get(k), set: (key, value, o) => (values.push(value), inner.set(key, value, o)), delete: (k) => inner.delete(k), take: (...a) => inner.take(...a) };
    const c = client(fetch, recording);
    const live = await c.chat.completions.create(streamBody);
    for await (const chunk of live) {
      // A caller that edits what it reads.
      if (chunk.choices[0]?.delta) chunk.choices[0].delta.content = 'EDITED';
    }
    await vi.waitFor(() => expect(values).toHaveLength(1));
    const kept = values.join('\n');
    expect(kept).not.toContain(secret.slice(6, 15));
    expect(kept).toContain('[REDACTED]');
    const replayed = (await read(await c.chat.completions.create(streamBody))).map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(replayed).toBe('The key is [REDACTED].');
  });
});

describe('withOptions shares the cache, the rate budget and base health, without a store', () => {
  it('answers the derived client from the parent cache, and holds both under one limit', async () => {
    const gate = gated();
    const parent = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: gate.fetch, cache: {}, limits: { requestsPerMinute: 60 }, retry: { maxRetryAfterMs: 0 } });
    const derived = parent.withOptions({ timeout: 30_000 });
    await parent.chat.completions.create(body);
    expect((await derived.chat.completions.create(body).withResponse()).cache).toBe('hit');
    // One request a second for both together: the derived client's share is already spent.
    const refused = await derived.chat.completions.create({ ...body, seed: 9 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(String(refused)).toContain('nothing was sent');
    expect(gate.sent('chat/completions')).toBe(1);
  });

  it('keeps its own cache when its options name another one', async () => {
    const gate = gated();
    const parent = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: gate.fetch, cache: {} });
    await parent.chat.completions.create(body);
    const own = parent.withOptions({ cache: { store: memoryStore() } });
    expect((await own.chat.completions.create(body).withResponse()).cache).toBe('miss');
  });

  it('is told nothing of aborts that are not its own', () => {
    expect(new APIUserAbortError()).toBeInstanceOf(GatewayError);
  });
});
