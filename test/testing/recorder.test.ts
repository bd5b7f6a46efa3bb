import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, Gateway, GatewayError, RateLimitError, toFile, ValidationError, type GatewayOptions } from '../../src/index.js';
import { CassetteNotFoundError, createMockGateway, recorder, type Cassette, type MockGateway, type RecorderOptions } from '../../src/testing/index.js';

const KEY = 'sk-live-0123456789-SECRET';
const BASE = 'http://recorded.test/v1';
const model = 'gpt-4o-mini';
const ask = (content: string) => ({ model, messages: [{ role: 'user' as const, content }] });
const askStream = (content: string) => ({ ...ask(content), stream: true as const });

let dir: string;
let mock: MockGateway;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ug-cassettes-'));
  mock = createMockGateway({ apiKey: KEY, videoStepMs: 5 });
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const client = (fetch: GatewayOptions['fetch'], options: GatewayOptions = {}) => new Gateway({ apiKey: KEY, baseURL: BASE, fetch, maxRetries: 0, ...options });
/** A fetch that must never be called: replay sends nothing. */
const network = () => {
  const calls: string[] = [];
  const fetch = async (input: Request | string | URL) => {
    calls.push(String(input instanceof Request ? input.url : input));
    throw new Error('replay reached the network');
  };
  return { calls, fetch };
};
const recordWith = (options: RecorderOptions = {}) => recorder({ dir, mode: 'record', fetch: mock.fetch, ...options });
/** The cassette files of dir (a file being written is a dot-file until it is renamed). */
const files = () => readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Cassette;

