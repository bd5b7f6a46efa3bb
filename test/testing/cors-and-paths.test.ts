import { afterEach, describe, expect, it } from 'vitest';
import { Gateway, NotFoundError } from '../../src/index.js';
import { createMockGateway, type MockFault, type Served } from '../../src/testing/index.js';

const KEY = 'test-key';
const ORIGIN = 'http://mock.local';
const auth = { authorization: `Bearer ${KEY}` };

function transcription(format: string): RequestInit {
  const form = new FormData();
  form.set('model', 'whisper-1');
  form.set('file', new Blob([new Uint8Array(16)], { type: 'audio/wav' }), 'a.wav');
  form.set('response_format', format);
  return { method: 'POST', headers: auth, body: form };
}

const chatBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...extra });

/** The CORS set every answer carries; `x-request-id` too, so a browser test can read it. */
function expectCors(res: Response): void {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  expect(res.headers.get('access-control-allow-headers')).toBeTruthy();
  expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
  expect(res.headers.get('x-request-id')).toMatch(/^req_mock_\d+$/);
}

// [name, path after the origin, request, fault queued first]
const answers: Array<[string, string, RequestInit, MockFault?]> = [
  ['JSON 200', '/v1/models', { headers: auth }],
  ['SSE stream', '/v1/chat/completions', { method: 'POST', headers: auth, body: chatBody({ stream: true }) }],
  ['text transcript', '/v1/audio/transcriptions', transcription('text')],
  ['srt transcript', '/v1/audio/transcriptions', transcription('srt')],
  ['vtt transcript', '/v1/audio/transcriptions', transcription('vtt')],
  ['PNG download', '/mock-files/image-1-0.png', {}],
  ['MP4 download', '/mock-files/video-v.mp4', {}],
  ['unknown file', '/mock-files/nothing.txt', {}],
  ['401', '/v1/models', { headers: { authorization: 'Bearer wrong' } }],
  ['400 malformed body', '/v1/chat/completions', { method: 'POST', headers: auth, body: '{not json' }],
  ['404 model', '/v1/models/nope', { headers: auth }],
  ['404 unknown path', '/v1/nope', { headers: auth }],
  ['404 wrong prefix', '/api/v1/models', { headers: auth }],
  ['rate_limit fault', '/v1/models', { headers: auth }, { type: 'rate_limit', retryAfter: 1 }],
  ['insufficient_quota fault', '/v1/models', { headers: auth }, { type: 'insufficient_quota' }],
  ['server_error fault', '/v1/models', { headers: auth }, { type: 'server_error' }],
  ['unavailable fault', '/v1/models', { headers: auth }, { type: 'unavailable' }],
  ['status fault, text body', '/v1/models', { headers: auth }, { type: 'status', status: 502, body: 'Bad gateway' }],
  ['status fault, empty body', '/v1/models', { headers: auth }, { type: 'status', status: 200 }],
  ['delay fault', '/v1/models', { headers: auth }, { type: 'delay', ms: 1 }],
  ['stream_cut fault', '/v1/chat/completions', { method: 'POST', headers: auth, body: chatBody({ stream: true }) }, { type: 'stream_cut', afterFrames: 1 }],
  ['no_done fault', '/v1/chat/completions', { method: 'POST', headers: auth, body: chatBody({ stream: true }) }, { type: 'no_done' }],
];

