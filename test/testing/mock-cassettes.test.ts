import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthenticationError, Gateway, InternalServerError, NotFoundError, ValidationError } from '../../src/index.js';
import { createMockGateway, recorder, type Cassette, type Served } from '../../src/testing/index.js';

// Cassettes recorded over real loopback sockets, then served by a second mock gateway over
// listen(), to this SDK and to the official openai client.

const KEY = 'sk-recorded-key-0123456789';
const model = 'gpt-4o-mini';
const ask = (content: string) => ({ model, messages: [{ role: 'user' as const, content }] });

let dir: string;
const servers: Served[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ug-mock-cassettes-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});
const listen = async (options: Parameters<typeof createMockGateway>[0]) => {
  const served = await createMockGateway(options).listen();
  servers.push(served);
  return served;
};

/** Records a chat call, a stream (its raw body too) and the model list against a live mock, over sockets. */
async function recordSome() {
  const upstream = await listen({ apiKey: KEY });
  const rec = recorder({ dir, mode: 'record' }); // globalThis.fetch: real sockets
  const c = new Gateway({ apiKey: KEY, baseURL: upstream.url, fetch: rec.fetch, maxRetries: 0 });
  const reply = await c.chat.completions.create(ask('hello over the wire'));
  const list = await c.models.list();
  const raw = await (
    await rec.fetch(`${upstream.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask('stream ünïcode 🌍'), stream: true }),
    })
  ).text();
  expect(readdirSync(dir)).toHaveLength(3);
  return { reply, list, raw };
}

describe('createMockGateway({ cassettes })', () => {
  it('serves recorded cassettes over listen(): this SDK and the openai client get what was recorded, with any key', async () => {
    const { reply, list } = await recordSome();
    const served = await listen({ cassettes: dir });
    const ours = new Gateway({ apiKey: 'any-key', baseURL: served.url, maxRetries: 0 });
    expect(await ours.chat.completions.create(ask('hello over the wire'))).toEqual(reply);
    expect(await ours.models.list()).toEqual(list);

    const openai = new OpenAI({ apiKey: 'another-key', baseURL: served.url, maxRetries: 0 });
    const theirs = await openai.chat.completions.create(ask('hello over the wire'));
    expect(theirs.choices[0]?.message.content).toBe('You said: hello over the wire');
    const stream = await openai.chat.completions.create({ ...ask('stream ünïcode 🌍'), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: stream ünïcode 🌍');
  });

  it('serves a stream byte for byte over the socket', async () => {
    const { raw } = await recordSome();
    const served = await listen({ cassettes: dir });
    const res = await fetch(`${served.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, ...ask('stream ünïcode 🌍') }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe(raw);
  });

  it('answers a request no cassette matches with a 404 that names it and how it differs from the nearest', async () => {
    await recordSome();
    const served = await listen({ cassettes: dir });
    const err = await new Gateway({ apiKey: 'k', baseURL: served.url, maxRetries: 0 }).chat.completions.create({ ...ask('hello over the wire'), temperature: 0.3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, code: 'cassette_not_found' });
    expect((err as Error).message).toMatch(/No cassette for POST chat\/completions \(model gpt-4o-mini\) in .*\. The nearest, POST-chat-completions-[0-9a-f]{8}\.json, differs in:\n {2}temperature: recorded \(absent\), sent 0\.3/);
  });

  it('takes cassettes inline, applies faults first, checks the key only when one is given, and starts sequences again on reset()', async () => {
    const source = createMockGateway({ apiKey: KEY });
    source.inject({ type: 'server_error' });
    const rec = recorder({ mode: 'record', fetch: source.fetch });
    await new Gateway({ apiKey: KEY, baseURL: 'http://rec.test/v1', fetch: rec.fetch, maxRetries: 1, retry: { baseDelayMs: 0 } }).models.list();
    const cassettes = JSON.parse(JSON.stringify(rec.recorded)) as Cassette[];
    expect(cassettes.map((c) => c.response.status)).toEqual([500, 200]);

    const mock = createMockGateway({ cassettes, apiKey: 'only-this' });
    const c = new Gateway({ apiKey: 'only-this', baseURL: 'http://served.test/v1', fetch: mock.fetch, maxRetries: 0 });
    await expect(c.models.list()).rejects.toBeInstanceOf(InternalServerError);
    expect((await c.models.list()).data.length).toBeGreaterThan(0);
    expect((await c.models.list()).data.length).toBeGreaterThan(0);
    mock.reset();
    await expect(c.models.list()).rejects.toBeInstanceOf(InternalServerError);
    mock.inject({ type: 'unavailable' });
    await expect(c.models.list()).rejects.toMatchObject({ status: 503 });
    await expect(new Gateway({ apiKey: 'wrong', baseURL: 'http://served.test/v1', fetch: mock.fetch, maxRetries: 0 }).models.list()).rejects.toBeInstanceOf(AuthenticationError);
    // reset() cleared the log too.
    expect(mock.requests.map((r) => `${r.method} ${r.path} ${r.authorized}`)).toEqual(['GET models true', 'GET models true', 'GET models false']);
  });

  it('refuses inline cassettes that are not cassettes when it is made', () => {
    expect(() => createMockGateway({ cassettes: [{ cassette: 2 } as unknown as Cassette] })).toThrow(ValidationError);
  });

  it('refuses to listen() when a cassette file of its directory is corrupt, naming the file and what is wrong', async () => {
    writeFileSync(join(dir, 'GET-models-x.json'), JSON.stringify({ cassette: 1, request: { method: 'GET', path: 'models' }, response: { status: 700, headers: {} } }));
    const err = await listen({ cassettes: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(/GET-models-x\.json.*status must be a whole number from 200 to 599/);
  });

  it('answers 500 naming the file, through mock.fetch, when a cassette of its directory cannot be read', async () => {
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    const res = await createMockGateway({ cassettes: dir }).fetch('http://x.test/v1/models');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('broken.json');
  });
});
