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
