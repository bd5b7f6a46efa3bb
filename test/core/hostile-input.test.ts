import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIError, Gateway, GatewayError, ValidationError, type GatewayOptions } from '../../src/index.js';
import { BASE, completionFixture, fastRetries, KEY } from '../helpers/fixtures.js';
import { httpServer } from '../helpers/sockets.js';
import { chunk, sseResponse, sseText } from '../helpers/sse.js';

// Bad input and hostile servers (issue 21, item 15), through the public API only:
// every server here is a custom fetch, so each test counts exactly what was sent.

const messages = [{ role: 'user' as const, content: 'hi' }];
const json = (body: unknown, status = 200) => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A client whose fetch answers with `answer` and counts the requests. */
function served(answer: (init: RequestInit | undefined, n: number) => Response | Promise<Response> | unknown, options: GatewayOptions = {}) {
  const sent: Array<RequestInit | undefined> = [];
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    sent.push(init);
    return answer(init, sent.length);
  }) as typeof globalThis.fetch;
  return { sent, client: new Gateway(fastRetries({ apiKey: KEY, baseURL: BASE, fetch, ...options })) };
}

describe('a custom fetch that does not resolve to a Response', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'ok'],
    ['a plain object', { status: 200 }],
    ['a response-like object without headers', { status: 200, ok: true, text: async () => '{}' }],
  ])('rejects once with a GatewayError naming the fetch when it resolves to %s', async (_, value) => {
    const { client, sent } = served(() => value, { maxRetries: 2 });
    const err = await client.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).not.toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/fetch.*Response/);
    expect(sent).toHaveLength(1);
  });

  it('still takes a Response from another implementation (duck-typed, as node-fetch gives)', async () => {
    const { client } = served(() => {
      const real = json(completionFixture);
      return { status: real.status, ok: real.ok, statusText: real.statusText, type: 'basic', url: '', headers: real.headers, body: real.body, text: () => real.text(), json: () => real.json() };
    });
    await expect(client.chat.completions.create({ model: 'm', messages })).resolves.toMatchObject({ id: completionFixture.id });
  });
});

