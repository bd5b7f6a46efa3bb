import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { APIError, Gateway, GatewayError, type GatewayOptions } from '../../src/index.js';
import { BASE, fastRetries, KEY, leaksKey } from '../helpers/fixtures.js';
import { chunk, sseResponse, sseText } from '../helpers/sse.js';

// Hostile error bodies (issue 21, item 14), through the public API only:
// every server here is a custom fetch, so each test counts exactly what was sent.

/** The names a plain object inherits: a lookup keyed by server text must not find them. */
const INHERITED = ['valueOf', 'toString', 'hasOwnProperty', '__proto__', 'constructor', 'isPrototypeOf', 'toLocaleString', '__defineGetter__'] as const;

const messages = [{ role: 'user' as const, content: 'hi' }];
const json = (body: unknown, status: number = 200) => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A client whose fetch answers with `answer` and counts the requests. */
function served(answer: (init: RequestInit | undefined, n: number) => Response | Promise<Response> | unknown, options: GatewayOptions = {}) {
  const sent: Array<RequestInit | undefined> = [];
  const fetch = (async (_url: unknown, init?: RequestInit) => {
    sent.push(init);
    return answer(init, sent.length);
  }) as typeof globalThis.fetch;
  return { sent, client: new Gateway(fastRetries({ apiKey: KEY, baseURL: BASE, fetch, ...options })) };
}

describe('error bodies whose code or type is an inherited property name', () => {
  const cases = INHERITED.flatMap((name) => (['code', 'type'] as const).map((field) => [name, field] as const));

  it.each(cases)('a 200 answer carrying an error with %s as its %s rejects with an APIError', async (name, field) => {
    const { client } = served(() => json({ error: { message: `echo ${KEY}`, [field]: name } }));
    const err = await client.models.retrieve('m').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toMatchObject({ status: 200, [field]: name });
    expect(Object.getPrototypeOf(err)).toBe(APIError.prototype);
    expect(leaksKey(err)).toBe(false);
  });

  it.each(cases)('an SSE error frame with %s as its %s throws an APIError from the stream', async (name, field) => {
    const { client } = served(() => sseResponse(sseText([chunk('a'), { error: { message: 'upstream', [field]: name } }], { done: false })));
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of stream) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toMatchObject({ [field]: name });
  });

  it.each(INHERITED)('an error status whose code is %s keeps its class by status', async (name) => {
    const { client, sent } = served(() => json({ error: { message: 'no', code: name, type: name } }, 400), { maxRetries: 2 });
    const err = await client.models.retrieve('m').catch((e: unknown) => e);
    expect(err).toMatchObject({ constructor: Gateway.BadRequestError, status: 400, code: name });
    expect(sent).toHaveLength(1);
  });

  it('keeps a body key named __proto__ as data: it neither hides nor supplies the error it carries', async () => {
    const body = '{"__proto__":{"error":{"message":"from the prototype"}},"message":"the real message"}';
    const { client } = served(() => json(body, 500), { maxRetries: 0 });
    const err = (await client.models.retrieve('m').catch((e: unknown) => e)) as APIError;
    expect(err).toBeInstanceOf(Gateway.InternalServerError);
    expect(err.message).toContain('the real message');
    expect(err.message).not.toContain('from the prototype');
    expect(Object.hasOwn(err.error as object, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(err.error)).toBe(Object.prototype);
  });

  it('turns any error body, at any status, into a GatewayError (never a TypeError or a plain object)', async () => {
    const key = fc.constantFrom(...INHERITED, 'error', 'code', 'type', 'message', 'param', 'insufficient_quota', 'model_not_found');
    const leaf = fc.oneof(key, fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null), fc.boolean());
    const value = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
    })).node;
    const body = fc.oneof(
      fc.record({ error: fc.record({ message: fc.string({ maxLength: 8 }), code: value, type: value, param: value }, { requiredKeys: [] }) }),
      fc.record({ code: key, message: key }),
      fc.dictionary(key, value, { maxKeys: 5 }),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(200, 400, 403, 404, 418, 429, 500, 503), fc.boolean(), async (payload, status, stream) => {
        const text = JSON.stringify(payload);
        const answer = stream && status === 200 ? () => sseResponse(`data: ${text}\n\ndata: [DONE]\n\n`) : () => json(text, status);
        const { client } = served(answer, { maxRetries: 0 });
        const call = stream ? client.chat.completions.create({ model: 'm', messages, stream: true }).then(async (s) => {
          for await (const _ of s);
        }) : client.chat.completions.create({ model: 'm', messages });
        const err = await call.then(() => undefined, (e: unknown) => e);
        // A body that is neither an error nor a result may be accepted or refused, but only ever as the SDK's own error.
        if (err !== undefined) expect(err).toBeInstanceOf(GatewayError);
      }),
      { numRuns: 300 },
    );
  });
});
