import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  Gateway,
  InsufficientQuotaError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  StreamInterruptedError,
  ValidationError,
} from '../../src/index.js';
import { createMockGateway, type MockGateway, type MockGatewayOptions, type Served } from '../../src/testing/index.js';
import { useMswServer } from '../helpers/msw.js';

const KEY = 'test-key';
const BASE = 'http://mock.local/v1';
const messages = [{ role: 'user' as const, content: 'hello mock' }];
const chat = { model: 'gpt-4o-mini', messages };

afterEach(() => {
  vi.useRealTimers();
});

const direct = (mock: MockGateway, options: Partial<ConstructorParameters<typeof Gateway>[0]> = {}) =>
  new Gateway({ apiKey: KEY, baseURL: BASE, fetch: mock.fetch, maxRetries: 0, ...options });

/** Raw call, bypassing the SDK's own validation, to see what the gateway itself answers. */
async function raw(mock: MockGateway, path: string, body?: unknown, key = KEY) {
  const res = await mock.fetch(`${BASE}/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

describe('gateway behaviour (mock.fetch)', () => {
  it('answers chat completions deterministically, with usage', async () => {
    const res = await direct(createMockGateway()).chat.completions.create(chat);
    expect(res).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'You said: hello mock' }, finish_reason: 'stop' }] });
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams SSE frames ending in [DONE], with usage when asked', async () => {
    const mock = createMockGateway();
    const stream = await direct(mock).chat.completions.create({ ...chat, stream: true, stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('You said: hello mock');
    expect(final.usage?.completion_tokens).toBe(4);
    const res = await mock.fetch(`${BASE}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ ...chat, stream: true }) });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect((await res.text()).trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('calls a tool when tools are offered, and answers with the tool result', async () => {
    const client = direct(createMockGateway());
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const first = await client.chat.completions.create({ ...chat, tools });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    // "hello mock" names no place, so the city falls back to the mock's default.
    expect(call?.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    const second = await client.chat.completions.create({
      ...chat,
      tools,
      messages: [...messages, { role: 'assistant', content: null, tool_calls: [call!] }, { role: 'tool', tool_call_id: call!.id, content: 'sunny' }],
    });
    expect(second.choices[0]?.message.content).toBe('The tool returned: sunny');
  });

  it('truncates at max_tokens with finish_reason length', async () => {
    const res = await direct(createMockGateway()).chat.completions.create({ ...chat, max_tokens: 2 });
    expect(res.choices[0]).toMatchObject({ message: { content: 'You said:' }, finish_reason: 'length' });
  });

  it('rejects a wrong key with 401 invalid_api_key', async () => {
    const err = await direct(createMockGateway({ apiKey: 'right' })).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('rejects an unknown model with 404 model_not_found', async () => {
    const client = direct(createMockGateway());
    await expect(client.chat.completions.create({ ...chat, model: 'nope' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(client.models.retrieve('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('checks parameters itself with 400 invalid_request_error', async () => {
    const mock = createMockGateway();
    expect(await raw(mock, 'chat/completions', { ...chat, temperature: 5 })).toMatchObject({ status: 400, body: { error: { code: 'invalid_request_error', param: 'temperature' } } });
    expect(await raw(mock, 'chat/completions', { model: 'gpt-4o-mini', messages: [] })).toMatchObject({ status: 400, body: { error: { param: 'messages' } } });
    expect(await raw(mock, 'chat/completions', { ...chat, model: 'dall-e-3' })).toMatchObject({ status: 400, body: { error: { param: 'model' } } });
  });

  it('lists and retrieves models', async () => {
    const client = direct(createMockGateway());
    const list = await client.models.list();
    expect(list.object).toBe('list');
    expect(list.data.map((m) => m.id)).toContain('gpt-4o-mini');
    await expect(client.models.retrieve('gpt-4o')).resolves.toMatchObject({ id: 'gpt-4o', object: 'model', owned_by: 'openai' });
  });

  it('answers CORS preflights and exposes its headers', async () => {
    const res = await createMockGateway().fetch(`${BASE}/chat/completions`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('records requests without the key', async () => {
    const mock = createMockGateway();
    await direct(mock).chat.completions.create(chat);
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]).toMatchObject({ method: 'POST', path: 'chat/completions', authorized: true, body: chat });
    expect(JSON.stringify(mock.requests)).not.toContain(KEY);
    mock.reset();
    expect(mock.requests).toHaveLength(0);
  });
});

describe('scripted faults', () => {
  it('plays each fault in order, then answers normally', async () => {
    const mock = createMockGateway();
    mock.inject({ type: 'rate_limit', retryAfter: 3, retryAfterMs: 3000 });
    mock.inject({ type: 'insufficient_quota' });
    mock.inject({ type: 'server_error' });
    mock.inject({ type: 'unavailable', retryAfter: 1 });
    const client = direct(mock);
    const errors = [];
    for (let i = 0; i < 4; i++) errors.push(await client.models.list().catch((e: unknown) => e));
    expect(errors[0]).toBeInstanceOf(RateLimitError);
    expect(errors[0]).toMatchObject({ retryAfterMs: 3000 });
    expect((errors[0] as RateLimitError).headers.get('retry-after')).toBe('3');
    expect(errors[1]).toBeInstanceOf(InsufficientQuotaError);
    expect(errors[2]).toBeInstanceOf(InternalServerError);
    expect(errors[3]).toBeInstanceOf(ServiceUnavailableError);
    await expect(client.models.list()).resolves.toMatchObject({ object: 'list' });
  });

  it('scopes faults by path and count', async () => {
    const mock = createMockGateway({ faults: [{ type: 'server_error', path: 'chat/completions', times: 2 }] });
    const client = direct(mock);
    await expect(client.models.list()).resolves.toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ id: 'gpt-4o-mini' })]) });
    await expect(client.chat.completions.create(chat)).rejects.toBeInstanceOf(InternalServerError);
    await expect(client.chat.completions.create(chat)).rejects.toBeInstanceOf(InternalServerError);
    await expect(client.chat.completions.create(chat)).resolves.toMatchObject({ choices: [{ message: { content: 'You said: hello mock' } }] });
  });

  it('sends any status and body shape', async () => {
    const mock = createMockGateway();
    mock.inject({ type: 'status', status: 400, body: { code: 'bad', message: 'flat shape', data: null } });
    mock.inject({ type: 'status', status: 429 });
    const client = direct(mock);
    await expect(client.models.list()).rejects.toMatchObject({ name: 'BadRequestError', code: 'bad' });
    await expect(client.models.list()).rejects.toMatchObject({ name: 'RateLimitError', error: undefined });
  });

  it('drops the connection (fetch rejects)', async () => {
    const mock = createMockGateway({ faults: [{ type: 'disconnect' }] });
    await expect(direct(mock).models.list()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('delays a response until the client times out', async () => {
    const mock = createMockGateway({ faults: [{ type: 'delay', ms: 5_000 }] });
    await expect(direct(mock, { timeout: 50 }).models.list()).rejects.toBeInstanceOf(APITimeoutError);
  });

  it('cuts a stream after N frames', async () => {
    const mock = createMockGateway({ faults: [{ type: 'stream_cut', afterFrames: 2 }] });
    const stream = await direct(mock).chat.completions.create({ ...chat, stream: true });
    const seen: unknown[] = [];
    const err = await (async () => {
      for await (const c of stream) seen.push(c);
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(2);
    expect(err).toBeInstanceOf(APIConnectionError);
  });

  it('stalls a stream; pings keep it alive until the stall limit, silence trips the idle timeout', async () => {
    // After frame 2, the first with text: the caller has content, so the stream fails rather than being retried.
    const silent = createMockGateway({ faults: [{ type: 'stall', afterFrames: 2 }] });
    const s1 = await direct(silent, { idleTimeout: 60 }).chat.completions.create({ ...chat, stream: true });
    await expect(s1.finalChatCompletion()).rejects.toBeInstanceOf(APITimeoutError);

    // On the fake clock: a PING every 20 ms until the 200 ms stall limit, against an idle timeout
    // of 60 ms, however late a busy machine would run the mock's timers.
    vi.useFakeTimers();
    const pinging = createMockGateway({ stallTimeoutMs: 200, faults: [{ type: 'stall', afterFrames: 2, pingEveryMs: 20 }] });
    const s2 = await direct(pinging, { idleTimeout: 60 }).chat.completions.create({ ...chat, stream: true });
    const read = s2.finalChatCompletion().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(200);
    const err = await read;
    // Not an idle timeout: the pings kept it alive until the mock closed it without [DONE].
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(err).not.toBeInstanceOf(APITimeoutError);
  });

  it('slows a stream down and can omit [DONE]', async () => {
    const mock = createMockGateway({ faults: [{ type: 'slow_stream', frameDelayMs: 5 }, { type: 'no_done' }] });
    const client = direct(mock);
    const slow = await client.chat.completions.create({ ...chat, stream: true });
    await expect(slow.finalChatCompletion()).resolves.toMatchObject({ choices: [{ message: { content: 'You said: hello mock' } }] });
    const noDone = await client.chat.completions.create({ ...chat, stream: true });
    await expect(noDone.finalChatCompletion()).rejects.toThrow(/\[DONE\]/);
  });

  it('lets the SDK recover from a fault with its retries', async () => {
    const mock = createMockGateway({ faults: [{ type: 'rate_limit', retryAfterMs: 1 }, { type: 'disconnect' }] });
    await expect(direct(mock, { maxRetries: 2, retry: { baseDelayMs: 0 } }).chat.completions.create(chat)).resolves.toMatchObject({ choices: [{ message: { content: 'You said: hello mock' } }] });
    expect(mock.requests).toHaveLength(3);
  });
});

describe('served on 127.0.0.1 (listen)', () => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it('speaks the wire format to the SDK over a real socket', async () => {
    const mock = createMockGateway();
    served = await mock.listen();
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const client = new Gateway({ apiKey: KEY, baseURL: served.url });
    expect((await client.chat.completions.create(chat)).choices[0]?.message.content).toBe('You said: hello mock');
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message.content).toBe('You said: hello mock');
  });

  it('drops the socket for a disconnect fault and cuts it mid-stream', async () => {
    const mock = createMockGateway({ faults: [{ type: 'disconnect' }, { type: 'stream_cut', afterFrames: 1 }, { type: 'stream_cut', afterFrames: 2 }] });
    served = await mock.listen();
    const client = new Gateway({ apiKey: KEY, baseURL: served.url, maxRetries: 0 });
    await expect(client.models.list()).rejects.toBeInstanceOf(APIConnectionError);
    // Cut after the role-only first chunk: nothing reached the caller, create() rejects (retried when retries are left).
    await expect(client.chat.completions.create({ ...chat, stream: true })).rejects.toThrow(/Stream interrupted/);
    // Cut after text: the stream throws what arrived.
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(StreamInterruptedError);
  });

  it('answers bad parameters with 400 over the wire', async () => {
    served = await createMockGateway().listen();
    const res = await fetch(`${served.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: '{not json' });
    expect(res.status).toBe(400);
  });
});

describe('inside msw', () => {
  const server = useMswServer();

  it('serves the SDK through http.all with mock.fetch', async () => {
    const mock = createMockGateway();
    server.use(http.all('http://msw.mock/*', ({ request }) => mock.fetch(request)));
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://msw.mock/v1' });
    expect((await client.chat.completions.create(chat)).choices[0]?.message.content).toBe('You said: hello mock');
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message.content).toBe('You said: hello mock');
  });

  it('turns a disconnect into a network error with mock.handler', async () => {
    const mock = createMockGateway({ faults: [{ type: 'disconnect' }] });
    server.use(http.all('http://msw.mock/*', ({ request }) => mock.handler(request)));
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://msw.mock/v1', maxRetries: 0 });
    await expect(client.models.list()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('lets BadRequestError through unchanged', async () => {
    const mock = createMockGateway({ faults: [{ type: 'status', status: 400, body: { error: { message: 'x', type: 'invalid_request_error' } } }] });
    server.use(http.all('http://msw.mock/*', ({ request }) => mock.fetch(request)));
    await expect(new Gateway({ apiKey: KEY, baseURL: 'http://msw.mock/v1' }).models.list()).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe('options', () => {
  it.each([
    [null, 'options'],
    ['test-key', 'options'],
    [{ apikey: 'k' }, 'apikey'],
    [{ apiKey: 42 }, 'apiKey'],
    [{ apiKey: '' }, 'apiKey'],
    [{ cassettes: 5 }, 'cassettes'],
    [{ cassettes: '' }, 'cassettes'],
    [{ cassettes: [{ cassette: 2 }] }, 'cassettes (cassettes[0])'],
    [{ models: 'gpt-4o' }, 'models'],
    [{ models: [{ id: 'm', owned_by: 'me', kind: 'robot' }] }, 'models[0]'],
    [{ faults: { type: 'disconnect' } }, 'faults'],
    [{ faults: [{ type: 'explode' }] }, 'faults[0].type'],
    [{ script: 'hello' }, 'script'],
    [{ frameDelayMs: -1 }, 'frameDelayMs'],
    [{ stallTimeoutMs: '5' }, 'stallTimeoutMs'],
    [{ videoStepMs: Number.NaN }, 'videoStepMs'],
    [{ cacheHints: 'ignore' }, 'cacheHints'],
  ])('refuses %j with a ValidationError naming %s', (options, field) => {
    let thrown: unknown;
    try {
      createMockGateway(options as MockGatewayOptions);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).field).toBe(field);
  });

  it('takes every option left undefined', () => {
    const mock = createMockGateway({ apiKey: undefined, models: undefined, faults: undefined, frameDelayMs: undefined, stallTimeoutMs: undefined, videoStepMs: undefined, script: undefined, cacheHints: undefined, cassettes: undefined });
    expect(mock.requests).toEqual([]);
  });
});
