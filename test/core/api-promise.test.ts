import { http, HttpResponse } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { APIPromise, AuthenticationError, GatewayError, type ChatCompletion, type ChatCompletionStream } from '../../src/index.js';
import { BASE, chatParams, client, completionFixture, KEY } from '../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../helpers/msw.js';
import { sseResponse, sseText, chunk } from '../helpers/sse.js';

const server = useMswServer();
const chatURL = `${BASE}/chat/completions`;
const rateHeaders = { 'x-request-id': 'req_7', 'x-ratelimit-remaining-requests': '41' };

describe('APIPromise', () => {
  it('awaits to the result, as before', async () => {
    server.use(http.post(chatURL, () => HttpResponse.json(completionFixture, { headers: rateHeaders })));
    const promise = client().chat.completions.create(chatParams);
    expect(promise).toBeInstanceOf(APIPromise);
    expect(promise).toBeInstanceOf(Promise);
    expect((await promise).id).toBe('chatcmpl-1');
  });

  it('withResponse() gives the data, the Response with its rate-limit headers, and the request id', async () => {
    const rec = createRecorder();
    server.use(
      http.post(chatURL, async ({ request }) => {
        await rec.record(request);
        return HttpResponse.json(completionFixture, { headers: rateHeaders });
      }),
    );
    const { data, response, requestID } = await client().chat.completions.create(chatParams).withResponse();
    expectTypeOf(data).toEqualTypeOf<ChatCompletion>();
    expect(data.id).toBe('chatcmpl-1');
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('41');
    expect(requestID).toBe('req_7');
    expect(rec.calls).toHaveLength(1);
  });

  it('takes the request id from x-oneapi-request-id when that is all there is', async () => {
    server.use(http.get(`${BASE}/models`, () => HttpResponse.json({ object: 'list', data: [] }, { headers: { 'x-oneapi-request-id': 'one_9' } })));
    expect((await client().models.list().withResponse()).requestID).toBe('one_9');
  });

  it('asResponse() gives the raw Response, body unread, without parsing or checking it', async () => {
    server.use(http.get(`${BASE}/models`, () => new HttpResponse('<html>not json</html>', { headers: { 'content-type': 'text/html' } })));
    const response = await client().models.list().asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('<html>not json</html>');
  });

  it('asResponse() still throws typed errors, after the retries', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/models`, () => {
        calls++;
        return HttpResponse.json({ error: { message: 'bad key', code: 'invalid_api_key' } }, { status: 401 });
      }),
    );
    await expect(client().models.list().asResponse()).rejects.toBeInstanceOf(AuthenticationError);
    expect(calls).toBe(1);
  });

  it('gives the Stream as data for a streamed call', async () => {
    server.use(http.post(chatURL, () => sseResponse(sseText([chunk('Hi'), chunk(' there')]), { headers: rateHeaders })));
    const { data, response, requestID } = await client().chat.completions.create({ ...chatParams, stream: true }).withResponse();
    expectTypeOf(data).toEqualTypeOf<ChatCompletionStream>();
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(requestID).toBe('req_7');
    expect((await data.finalChatCompletion()).choices[0]?.message.content).toBe('Hi there');
  });

  it('sends one request however it is consumed, and rejects like any promise', async () => {
    let calls = 0;
    server.use(
      http.post(chatURL, () => {
        calls++;
        return HttpResponse.json({ error: { message: `no ${KEY}` } }, { status: 400 });
      }),
    );
    const promise = client().chat.completions.create(chatParams);
    const [a, b, c] = await Promise.allSettled([promise, promise.withResponse(), promise.catch((e: Error) => e.name)]);
    expect([a.status, b.status]).toEqual(['rejected', 'rejected']);
    expect(c).toEqual({ status: 'fulfilled', value: 'BadRequestError' });
    expect(calls).toBe(1);
    let finallyRan = false;
    await promise.finally(() => (finallyRan = true)).catch(() => undefined);
    expect(finallyRan).toBe(true);
  });

  it('starts the request without being awaited', async () => {
    let calls = 0;
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    server.use(
      http.get(`${BASE}/models`, () => {
        calls++;
        arrived();
        return HttpResponse.json({ object: 'list', data: [] });
      }),
    );
    const promise = client().models.list();
    // Nothing awaits or thens the promise until the gateway has the request: a lazy promise
    // would never send it, and this test would fail on its timeout.
    await reached;
    expect(calls).toBe(1);
    await promise;
  });

  it('says so when asResponse() is asked for after the call started for its result, instead of giving a Response whose body was read', async () => {
    server.use(http.get(`${BASE}/models`, () => HttpResponse.json({ object: 'list', data: [] })));
    const promise = client().models.list();
    await promise.withResponse();
    await expect(promise.asResponse()).rejects.toThrow(/asResponse\(\) was called after the call started/);
  });

  it('says so when the data is asked for after asResponse()', async () => {
    server.use(http.get(`${BASE}/models`, () => HttpResponse.json({ object: 'list', data: [] })));
    const promise = client().models.list();
    await promise.asResponse();
    await expect(promise.withResponse()).rejects.toThrow(GatewayError);
    await expect(promise).rejects.toThrow(/asResponse\(\) was called/);
  });
});
