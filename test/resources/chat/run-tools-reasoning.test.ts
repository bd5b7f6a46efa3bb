import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { BadRequestError, chatStreamFromReadable, defineTool, type ChatCompletionChunk } from '../../../src/index.js';
import { defaultModels, type MockModel } from '../../../src/testing/index.js';
import { mockClient } from '../../helpers/mock-client.js';

// runTools builds each assistant turn by the model's reasoning rule (docs/chat.md#reasoning-models):
// a DeepSeek thinking model gets its reasoning back and does not fail at step 2; a model that
// refuses reasoning never gets any.

const add = defineTool({ name: 'add', parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b });
const messages = [{ role: 'user' as const, content: 'What is 2 + 2, then + 3?' }];
const script = [
  { toolCalls: [{ name: 'add', arguments: { a: 2, b: 2 } }], reasoning: 'First 2 + 2.' },
  { toolCalls: [{ name: 'add', arguments: { a: 4, b: 3 } }], reasoning: 'Then + 3.' },
  { content: '7.', reasoning: 'That makes 7.' },
];
type Sent = { messages: Array<Record<string, unknown>> };
const sent = (mock: { requests: Array<{ body: unknown }> }) => mock.requests.map((r) => (r.body as Sent).messages);

describe('runTools with reasoning models', () => {
  it.each([false, true])('runs a multi-step tool loop on a DeepSeek thinking model, sending each tool-call turn’s reasoning back (stream: %s)', async (stream) => {
    const { client, mock } = mockClient({ script });
    const { completion, messages: transcript } = await client.chat.completions.runTools({ model: 'deepseek-reasoner', messages, tools: [add], stream });
    expect(completion.choices[0]?.message.content).toBe('7.');
    expect(mock.requests).toHaveLength(3);
    const third = sent(mock)[2] ?? [];
    expect(third.filter((m) => m.role === 'assistant').map((m) => m.reasoning_content)).toEqual(['First 2 + 2.', 'Then + 3.']);
    // The transcript is what was sent, ready for the next turn of the conversation.
    expect(transcript.filter((m) => m.role === 'assistant').map((m) => ('reasoning_content' in m ? m.reasoning_content : undefined))).toEqual(['First 2 + 2.', 'Then + 3.', 'That makes 7.']);
  });

  it('sends no reasoning back to a model that refuses it, even when it gave some', async () => {
    const { client, mock } = mockClient({ script });
    const { completion } = await client.chat.completions.runTools({ model: 'deepseek-r1', messages, tools: [add] });
    expect(completion.choices[0]?.message.content).toBe('7.');
    for (const request of sent(mock)) for (const m of request) expect(m).not.toHaveProperty('reasoning_content');
  });

  it('sends no reasoning field to a model the table does not know, nor refusal or other reply fields', async () => {
    const { client, mock } = mockClient({ script });
    await client.chat.completions.runTools({ model: 'gpt-4o-mini', messages, tools: [add] });
    const assistant = (sent(mock)[2] ?? []).filter((m) => m.role === 'assistant');
    for (const m of assistant) expect(Object.keys(m).sort()).toEqual(['content', 'role', 'tool_calls']);
  });

  it('follows the client’s reasoningRules over the table', async () => {
    const { client } = mockClient({ script }, { reasoningRules: { 'deepseek-r1': { send: 'always' } } });
    const err = await client.chat.completions.runTools({ model: 'deepseek-r1', messages, tools: [add] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('Please remove the reasoning_content from your message');
  });

  it('reproduces the DeepSeek 400 at step 2 when the rule says never', async () => {
    const { client, mock } = mockClient({ script }, { reasoningRules: { 'deepseek-reasoner': { send: 'never' } } });
    const err = await client.chat.completions.runTools({ model: 'deepseek-reasoner', messages, tools: [add] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 400, message: expect.stringContaining('The `reasoning_content` in the thinking mode must be passed back to the API.') });
    expect(mock.requests).toHaveLength(2);
  });

  it('writes the field the rule names, for a model that reads reasoning back from `reasoning`', async () => {
    const models: MockModel[] = [...defaultModels, { id: 'proxy-thinker', owned_by: 'test', kind: 'chat', reasoning: { field: 'reasoning', history: 'required-on-tool-calls' } }];
    const { client, mock } = mockClient({ models, script }, { reasoningRules: { 'proxy-*': { send: 'tool-calls', field: 'reasoning' } } });
    const { completion } = await client.chat.completions.runTools({ model: 'proxy-thinker', messages, tools: [add] });
    expect(completion.choices[0]?.message.content).toBe('7.');
    expect((sent(mock)[2] ?? []).filter((m) => m.role === 'assistant').map((m) => m.reasoning)).toEqual(['First 2 + 2.', 'Then + 3.']);
  });
});

describe('streamed tool calls keep the vendor data that must go back with them', () => {
  it('keeps a tool call’s extra_content (Gemini’s thought signature) in the final completion', async () => {
    const signature = { google: { thought_signature: 'c2lnbmVk' } };
    const frame = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: string | null = null): ChatCompletionChunk => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gemini-3-pro-preview',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const frames = [
      frame({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '' }, extra_content: signature }] }),
      frame({ tool_calls: [{ index: 0, function: { arguments: '{"a":1,"b":2}' } }] }),
      frame({}, 'tool_calls'),
    ];
    const body = new Response(`${frames.map((f) => JSON.stringify(f)).join('\n')}\n\n`).body as ReadableStream<Uint8Array>;
    const call = (await chatStreamFromReadable(body).finalChatCompletion()).choices[0]?.message.tool_calls?.[0];
    expect(call).toEqual({ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' }, extra_content: signature });
  });
});
