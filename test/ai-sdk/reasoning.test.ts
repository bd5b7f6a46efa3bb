import { generateText, stepCountIs, streamText, tool, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultModels, type MockModel } from '../../src/testing/index.js';
import { mockProvider } from './helpers.js';

// The provider builds each assistant turn of a prompt by the model's reasoning rule
// (docs/chat.md#reasoning-models), as runTools does: the AI SDK's reasoning parts go back
// where the table (or the client's reasoningRules) says, so a multi-step tool loop on a
// DeepSeek thinking model gets past step 2, and a model that refuses reasoning gets none.

const add = tool({ description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b });
const prompt = 'What is 2 + 2, then + 3?';
const script = [
  { toolCalls: [{ name: 'add', arguments: { a: 2, b: 2 } }], reasoning: 'First 2 + 2.' },
  { toolCalls: [{ name: 'add', arguments: { a: 4, b: 3 } }], reasoning: 'Then + 3.' },
  { content: '7.', reasoning: 'That makes 7.' },
];
type Sent = { messages: Array<Record<string, unknown>> };
const sent = (mock: { requests: Array<{ body: unknown }> }, i: number) => (mock.requests[i]?.body as Sent | undefined)?.messages ?? [];
const assistantTurns = (messages: Array<Record<string, unknown>>) => messages.filter((m) => m.role === 'assistant');

// ai 7 keeps every step's messages in `responseMessages` (its `response.messages` is the last step's); ai 6 has only `response.messages`.
type AnyVersion = { responseMessages?: PromiseLike<ModelMessage[]> | ModelMessage[] };

/** generateText or streamText through to its steps, text and the messages of all steps, the same way for both. */
async function loop(stream: boolean, options: Parameters<typeof generateText>[0]) {
  if (!stream) {
    const result = await generateText(options);
    return { text: result.text, steps: result.steps.length, messages: (await (result as AnyVersion).responseMessages) ?? result.response.messages };
  }
  const errors: unknown[] = [];
  const result = streamText({ ...options, onError: ({ error }) => void errors.push(error) } as Parameters<typeof streamText>[0]);
  await result.consumeStream();
  if (errors.length) throw errors[0];
  return { text: await result.text, steps: (await result.steps).length, messages: (await (result as AnyVersion).responseMessages) ?? (await result.response).messages };
}

describe.each([false, true])('reasoning that round-trips (stream: %s)', (stream) => {
  it('runs a multi-step tool loop on a DeepSeek thinking model, each turn’s reasoning sent back in reasoning_content', async () => {
    const { gw, mock } = mockProvider({ script });
    const result = await loop(stream, { model: gw('deepseek-reasoner'), prompt, tools: { add }, stopWhen: stepCountIs(3) });
    expect(result.text).toBe('7.');
    expect(result.steps).toBe(3);
    expect(mock.requests).toHaveLength(3);
    expect(assistantTurns(sent(mock, 1)).map((m) => m.reasoning_content)).toEqual(['First 2 + 2.']);
    expect(assistantTurns(sent(mock, 2)).map((m) => m.reasoning_content)).toEqual(['First 2 + 2.', 'Then + 3.']);
  });

  it('sends every earlier turn’s reasoning on the next user turn of the conversation (rule: always)', async () => {
    const { gw, mock } = mockProvider({ script: [...script, { content: 'Yes.', reasoning: 'Sure.' }] });
    const first = await loop(stream, { model: gw('deepseek-reasoner'), prompt, tools: { add }, stopWhen: stepCountIs(3) });
    const messages: ModelMessage[] = [{ role: 'user', content: prompt }, ...first.messages, { role: 'user', content: 'Sure?' }];
    expect((await loop(stream, { model: gw('deepseek-reasoner'), messages, tools: { add } })).text).toBe('Yes.');
    expect(assistantTurns(sent(mock, 3)).map((m) => m.reasoning_content)).toEqual(['First 2 + 2.', 'Then + 3.', 'That makes 7.']);
  });

  it('sends no reasoning to a model that refuses it, though it gave some', async () => {
    const { gw, mock } = mockProvider({ script });
    expect((await loop(stream, { model: gw('deepseek-r1'), prompt, tools: { add }, stopWhen: stepCountIs(3) })).text).toBe('7.');
    expect(mock.requests).toHaveLength(3);
    for (const m of sent(mock, 2)) {
      expect(m).not.toHaveProperty('reasoning_content');
      expect(m).not.toHaveProperty('reasoning');
    }
  });

  it('sends no reasoning field to a model the table does not know', async () => {
    const { gw, mock } = mockProvider({ script });
    await loop(stream, { model: gw('gpt-4o-mini'), prompt, tools: { add }, stopWhen: stepCountIs(3) });
    for (const m of assistantTurns(sent(mock, 2))) expect(Object.keys(m).sort()).toEqual(['content', 'role', 'tool_calls']);
  });

  it('follows the client’s reasoningRules over the table, in the field the rule names', async () => {
    const models: MockModel[] = [...defaultModels, { id: 'proxy-thinker', owned_by: 'test', kind: 'chat', reasoning: { field: 'reasoning', history: 'required-on-tool-calls' } }];
    const { gw, mock } = mockProvider({ models, script }, { reasoningRules: { 'proxy-*': { send: 'tool-calls', field: 'reasoning' } } });
    expect((await loop(stream, { model: gw('proxy-thinker'), prompt, tools: { add }, stopWhen: stepCountIs(3) })).text).toBe('7.');
    const turns = assistantTurns(sent(mock, 2));
    expect(turns.map((m) => m.reasoning)).toEqual(['First 2 + 2.', 'Then + 3.']);
    for (const m of turns) expect(m).not.toHaveProperty('reasoning_content');
  });

  it('reproduces the DeepSeek 400 at step 2 when the client’s rule says never', async () => {
    const { gw, mock } = mockProvider({ script }, { reasoningRules: { 'deepseek-reasoner': { send: 'never' } } });
    const failure = await loop(stream, { model: gw('deepseek-reasoner'), prompt, tools: { add }, stopWhen: stepCountIs(3) }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ statusCode: 400, message: expect.stringContaining('The `reasoning_content` in the thinking mode must be passed back to the API.') });
    expect(mock.requests).toHaveLength(2);
  });
});

