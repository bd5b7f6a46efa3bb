import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockGateway, type MockGateway, type Served } from '../../src/testing/index.js';

const KEY = 'test-key';
const BASE = 'http://mock.local/v1';

async function call(mock: MockGateway, method: string, path: string, body?: unknown | FormData) {
  const isForm = body instanceof FormData;
  const res = await mock.fetch(`${BASE}/${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(isForm || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: isForm ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  // Loosely typed on purpose: these tests poke at raw wire payloads.
  return { status: res.status, type, body: (type.includes('json') ? await res.json() : await res.text()) as any };
}

describe('mock gateway endpoints (raw HTTP, independent of the SDK)', () => {
  it('enforces the documented image sizes itself', async () => {
    const mock = createMockGateway();
    expect(await call(mock, 'POST', 'images/generations', { model: 'dall-e-3', prompt: 'x', size: '256x256' })).toMatchObject({ status: 400, body: { error: { param: 'size' } } });
    expect(await call(mock, 'POST', 'images/generations', { model: 'dall-e-2', prompt: 'x', size: '256x256', n: 3 })).toMatchObject({ status: 200, body: { data: [{}, {}, {}] } });
    expect(await call(mock, 'POST', 'images/generations', { model: 'gpt-4o', prompt: 'x' })).toMatchObject({ status: 400, body: { error: { param: 'model' } } });
  });

  it('parses multipart edits and rejects a JSON body there', async () => {
    const mock = createMockGateway();
    const form = new FormData();
    form.append('model', 'dall-e-2');
    form.append('prompt', 'hat');
    form.append('image', new File([new Uint8Array([1, 2, 3])], 'a.png', { type: 'image/png' }));
    expect(await call(mock, 'POST', 'images/edits', form)).toMatchObject({ status: 200 });
    expect(mock.requests[0]?.body).toEqual({ model: 'dall-e-2', prompt: 'hat', image: { name: 'a.png', type: 'image/png', size: 3 } });
    expect(await call(mock, 'POST', 'images/edits', { model: 'dall-e-2', prompt: 'x' })).toMatchObject({ status: 400 });
  });

  it('takes one or several images under image[] or a repeated image, and logs every file', async () => {
    const mock = createMockGateway();
    const png = (name: string, size: number) => new File([new Uint8Array(size).fill(1)], name, { type: 'image/png' });
    const form = (key: string, ...files: File[]) => {
      const f = new FormData();
      f.append('model', 'gpt-image-1');
      f.append('prompt', 'hat');
      for (const file of files) f.append(key, file);
      return f;
    };
    expect(await call(mock, 'POST', 'images/edits', form('image[]', png('one.png', 1)))).toMatchObject({ status: 200 });
    expect(await call(mock, 'POST', 'images/edits', form('image[]', png('a.png', 2), png('b.png', 3)))).toMatchObject({ status: 200 });
    expect(await call(mock, 'POST', 'images/edits', form('image', png('c.png', 4), png('d.png', 5)))).toMatchObject({ status: 200 });
    expect(await call(mock, 'POST', 'images/edits', form('image[]', png('ok.png', 1), png('empty.png', 0)))).toMatchObject({ status: 400, body: { error: { param: 'image' } } });
    expect(mock.requests.map((r) => r.body)).toEqual([
      { model: 'gpt-image-1', prompt: 'hat', 'image[]': [{ name: 'one.png', type: 'image/png', size: 1 }] },
      { model: 'gpt-image-1', prompt: 'hat', 'image[]': [{ name: 'a.png', type: 'image/png', size: 2 }, { name: 'b.png', type: 'image/png', size: 3 }] },
      { model: 'gpt-image-1', prompt: 'hat', image: [{ name: 'c.png', type: 'image/png', size: 4 }, { name: 'd.png', type: 'image/png', size: 5 }] },
      { model: 'gpt-image-1', prompt: 'hat', 'image[]': [{ name: 'ok.png', type: 'image/png', size: 1 }, { name: 'empty.png', type: 'image/png', size: 0 }] },
    ]);
  });

  it('accepts the image[] uploads of the official openai client', async () => {
    const mock = createMockGateway();
    const openai = new OpenAI({ apiKey: KEY, baseURL: BASE, fetch: mock.fetch, maxRetries: 0 });
    const image = [new File([new Uint8Array([1, 2])], 'a.png', { type: 'image/png' }), new File([new Uint8Array([3])], 'b.png', { type: 'image/png' })];
    const res = await openai.images.edit({ model: 'gpt-image-1', image, prompt: 'add a hat' });
    expect(res.data).toHaveLength(1);
    // The client's `fetch('data:,')` probe is answered as fetch would and kept out of the log.
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.body).toMatchObject({ 'image[]': [{ name: 'a.png', size: 2 }, { name: 'b.png', size: 1 }] });
  });

  it('names the requested path in a 404 unknown_url, and says where the paths start when /v1/ is missing', async () => {
    const mock = createMockGateway();
    const get = async (url: string) => {
      const res = await mock.fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
      return { status: res.status, error: ((await res.json()) as { error: Record<string, unknown> }).error };
    };
    expect(await get('http://mock.local/v1/nope')).toEqual({
      status: 404,
      error: { message: 'Unknown request URL: GET /v1/nope.', type: 'invalid_request_error', param: null, code: 'unknown_url' },
    });
    const missing = await get('http://mock.local/models');
    expect(missing).toMatchObject({ status: 404, error: { code: 'unknown_url' } });
    expect(missing.error.message).toMatch(/^Unknown request URL: GET \/models\. The gateway's paths start with \/v1\//);
    expect(missing.error.message).not.toContain('/v1//');
  });

  it('tells an openai client whose base URL lacks /v1 what to fix', async () => {
    const mock = createMockGateway();
    const openai = new OpenAI({ apiKey: KEY, baseURL: 'http://mock.local', fetch: mock.fetch, maxRetries: 0 });
    const err = await openai.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err).toMatchObject({ status: 404, code: 'unknown_url' });
    expect(String((err as Error).message)).toContain("Unknown request URL: GET /models. The gateway's paths start with /v1/");
  });

  it('returns embeddings of the requested size, in float or base64', async () => {
    const mock = createMockGateway();
    const floats = await call(mock, 'POST', 'embeddings', { model: 'text-embedding-3-large', input: 'x' });
    expect(floats.body.data[0].embedding).toHaveLength(3072);
    const small = await call(mock, 'POST', 'embeddings', { model: 'text-embedding-3-small', input: 'x', dimensions: 16, encoding_format: 'base64' });
    expect(atob(small.body.data[0].embedding)).toHaveLength(64);
    expect(await call(mock, 'POST', 'embeddings', { model: 'text-embedding-3-small', input: 'x', dimensions: 5000 })).toMatchObject({ status: 400 });
  });

  it('streams responses as named events with no [DONE]', async () => {
    const mock = createMockGateway();
    const res = await call(mock, 'POST', 'responses', { model: 'gpt-4o-mini', input: 'hi', stream: true });
    expect(res.type).toBe('text/event-stream');
    expect(res.body).toContain('event: response.output_text.delta\ndata: ');
    expect(res.body).not.toContain('[DONE]');
  });

  it('keeps video tasks for 24 hours on its own clock', async () => {
    vi.useFakeTimers();
    try {
      const mock = createMockGateway({ videoStepMs: 100 });
      const created = await call(mock, 'POST', 'videos/generations', { model: 'vendor_video2', prompt: 'x', duration: 10, async: true });
      expect(created.body).toMatchObject({ status: 'pending' });
      vi.advanceTimersByTime(150);
      expect((await call(mock, 'GET', `videos/generations/${created.body.id}`)).body).toMatchObject({ status: 'processing', progress: expect.any(Number) });
      vi.advanceTimersByTime(24 * 3_600_000);
      expect(await call(mock, 'GET', `videos/generations/${created.body.id}`)).toMatchObject({ status: 404, body: { error: { code: 'task_not_found' } } });
      expect(await call(mock, 'POST', 'videos/generations', { model: 'vendor_video2', prompt: 'x', duration: 12 })).toMatchObject({ status: 400 });
    } finally {
      vi.useRealTimers();
    }
  });

  describe('served', () => {
    let served: Served | undefined;
    afterEach(async () => {
      await served?.close();
    });

    it('serves the files its URLs point at', async () => {
      const mock = createMockGateway({ videoStepMs: 1 });
      served = await mock.listen();
      const post = await fetch(`${served.url}/images/generations`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ model: 'dall-e-3', prompt: 'x' }) });
      const url = ((await post.json()) as { data: Array<{ url: string }> }).data[0]?.url ?? '';
      expect(url.startsWith(served.url.replace(/\/v1$/, ''))).toBe(true);
      const image = await fetch(url);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(new Uint8Array(await image.arrayBuffer()).slice(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
    });
  });
});
