import { describe, expect, it } from 'vitest';
import { canonicalJSON } from '../../src/core/cache/cache-key.js';
import { Gateway, InternalServerError, memoryStore, StreamInterruptedError, type CacheInfo, type ChatCompletionChunk, type GatewayOptions, type Store } from '../../src/index.js';
import { redisStore } from '../../src/redis/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { useRedisClients } from '../helpers/redis-clients.js';
import { describeWithRedis } from '../helpers/redis-server.js';

// The response cache (docs/cache.md): what was paid for is answered again from the store.

const KEY = 'sk-cache-test-key-0123456789';

function cached(more: GatewayOptions = {}, mockOptions: Parameters<typeof createMockGateway>[0] = {}) {
  const mock = createMockGateway({ apiKey: KEY, ...mockOptions });
  const events: CacheInfo[] = [];
  const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 0, cache: { store: memoryStore() }, hooks: { onCache: (e) => events.push(e) }, ...more });
  const sent = (path: string) => mock.requests.filter((r) => r.path === path).length;
  return { mock, client, events, sent };
}

const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'cache me' }], temperature: 0 };

describe('the response cache: chat completions', () => {
  it('answers an identical call from the cache, whatever the order of its fields, and says so', async () => {
    const { client, events, sent } = cached();
    const first = await client.chat.completions.create(body).withResponse();
    const reordered = { temperature: 0, messages: [{ content: 'cache me', role: 'user' as const }], model: 'gpt-4o-mini' };
    const second = await client.chat.completions.create(reordered).withResponse();
    expect(sent('chat/completions')).toBe(1);
    expect([first.cache, second.cache]).toEqual(['miss', 'hit']);
    expect(second.data).toEqual(first.data);
    expect(second.response.headers.get('x-unified-gateway-cache')).toBe('hit');
    expect(events.map((e) => e.outcome)).toEqual(['miss', 'hit']);
  });

  it('misses when any field that changes the answer differs', async () => {
    const { client, sent } = cached();
    await client.chat.completions.create(body);
    for (const changed of [{ ...body, model: 'gpt-4o' }, { ...body, temperature: 0.5 }, { ...body, messages: [{ role: 'user' as const, content: 'other' }] }, { ...body, max_tokens: 5 }, { ...body, seed: 1 }]) {
      expect((await client.chat.completions.create(changed).withResponse()).cache).toBe('miss');
    }
    expect(sent('chat/completions')).toBe(6);
  });

  it("per call: 'refresh' sends and keeps the new answer, 'bypass' neither reads nor writes (cache: null)", async () => {
    const { client, sent } = cached();
    await client.chat.completions.create(body);
    expect((await client.chat.completions.create(body, { cache: 'refresh' }).withResponse()).cache).toBe('miss');
    expect((await client.chat.completions.create(body, { cache: 'bypass' }).withResponse()).cache).toBeNull();
    expect(sent('chat/completions')).toBe(3);
    expect((await client.chat.completions.create(body).withResponse()).cache).toBe('hit');
  });

  it('makes one upstream call for 100 identical calls in flight at once, each caller with its own copy', async () => {
    const { client, sent } = cached();
    const all = await Promise.all(Array.from({ length: 100 }, () => client.chat.completions.create(body)));
    expect(sent('chat/completions')).toBe(1);
    expect(new Set(all).size).toBe(100);
    expect(all.every((c) => c.choices[0]?.message.content === all[0]?.choices[0]?.message.content)).toBe(true);
  });

  it('never keeps an error: the call after a failed one is sent again', async () => {
    const { client, mock, sent } = cached();
    mock.inject({ type: 'server_error' });
    await expect(client.chat.completions.create(body)).rejects.toBeInstanceOf(InternalServerError);
    expect((await client.chat.completions.create(body).withResponse()).cache).toBe('miss');
    expect(sent('chat/completions')).toBe(2);
  });

  it('keeps answers per API key unless shareAcrossKeys', async () => {
    const mock = createMockGateway();
    // The mock takes one key; both clients' requests reach it (what matters is what the cache answers).
    const fetch = (input: string | URL | Request, init?: RequestInit) => mock.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: 'Bearer test-key' } });
    const store = memoryStore();
    const make = (apiKey: string, shareAcrossKeys = false) => new Gateway({ apiKey, baseURL: 'http://mock.local/v1', fetch, cache: { store, shareAcrossKeys } });
    await make('sk-first-key-000000').chat.completions.create(body);
    expect((await make('sk-other-key-111111').chat.completions.create(body).withResponse()).cache).toBe('miss');
    await make('sk-first-key-000000', true).chat.completions.create(body);
    expect((await make('sk-other-key-111111', true).chat.completions.create(body).withResponse()).cache).toBe('hit');
  });

  it('keeps nothing secret in the store', async () => {
    const seen: string[] = [];
    const inner = memoryStore();
    const recording: Store = {
      get: (keys) => (seen.push(...keys), inner.get(keys)),
      set: (key, value, o) => (seen.push(key, value), inner.set(key, value, o)),
      delete: (keys) => inner.delete(keys),
      take: (key, take) => inner.take(key, take),
    };
    const { client } = cached({ cache: { store: recording } }, { script: [{ content: `echo ${KEY}` }] });
    await client.chat.completions.create(body);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.join('\n')).not.toContain(KEY);
  });

  it('never answers images, transcriptions or videos from it', async () => {
    const { client, sent } = cached();
    await client.images.generate({ model: 'dall-e-3', prompt: 'x' });
    expect((await client.images.generate({ model: 'dall-e-3', prompt: 'x' }).withResponse()).cache).toBeNull();
    expect(sent('images/generations')).toBe(2);
  });

  it('stays within memoryStore({ maxBytes }) under a flood of large replies, the oldest out first', async () => {
    const store = memoryStore({ maxBytes: 200_000 });
    const big = 'x'.repeat(20_000);
    const { client, sent } = cached({ cache: { store } }, { script: Array.from({ length: 30 }, () => ({ content: big })) });
    for (let i = 0; i < 30; i++) await client.chat.completions.create({ ...body, seed: i });
    // 40 KB an entry (UTF-16): four fit; the newest are kept, the first long gone.
    expect((await client.chat.completions.create({ ...body, seed: 29 }).withResponse()).cache).toBe('hit');
    expect(sent('chat/completions')).toBe(30);
  });
});

