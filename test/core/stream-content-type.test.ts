import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, GatewayError } from '../../src/index.js';
import { BASE, chatParams, client } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { chunk, chunkedBody, sseText } from '../helpers/sse.js';

const server = useMswServer();
const chatURL = `${BASE}/chat/completions`;

describe('a stream answered with something other than events', () => {
  it('says what came back when a 200 text/plain is not events (not "ended before [DONE]")', async () => {
    server.use(http.post(chatURL, () => new Response(chunkedBody('upstream quota exhausted, try later', 7), { headers: { 'content-type': 'text/plain; charset=utf-8' } })));
    const err = await client({ maxRetries: 0 }).chat.completions.create({ ...chatParams, stream: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).not.toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/Expected an event stream but got text\/plain; charset=utf-8: "upstream quota exhausted, try later"/);
  });

  it('still reads events a proxy labelled text/plain', async () => {
    server.use(http.post(chatURL, () => new Response(chunkedBody(sseText([chunk('Hel'), chunk('lo')]), 3), { headers: { 'content-type': 'text/plain' } })));
    const stream = await client().chat.completions.create({ ...chatParams, stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello');
  });
});
