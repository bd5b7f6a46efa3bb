import { generateText, jsonSchema, Output, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryStore, ValidationError } from '../../src/index.js';
import { mockProvider } from './helpers.js';
import { PNG } from '../helpers/mock-client.js';

describe('generateText', () => {
  it('answers through the client and reports usage, finish reason and response metadata', async () => {
    const { gw, mock } = mockProvider();
    const result = await generateText({ model: gw('gpt-4o-mini'), system: 'Be brief.', prompt: 'hello there', temperature: 0.2, maxOutputTokens: 50, topP: 0.9, seed: 7, stopSequences: ['END'], presencePenalty: 0.1, frequencyPenalty: 0.2 });
    expect(result.text).toBe('You said: hello there');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.response.modelId).toBe('gpt-4o-mini');
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello there' }],
      temperature: 0.2,
      max_tokens: 50,
      top_p: 0.9,
      seed: 7,
      stop: ['END'],
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
    });
  });

  it('sends images as URLs and as data URLs', async () => {
    const { gw, mock } = mockProvider();
    const result = await generateText({
      model: gw('gpt-4o-mini'),
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image', image: new URL('https://example.com/cat.png') }, { type: 'image', image: PNG, mediaType: 'image/png' }] }],
    });
    expect(result.text).toContain('I see 2 images.');
    const content = (mock.requests[0]?.body as { messages: Array<{ content: Array<{ image_url?: { url: string } }> }> }).messages[0]?.content;
    expect(content?.[1]?.image_url?.url).toBe('https://example.com/cat.png');
    expect(content?.[2]?.image_url?.url).toMatch(/^data:image\/png;base64,iVBOR/);
  });

  it('passes provider options into the body and takes request options out of it', async () => {
    const { gw, mock } = mockProvider();
    await generateText({ model: gw('gpt-4o-mini'), prompt: 'hi', providerOptions: { unifiedGateway: { user: 'u-1', parallel_tool_calls: false, fallbackModels: ['gpt-4o'] } } });
    expect(mock.requests[0]?.body).toMatchObject({ user: 'u-1', parallel_tool_calls: false });
    expect(mock.requests[0]?.body).not.toHaveProperty('fallbackModels');
  });

  it("takes the cache mode per call from providerOptions.unifiedGateway.cache ('use', 'refresh', 'bypass'), never as a body field", async () => {
    const { gw, mock } = mockProvider({}, { cache: { store: memoryStore() } });
    const ask = (cache?: string) => generateText({ model: gw('gpt-4o-mini'), prompt: 'cached?', ...(cache ? { providerOptions: { unifiedGateway: { cache } } } : {}) });
    await ask();
    await ask('use');
    expect(mock.requests).toHaveLength(1);
    await ask('bypass');
    expect(mock.requests).toHaveLength(2);
    await ask('refresh');
    expect(mock.requests).toHaveLength(3);
    for (const request of mock.requests) expect(request.body).not.toHaveProperty('cache');
  });

  it('refuses any other cache mode before sending, naming the provider option', async () => {
    const { gw, mock } = mockProvider({}, { cache: { store: memoryStore() } });
    const error = await generateText({ model: gw('gpt-4o-mini'), prompt: 'x', providerOptions: { unifiedGateway: { cache: 'skip' } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'providerOptions.unifiedGateway.cache' });
    expect((error as Error).message).toMatch(/must be 'use', 'refresh' or 'bypass'/);
    expect(mock.requests).toHaveLength(0);
  });

  it('runs a tool and answers from its result (multi-step)', async () => {
    const { gw, mock } = mockProvider();
    const result = await generateText({
      model: gw('gpt-4o-mini'),
      prompt: 'Weather in Lisbon?',
      tools: { get_weather: tool({ description: 'The weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, temperature: 21 }) }) },
      stopWhen: stepCountIs(3),
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { city: 'Lisbon' } });
    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(result.text).toBe('The tool returned: {"city":"Lisbon","temperature":21}');
    const second = mock.requests[1]?.body as { messages: Array<Record<string, unknown>> };
    expect(second.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] });
    expect(second.messages[2]).toMatchObject({ role: 'tool', content: '{"city":"Lisbon","temperature":21}' });
    expect(mock.requests[0]?.body).toMatchObject({ tools: [{ type: 'function', function: { name: 'get_weather', description: 'The weather' } }], tool_choice: 'auto' });
  });

  it('forces one tool with toolChoice', async () => {
    const { gw, mock } = mockProvider();
    const result = await generateText({
      model: gw('gpt-4o-mini'),
      prompt: 'x',
      tools: { a: tool({ inputSchema: jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'number' } } }) }), b: tool({ inputSchema: z.object({ s: z.string() }) }) },
      toolChoice: { type: 'tool', toolName: 'b' },
    });
    expect(result.toolCalls[0]?.toolName).toBe('b');
    expect(mock.requests[0]?.body).toMatchObject({ tool_choice: { type: 'function', function: { name: 'b' } } });
  });

  it('returns a validated object with Output.object (json_schema response format)', async () => {
    const { gw, mock } = mockProvider();
    const { output } = await generateText({ model: gw('gpt-4o-mini'), prompt: 'Plan a day in Lisbon', output: Output.object({ schema: z.object({ city: z.string(), stops: z.array(z.string()) }) }) });
    expect(output.city).toBe('Lisbon');
    expect(Array.isArray(output.stops)).toBe(true);
    expect(mock.requests[0]?.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } } });
  });

});

describe('streamText', () => {
  it('streams text, asks for usage and reports it', async () => {
    const { gw, mock } = mockProvider();
    const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'stream me some words' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('You said: stream me some words');
    const usage = await result.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(Number.isNaN(usage.totalTokens)).toBe(false);
    expect(await result.finishReason).toBe('stop');
    expect(mock.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("keeps the caller's stream_options", async () => {
    const { gw, mock } = mockProvider();
    const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'x', providerOptions: { unifiedGateway: { stream_options: { include_usage: false } } } });
    await result.consumeStream();
    expect(mock.requests[0]?.body).toMatchObject({ stream_options: { include_usage: false } });
  });

  it('streams tool input and tool calls, then the next step', async () => {
    const { gw } = mockProvider();
    const result = streamText({
      model: gw('gpt-4o-mini'),
      prompt: 'Weather in Oslo?',
      tools: { get_weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `cold in ${city}` }) },
      stopWhen: stepCountIs(2),
    });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toEqual(expect.arrayContaining(['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call', 'tool-result', 'text-delta', 'finish']));
    expect(types.indexOf('tool-input-start')).toBeLessThan(types.indexOf('tool-call'));
    expect(await result.text).toBe('The tool returned: cold in Oslo');
  });
});