describe('the response cache: streams', () => {
  const streamBody = { ...body, stream: true as const };
  const read = async (stream: AsyncIterable<ChatCompletionChunk>) => {
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return chunks;
  };

  it('replays a stream it kept: the same chunks in order, the same final completion', async () => {
    const { client, sent } = cached();
    const first = await client.chat.completions.create(streamBody).withResponse();
    const chunks = await read(first.data);
    const second = await client.chat.completions.create(streamBody).withResponse();
    expect([first.cache, second.cache]).toEqual(['miss', 'hit']);
    expect(await read(second.data)).toEqual(chunks);
    expect(sent('chat/completions')).toBe(1);
    const third = await client.chat.completions.create(streamBody);
    expect((await third.finalChatCompletion()).choices[0]?.message.content).toBe(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''));
  });

  it('keeps no stream that was cut, or left before its end', async () => {
    const { client, mock, sent } = cached();
    mock.inject({ type: 'stream_cut', afterFrames: 3 });
    const cut = await client.chat.completions.create(streamBody);
    await expect(read(cut)).rejects.toBeInstanceOf(StreamInterruptedError);
    const left = await client.chat.completions.create(streamBody);
    for await (const _ of left) break;
    expect((await client.chat.completions.create(streamBody).withResponse()).cache).toBe('miss');
    expect(sent('chat/completions')).toBe(3);
  });
});

describe('the response cache: embeddings, input by input', () => {
  it('sends only the inputs it lacks and returns every vector in input order', async () => {
    const { client, mock, sent } = cached();
    const first = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta', 'gamma'] });
    const second = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['beta', 'delta', 'alpha'] }).withResponse();
    expect(second.cache).toBe('partial');
    expect(mock.requests.at(-1)?.body).toMatchObject({ input: ['delta'] });
    const vector = (res: typeof first, i: number) => res.data[i]?.embedding;
    expect(second.data.data.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(second.data.data[0]?.embedding).toEqual(vector(first, 1));
    expect(second.data.data[2]?.embedding).toEqual(vector(first, 0));
    const all = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['gamma', 'delta'] }).withResponse();
    expect(all.cache).toBe('hit');
    expect(sent('embeddings')).toBe(2);
  });

  it('re-embeds only what changed in createMany', async () => {
    const { client, mock } = cached();
    const corpus = Array.from({ length: 50 }, (_, i) => `document ${i}`);
    await client.embeddings.createMany({ model: 'text-embedding-3-small', input: corpus }, { batchSize: 10 });
    const before = mock.requests.length;
    const edited = corpus.map((text, i) => (i % 20 === 0 ? `${text}, edited` : text));
    const res = await client.embeddings.createMany({ model: 'text-embedding-3-small', input: edited }, { batchSize: 10 });
    const sentInputs = mock.requests.slice(before).flatMap((r) => (r.body as { input: string[] }).input);
    expect(sentInputs).toEqual(['document 0, edited', 'document 20, edited', 'document 40, edited']);
    expect(res.data.map((e) => e.index)).toEqual(corpus.map((_, i) => i));
  });
});

describe('canonicalJSON', () => {
  it('orders keys at every depth and keeps arrays in order', () => {
    expect(canonicalJSON({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"x":2,"y":1}]},"b":1}');
  });
});

describeWithRedis('the response cache on Redis', () => {
  const connected = useRedisClients();

  it('answers one instance from what another paid for, a stream too, over every client library', async () => {
    for (const [i, { client: redis }] of connected.entries()) {
      const mock = createMockGateway({ apiKey: KEY });
      const instance = () => new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: mock.fetch, cache: { store: redisStore(redis, { prefix: `cache-${i}` }) } });
      await instance().chat.completions.create(body);
      expect((await instance().chat.completions.create(body).withResponse()).cache).toBe('hit');
      const chunks: unknown[] = [];
      for await (const chunk of await instance().chat.completions.create({ ...body, stream: true })) chunks.push(chunk);
      const replay: unknown[] = [];
      for await (const chunk of await instance().chat.completions.create({ ...body, stream: true })) replay.push(chunk);
      expect(replay).toEqual(chunks);
      expect(mock.requests.filter((r) => r.path === 'chat/completions')).toHaveLength(2);
    }
  });
});