describe('fetch refusing its arguments', () => {
  it('gives up at once when fetch rejects with an invalid-argument error (a dispatcher of another undici major)', async () => {
    const invalid = Object.assign(new Error('invalid onRequestStart method'), { name: 'InvalidArgumentError', code: 'UND_ERR_INVALID_ARG' });
    const { client, sent } = served(() => Promise.reject(new TypeError('fetch failed', { cause: invalid })), { maxRetries: 2 });
    const err = await client.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).not.toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('UND_ERR_INVALID_ARG');
    expect((err as Error).cause).toMatchObject({ message: 'fetch failed', cause: { code: 'UND_ERR_INVALID_ARG' } });
    expect(sent).toHaveLength(1);
  });

  it('the same through Node\'s own fetch, on a real socket: one dispatch, no connection, no retry', async () => {
    const server = await httpServer((_req, res) => res.end('{"object":"list","data":[]}'));
    let dispatched = 0;
    const dispatcher = {
      dispatch() {
        dispatched++;
        throw Object.assign(new Error('invalid onRequestStart method'), { name: 'InvalidArgumentError', code: 'UND_ERR_INVALID_ARG' });
      },
    };
    try {
      const client = new Gateway(fastRetries({ apiKey: KEY, baseURL: server.url, maxRetries: 2, fetchOptions: { dispatcher } }));
      const err = await client.models.list().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).not.toBeInstanceOf(APIConnectionError);
      expect(dispatched).toBe(1);
      expect(server.connections()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('still retries a connection that was refused', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const { client, sent } = served(() => Promise.reject(new TypeError('fetch failed', { cause: refused })), { maxRetries: 2 });
    await expect(client.models.list()).rejects.toBeInstanceOf(APIConnectionError);
    expect(sent).toHaveLength(3);
  });

  it.each([
    ['a string', 'x'],
    ['an object without dispatch()', {}],
    ['an object whose dispatch is not a function', { dispatch: 1 }],
  ])('refuses a fetchOptions.dispatcher that is %s, before sending', async (_, dispatcher) => {
    const { sent } = served(() => json({}));
    expect(() => served(() => json({}), { fetchOptions: { dispatcher } })).toThrow(ValidationError);
    const { client } = served(() => json({}));
    await expect(client.models.list({ fetchOptions: { dispatcher } })).rejects.toMatchObject({ constructor: ValidationError, field: 'fetchOptions.dispatcher' });
    expect(sent).toHaveLength(0);
  });

  it('passes a dispatcher with a dispatch method on to fetch', async () => {
    const dispatcher = { dispatch: () => true };
    const { client, sent } = served(() => json({ object: 'list', data: [] }), { fetchOptions: { dispatcher } });
    await client.models.list();
    expect(sent[0]).toMatchObject({ dispatcher });
  });
});

describe('options of the wrong type are refused before anything is sent', () => {
  it.each([['x'], [1], [null], [['a']]])('fetchOptions %j on the client', (fetchOptions) => {
    expect(() => served(() => json({}), { fetchOptions: fetchOptions as never })).toThrow(expect.objectContaining({ constructor: ValidationError, field: 'fetchOptions' }));
  });

  it.each([['x'], [1], [null], [['a']]])('fetchOptions %j on a request', async (fetchOptions) => {
    const { client, sent } = served(() => json({ object: 'list', data: [] }));
    await expect(client.models.list({ fetchOptions: fetchOptions as never })).rejects.toMatchObject({ constructor: ValidationError, field: 'fetchOptions' });
    expect(sent).toHaveLength(0);
  });

  it.each([['x'], [1], [null], [['a']], [true]])('withOptions(%j)', (options) => {
    const { client } = served(() => json({}));
    expect(() => client.withOptions(options as never)).toThrow(expect.objectContaining({ constructor: ValidationError, field: 'options' }));
  });

  it.each([['x'], [1], [null], [['a']]])('new Gateway(%j)', (options) => {
    expect(() => new Gateway(options as never)).toThrow(expect.objectContaining({ constructor: ValidationError, field: 'options' }));
  });

  it.each([['yes'], [true], [1], [{ include_usage: 'yes' }]])('stream_options %j on chat and completions', async (streamOptions) => {
    const { client, sent } = served(() => json(completionFixture));
    const chat = client.chat.completions.create({ model: 'm', messages, stream: true, stream_options: streamOptions as never });
    await expect(chat).rejects.toMatchObject({ constructor: ValidationError, field: expect.stringMatching(/^stream_options/) });
    const text = client.completions.create({ model: 'm', prompt: 'hi', stream: true, stream_options: streamOptions as never });
    await expect(text).rejects.toMatchObject({ constructor: ValidationError, field: expect.stringMatching(/^stream_options/) });
    expect(sent).toHaveLength(0);
  });

  it('still sends a well-formed stream_options', async () => {
    const { client, sent } = served(() => sseResponse(sseText([chunk('a')])));
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true, stream_options: { include_usage: true } });
    for await (const _ of stream);
    expect(JSON.parse(sent[0]?.body as string)).toMatchObject({ stream_options: { include_usage: true } });
  });

  it('completions: stream must be a boolean', async () => {
    const { client, sent } = served(() => json({}));
    await expect(client.completions.create({ model: 'm', prompt: 'hi', stream: 'yes' as never })).rejects.toMatchObject({ constructor: ValidationError, field: 'stream' });
    expect(sent).toHaveLength(0);
  });

  it.each([['yes'], [1], [null]])('float32 %j in embeddings createMany and iterate', async (float32) => {
    const { client, sent } = served(() => json({ object: 'list', data: [], model: 'e' }));
    const options = { float32: float32 as never };
    await expect(client.embeddings.createMany({ model: 'e', input: ['a'] }, options)).rejects.toMatchObject({ constructor: ValidationError, field: 'float32' });
    const iterated = (async () => {
      for await (const _ of client.embeddings.iterate({ model: 'e', input: ['a'] }, options));
    })();
    await expect(iterated).rejects.toMatchObject({ constructor: ValidationError, field: 'float32' });
    expect(sent).toHaveLength(0);
  });
});