describe('record', () => {
  it('writes one readable JSON cassette per request, named by method, path and a hash of the request', async () => {
    const rec = recordWith();
    const c = client(rec.fetch);
    await c.chat.completions.create(ask('hi'));
    await c.embeddings.create({ model: 'text-embedding-3-small', input: 'a' });
    await c.models.retrieve('gpt-4o');
    expect(files()).toEqual([
      expect.stringMatching(/^GET-models-gpt-4o-[0-9a-f]{8}\.json$/),
      expect.stringMatching(/^POST-chat-completions-[0-9a-f]{8}\.json$/),
      expect.stringMatching(/^POST-embeddings-[0-9a-f]{8}\.json$/),
    ]);
    const chat = read(files()[1] as string);
    expect(readFileSync(join(dir, files()[1] as string), 'utf8')).toContain('\n  "request": {\n');
    expect(chat).toMatchObject({ cassette: 1, request: { method: 'POST', path: 'chat/completions', body: ask('hi') }, response: { status: 200, body: { choices: [{ message: { content: 'You said: hi' } }] } } });
    expect(chat.response.headers['content-type']).toBe('application/json');
    expect(rec.entries.map((e) => `${e.action} ${e.method} ${e.path} ${e.status}`)).toEqual([
      'recorded POST chat/completions 200',
      'recorded POST embeddings 200',
      'recorded GET models/gpt-4o 200',
    ]);
    expect(rec.recorded).toHaveLength(3);
  });

  it('names a request the same in every recording whatever the order of its fields, and another request differently', async () => {
    await client(recordWith().fetch).chat.completions.create({ model, messages: [{ role: 'user', content: 'same' }], temperature: 0.5 });
    const first = files();
    await client(recordWith().fetch).chat.completions.create({ temperature: 0.5, messages: [{ content: 'same', role: 'user' }], model });
    expect(files()).toEqual(first);
    await client(recordWith().fetch).chat.completions.create({ model, messages: [{ role: 'user', content: 'same' }], temperature: 0.6 });
    expect(files()).toHaveLength(2);
  });

  it('numbers the answers when one recording asks the same thing twice', async () => {
    const c = client(recordWith().fetch);
    await c.models.list();
    await c.models.list();
    expect(files()).toEqual([expect.stringMatching(/^GET-models-([0-9a-f]{8})-2\.json$/), expect.stringMatching(/^GET-models-([0-9a-f]{8})\.json$/)]);
    expect(read(files()[0] as string).sequence).toBe(2);
    expect(read(files()[1] as string).sequence).toBeUndefined();
  });

  it('writes no secret: the key, credential headers and cookies never reach a file, even when the gateway echoes them', async () => {
    const headerKey = 'xk-header-SECRET-4242';
    const cookie = 'ck-cookie-SECRET-777';
    const setCookie = 'sc-server-SECRET-31337';
    const echoed: string[] = [];
    // A gateway that echoes every secret back: in a header, a cookie, the JSON body and the event stream.
    const echoing = async (input: Request | string | URL, init?: RequestInit) => {
      const res = await mock.fetch(input, init);
      const text = (await res.text()).replaceAll('said:', `said (${KEY}, ${headerKey}, ${cookie}):`);
      echoed.push(text);
      const headers = new Headers(res.headers);
      headers.set('x-echo-authorization', `Bearer ${KEY}`);
      headers.set('x-api-key', headerKey);
      headers.append('set-cookie', `sid=${setCookie}; Path=/; HttpOnly`);
      return new Response(text, { status: res.status, headers });
    };
    const rec = recorder({ dir, mode: 'record', fetch: echoing });
    const c = client(rec.fetch, { defaultHeaders: { 'x-api-key': headerKey, cookie: `session=${cookie}; theme=dark` } });
    const reply = await c.chat.completions.create(ask(`my key is ${KEY}`));
    const stream = await c.chat.completions.create(askStream('stream it'));
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    // The key in a URL (a download link that carries it) and a cookie set by the server.
    const direct = await rec.fetch(`${BASE}/models?api_key=${KEY}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(direct.status).toBe(200);

    // The client saw the echoes (so they were there to be written)...
    expect(reply.choices[0]?.message.content).toContain(KEY);
    expect(streamed).toContain(KEY);
    expect(echoed.join()).toContain(cookie);
    // ...and no file holds any of them, nor a credential header.
    expect(files()).toHaveLength(3);
    for (const name of files()) {
      const text = readFileSync(join(dir, name), 'utf8');
      for (const secret of [KEY, headerKey, cookie, setCookie]) expect(text, `${name} holds ${secret}`).not.toContain(secret);
      expect(text).not.toMatch(/"(authorization|x-api-key|cookie|set-cookie)"/i);
    }
    // The echoes are there, the secrets replaced (in the JSON reply and in the stream's frames).
    expect(files().filter((f) => readFileSync(join(dir, f), 'utf8').includes('said ([REDACTED], [REDACTED], [REDACTED]):'))).toHaveLength(2);
    expect(files()[0]).toMatch(/^GET-models-/);
    expect(read(files()[0] as string).request.path).toBe('models?api_key=[REDACTED]');
  });

  it('writes the key in no other encoding either: URL-encoded, JSON-escaped, or inside Basic credentials', async () => {
    const key = 'sk-live/0123+4567"89\\abc=def';
    const forms = [encodeURIComponent(key), JSON.stringify(key).slice(1, -1), btoa(`u:${key}`), btoa(`us:${key}`), btoa(`use:${key}`)];
    const keyed = createMockGateway({ apiKey: key });
    const echoing = async (input: Request | string | URL, init?: RequestInit) => {
      const res = await keyed.fetch(input, init);
      const text = (await res.text()).replaceAll('said:', `said (${forms.join(' ')}):`);
      const headers = new Headers(res.headers);
      headers.set('x-echo', forms.join(' '));
      return new Response(text, { status: res.status, headers });
    };
    const reply = await client(recorder({ dir, mode: 'record', fetch: echoing }).fetch, { apiKey: key }).chat.completions.create(ask('hi'));
    expect(reply.choices[0]?.message.content).toContain(forms[2]);
    const text = readFileSync(join(dir, files()[0] as string), 'utf8');
    // As the file holds them: JSON-escaped once more in the body; the header as it came.
    for (const form of forms) {
      const middle = form.length > 12 ? form.slice(4, -4) : form;
      expect(text, `the cassette holds ${form}`).not.toContain(JSON.stringify(middle).slice(1, -1));
      expect(text, `the cassette holds ${form}`).not.toContain(middle);
    }
  });

  it('writes no key that a model quoted across several stream frames (its tokens split it)', async () => {
    const frame = (content: string) => `data: ${JSON.stringify({ id: 's', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const sse = frame('Your key is ') + frame(KEY.slice(0, 10)) + frame(KEY.slice(10)) + frame('.') + 'data: [DONE]\n\n';
    const quoting = async () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
    let seen = '';
    for await (const chunk of await client(recorder({ dir, mode: 'record', fetch: quoting }).fetch).chat.completions.create(askStream('my key?'))) seen += chunk.choices[0]?.delta.content ?? '';
    // The caller reads the reply as the gateway sent it; the cassette holds neither half of the key.
    expect(seen).toBe(`Your key is ${KEY}.`);
    await vi.waitFor(() => expect(files()).toHaveLength(1));
    const text = readFileSync(join(dir, files()[0] as string), 'utf8');
    expect(text).not.toContain(KEY.slice(0, 10));
    expect(text).not.toContain(KEY.slice(10));
    expect(text).toContain('[REDACTED]');
  });

  it('keeps a stream frame by frame, and replays it byte for byte (multi-byte text included)', async () => {
    const body = JSON.stringify({ ...askStream('héllo wörld 你好 🌍🚀 end'), stream_options: { include_usage: true } });
    const init = () => ({ method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });
    const recorded = await (await recordWith().fetch(`${BASE}/chat/completions`, init())).text();
    const cassette = read(files()[0] as string);
    expect(cassette.response.frames?.length).toBeGreaterThan(5);
    expect(cassette.response.frames?.every((f) => f.endsWith('\n\n'))).toBe(true);
    expect(cassette.response.frames?.at(-1)).toBe('data: [DONE]\n\n');
    expect(cassette.response.frames?.join('')).toBe(recorded);

    const { calls, fetch } = network();
    const replayed = await recorder({ dir, mode: 'replay', fetch }).fetch('https://elsewhere.test/v1/chat/completions', init());
    expect(replayed.headers.get('content-type')).toBe('text/event-stream');
    const reader = (replayed.body as ReadableStream<Uint8Array>).getReader();
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(decoder.decode(r.value));
    expect(chunks).toEqual(cassette.response.frames);
    expect(chunks.join('')).toBe(recorded);
    expect(calls).toEqual([]);
  });

  it('writes a stream whose client stops at [DONE] completely, before the client loop ends', async () => {
    const stream = await client(recordWith().fetch).chat.completions.create(askStream('to the end'));
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: to the end');
    expect(files()).toHaveLength(1);
    const cassette = read(files()[0] as string);
    expect(cassette.response.cut).toBeUndefined();
    expect(cassette.response.frames?.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('writes a responses stream completely at its final event (it has no [DONE]), before the client loop ends', async () => {
    const stream = await client(recordWith().fetch).responses.create({ model, input: 'events', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.completed');
    expect(files()).toHaveLength(1);
    const cassette = read(files()[0] as string);
    expect(cassette.response.cut).toBeUndefined();
    expect(cassette.response.frames?.at(-1)).toMatch(/^event: response\.completed\ndata: /);
  });

  it('writes a stream left early as cut, and replays it up to the cut', async () => {
    const stream = await client(recordWith().fetch).chat.completions.create(askStream('one two three four five six'));
    for await (const _ of stream) break;
    // Written once the body's cancel has run, a moment after the loop (docs/testing.md): real
    // file I/O, so poll the directory, bounded far beyond what a write takes.
    await vi.waitFor(() => expect(files()).toHaveLength(1), { timeout: 5_000, interval: 10 });
    const cassette = read(files()[0] as string);
    expect(cassette.response.cut).toBe(true);
    expect(cassette.response.frames?.join('')).not.toContain('[DONE]');

    const replay = client(recorder({ dir, mode: 'replay', fetch: network().fetch }).fetch);
    const again = await replay.chat.completions.create(askStream('one two three four five six'));
    const read1 = async () => {
      for await (const _ of again);
    };
    await expect(read1()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('records errors as they came, so a retried call replays the same way (a 429, then the answer)', async () => {
    mock.inject({ type: 'rate_limit', retryAfter: 0 });
    const rec = recordWith();
    const opts = { maxRetries: 1, retry: { baseDelayMs: 0 } };
    expect((await client(rec.fetch, opts).chat.completions.create(ask('busy'))).choices[0]?.message.content).toBe('You said: busy');
    expect(rec.entries.map((e) => e.status)).toEqual([429, 200]);
    expect(files()).toEqual([expect.stringMatching(/^POST-chat-completions-[0-9a-f]{8}-2\.json$/), expect.stringMatching(/^POST-chat-completions-[0-9a-f]{8}\.json$/)]);

    const replay = recorder({ dir, mode: 'replay', fetch: network().fetch });
    expect((await client(replay.fetch, opts).chat.completions.create(ask('busy'))).choices[0]?.message.content).toBe('You said: busy');
    expect(replay.entries.map((e) => e.status)).toEqual([429, 200]);
    const noRetry = recorder({ dir, mode: 'replay', fetch: network().fetch });
    await expect(client(noRetry.fetch).chat.completions.create(ask('busy'))).rejects.toBeInstanceOf(RateLimitError);
  });

  it('records nothing for an attempt that failed below HTTP, so the retry that answered is the first cassette', async () => {
    mock.inject({ type: 'disconnect' });
    const rec = recordWith();
    await client(rec.fetch, { maxRetries: 1, retry: { baseDelayMs: 0 } }).models.list();
    expect(files()).toEqual([expect.stringMatching(/^GET-models-[0-9a-f]{8}\.json$/)]);
    expect(rec.entries.map((e) => `${e.action} ${e.status}`)).toEqual(['recorded 200']);
  });

  it('keeps each body as it came: JSON as JSON, text as text, anything else as base64', async () => {
    const rec = recordWith();
    const c = client(rec.fetch);
    const srt = await c.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(new Uint8Array([1, 2, 3]), 'a.mp3'), response_format: 'srt' });
    const image = await c.images.generate({ model: 'dall-e-3', prompt: 'a dot' });
    const png = new Uint8Array(await (await rec.fetch(image.data[0]?.url as string)).arrayBuffer());
    const byPath = Object.fromEntries(files().map((f) => [read(f).request.path, read(f).response]));
    expect(byPath['audio/transcriptions']).toMatchObject({ text: srt });
    expect(byPath['images/generations']?.body).toMatchObject({ data: [{ url: image.data[0]?.url }] });
    const download = Object.entries(byPath).find(([path]) => path.startsWith('/mock-files/'))?.[1];
    expect(download?.base64).toBe(Buffer.from(png).toString('base64'));

    const replay = recorder({ dir, mode: 'replay', fetch: network().fetch });
    const again = client(replay.fetch);
    expect(await again.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(new Uint8Array([1, 2, 3]), 'a.mp3'), response_format: 'srt' })).toBe(srt);
    const replayedImage = await again.images.generate({ model: 'dall-e-3', prompt: 'a dot' });
    expect(new Uint8Array(await (await replay.fetch(replayedImage.data[0]?.url as string)).arrayBuffer())).toEqual(png);
  });
});

describe('replay', () => {
  it('answers from cassettes with nothing sent, against another base URL, and gives what was recorded', async () => {
    const rec = recordWith();
    const recorded = await client(rec.fetch).chat.completions.create(ask('hi'));
    const list = await client(rec.fetch).models.list();

    const { calls, fetch } = network();
    const replay = recorder({ dir, mode: 'replay', fetch });
    const c = new Gateway({ apiKey: 'another-key', baseURL: 'https://gateway.example/api/v1', fetch: replay.fetch, maxRetries: 0 });
    expect(await c.chat.completions.create({ messages: [{ content: 'hi', role: 'user' }], model })).toEqual(recorded);
    expect(await c.models.list()).toEqual(list);
    expect(calls).toEqual([]);
    expect(replay.entries.map((e) => `${e.action} ${e.path}`)).toEqual(['replayed chat/completions', 'replayed models']);
  });

  it('takes paths relative to a given baseURL', async () => {
    const recordBase = 'http://one.test/openai';
    // The mock serves /v1 only: record through a base that maps onto it.
    const rec = recorder({ dir, mode: 'record', baseURL: recordBase, fetch: (u, i) => mock.fetch(String(u instanceof Request ? u.url : u).replace(recordBase, 'http://mock/v1'), i) });
    await new Gateway({ apiKey: KEY, baseURL: recordBase, fetch: rec.fetch }).models.list();
    expect(rec.entries.at(-1)?.path).toBe('models');
    const replay = recorder({ dir, mode: 'replay', baseURL: 'https://two.test/gw', fetch: network().fetch });
    const list = await new Gateway({ apiKey: KEY, baseURL: 'https://two.test/gw', fetch: replay.fetch }).models.list();
    expect(list.data.length).toBeGreaterThan(0);
  });

  it('rejects a request with no cassette before sending it, naming it and how it differs from the nearest; the client does not retry it', async () => {
    await client(recordWith().fetch).chat.completions.create(ask('hi'));
    await client(recordWith().fetch).embeddings.create({ model: 'text-embedding-3-small', input: 'x' });
    const { calls, fetch } = network();
    const replay = recorder({ dir, mode: 'replay', fetch });
    let attempts = 0;
    const counting: typeof replay.fetch = (input, init) => {
      attempts++;
      return replay.fetch(input, init);
    };
    const err = await client(counting, { maxRetries: 3, retry: { baseDelayMs: 0 }, fallbackModels: { [model]: ['gpt-4o'] } })
      .chat.completions.create({ ...ask('hello'), temperature: 0.5 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CassetteNotFoundError);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).not.toBeInstanceOf(APIConnectionError);
    expect(attempts).toBe(1);
    expect(calls).toEqual([]);
    const e = err as CassetteNotFoundError;
    expect(e.name).toBe('CassetteNotFoundError');
    expect(e).toMatchObject({ method: 'POST', path: 'chat/completions', model, nearest: expect.stringMatching(/^POST-chat-completions-[0-9a-f]{8}\.json$/) });
    expect(e.differences).toEqual(['messages[0].content: recorded "hi", sent "hello"', 'temperature: recorded (absent), sent 0.5']);
    expect(e.message).toContain(`No cassette for POST chat/completions (model ${model}) in ${dir}. The nearest, ${e.nearest}, differs in:\n  messages[0].content: recorded "hi", sent "hello"\n  temperature: recorded (absent), sent 0.5\nNothing was sent.`);
    expect(String(err) + JSON.stringify(err) + e.stack).not.toContain(KEY);
  });

  it('says so when there are no cassettes at all, and when the nearest is on another path', async () => {
    const empty = await client(recorder({ dir: join(dir, 'none'), mode: 'replay', fetch: network().fetch }).fetch).models.list().catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(CassetteNotFoundError);
    expect((empty as Error).message).toContain(`No cassette for GET models: there are none in ${join(dir, 'none')} (it does not exist).`);
    await client(recordWith().fetch).models.list();
    const other = await client(recorder({ dir, mode: 'replay' }).fetch).models.retrieve('gpt-4o').catch((e: unknown) => e);
    expect((other as CassetteNotFoundError).differences).toEqual(['path: recorded "models", sent "models/gpt-4o"']);
  });

  it('leaves ignored fields out of matching (dotted paths, * for any key or index)', async () => {
    const tool = (description: string, name = 'lookup') => [{ type: 'function' as const, function: { name, description, parameters: { type: 'object', properties: {} } } }];
    const recorded = await client(recordWith().fetch).chat.completions.create({ ...ask('hi'), user: 'run-1', tools: tool('a') });
    const changed = { ...ask('hi'), user: 'run-2', tools: tool('b') };
    const strict = await client(recorder({ dir, mode: 'replay' }).fetch).chat.completions.create(changed).catch((e: unknown) => e);
    expect((strict as CassetteNotFoundError).differences).toEqual(['tools[0].function.description: recorded "a", sent "b"', 'user: recorded "run-1", sent "run-2"']);
    const loose = recorder({ dir, mode: 'replay', ignore: ['user', 'tools.*.function.description', 'messages.*.name'] });
    expect(await client(loose.fetch).chat.completions.create({ ...changed, messages: [{ role: 'user', content: 'hi', name: 'z' }] })).toEqual(recorded);
    const stillStrict = await client(loose.fetch).chat.completions.create({ ...changed, tools: tool('b', 'search') }).catch((e: unknown) => e);
    expect((stillStrict as CassetteNotFoundError).differences).toEqual(['tools[0].function.name: recorded "lookup", sent "search"']);
  });

  it('matches multipart uploads (images.edit, transcriptions) on their fields and a hash of each file', async () => {
    const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    const edit = async (c: Gateway, bytes: Uint8Array) => c.images.edit({ model: 'dall-e-2', prompt: 'brighter', image: await toFile(bytes, 'in.png', { type: 'image/png' }) });
    const transcribe = async (c: Gateway, bytes: Uint8Array) => c.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(bytes, 'a.wav') });
    const rec = client(recordWith().fetch);
    const edited = await edit(rec, png);
    const text = await transcribe(rec, png);
    const form = read(files().find((f) => f.includes('images-edits')) as string).request.form;
    expect(form).toMatchObject({ model: 'dall-e-2', prompt: 'brighter' });
    expect(JSON.stringify(form)).toMatch(/"file":"in\.png","type":"image\/png","size":7,"sha256":"[0-9a-f]{64}"/);

    const replay = client(recorder({ dir, mode: 'replay', fetch: network().fetch }).fetch);
    expect(await edit(replay, png)).toEqual(edited);
    expect(await transcribe(replay, png)).toEqual(text);
    const other = await edit(replay, new Uint8Array([137, 80, 78, 71, 9, 9, 9])).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(CassetteNotFoundError);
    expect((other as CassetteNotFoundError).differences).toEqual([expect.stringMatching(/^form\.image\.sha256: recorded "[0-9a-f]{40}…", sent "[0-9a-f]{40}…"$/)]);
  });

  it('replays the answers to a repeated request in order, then the last (a polled video task)', async () => {
    // The task completes at once; the first two polls answer "processing" (a scripted 200), so there are exactly three.
    mock = createMockGateway({ apiKey: KEY, videoStepMs: 0 });
    const processing = { id: 'video_mock_1', object: 'video.generation', model: 'vendor_video2', status: 'processing', progress: 50 };
    mock.inject({ type: 'status', status: 200, body: processing, path: 'videos/generations/video_mock_1', times: 2 });
    const rec = recordWith();
    const done = await client(rec.fetch).videos.generateAndWait({ model: 'vendor_video2', prompt: 'waves', duration: 5 }, { pollIntervalMs: 1 });
    expect(done).toMatchObject({ id: 'video_mock_1', status: 'completed' });
    expect(rec.entries.map((e) => `${e.method} ${e.path}`)).toEqual(['POST videos/generations', ...Array(3).fill('GET videos/generations/video_mock_1')]);
    expect(files().filter((f) => f.startsWith('GET-videos-generations-'))).toEqual([
      expect.stringMatching(/-2\.json$/),
      expect.stringMatching(/-3\.json$/),
      expect.stringMatching(/-[0-9a-f]{8}\.json$/),
    ]);

    const replay = recorder({ dir, mode: 'replay', fetch: network().fetch });
    const again = await client(replay.fetch).videos.generateAndWait({ model: 'vendor_video2', prompt: 'waves', duration: 5 }, { pollIntervalMs: 1 });
    expect(again).toEqual(done);
    expect(replay.entries.map((e) => e.cassette)).toEqual(rec.entries.map((e) => e.cassette));
    // Asked once more, the last answer again.
    expect((await client(replay.fetch).videos.retrieve(done.id)).status).toBe('completed');
  });

  it('removes later answers left from an older recording when a request is recorded again', async () => {
    writeFileSync(join(dir, 'x.txt'), 'not a cassette, not touched');
    mock.inject({ type: 'server_error' });
    await client(recordWith().fetch, { maxRetries: 1, retry: { baseDelayMs: 0 } }).models.list();
    expect(files().filter((f) => f.endsWith('.json'))).toHaveLength(2);
    await client(recordWith().fetch).models.list();
    expect(readdirSync(dir).sort()).toEqual([expect.stringMatching(/^GET-models-[0-9a-f]{8}\.json$/), 'x.txt']);
    expect(read(files()[0] as string).response.status).toBe(200);
  });
});

describe('auto', () => {
  it('replays what exists and records the rest', async () => {
    const first = await client(recordWith().fetch).chat.completions.create(ask('known'));
    let sent = 0;
    const auto = recorder({
      dir,
      mode: 'auto',
      fetch: (input, init) => {
        sent++;
        return mock.fetch(input, init);
      },
    });
    const c = client(auto.fetch);
    expect(await c.chat.completions.create(ask('known'))).toEqual(first);
    expect((await c.chat.completions.create(ask('new'))).choices[0]?.message.content).toBe('You said: new');
    expect(sent).toBe(1);
    expect(auto.entries.map((e) => e.action)).toEqual(['replayed', 'recorded']);
    expect(files()).toHaveLength(2);
    // The next run replays both.
    const next = recorder({ dir, mode: 'auto', fetch: network().fetch });
    await client(next.fetch).chat.completions.create(ask('new'));
    expect(next.entries.map((e) => e.action)).toEqual(['replayed']);
  });

  it('records every poll of a task it has not seen, rather than replaying the first one', async () => {
    const upstream = createMockGateway({ apiKey: KEY, videoStepMs: 0 });
    upstream.inject({ type: 'status', status: 200, body: { id: 'video_mock_1', status: 'processing' }, path: 'videos/generations/video_mock_1' });
    const auto = recorder({ dir, mode: 'auto', fetch: upstream.fetch });
    const done = await client(auto.fetch).videos.generateAndWait({ model: 'vendor_video2', prompt: 'rain', duration: 5 }, { pollIntervalMs: 1 });
    expect(done.status).toBe('completed');
    expect(auto.entries.map((e) => `${e.action} ${e.method} ${e.status}`)).toEqual(['recorded POST 200', 'recorded GET 200', 'recorded GET 200']);
  });
});

describe('a cassette directory that cannot be written', () => {
  /** A dir under a regular file: no one (root included) can create it. */
  const unwritable = () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    return join(dir, 'a-file', 'cassettes');
  };
  /** The upstream requests sent, and the client's requests to the recorder (its attempts). */
  const counted = (mode: 'record' | 'auto') => {
    const counts = { sent: 0, attempts: 0 };
    const rec = recorder({ dir: unwritable(), mode, fetch: (input, init) => (counts.sent++, mock.fetch(input, init)) });
    const c = client((input, init) => (counts.attempts++, rec.fetch(input, init)), { maxRetries: 2, retry: { baseDelayMs: 0 } });
    return { counts, c };
  };

  it.each(['record', 'auto'] as const)('in %s mode, refuses before anything is sent, once (not retried), saying what to fix', async (mode) => {
    const { counts, c } = counted(mode);
    const err = await c.chat.completions.create(ask('paid')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).not.toBeInstanceOf(APIConnectionError);
    expect(err).toMatchObject({ field: 'dir' });
    expect((err as Error).message).toMatch(/a-file\/cassettes.* cannot be (read|written) .*Pass .*directory/s);
    expect(counts).toEqual({ sent: 0, attempts: 1 });
  });

  it('refuses a stream the same way', async () => {
    const { counts, c } = counted('record');
    await expect(c.chat.completions.create(askStream('paid'))).rejects.toBeInstanceOf(ValidationError);
    expect(counts).toEqual({ sent: 0, attempts: 1 });
  });

});

describe('inline cassettes and options', () => {
  it('replays cassettes given inline (imported JSON), as a browser or a worker does; recorded without dir, they stay in memory', async () => {
    const rec = recorder({ mode: 'record', fetch: mock.fetch });
    const recorded = await client(rec.fetch).chat.completions.create(ask('inline'));
    expect(files()).toEqual([]);
    const cassettes = JSON.parse(JSON.stringify(rec.recorded)) as Cassette[];
    const replay = recorder({ cassettes, mode: 'replay', fetch: network().fetch });
    expect(await client(replay.fetch).chat.completions.create(ask('inline'))).toEqual(recorded);
    expect(replay.entries[0]?.cassette).toBe(rec.entries[0]?.cassette);
    const miss = await client(replay.fetch).models.list().catch((e: unknown) => e);
    expect((miss as Error).message).toContain('in the inline cassettes');
  });

  it('checks its options when it is made', () => {
    expect(() => recorder({ dir, mode: 'bogus' as 'replay' })).toThrow(ValidationError);
    expect(() => recorder({ mode: 'replay' })).toThrow(/dir.*is needed to replay/);
    expect(() => recorder({ dir, ignore: [''] })).toThrow(ValidationError);
    expect(() => recorder({ dir: '' })).toThrow(ValidationError);
    expect(recorder({ mode: 'auto' }).entries).toEqual([]);
  });

  it('refuses every option of the wrong type, an unknown option and a non-object, naming the field', () => {
    const refused = (options: unknown, field: string) => {
      let thrown: unknown;
      try {
        recorder(options as RecorderOptions);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(options)).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).field).toBe(field);
    };
    refused(null, 'options');
    refused('test/cassettes', 'options');
    refused([], 'options');
    refused({ dir, secret: ['x'] }, 'secret');
    refused({ dir, secrets: 'sk-extra-secret' }, 'secrets');
    refused({ dir, secrets: [42] }, 'secrets[0]');
    // Too short to be removed from text without mangling it: the recorder would write it.
    refused({ dir, secrets: ['abc'] }, 'secrets[0]');
    refused({ dir, fetch: 'fetch' }, 'fetch');
    refused({ dir, baseURL: 42 }, 'baseURL');
    refused({ dir, baseURL: 'not a url' }, 'baseURL');
    refused({ dir, ignore: 'user' }, 'ignore');
    refused({ dir: 42 }, 'dir');
    refused({ cassettes: {}, mode: 'replay' }, 'cassettes');
    refused({ dir, mode: null }, 'mode');
    expect(recorder({ dir, mode: undefined, secrets: undefined, fetch: undefined }).entries).toEqual([]);
  });

  it('keeps an extra secret out of the cassette', async () => {
    const rec = recordWith({ secrets: ['tenant-secret-42'] });
    await client(rec.fetch).chat.completions.create(ask('my tenant-secret-42 here'));
    expect(readFileSync(join(dir, files()[0] as string), 'utf8')).not.toContain('tenant-secret-42');
  });

  it.each([
    ['a status no response can have', { status: 99, headers: {} }, /status must be a whole number from 200 to 599/],
    ['a header fetch refuses', { status: 200, headers: { 'bad header': 'x' } }, /response\.headers\["bad header"\] is not a valid header/],
    ['a header value with a line break', { status: 200, headers: { 'x-a': 'a\nb' } }, /response\.headers\["x-a"\] is not a valid header/],
    ['base64 that does not decode', { status: 200, headers: {}, base64: '!!not base64!!' }, /response\.base64 must be base64/],
    ['a cut that is not true or false', { status: 200, headers: {}, frames: ['data: x\n\n'], cut: 'yes' }, /response\.cut must be true or false/],
  ])('names a cassette file with %s, at the first request (whichever it asks for), without retrying', async (_, response, rule) => {
    await client(recordWith().fetch).embeddings.create({ model: 'text-embedding-3-small', input: 'a' });
    writeFileSync(join(dir, 'GET-models-corrupt.json'), JSON.stringify({ cassette: 1, request: { method: 'GET', path: 'models' }, response }));
    let attempts = 0;
    const rec = recorder({ dir, mode: 'replay' });
    const c = client((input, init) => (attempts++, rec.fetch(input, init)), { maxRetries: 2, retry: { baseDelayMs: 0 } });
    const err = await c.embeddings.create({ model: 'text-embedding-3-small', input: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain('GET-models-corrupt.json');
    expect((err as Error).message).toMatch(rule);
    expect(attempts).toBe(1);
  });

  it('refuses corrupt inline cassettes when it is made', () => {
    const cassette = { cassette: 1, request: { method: 'GET', path: 'models' }, response: { status: 99, headers: {} } };
    expect(() => recorder({ cassettes: [cassette as unknown as Cassette], mode: 'replay' })).toThrow(/cassettes\[0\].*status/);
  });

  it('names a file of dir that is not a cassette', async () => {
    mkdirSync(join(dir, 'bad'));
    writeFileSync(join(dir, 'bad', 'broken.json'), '{"cassette": 1, "request": {}}');
    const err = await client(recorder({ dir: join(dir, 'bad') }).fetch).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain('broken.json');
    expect(existsSync(join(dir, 'bad', 'broken.json'))).toBe(true);
  });
});
