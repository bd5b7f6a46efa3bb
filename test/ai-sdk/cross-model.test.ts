import { generateText, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { Gateway } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

// A turn's reasoning goes back to the model that wrote it, and to no other (issue 31): the
// reasoning and tool-call parts record their writer in providerMetadata.unifiedGateway, and a
// turn another model wrote (a fallback answered it, or prepareStep moved the conversation)
// goes without its vendor fields. Against the strict catalogue, whose hosts answer 400 to
// fields they do not take, and to a missing field they require.

const tools = { get_weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `14 C in ${city}` }) };

function setup(fallbackModels?: Record<string, string[]>) {
  const mock = createMockGateway({ apiKey: 'test-key', catalog: 'strict' });
  const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 0, ...(fallbackModels ? { fallbackModels } : {}) });
  const assistantSent = () => {
    const second = mock.requests.filter((r) => r.path === 'chat/completions' && (r.body as { messages: unknown[] }).messages.length > 1)[0];
    const body = (second?.body as { model: string; messages: Array<Record<string, unknown>> } | undefined) ?? { model: '', messages: [] };
    return { model: body.model, turn: body.messages.find((m) => m.role === 'assistant') ?? {} };
  };
  return { mock, gw: createUnifiedGateway({ client }), assistantSent };
}

/** The tool loop on `model`; with `then`, prepareStep moves every later step to that model. */
async function run(stream: boolean, model: LanguageModel, then?: LanguageModel): Promise<string> {
  const all = { model, prompt: 'Weather in Paris?', tools, stopWhen: stepCountIs(3), maxRetries: 0, ...(then ? { prepareStep: ({ stepNumber }: { stepNumber: number }) => (stepNumber > 0 ? { model: then } : {}) } : {}) };
  if (!stream) return (await generateText(all)).text;
  const errors: unknown[] = [];
  const result = streamText({ ...all, onError: ({ error }) => void errors.push(error) });
  await result.consumeStream();
  if (errors.length) throw errors[0];
  return result.text;
}

const cases = [
  // Groq refuses reasoning_content: DeepSeek's does not go, and no empty one is added.
  ['qwen/qwen3-32b', 'deepseek-reasoner', ['role', 'content', 'tool_calls']],
  // OpenAI refuses message fields it does not know: OpenRouter's reasoning_details stay behind.
  ['gpt-4', 'anthropic/claude-sonnet-4.5', ['role', 'content', 'tool_calls']],
  // LiteLLM's thinking_blocks and reasoning_content do not go to Groq.
  ['qwen/qwen3-32b', 'litellm/claude-sonnet-4-5', ['role', 'content', 'tool_calls']],
  // Kimi requires reasoning_content on a tool-call turn: Groq's `reasoning` is not renamed, the field goes empty.
  ['kimi-k2-thinking', 'qwen/qwen3-32b', ['role', 'content', 'tool_calls', 'reasoning_content']],
] as const;

describe.each([false, true])('the AI SDK provider across models (stream: %s)', (stream) => {
  it.each(cases)('%s ← a fallback %s: the fallback’s reasoning does not go to the requested model', async (model, fallback, keys) => {
    const { mock, gw, assistantSent } = setup({ [model]: [fallback] });
    mock.inject({ type: 'unavailable', path: 'chat/completions', times: 1 });
    expect(await run(stream, gw(model))).toContain('14 C in Paris');
    const { model: sentTo, turn } = assistantSent();
    expect(sentTo).toBe(model);
    expect(Object.keys(turn).sort()).toEqual([...keys].sort());
    if ('reasoning_content' in turn) expect(turn.reasoning_content).toBe('');
  });

  it.each(cases)('%s ← %s by prepareStep: the first model’s reasoning does not go to the second', async (model, first, keys) => {
    const { gw, assistantSent } = setup();
    expect(await run(stream, gw(first), gw(model))).toContain('14 C in Paris');
    const { model: sentTo, turn } = assistantSent();
    expect(sentTo).toBe(model);
    expect(Object.keys(turn).sort()).toEqual([...keys].sort());
  });

  it('drops a Gemini turn’s thought signature (extra_content) on its way to another model', async () => {
    const { gw, assistantSent } = setup();
    await run(stream, gw('gemini-3-pro-preview'), gw('gpt-4'));
    const { turn } = assistantSent() as { turn: { tool_calls?: Array<Record<string, unknown>> } };
    expect(turn.tool_calls?.[0]).not.toHaveProperty('extra_content');
  });

  it('records the writer on the parts, and still sends a model its own reasoning', async () => {
    const { mock, gw } = setup();
    const all = { model: gw('anthropic/claude-sonnet-4.5'), prompt: 'Weather in Paris?', tools, stopWhen: stepCountIs(3) };
    let steps;
    if (stream) {
      const result = streamText(all);
      await result.consumeStream();
      steps = await result.steps;
    } else {
      steps = (await generateText(all)).steps;
    }
    const reasoning = steps[0]?.content.find((part) => part.type === 'reasoning');
    expect(reasoning?.providerMetadata?.unifiedGateway).toMatchObject({ model: 'anthropic/claude-sonnet-4.5' });
    const second = mock.requests.filter((r) => r.path === 'chat/completions')[1]?.body as { messages: Array<Record<string, unknown>> };
    expect(second.messages.find((m) => m.role === 'assistant')).toHaveProperty('reasoning_details');
  });
});