describe('videos.download refuses what is not an http(s) URL, before sending', () => {
  it.each([['ftp://files.example/v.mp4'], ['file:///etc/passwd'], ['data:video/mp4;base64,AAAA'], ['javascript:alert(1)'], ['http://[::1']])('%s', async (url) => {
    const { client, sent } = served(() => new Response('bytes'), { maxRetries: 2 });
    await expect(client.videos.download(url)).rejects.toMatchObject({ constructor: ValidationError, field: 'url' });
    expect(sent).toHaveLength(0);
  });

  it('a task whose video_url is ftp://', async () => {
    const { client, sent } = served(() => new Response('bytes'));
    const task = { id: 't', object: 'video', model: 'v', status: 'completed', video_url: 'ftp://files.example/v.mp4' } as never;
    await expect(client.videos.download(task)).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
  });

  it('a download redirected to ftp:// fails once, without following it', async () => {
    const { client, sent } = served(() => new Response(null, { status: 302, headers: { location: 'ftp://files.example/v.mp4' } }), { maxRetries: 2 });
    const err = await client.videos.download(`${BASE}/videos/t/content`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as Error).message).toContain('ftp://files.example/v.mp4');
    expect(sent).toHaveLength(1);
  });

  it('a redirect to a Location that is not a URL fails as an APIError, not a TypeError', async () => {
    const { client, sent } = served(() => new Response(null, { status: 307, headers: { location: 'http://[::1' } }), { maxRetries: 2 });
    const err = await client.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toMatchObject({ status: 307 });
    expect(sent).toHaveLength(1);
  });

  it('still downloads over https', async () => {
    const { client, sent } = served(() => new Response('bytes', { headers: { 'content-length': '5' } }));
    const response = await client.videos.download('https://cdn.example/v.mp4');
    expect(await response.text()).toBe('bytes');
    expect(sent).toHaveLength(1);
  });
});

describe('fallbackModels: de-duplicated and capped', () => {
  const unavailable = () => json({ error: { message: 'no channel', code: 'model_not_found' } }, 503);
  const models = (sent: Array<RequestInit | undefined>) => sent.map((init) => (JSON.parse(init?.body as string) as { model: string }).model);

  it('tries each model once: repeats and the requested model itself are dropped (request list)', async () => {
    const { client, sent } = served(unavailable, { maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'a', messages }, { fallbackModels: ['b', 'a', 'b', 'c', 'c'] })).rejects.toBeInstanceOf(APIError);
    expect(models(sent)).toEqual(['a', 'b', 'c']);
  });

  it('tries each model once (client list)', async () => {
    const { client, sent } = served(unavailable, { maxRetries: 0, fallbackModels: { a: ['a', 'b', 'b', 'c'] } });
    await expect(client.chat.completions.create({ model: 'a', messages })).rejects.toBeInstanceOf(APIError);
    expect(models(sent)).toEqual(['a', 'b', 'c']);
  });

  it('takes a list of 10 models', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `m${i}`);
    const { client, sent } = served(unavailable, { maxRetries: 0, fallbackModels: { a: ten } });
    await expect(client.chat.completions.create({ model: 'a', messages })).rejects.toBeInstanceOf(APIError);
    expect(sent).toHaveLength(11);
  });

  it.each([[11], [200]])('refuses a list of %i models on the client, at construction', (n) => {
    const many = Array.from({ length: n }, (_, i) => `m${i}`);
    expect(() => served(unavailable, { fallbackModels: { a: many } })).toThrow(expect.objectContaining({ constructor: ValidationError, field: 'fallbackModels.a' }));
  });

  it.each([[11], [200]])('refuses a list of %i models on a request, before sending', async (n) => {
    const many = Array.from({ length: n }, (_, i) => `m${i}`);
    const { client, sent } = served(unavailable);
    await expect(client.chat.completions.create({ model: 'a', messages }, { fallbackModels: many })).rejects.toMatchObject({ constructor: ValidationError, field: 'fallbackModels' });
    expect(sent).toHaveLength(0);
  });
});