describe('CORS headers on every answer (mock.fetch)', () => {
  it.each(answers)('%s', async (_name, path, init, fault) => {
    const mock = createMockGateway({ faults: fault ? [fault] : [] });
    const res = await mock.fetch(`${ORIGIN}${path}`, init);
    expectCors(res);
    await res.body?.cancel();
  });

  it('answers a preflight with 204, echoing the requested headers', async () => {
    const res = await createMockGateway().fetch(`${ORIGIN}/v1/audio/transcriptions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.local', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expectCors(res);
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
  });

  it("keeps a status fault's own headers over the defaults", async () => {
    const mock = createMockGateway({ faults: [{ type: 'status', status: 418, headers: { 'x-request-id': 'mine', 'access-control-allow-origin': 'http://app.local' } }] });
    const res = await mock.fetch(`${ORIGIN}/v1/models`, { headers: auth });
    expect(res.headers.get('x-request-id')).toBe('mine');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.local');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });
});

describe('only the base path /v1/ (and /mock-files/) is served', () => {
  it('answers a path with anything before /v1/ with 404 unknown_url naming the path and the base URL to use', async () => {
    const mock = createMockGateway();
    const res = await mock.fetch(`${ORIGIN}/foo/v1/models`, { headers: auth });
    expect(res.status).toBe(404);
    const { error } = (await res.json()) as { error: { message: string; code: string; type: string } };
    expect(error).toMatchObject({ code: 'unknown_url', type: 'invalid_request_error' });
    expect(error.message).toBe(
      `Unknown request URL: GET /foo/v1/models. The mock gateway serves /v1/ directly under its host, with nothing before it: use ${ORIGIN}/v1 as the client's base URL.`,
    );
    expect(mock.requests.at(-1)?.path).toBe('/foo/v1/models');
    expect((await mock.fetch(`${ORIGIN}/v1/models`, { headers: auth })).status).toBe(200);
  });

  it('fails a client whose base URL has a wrong prefix', async () => {
    const mock = createMockGateway();
    const client = new Gateway({ apiKey: KEY, baseURL: `${ORIGIN}/api/v1`, fetch: mock.fetch, maxRetries: 0 });
    const err = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, code: 'unknown_url' });
  });

  it('serves files only under /mock-files/ at the root, and only by GET', async () => {
    const mock = createMockGateway();
    expect((await mock.fetch(`${ORIGIN}/mock-files/image-1-0.png`)).status).toBe(200);
    for (const [url, init] of [
      [`${ORIGIN}/x/mock-files/image-1-0.png`, { headers: auth }],
      [`${ORIGIN}/mock-files/notes.txt`, {}],
      [`${ORIGIN}/mock-files/image-1-0.png`, { method: 'POST', headers: auth, body: '{}' }],
    ] as const) {
      const res = await mock.fetch(url, init);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'unknown_url' } });
    }
  });
});

describe('served on 127.0.0.1 (listen)', () => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it('sends the CORS headers on the wire for transcripts, files, errors, faults and preflights', async () => {
    const mock = createMockGateway();
    served = await mock.listen();
    const origin = served.url.replace(/\/v1$/, '');
    for (const format of ['text', 'srt', 'vtt']) {
      const res = await fetch(`${served.url}/audio/transcriptions`, transcription(format));
      expect(res.status).toBe(200);
      expectCors(res);
      await res.text();
    }
    for (const path of ['/mock-files/image-1-0.png', '/mock-files/video-v.mp4', '/v1/nope']) {
      const res = await fetch(`${origin}${path}`, { headers: auth });
      expectCors(res);
      await res.arrayBuffer();
    }
    mock.inject({ type: 'status', status: 502, body: 'Bad gateway' });
    const fault = await fetch(`${served.url}/models`, { headers: auth });
    expect(fault.status).toBe(502);
    expectCors(fault);
    await fault.text();
    const preflight = await fetch(`${served.url}/chat/completions`, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expectCors(preflight);
  });

  it('answers a wrong prefix before /v1/ with 404 unknown_url', async () => {
    served = await createMockGateway().listen();
    const origin = served.url.replace(/\/v1$/, '');
    const res = await fetch(`${origin}/foo/v1/models`, { headers: auth });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'unknown_url', message: expect.stringContaining(`use ${origin}/v1 as the client's base URL`) } });
    const client = new Gateway({ apiKey: KEY, baseURL: `${origin}/foo/v1`, maxRetries: 0 });
    await expect(client.models.list()).rejects.toBeInstanceOf(NotFoundError);
  });
});
