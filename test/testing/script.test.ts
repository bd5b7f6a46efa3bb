import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, Gateway, InternalServerError } from '../../src/index.js';
import { strictModels } from '../../src/testing/index.js';
import { createMockGateway, type MockChatReply, type MockGateway } from '../../src/testing/index.js';

const KEY = 'test-key';
const BASE = 'http://mock.local/v1';
const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hello mock' }] };
const client = (mock: MockGateway, maxRetries = 0) => new Gateway({ apiKey: KEY, baseURL: BASE, fetch: mock.fetch, maxRetries });
const contentOf = async (mock: MockGateway) => (await client(mock).chat.completions.create(chat)).choices[0]?.message.content;

describe('mock.script', () => {
  it('plays scripted replies in order, streamed or not, then resumes the deterministic replies', async () => {
    const mock = createMockGateway();
    mock.script([{ content: 'first' }, { content: 'second, streamed' }]);
    mock.script({ content: 'third', finishReason: 'length' });
    expect(await contentOf(mock)).toBe('first');
    const stream = await client(mock).chat.completions.create({ ...chat, stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message.content).toBe('second, streamed');
    const third = await client(mock).chat.completions.create(chat);
    expect(third.choices[0]).toMatchObject({ message: { content: 'third' }, finish_reason: 'length' });
    expect(await contentOf(mock)).toBe('You said: hello mock');
  });

  it('sends several tool calls as parallel calls, on separate stream indexes', async () => {
    const mock = createMockGateway();
    const reply: MockChatReply = { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_time', arguments: {}, id: 'call_time' }] };
    mock.script([reply, reply]);
    const res = await client(mock).chat.completions.create(chat);
    expect(res.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [
          { id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'call_time', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
    });
    const stream = await client(mock).chat.completions.create({ ...chat, stream: true });
    const indexes = new Set<number>();
    for await (const chunk of stream) for (const call of chunk.choices[0]?.delta.tool_calls ?? []) indexes.add(call.index);
    expect([...indexes]).toEqual([0, 1]);
  });

  it('sends string arguments verbatim, invalid JSON included', async () => {
    const mock = createMockGateway({ script: [{ toolCalls: [{ name: 'get_weather', arguments: '{"city":' }] }] });
    const res = await client(mock).chat.completions.create(chat);
    expect(res.choices[0]?.message.tool_calls?.[0]?.function.arguments).toBe('{"city":');
  });

  it('sends a scripted refusal, streamed as delta.refusal', async () => {
    const mock = createMockGateway({ script: [{ refusal: 'No.' }, { refusal: 'Not that either.' }] });
    expect((await client(mock).chat.completions.create(chat)).choices[0]?.message).toMatchObject({ content: null, refusal: 'No.' });
    const stream = await client(mock).chat.completions.create({ ...chat, stream: true });
    const refusal: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.refusal) refusal.push(chunk.choices[0].delta.refusal);
    expect(refusal.join('')).toBe('Not that either.');
  });

  it('keeps the reply for the request the mock answers: faults, bad keys and unknown models take none', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const mock = createMockGateway({ script: [{ content: 'scripted' }], faults: [{ type: 'server_error', path: 'chat/completions' }] });
    await expect(client(mock).chat.completions.create(chat)).rejects.toBeInstanceOf(InternalServerError);
    await expect(client(mock).chat.completions.create({ ...chat, model: 'nope' })).rejects.toMatchObject({ status: 404 });
    await expect(new Gateway({ apiKey: 'wrong', baseURL: BASE, fetch: mock.fetch, maxRetries: 0 }).chat.completions.create(chat)).rejects.toMatchObject({ status: 401 });
    expect(await contentOf(mock)).toBe('scripted');
  });

  it('is cleared by reset()', async () => {
    const mock = createMockGateway({ script: [{ content: 'first' }, { content: 'second' }] });
    expect(await contentOf(mock)).toBe('first');
    mock.reset();
    expect(await contentOf(mock)).toBe('You said: hello mock');
  });

  it("drives the official openai client's runTools through parallel calls to a final answer", async () => {
    const mock = createMockGateway();
    mock.script([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_weather', arguments: { city: 'Rome' } }] }, { content: 'Oslo is cold, Rome is warm.' }]);
    const openai = new OpenAI({ apiKey: KEY, baseURL: BASE, fetch: mock.fetch, maxRetries: 0 });
    const weather = vi.fn(({ city }: { city: string }) => (city === 'Oslo' ? '2°C' : '24°C'));
    const runner = openai.chat.completions.runTools({
      ...chat,
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather in a city', function: weather, parse: (s: string) => JSON.parse(s) as { city: string }, parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    });
    expect(await runner.finalContent()).toBe('Oslo is cold, Rome is warm.');
    expect(weather.mock.calls.map(([args]) => args)).toEqual([{ city: 'Oslo' }, { city: 'Rome' }]);
    expect(mock.requests.at(-1)?.body).toMatchObject({ messages: [{}, { role: 'assistant' }, { role: 'tool', content: '2°C' }, { role: 'tool', content: '24°C' }] });
  });
});

describe('mock.script on /responses', () => {
  const weather = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

  it('sends a scripted reply as output items: its tool calls, then its message; streamed on separate output indexes', async () => {
    const mock = createMockGateway();
    mock.script([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_weather', arguments: '{"city":"Rome"}', id: 'call_rome' }] }, { content: 'Cold in Oslo.' }, { toolCalls: [{ name: 'get_weather', arguments: {} }] }]);
    const gateway = client(mock);
    const first = await gateway.responses.create({ model: 'gpt-4o-mini', input: 'weather?', tools: [weather] });
    expect(first.output).toMatchObject([
      { type: 'function_call', call_id: 'call_1_0', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call', call_id: 'call_rome', name: 'get_weather', arguments: '{"city":"Rome"}' },
    ]);
    const second = await gateway.responses.create({ model: 'gpt-4o-mini', input: 'and now?' });
    expect(second.output_text).toBe('Cold in Oslo.');
    const stream = await gateway.responses.create({ model: 'gpt-4o-mini', input: 'streamed', tools: [weather], stream: true });
    const added: unknown[] = [];
    for await (const event of stream) if (event.type === 'response.output_item.added') added.push(event.output_index);
    expect(added).toEqual([0]);
  });

  it('refuses a function_call_output whose call is not in the input, in OpenAI’s words', async () => {
    const mock = createMockGateway();
    const error = await client(mock)
      .responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'hi' }, { type: 'function_call_output', call_id: 'call_missing', output: '14 C' }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('No tool call found for function call output with call_id call_missing') });
  });

  it('takes a function_call_output after previous_response_id: its call is in the stored response', async () => {
    const mock = createMockGateway();
    const done = await client(mock).responses.create({ model: 'gpt-4o-mini', previous_response_id: 'resp_mock_1', input: [{ type: 'function_call_output', call_id: 'call_1', output: '14 C' }] });
    expect(done.status).toBe('completed');
  });

  it.for([false, true])('sends a scripted refusal and a cut (finishReason length) as /responses does, streamed: %s', async (stream) => {
    const mock = createMockGateway({ models: strictModels });
    mock.script([{ content: 'Partly', refusal: 'I cannot say more.' }, { content: 'cut', finishReason: 'length' }]);
    const gateway = client(mock);
    const read = async (body: { model: string; messages: Array<{ role: 'user'; content: string }> }) => {
      if (!stream) return (await gateway.chat.completions.create(body)).choices[0];
      return (await (await gateway.chat.completions.create({ ...body, stream: true })).finalChatCompletion()).choices[0];
    };
    // o3-pro answers only on /v1/responses: the client converts the answer back to chat's shape.
    expect(await read({ model: 'o3-pro', messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({ message: { content: 'Partly', refusal: 'I cannot say more.' } });
    expect(await read({ model: 'o3-pro', messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({ message: { content: 'cut' }, finish_reason: 'length' });
  });

  it.for([false, true])('drives a 5-step tool loop through a responses-only model (runTools, stream: %s)', async (stream) => {
    const mock = createMockGateway({ models: strictModels });
    mock.script([...['Oslo', 'Rome', 'Lima', 'Pune'].map((city) => ({ toolCalls: [{ name: 'get_weather', arguments: { city } }] })), { content: 'Sunny everywhere.' }]);
    const tool = defineTool({ name: 'get_weather', description: 'Weather in a city', parameters: z.object({ city: z.string() }), run: ({ city }) => `14 C in ${city}` });
    const run = await client(mock).chat.completions.runTools({ model: 'o3-pro', messages: [{ role: 'user', content: 'Weather?' }], tools: [tool], stream }, { maxTurns: 6 });
    expect(run.completion.choices[0]?.message.content).toBe('Sunny everywhere.');
    expect(mock.requests.filter((r) => r.path === 'responses')).toHaveLength(5);
    expect(mock.requests.at(-1)?.body).toMatchObject({ input: expect.arrayContaining([expect.objectContaining({ type: 'function_call_output', output: '14 C in Pune' })]) });
  });
});
