import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Gateway } from '../../../src/index.js';
import { createMockGateway } from '../../../src/testing/index.js';

// A turn's reasoning goes back to the model that wrote it, and to no other (issue 31): when a
// fallback model answers a turn of runTools, the next request (to the requested model) carries
// none of the fallback's reasoning fields, and the requested model's rule applies as to a turn
// that carried no reasoning. Against the strict catalogue, whose hosts answer 400 to fields
// they do not take, and to a missing field they require.

const getWeather = defineTool({ name: 'get_weather', parameters: z.object({ city: z.string() }), run: ({ city }) => `14 C in ${city}` });
const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];

function setup(clientFallbacks?: Record<string, string[]>) {
  const mock = createMockGateway({ apiKey: 'test-key', catalog: 'strict' });
  const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 0, ...(clientFallbacks ? { fallbackModels: clientFallbacks } : {}) });
  // The requested model's first call is unavailable: the fallback answers turn 1.
  mock.inject({ type: 'unavailable', path: 'chat/completions', times: 1 });
  const assistantSent = () => {
    const second = mock.requests.filter((r) => r.path === 'chat/completions' && (r.body as { messages: unknown[] }).messages.length > 1)[0];
    return (second?.body as { model: string; messages: Array<Record<string, unknown>> } | undefined) ?? { model: '', messages: [] };
  };
  return { mock, client, assistantSent };
}

describe.each([false, true])('runTools after a model fallback (stream: %s)', (stream) => {
  it.each([
    // Groq refuses reasoning_content: DeepSeek's does not go, and no empty one is added.
    ['qwen/qwen3-32b', 'deepseek-reasoner', ['role', 'content', 'tool_calls']],
    // OpenAI refuses message fields it does not know: OpenRouter's reasoning_details stay behind.
    ['gpt-4', 'anthropic/claude-sonnet-4.5', ['role', 'content', 'tool_calls']],
    // LiteLLM's thinking_blocks and reasoning_content do not go to Groq.
    ['qwen/qwen3-32b', 'litellm/claude-sonnet-4-5', ['role', 'content', 'tool_calls']],
    // Kimi requires reasoning_content on a tool-call turn: Groq's `reasoning` is not renamed, the field goes empty.
    ['kimi-k2-thinking', 'qwen/qwen3-32b', ['role', 'content', 'tool_calls', 'reasoning_content']],
    // DeepSeek's thinking mode requires it too.
    ['deepseek-reasoner', 'litellm/claude-sonnet-4-5', ['role', 'content', 'tool_calls', 'reasoning_content']],
  ])('%s ← %s: the fallback’s reasoning does not go to the requested model', async (model, fallback, keys) => {
    const { client, assistantSent } = setup();
    const { completion } = await client.chat.completions.runTools({ model, messages, tools: [getWeather], stream }, { fallbackModels: [fallback], maxTurns: 4 });
    expect(completion.choices[0]?.message.content).toContain('14 C in Paris');
    const sent = assistantSent();
    expect(sent.model).toBe(model);
    const turn = sent.messages.find((m) => m.role === 'assistant') ?? {};
    expect(Object.keys(turn).sort()).toEqual([...keys].sort());
    if ('reasoning_content' in turn) expect(turn.reasoning_content).toBe('');
  });

  it('drops a Gemini fallback’s thought signature (extra_content) on its way to another model', async () => {
    const { client, assistantSent } = setup();
    await client.chat.completions.runTools({ model: 'gpt-4', messages, tools: [getWeather], stream }, { fallbackModels: ['gemini-3-pro-preview'], maxTurns: 4 });
    const turn = assistantSent().messages.find((m) => m.role === 'assistant') as { tool_calls: Array<Record<string, unknown>> };
    expect(turn.tool_calls[0]).not.toHaveProperty('extra_content');
  });

  it('takes the client’s fallbackModels into account as well as the request’s', async () => {
    const { client, assistantSent } = setup({ 'gpt-4': ['anthropic/claude-sonnet-4.5'] });
    await client.chat.completions.runTools({ model: 'gpt-4', messages, tools: [getWeather], stream }, { maxTurns: 4 });
    expect(assistantSent().messages.find((m) => m.role === 'assistant')).not.toHaveProperty('reasoning_details');
  });
});
