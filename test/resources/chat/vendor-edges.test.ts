import { describe, expect, it } from 'vitest';
import { APIError, BadRequestError, Gateway, InternalServerError, ServiceUnavailableError, StreamInterruptedError, type ChatCompletion, type ChatCompletionChunk } from '../../../src/index.js';
import { sseResponse, sseText } from '../../helpers/sse.js';

// What a hostile trial of issue 31's first part found, each reproduced from the vendor shape
// it met: OpenRouter numbering every streamed reasoning detail 0, proxies in front of Gemini
// sending `id: ""`, OpenRouter's mid-stream error, numeric codes in a 200, a body nested deep,
// a reply's `refusal: null` pushed back, arguments that parse but are not an object.

const KEY = 'sk-test-key-1234567890';
const frame = (delta: Record<string, unknown>, finish_reason: string | null = null, extra: Record<string, unknown> = {}): ChatCompletionChunk =>
  ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason }], ...extra }) as unknown as ChatCompletionChunk;
const params = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

function streaming(frames: unknown[], done = true) {
  const client = new Gateway({ apiKey: KEY, baseURL: 'http://gw.local/v1', maxRetries: 0, fetch: async () => sseResponse(sseText(frames, { done })) });
  return async () => (await client.chat.completions.create({ ...params, stream: true })).finalChatCompletion();
}

describe('streamed reasoning_details, every entry numbered 0 (OpenRouter, ai-sdk-provider#519)', () => {
  it('keeps a summary and an encrypted entry apart, as the non-streamed reply has them', async () => {
    const final = await streaming([
      frame({ role: 'assistant', reasoning_details: [{ type: 'reasoning.summary', summary: 'The user ', format: 'openai-responses-v1', index: 0 }] }),
      frame({ reasoning_details: [{ type: 'reasoning.summary', summary: 'asks.', format: 'openai-responses-v1', index: 0 }] }),
      frame({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAAB', id: 'rs_1', format: 'openai-responses-v1', index: 0 }] }),
      frame({ content: 'Hi.' }, 'stop'),
    ])();
    expect(final.choices[0]?.message.reasoning_details).toEqual([
      { type: 'reasoning.summary', summary: 'The user asks.', format: 'openai-responses-v1', index: 0 },
      { type: 'reasoning.encrypted', data: 'gAAAAB', id: 'rs_1', format: 'openai-responses-v1', index: 0 },
    ]);
  });
});

describe('tool calls without index and with an empty id (proxies in front of Gemini, AstrBot#6661)', () => {
  it('reads two whole calls as two calls, and a name repeated mid-arguments as one', async () => {
    const whole = (name: string, args: string) => ({ id: '', type: '', function: { name, arguments: args } });
    const final = await streaming([
      frame({ role: 'assistant', tool_calls: [whole('get_weather', '{"city":"Paris"}')] }),
      frame({ tool_calls: [whole('get_time', '{"zone":')] }),
      frame({ tool_calls: [whole('get_time', '"CET"}')] }, 'tool_calls'),
    ])();
    expect(final.choices[0]?.message.tool_calls?.map((c) => c.function)).toEqual([
      { name: 'get_weather', arguments: '{"city":"Paris"}' },
      { name: 'get_time', arguments: '{"zone":"CET"}' },
    ]);
  });
});

describe('a cut inside arguments that parse as JSON but are not an object', () => {
  it('is marked incomplete', async () => {
    const err = await streaming([frame({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '12' } }] })], false)().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamInterruptedError);
    expect((err as StreamInterruptedError<ChatCompletion>).partial?.choices[0]?.message.tool_calls?.[0]).toMatchObject({ incomplete: true });
  });
});

describe('errors inside a 200', () => {
  it("OpenRouter's mid-stream error (finish_reason \"error\") is the call's error, with its message", async () => {
    const err = await streaming([
      frame({ role: 'assistant', content: '' }),
      frame({ content: '' }, 'error', { error: { code: 'server_error', message: 'Provider disconnected unexpectedly' } }),
    ])().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(String(err)).toContain('Provider disconnected unexpectedly');
  });

  it("Gemini's array of errors as a stream frame is the call's error", async () => {
    const err = await streaming([[{ error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } }]])().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(String(err)).toContain('Request contains an invalid argument.');
  });

  it('a numeric code (OpenRouter) is the status it names: 503 retried, then the 200', async () => {
    let calls = 0;
    const client = new Gateway({
      apiKey: KEY,
      baseURL: 'http://gw.local/v1',
      maxRetries: 1,
      fetch: async () => {
        calls++;
        if (calls === 1) return Response.json({ error: { code: 503, message: 'Provider returned error' } });
        return Response.json({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
      },
    });
    const completion = await client.chat.completions.create(params, { maxRetries: 1, timeout: 5_000 }).withResponse();
    expect(completion.data.choices[0]?.message.content).toBe('ok');
    expect(calls).toBe(2);
  });

  it('a numeric code 503 without retries is a ServiceUnavailableError', async () => {
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://gw.local/v1', maxRetries: 0, fetch: async () => Response.json({ error: { code: '503', message: 'Provider returned error' } }) });
    await expect(client.chat.completions.create(params)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('an error body nested too deep to quote', () => {
  it('is an APIError with its status, not a RangeError', async () => {
    const deep = `${'{"error":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://gw.local/v1', maxRetries: 0, fetch: async () => new Response(deep, { status: 400, headers: { 'content-type': 'application/json' } }) });
    const err = await client.chat.completions.create(params).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(String(err)).not.toContain(KEY);
  });
});

describe("a reply's refusal: null pushed back", () => {
  it('is left off the wire (strict hosts refuse it, openai-node#1161); the caller’s message is unchanged', async () => {
    let sent: { messages?: Array<Record<string, unknown>> } = {};
    const client = new Gateway({
      apiKey: KEY,
      baseURL: 'http://gw.local/v1',
      maxRetries: 0,
      fetch: async (_url, init) => {
        sent = JSON.parse(String(init?.body)) as typeof sent;
        return Response.json({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'stop' }] });
      },
    });
    const first = await client.chat.completions.create(params);
    const reply = first.choices[0]!.message;
    await client.chat.completions.create({ model: 'm', messages: [...params.messages, reply, { role: 'user', content: 'more' }] });
    expect(sent.messages?.[1]).toEqual({ role: 'assistant', content: 'ok' });
    expect(reply).toHaveProperty('refusal', null);
  });
});
