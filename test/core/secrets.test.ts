import { inspect } from 'node:util';
import fc from 'fast-check';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { APIConnectionError, APIError, GatewayError, ParseError, responseFormat } from '../../src/index.js';
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
