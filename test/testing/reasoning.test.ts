import { describe, expect, it } from 'vitest';
import { createMockGateway, defaultModels, type MockGateway, type MockModel } from '../../src/testing/index.js';

// The mock's reasoning models, read on the wire (raw JSON and SSE) so the SDK's own handling of
// the fields plays no part.

const thinking: MockModel[] = [
  { id: 'thinks-in-reasoning-content', owned_by: 'test', kind: 'chat', reasoning: {} },
  { id: 'thinks-in-reasoning', owned_by: 'test', kind: 'chat', reasoning: { field: 'reasoning' } },
  { id: 'wants-it-back', owned_by: 'test', kind: 'chat', reasoning: { history: 'required-on-tool-calls' } },
  { id: 'refuses-it', owned_by: 'test', kind: 'chat', reasoning: { history: 'rejected' } },
  { id: 'plain', owned_by: 'test', kind: 'chat' },
];

function post(mock: MockGateway, body: Record<string, unknown>): Promise<Response> {
  return mock.fetch('http://mock.local/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function message(mock: MockGateway, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await post(mock, body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { choices: Array<{ message: Record<string, unknown> }> }).choices[0]?.message ?? {};
}

/** The `delta` of every data frame of a streamed answer, in order. */
async function deltas(mock: MockGateway, body: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const text = await (await post(mock, { ...body, stream: true })).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .flatMap((line) => (JSON.parse(line.slice('data: '.length)) as { choices: Array<{ delta: Record<string, unknown> }> }).choices.map((c) => c.delta));
}

const user = { role: 'user', content: 'What is 2 + 2?' };
const toolTurn = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } }] };
const toolResult = { role: 'tool', tool_call_id: 'call_1', content: '4' };

describe('mock reasoning models', () => {
  it('answer with reasoning in the field their vendor uses, and a plain model with none', async () => {
    const mock = createMockGateway({ models: thinking });
    const a = await message(mock, { model: 'thinks-in-reasoning-content', messages: [user] });
    expect(a.reasoning_content).toBe('The user said: What is 2 + 2?');
    expect(a).not.toHaveProperty('reasoning');
    const b = await message(mock, { model: 'thinks-in-reasoning', messages: [user] });
    expect(b.reasoning).toBe('The user said: What is 2 + 2?');
    expect(b).not.toHaveProperty('reasoning_content');
    const c = await message(mock, { model: 'plain', messages: [user] });
    expect(c).not.toHaveProperty('reasoning_content');
    expect(c).not.toHaveProperty('reasoning');
  });

  it('stream the reasoning in pieces before the content, in the same field', async () => {
    const mock = createMockGateway({ models: thinking });
    const frames = await deltas(mock, { model: 'thinks-in-reasoning', messages: [user] });
    const reasoning = frames.filter((d) => typeof d.reasoning === 'string').map((d) => d.reasoning);
    expect(reasoning.length).toBeGreaterThan(1);
    expect(reasoning.join('')).toBe('The user said: What is 2 + 2?');
    const firstContent = frames.findIndex((d) => typeof d.content === 'string' && d.content !== '');
    const lastReasoning = frames.map((d) => typeof d.reasoning === 'string').lastIndexOf(true);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(frames.some((d) => 'reasoning_content' in d)).toBe(false);
  });

  it('report the reasoning words as reasoning tokens', async () => {
    const mock = createMockGateway({ models: thinking });
    const res = await post(mock, { model: 'thinks-in-reasoning-content', messages: [user] });
    const { usage } = (await res.json()) as { usage: { completion_tokens: number; completion_tokens_details?: { reasoning_tokens: number } } };
    expect(usage.completion_tokens_details?.reasoning_tokens).toBe(8);
    expect(usage.completion_tokens).toBeGreaterThan(8);
  });

  it('play a scripted reply’s reasoning, on any model, streamed or not', async () => {
    const mock = createMockGateway({ models: thinking });
    mock.script([{ content: 'Four.', reasoning: '2 and 2 make 4.' }, { content: 'Four.', reasoning: '2 and 2 make 4.' }, { content: 'Four.', reasoning: 'plain too' }]);
    expect(await message(mock, { model: 'thinks-in-reasoning', messages: [user] })).toMatchObject({ content: 'Four.', reasoning: '2 and 2 make 4.' });
    const frames = await deltas(mock, { model: 'thinks-in-reasoning-content', messages: [user] });
    expect(frames.map((d) => d.reasoning_content ?? '').join('')).toBe('2 and 2 make 4.');
    expect(await message(mock, { model: 'plain', messages: [user] })).toMatchObject({ reasoning_content: 'plain too' });
  });

  describe("history: 'required-on-tool-calls' (DeepSeek's thinking mode with tools)", () => {
    it('answers 400 with DeepSeek’s message when an assistant turn that called a tool comes back without its reasoning', async () => {
      const mock = createMockGateway({ models: thinking });
      const res = await post(mock, { model: 'wants-it-back', messages: [user, toolTurn, toolResult] });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { message: 'The `reasoning_content` in the thinking mode must be passed back to the API.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' },
      });
    });

    it('accepts the turn with its reasoning (an empty one too), and plain assistant turns without any', async () => {
      const mock = createMockGateway({ models: thinking });
      const plain = { role: 'assistant', content: 'Hi.' };
      await message(mock, { model: 'wants-it-back', messages: [user, plain, user, { ...toolTurn, reasoning_content: 'Add them.' }, toolResult] });
      await message(mock, { model: 'wants-it-back', messages: [user, { ...toolTurn, reasoning_content: '' }, toolResult] });
    });

    it('takes no scripted reply when it refuses, so the retry gets it', async () => {
      const mock = createMockGateway({ models: thinking, script: [{ content: 'scripted' }] });
      expect((await post(mock, { model: 'wants-it-back', messages: [user, toolTurn, toolResult] })).status).toBe(400);
      expect(await message(mock, { model: 'wants-it-back', messages: [user, { ...toolTurn, reasoning_content: 'x' }, toolResult] })).toMatchObject({ content: 'scripted' });
    });
  });

  describe("history: 'rejected' (DeepSeek-R1)", () => {
    it('answers 400 when any message carries the field, whatever its value', async () => {
      const mock = createMockGateway({ models: thinking });
      for (const value of ['Add them.', '', null]) {
        const res = await post(mock, { model: 'refuses-it', messages: [user, { role: 'assistant', content: '4', reasoning_content: value }, user] });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
          'The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your message to reduce network traffic.',
        );
      }
      await message(mock, { model: 'refuses-it', messages: [user, { role: 'assistant', content: '4' }, user] });
    });
  });

  it('are in the default catalogue: deepseek-reasoner wants reasoning back on tool-call turns, deepseek-r1 refuses it', async () => {
    expect(defaultModels.find((m) => m.id === 'deepseek-reasoner')?.reasoning).toEqual({ history: 'required-on-tool-calls' });
    expect(defaultModels.find((m) => m.id === 'deepseek-r1')?.reasoning).toEqual({ history: 'rejected' });
    const mock = createMockGateway();
    expect((await post(mock, { model: 'deepseek-reasoner', messages: [user, toolTurn, toolResult] })).status).toBe(400);
    expect((await post(mock, { model: 'deepseek-r1', messages: [user, { role: 'assistant', content: '4', reasoning_content: 'x' }, user] })).status).toBe(400);
  });
});
