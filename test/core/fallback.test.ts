import { http, HttpResponse, delay } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, Gateway, type ModelFallbackInfo, type Logger } from '../../src/index.js';
import { BACKUP, BASE, completionFixture, fastRetries, KEY } from '../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../helpers/msw.js';
import { chunk, sseResponse, sseText } from '../helpers/sse.js';

const server = useMswServer();
const chatURL = `${BASE}/chat/completions`;
const messages = [{ role: 'user' as const, content: 'hi' }];
const completion = (model: string) => ({ id: `c-${model}`, object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: `from ${model}` }, finish_reason: 'stop' }] });
const fast = { 'retry-after': '0' };
const err = (status: number, code: string | null, type = 'x') => HttpResponse.json({ error: { message: `status ${status}`, type, code } }, { status, headers: fast });

/** Model `a` fails with `fail()`; every other model answers. */
function gateway(fail: () => Response | Promise<Response>, url = chatURL) {
  const rec = createRecorder();
  server.use(
    http.post(url, async ({ request }) => {
      const { body } = await rec.record(request);
      const model = (body as { model: string }).model;
      return model === 'a' ? fail() : HttpResponse.json(completion(model));
    }),
  );
  return rec;
}
const client = (options: ConstructorParameters<typeof Gateway>[0] = {}) => new Gateway(fastRetries({ apiKey: KEY, baseURL: BASE, fallbackModels: { a: ['b', 'c'] }, ...options }));

afterEach(() => {
  vi.useRealTimers();
});