describe('assistant turns of a prompt, by rule', () => {
  const call = (id: string) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'add', input: { a: 1, b: 2 } });
  const result = (id: string) => ({ role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: id, toolName: 'add', output: { type: 'text' as const, value: '3' } }] });
  const messages: ModelMessage[] = [
    { role: 'user', content: 'a' },
    { role: 'assistant', content: [{ type: 'reasoning', text: 'Think' }, { type: 'reasoning', text: 'ing.' }, { type: 'text', text: 'Let me add.' }, call('c1')] },
    result('c1'),
    { role: 'assistant', content: [{ type: 'reasoning', text: 'Done.' }, { type: 'text', text: '3.' }] },
    { role: 'user', content: 'b' },
    { role: 'assistant', content: [call('c2')] },
    result('c2'),
  ];
  const models: MockModel[] = [...defaultModels, { id: 'qwen3-32b', owned_by: 'test', kind: 'chat' }, { id: 'glm-5', owned_by: 'test', kind: 'chat' }, { id: 'kimi-k2-thinking', owned_by: 'test', kind: 'chat' }];

  it.each([
    // qwen3: on tool-call turns only; a tool-call turn without reasoning carries none (it only
    // loses reasoning, and Groq refuses reasoning_content, an empty one too).
    ['qwen3-32b', ['Thinking.', undefined, undefined]],
    // glm-5: every assistant turn; none added either.
    ['glm-5', ['Thinking.', 'Done.', undefined]],
    // Kimi's thinking models: on tool-call turns, and empty where there was none (a 400 without it).
    ['kimi-k2-thinking', ['Thinking.', undefined, '']],
    // deepseek-r1: never.
    ['deepseek-r1', [undefined, undefined, undefined]],
  ])('%s: reasoning parts joined into reasoning_content where the table says', async (model, expected) => {
    const { gw, mock } = mockProvider({ models });
    await generateText({ model: gw(model), messages, tools: { add } });
    const turns = assistantTurns(sent(mock, 0));
    expect(turns.map((m) => m.reasoning_content)).toEqual(expected);
    expect(turns.map((m) => ('reasoning_content' in m ? 'field' : 'none'))).toEqual(expected.map((e) => (e === undefined ? 'none' : 'field')));
    expect(turns[0]).toMatchObject({ content: 'Let me add.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] });
    expect(turns[2]).toMatchObject({ content: null });
  });
});

// Gemini 3 behind an OpenAI-compatible gateway: the thought signature rides on the tool call
// (`extra_content.google.thought_signature`) and must come back on it, or step 2 is a 400.
describe.each([false, true])('a tool call’s vendor data round-trips (stream: %s)', (stream) => {
  const extra_content = { google: { thought_signature: 'c2lnbmVk' } };
  const call = { id: 'call_g1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' }, extra_content };
  const reply = (message: Record<string, unknown>, finish: string) => ({ id: 'r', object: 'chat.completion', created: 1, model: 'gemini-3-pro-preview', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }] });
  const frames = (message: Record<string, unknown>, finish: string) => {
    const { tool_calls, ...rest } = message as { tool_calls?: Array<Record<string, unknown>> };
    const chunk = (delta: Record<string, unknown>, finish_reason: string | null) => ({ id: 'r', object: 'chat.completion.chunk', created: 1, model: 'gemini-3-pro-preview', choices: [{ index: 0, delta, finish_reason }] });
    const out = [chunk({ role: 'assistant', ...rest }, null)];
    for (const [index, c] of (tool_calls ?? []).entries()) out.push(chunk({ tool_calls: [{ index, ...c }] }, null));
    out.push(chunk({}, finish));
    return `${out.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')}data: [DONE]\n\n`;
  };

  it('sends extra_content back on the call it came with', async () => {
    const answers = [
      [{ content: null, tool_calls: [call] }, 'tool_calls'],
      [{ content: '4.' }, 'stop'],
    ] as const;
    const bodies: Array<{ messages: Array<Record<string, unknown>> }> = [];
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      const [message, finish] = answers[bodies.length] ?? answers[1];
      bodies.push(JSON.parse(String(init?.body)) as (typeof bodies)[number]);
      return stream
        ? new Response(frames(message, finish), { headers: { 'content-type': 'text/event-stream' } })
        : Response.json(reply(message, finish));
    };
    const { gw } = mockProvider({}, { fetch });
    expect((await loop(stream, { model: gw('gemini-3-pro-preview'), prompt, tools: { add }, stopWhen: stepCountIs(3) })).text).toBe('4.');
    expect(bodies).toHaveLength(2);
    expect(assistantTurns(bodies[1]?.messages ?? [])).toEqual([{ role: 'assistant', content: null, tool_calls: [call] }]);
  });
});
