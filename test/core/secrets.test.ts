import { inspect } from 'node:util';
import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APIConnectionError, APIError, GatewayError, ParseError, responseFormat } from '../../src/index.js';
import { Redactor } from '../../src/internal/redact.js';
import { BASE, chatParams, client, KEY } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const chatURL = `${BASE}/chat/completions`;

/** Everything a user could print of an error: message, stack, JSON and util.inspect to any depth, hidden fields included. */
function printable(err: unknown): string {
  const e = err as Error;
  return [String(e), e.message, e.stack ?? '', JSON.stringify(e), inspect(e, { depth: 12, showHidden: true, getters: true })].join('\n');
}

describe('the key never leaves in an error', () => {
  it('when a 200 answer that is neither JSON nor events echoes the Authorization header', async () => {
    server.use(http.post(chatURL, ({ request }) => new HttpResponse(`echo: ${request.headers.get('authorization')}`, { headers: { 'content-type': 'text/plain' } })));
    const err = await client({ maxRetries: 0 }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toMatch(/Expected JSON but got text\/plain: "echo: Bearer \[REDACTED\]"/);
    expect(printable(err)).not.toContain(KEY);
  });

  it('when a custom fetch hangs the request, headers and all, on the cause', async () => {
    const fetch = (async (url: string, init: RequestInit) => {
      const failure = new TypeError('fetch failed', { cause: Object.assign(new Error(`upstream said ${String((init.headers as Record<string, string>).authorization)}`), { code: 'ECONNRESET', request: { url, headers: init.headers } }) });
      (failure as unknown as Record<string, unknown>).request = { url, headers: new Headers(init.headers as Record<string, string>) };
      throw failure;
    }) as unknown as typeof globalThis.fetch;
    const err = await client({ fetch, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(printable(err)).not.toContain(KEY);
    // What helps to diagnose stays: the low-level code, the names.
    expect(((err as Error).cause as Error & { cause: { code?: string } }).cause.code).toBe('ECONNRESET');
  });

  it("when the model's reply quotes the key and fails its schema (ParseError's message and content)", async () => {
    server.use(http.post(chatURL, () => HttpResponse.json({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: `{"city": "${KEY}"` }, finish_reason: 'stop' }] })));
    const Weather = z.object({ city: z.string(), celsius: z.number() });
    const err = await client().chat.completions.parse({ ...chatParams, response_format: responseFormat(Weather, 'weather') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).content).toContain('[REDACTED]');
    expect(printable(err)).not.toContain(KEY);
  });

  it('nor do credentials set as headers (defaultHeaders, or a request\'s headers)', async () => {
    server.use(http.get(`${BASE}/models`, ({ request }) => HttpResponse.json({ error: { message: `you sent ${request.headers.get('x-api-key')} and ${request.headers.get('proxy-authorization')}` } }, { status: 400 })));
    const c = client({ defaultHeaders: { 'x-api-key': 'vendor-secret-9876' } });
    const err = await c.models.list({ headers: { 'proxy-authorization': 'Basic cHJveHk6c2VjcmV0LTEyMzQ=' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(printable(err)).not.toMatch(/vendor-secret-9876|cHJveHk6c2VjcmV0LTEyMzQ=/);
    expect((err as Error).message).toContain('you sent [REDACTED] and [REDACTED]');
  });

  it('whatever body an error response carries, in any shape (property)', async () => {
    const c = client({ maxRetries: 0 });
    const withKey = fc.oneof(
      fc.string().map((s) => `${s}${KEY}${s}`),
      fc.string().map((s) => `Bearer ${KEY} ${s}`),
    );
    const bodies = fc.oneof(
      withKey,
      fc.record({ error: fc.record({ message: withKey, code: fc.option(withKey), type: fc.option(fc.string()) }) }),
      fc.record({ error: withKey }),
      fc.record({ code: fc.oneof(fc.integer(), withKey), message: withKey, data: fc.option(fc.jsonValue()) }),
      fc.record({ detail: withKey }),
      fc.record({ 'html-message': withKey.map((s) => `<html><title>${s}</title></html>`) }),
      fc.dictionary(withKey, fc.oneof(withKey, fc.jsonValue())),
      fc.jsonValue().map((v) => ({ nested: [v, { deeper: KEY }] })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, fc.constantFrom(400, 401, 403, 404, 418, 422, 429, 500, 503), async (body, status) => {
        server.use(http.get(`${BASE}/models`, () => (typeof body === 'string' ? new HttpResponse(body, { status }) : HttpResponse.json(body, { status, headers: { 'x-echo': `Bearer ${KEY}` } }))));
        const err = await c.models.list({ maxRetries: 0 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(APIError);
        expect((err as APIError).status).toBe(status);
        expect(printable(err)).not.toContain(KEY);
        let headers = '';
        (err as APIError).headers.forEach((v) => (headers += v));
        expect(headers).not.toContain(KEY);
      }),
      { numRuns: 60 },
    );
  });
});

/** A key with characters that URL-encoding and JSON escaping change (printable Latin-1: it travels in a header). */
const ODD_KEY = 'sk-live/0123+4567"89\\abc=def';
/** Basic credentials whose user names put the key at each of base64's three byte alignments. */
const basic = (user: string, key = ODD_KEY) => btoa(`${user}:${key}`);
/** The key in every form a server may echo it: as it is, URL-encoded, JSON-escaped, and inside Basic credentials. */
const encodedForms = (key = ODD_KEY): Record<string, string> => ({
  raw: key,
  url: encodeURIComponent(key),
  'url, lower-case hex': encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  "url as Python's quote() writes it (/ kept)": encodeURIComponent(key).replace(/%2F/g, '/'),
  json: JSON.stringify(key).slice(1, -1),
  'base64 at offset 2': basic('u', key),
  'base64 at offset 0': basic('us', key),
  'base64 at offset 1': basic('use', key),
});
/** A form is leaked if any of it survives but its edges (a base64 form keeps a character or two that also hold the user name's bits). */
const leaked = (text: string, form: string) => text.includes(form.length > 12 ? form.slice(4, -4) : form);

describe('the key never leaves in another encoding (URL-encoded, JSON-escaped, base64)', () => {
  it('has forms that differ from the key, so each is tested', () => {
    const forms = Object.values(encodedForms());
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('is removed from an error message, its body and its headers', async () => {
    const forms = encodedForms();
    const echo = Object.entries(forms).map(([name, form]) => `${name}=${form}`).join(' ');
    server.use(http.get(`${BASE}/models`, () => HttpResponse.json({ error: { message: `you sent ${echo}` } }, { status: 401, headers: { 'x-echo': echo } })));
    const err = await client({ apiKey: ODD_KEY, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    let headers = '';
    (err as APIError).headers.forEach((v) => (headers += v));
    for (const [name, form] of Object.entries(forms)) {
      expect(leaked(printable(err), form), `${name} in the error`).toBe(false);
      expect(leaked(headers, form), `${name} in its headers`).toBe(false);
    }
    expect((err as Error).message).toContain('url=[REDACTED] url, lower-case hex=[REDACTED]');
  });

  it('leaves ordinary text alone: a short key has no base64 forms, and a text without the key is unchanged', () => {
    const redactor = new Redactor();
    redactor.add('sk-short1');
    const text = `${btoa('u:sk-short1')} ${btoa('us:sk-short1')} c2stc2hvcnQx and some words`;
    expect(redactor.string(text)).toBe(text);
    const long = new Redactor();
    long.add(ODD_KEY);
    expect(long.string('nothing secret here, {"a": "b"} %2F')).toBe('nothing secret here, {"a": "b"} %2F');
  });
});

describe('the key never leaves in a stream error', () => {
  it('when a frame that is not a chunk quotes it', async () => {
    const { chunkedBody, sseText } = await import('../helpers/sse.js');
    server.use(http.post(chatURL, () => new Response(chunkedBody(sseText([{ choices: [{ index: 'x', delta: { content: `Bearer ${KEY}` } }] }]), 5), { headers: { 'content-type': 'text/event-stream' } })));
    const stream = await client({ maxRetries: 0 }).chat.completions.create({ ...chatParams, stream: true });
    const err = await stream.finalChatCompletion().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toMatch(/Invalid chat completion chunk/);
    expect(printable(err)).not.toContain(KEY);
  });
});