describe('model fallback', () => {
  it.each([
    ['404 model_not_found', () => err(404, 'model_not_found')],
    ['503 model_not_found (new-api: no channel)', () => err(503, 'model_not_found')],
    ['500', () => err(500, 'server_error')],
    ['502 with an HTML page', () => new HttpResponse('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html', ...fast } })],
    ['a 429 that is not a quota error', () => err(429, 'rate_limit_exceeded')],
    ['a connection failure', () => HttpResponse.error()],
  ])('falls back to the next model after %s', async (_, fail) => {
    const rec = gateway(fail);
    const res = await client({ maxRetries: 1 }).chat.completions.create({ model: 'a', messages });
    expect(res.model).toBe('b');
    expect(rec.calls.map((c) => (c.body as { model: string }).model).at(-1)).toBe('b');
  });

  it('reads the client\'s lists by own keys only: a model named like an Object method is just a model', async () => {
    server.use(http.post(chatURL, () => HttpResponse.json(completionFixture)));
    for (const model of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      await expect(client().chat.completions.create({ model, messages })).resolves.toMatchObject({ id: completionFixture.id });
    }
  });

  it('falls back after a timeout', async () => {
    // On the fake clock: a never answers and runs out of its 30 ms; b answers while the clock
    // stands still, so it cannot time out too (and fall back to c) however slow the machine.
    vi.useFakeTimers();
    let arrived!: () => void;
    const aArrived = new Promise<void>((resolve) => (arrived = resolve));
    const rec = gateway(async () => {
      arrived();
      return new Promise<never>(() => undefined);
    });
    const done = client({ maxRetries: 0, timeout: 30 }).chat.completions.create({ model: 'a', messages });
    await aArrived;
    await vi.advanceTimersByTimeAsync(30);
    // The pause before the next model: 0 ms, which a timer runs after 1.
    await vi.advanceTimersByTimeAsync(1);
    const res = await done;
    expect(res.model).toBe('b');
    expect(rec.calls).toHaveLength(2);
  });

  it.each([
    ['400', () => err(400, 'invalid_request_error')],
    ['401', () => err(401, 'invalid_api_key')],
    ['403', () => err(403, null)],
    ['429 insufficient_quota', () => err(429, 'insufficient_quota', 'insufficient_quota')],
    ['403 insufficient_user_quota', () => err(403, 'insufficient_user_quota')],
    ['503 pre_consume_token_quota_failed', () => err(503, 'pre_consume_token_quota_failed')],
    ['404 that is not model_not_found (a wrong URL)', () => err(404, 'unknown_url')],
  ])('never falls back on %s', async (_, fail) => {
    const rec = gateway(fail);
    const onModelFallback = vi.fn();
    await expect(client({ maxRetries: 0, hooks: { onModelFallback } }).chat.completions.create({ model: 'a', messages })).rejects.toThrow();
    expect(rec.calls.map((c) => (c.body as { model: string }).model)).toEqual(['a']);
    expect(onModelFallback).not.toHaveBeenCalled();
  });

  it('tries one model’s retries, then the other base, then the next model, in that order', async () => {
    const main = gateway(() => err(500, 'server_error'));
    const backup = gateway(() => err(500, 'server_error'), `${BACKUP}/chat/completions`);
    const order: string[] = [];
    const c = client({ backupBaseURL: BACKUP, maxRetries: 2, hooks: { onRequest: (e) => order.push(`${e.baseURL === BASE ? 'main' : 'backup'}`) } });
    const res = await c.chat.completions.create({ model: 'a', messages });
    expect(res.model).toBe('b');
    // Model a: its three attempts alternate between the bases; then model b, on the main:
    // one model's 500s are that model's, not evidence that the main is down (docs/fleet.md).
    expect(order).toEqual(['main', 'backup', 'main', 'main']);
    const models = [...main.calls, ...backup.calls].map((r) => (r.body as { model: string }).model).sort();
    expect(models).toEqual(['a', 'a', 'a', 'b']);
  });

  it('reports each fallback to onModelFallback and the info log, with a new Idempotency-Key per model', async () => {
    const rec = gateway(() => err(503, 'model_not_found'));
    const events: ModelFallbackInfo[] = [];
    const lines: string[] = [];
    const logger: Logger = { error: () => undefined, warn: () => undefined, debug: () => undefined, info: (m) => lines.push(m) };
    await client({ logLevel: 'info', logger, hooks: { onModelFallback: (e) => events.push(e) } }).chat.completions.create({ model: 'a', messages });
    expect(events.map((e) => [e.from, e.to, e.error.name])).toEqual([['a', 'b', 'ServiceUnavailableError']]);
    // Log lines are written as the call goes (the formatter is imported statically), before it resolves.
    expect(lines).toContainEqual(expect.stringMatching(/model fallback a -> b after 503 model_not_found/));
    const keys = rec.calls.map((c) => c.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
  });

  it('goes down the whole list, and surfaces the last error when every model is unavailable', async () => {
    server.use(http.post(chatURL, () => err(503, 'model_not_found')));
    const fallbacks: string[] = [];
    const e = await client({ hooks: { onModelFallback: (f) => fallbacks.push(f.to) } }).chat.completions.create({ model: 'a', messages }).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 503, code: 'model_not_found' });
    expect(fallbacks).toEqual(['b', 'c']);
  });

  it('lets a request replace the list, or turn fallback off with []', async () => {
    const rec = gateway(() => err(503, 'model_not_found'));
    expect((await client().chat.completions.create({ model: 'a', messages }, { fallbackModels: ['z'] })).model).toBe('z');
    await expect(client().chat.completions.create({ model: 'a', messages }, { fallbackModels: [] })).rejects.toMatchObject({ status: 503 });
    expect((await new Gateway({ apiKey: KEY, baseURL: BASE }).chat.completions.create({ model: 'a', messages }, { fallbackModels: ['y'] })).model).toBe('y');
    expect(rec.calls.map((c) => (c.body as { model: string }).model)).toEqual(['a', 'z', 'a', 'a', 'y']);
  });

  it('falls back a stream only before its first byte reached the caller', async () => {
    let cut = false;
    server.use(
      http.post(chatURL, async ({ request }) => {
        const { model } = (await request.json()) as { model: string };
        if (model === 'a' && !cut) return err(503, 'model_not_found');
        if (model === 'a') return sseResponse(`${sseText([chunk('partial')], { done: false })}`);
        return sseResponse(sseText([chunk(`from ${model}`)]));
      }),
    );
    const stream = await client().chat.completions.create({ model: 'a', messages, stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message.content).toBe('from b');
    cut = true;
    const after = await client().chat.completions.create({ model: 'a', messages, stream: true });
    await expect(after.finalChatCompletion()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('bounds all models together with totalTimeout', async () => {
    // On the fake clock, every answer takes exactly 60 ms: a's comes within the 100 ms, b's would not.
    vi.useFakeTimers();
    const rec = createRecorder();
    let arrived!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    server.use(
      http.post(chatURL, async ({ request }) => {
        await rec.record(request);
        arrived();
        await delay(60);
        return err(503, 'model_not_found');
      }),
    );
    const done = client().chat.completions.create({ model: 'a', messages }, { totalTimeout: 100 }).catch((x: unknown) => x);
    await first;
    await vi.runAllTimersAsync();
    expect(await done).toMatchObject({ name: 'APITimeoutError' });
    expect(rec.calls.map((c) => (c.body as { model: string }).model)).toEqual(['a', 'b']);
  });

  it('takes only a request’s list for embeddings: vectors of different models do not mix', async () => {
    const rec = createRecorder();
    server.use(
      http.post(`${BASE}/embeddings`, async ({ request }) => {
        const { body } = await rec.record(request);
        const model = (body as { model: string }).model;
        return model === 'a' ? err(503, 'model_not_found') : HttpResponse.json({ object: 'list', model, data: [{ object: 'embedding', index: 0, embedding: [1, 2] }], usage: { prompt_tokens: 1, total_tokens: 1 } });
      }),
    );
    await expect(client().embeddings.create({ model: 'a', input: 'x', encoding_format: 'float' })).rejects.toMatchObject({ status: 503 });
    expect((await client().embeddings.create({ model: 'a', input: 'x', encoding_format: 'float' }, { fallbackModels: ['e'] })).model).toBe('e');
  });

  it('rebuilds a multipart upload for the next model', async () => {
    const models: string[] = [];
    server.use(
      http.post(`${BASE}/images/edits`, async ({ request }) => {
        const model = String((await request.formData()).get('model'));
        models.push(model);
        return model === 'a' ? err(404, 'model_not_found') : HttpResponse.json({ created: 1, data: [{ url: 'https://x/i.png' }] });
      }),
    );
    await client().images.edit({ model: 'a', prompt: 'hat', image: new Uint8Array([137, 80, 78, 71]) });
    expect(models).toEqual(['a', 'b']);
  });

  it('rejects a bad fallbackModels option before sending', () => {
    expect(() => client({ fallbackModels: { a: 'b' as never } })).toThrow(expect.objectContaining({ field: 'fallbackModels.a' }) as Error);
    return expect(client().chat.completions.create({ model: 'a', messages }, { fallbackModels: 'b' as never })).rejects.toMatchObject({ name: 'ValidationError', field: 'fallbackModels' });
  });

  it('sends the same file to the next model, even from a body that can be read only once', async () => {
    const sizes: Array<[string, number]> = [];
    server.use(
      http.post(`${BASE}/images/edits`, async ({ request }) => {
        const form = await request.formData();
        const model = String(form.get('model'));
        sizes.push([model, (form.get('image') as File).size]);
        return model === 'a' ? err(503, 'model_not_found') : HttpResponse.json({ created: 1, data: [{ url: 'https://x/i.png' }] });
      }),
    );
    const image = new Response(new Uint8Array([137, 80, 78, 71, 1, 2, 3]));
    await client().images.edit({ model: 'a', prompt: 'hat', image });
    expect(sizes).toEqual([
      ['a', 7],
      ['b', 7],
    ]);
  });

  it('does not announce a fallback once totalTimeout has run out', async () => {
    // On the fake clock: the 50 ms run out before a's answer at 80 ms.
    vi.useFakeTimers();
    let arrived!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    server.use(
      http.post(chatURL, async () => {
        arrived();
        await delay(80);
        return err(503, 'model_not_found');
      }),
    );
    const onModelFallback = vi.fn();
    const done = client({ hooks: { onModelFallback } }).chat.completions.create({ model: 'a', messages }, { totalTimeout: 50 }).catch((x: unknown) => x);
    await first;
    await vi.runAllTimersAsync();
    expect(await done).toMatchObject({ name: 'APITimeoutError' });
    expect(onModelFallback).not.toHaveBeenCalled();
  });

  it('falls back on a rate-limit or server error inside a 200, as it retries them', async () => {
    const rec = gateway(() => HttpResponse.json({ error: { message: 'upstream busy', type: 'server_error', code: 'server_error' } }));
    const res = await client({ maxRetries: 0 }).chat.completions.create({ model: 'a', messages });
    expect(res.model).toBe('b');
    expect(rec.calls).toHaveLength(2);
  });
});
