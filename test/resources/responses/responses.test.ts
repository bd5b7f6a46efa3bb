import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, RateLimitError, StreamInterruptedError, type ResponseCreateParams, type ResponseStreamEvent } from '../../../src/index.js';
import { BASE, client as mswClient } from '../../helpers/fixtures.js';
import { mockClient } from '../../helpers/mock-client.js';
import { useMswServer } from '../../helpers/msw.js';
import { sseResponse } from '../../helpers/sse.js';

const server = useMswServer();
const params = { model: 'gpt-4o-mini', input: 'hello there' };

describe('responses.create', () => {
  it('returns a response with output_text', async () => {
    const { client } = mockClient();
    const res = await client.responses.create({ ...params, instructions: 'be brief', max_output_tokens: 50 });
    expect(res).toMatchObject({ object: 'response', status: 'completed', output_text: 'You said: hello there' });
    expect(res.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
  });

  it('fills output_text from the output when the server leaves it out', async () => {
    server.use(
      http.post(`${BASE}/responses`, () =>
        HttpResponse.json({ id: 'r', object: 'response', created_at: 1, status: 'completed', model: 'm', output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'a' }, { type: 'output_text', text: 'b' }] }] }),
      ),
    );
    expect((await mswClient().responses.create(params)).output_text).toBe('ab');
  });

  it('returns a function call when tools are offered', async () => {
    const { client } = mockClient();
    const res = await client.responses.create({ ...params, tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }] });
    expect(res.output[0]).toMatchObject({ type: 'function_call', name: 'lookup' });
  });

  it('streams typed events that end at response.completed (no [DONE])', async () => {
    const { client } = mockClient();
    const stream = await client.responses.create({ ...params, stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events[0]?.type).toBe('response.created');
    expect(events.at(-1)?.type).toBe('response.completed');
    const text = events.map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join('');
    expect(text).toBe('You said: hello there');
  });

  it('resolves finalResponse() to the completed response', async () => {
    const { client } = mockClient();
    const stream = await client.responses.create({ ...params, stream: true });
    await expect(stream.finalResponse()).resolves.toMatchObject({ status: 'completed', output_text: 'You said: hello there' });
  });

  it('retries a stream that ends before any content, then rejects create() with APIConnectionError', async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/responses`, () => {
        calls++;
        return sseResponse('event: response.created\ndata: {"type":"response.created","response":{}}\n\n');
      }),
    );
    await expect(mswClient().responses.create({ ...params, stream: true }, { maxRetries: 1 })).rejects.toBeInstanceOf(APIConnectionError);
    expect(calls).toBe(2);
  });

  it('throws StreamInterruptedError with the text so far when the stream ends after content, before its final event', async () => {
    const created = '{"type":"response.created","response":{"id":"r","status":"in_progress"}}';
    const delta = '{"type":"response.output_text.delta","delta":"Hel"}';
    server.use(http.post(`${BASE}/responses`, () => sseResponse(`data: ${created}\n\ndata: ${delta}\n\n`)));
    const stream = await mswClient().responses.create({ ...params, stream: true });
    const err = await stream.finalResponse().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamInterruptedError);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as StreamInterruptedError).partial).toMatchObject({ id: 'r', output_text: 'Hel' });
  });

  it('throws a typed error for an error event, retried like any failed attempt when it comes before content', async () => {
    server.use(http.post(`${BASE}/responses`, () => sseResponse('event: error\ndata: {"type":"error","code":"rate_limit_exceeded","message":"slow down","param":null}\n\n')));
    await expect(mswClient().responses.create({ ...params, stream: true }, { maxRetries: 0 })).rejects.toBeInstanceOf(RateLimitError);
  });

  it.each([
    ['empty input', { model: 'm', input: '' }, 'input'],
    ['empty input array', { model: 'm', input: [] }, 'input'],
    ['temperature 2.5', { ...params, temperature: 2.5 }, 'temperature'],
    ['max_output_tokens 0', { ...params, max_output_tokens: 0 }, 'max_output_tokens'],
  ])('rejects %s before sending', async (_, body, field) => {
    const { client, mock } = mockClient();
    await expect(client.responses.create(body as ResponseCreateParams)).rejects.toMatchObject({ name: 'ValidationError', field });
    expect(mock.requests).toHaveLength(0);
  });

  it('retries a 500 and fails over a stream that fails before its first byte', async () => {
    const { client, mock } = mockClient({ faults: [{ type: 'server_error' }, { type: 'disconnect' }] });
    await expect(client.responses.create(params)).resolves.toMatchObject({ status: 'completed' });
    const stream = await client.responses.create({ ...params, stream: true });
    await expect(stream.finalResponse()).resolves.toMatchObject({ status: 'completed' });
    expect(mock.requests).toHaveLength(4);
  });
});
