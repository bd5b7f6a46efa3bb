import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { chatStreamFromReadable, reasoningText, responseFormat, ValidationError, type ChatCompletionAssistantMessageParam, type ChatCompletionChunk } from '../../../src/index.js';
import type { MockModel } from '../../../src/testing/index.js';
import { mockClient } from '../../helpers/mock-client.js';

// Reasoning arrives in `reasoning_content` (DeepSeek, Qwen, Kimi, GLM) or `reasoning` (Groq,
// vLLM, Together, OpenRouter); it stays in the vendor's field, never renamed (0.4 copied
// `reasoning` into `reasoning_content`, which Groq refuses when the reply is sent back), and
// reasoningText() reads either.

const models: MockModel[] = [
  { id: 'vllm-style', owned_by: 'test', kind: 'chat', reasoning: { field: 'reasoning' } },
  { id: 'deepseek-style', owned_by: 'test', kind: 'chat', reasoning: {} },
];
const messages = [{ role: 'user' as const, content: 'Why is the sky blue?' }];
const THOUGHT = 'The user said: Why is the sky blue?';

describe('reasoning in chat completions', () => {
  it('leaves a reasoning reply as it came, adding no reasoning_content; reasoningText reads it', async () => {
    const { client } = mockClient({ models });
    const message = (await client.chat.completions.create({ model: 'vllm-style', messages })).choices[0]?.message;
    expect(message?.reasoning).toBe(THOUGHT);
    expect(message).not.toHaveProperty('reasoning_content');
    expect(reasoningText(message)).toBe(THOUGHT);
  });

  it('leaves a reasoning_content reply as it came, adding no reasoning field', async () => {
    const { client } = mockClient({ models });
    const message = (await client.chat.completions.create({ model: 'deepseek-style', messages })).choices[0]?.message;
    expect(message?.reasoning_content).toBe(THOUGHT);
    expect(message).not.toHaveProperty('reasoning');
  });

  it('gives the caller every streamed delta as it came: reasoning pieces stay in reasoning', async () => {
    const { client } = mockClient({ models });
    const stream = await client.chat.completions.create({ model: 'vllm-style', messages, stream: true });
    const seen: Array<NonNullable<ChatCompletionChunk["choices"][number]["delta"]>> = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.reasoning !== undefined) seen.push(delta);
    }
    expect(seen.length).toBeGreaterThan(1);
    for (const delta of seen) expect(delta).not.toHaveProperty('reasoning_content');
    expect(seen.map((d) => reasoningText(d)).join('')).toBe(THOUGHT);
  });

  it('accumulates reasoning deltas into the final completion, in the vendor’s field only', async () => {
    const { client } = mockClient({ models });
    const stream = await client.chat.completions.create({ model: 'vllm-style', messages, stream: true });
    const message = (await stream.finalChatCompletion()).choices[0]?.message;
    expect(message).toMatchObject({ reasoning: THOUGHT, content: 'You said: Why is the sky blue?' });
    expect(message).not.toHaveProperty('reasoning_content');
  });

  it('accumulates reasoning_content deltas as before, adding no reasoning field', async () => {
    const { client } = mockClient({ models });
    const stream = await client.chat.completions.create({ model: 'deepseek-style', messages, stream: true });
    const message = (await stream.finalChatCompletion()).choices[0]?.message;
    expect(message?.reasoning_content).toBe(THOUGHT);
    expect(message).not.toHaveProperty('reasoning');
  });

  it('does the same for parse(), streamed or not', async () => {
    const { client } = mockClient({ models });
    const params = { model: 'vllm-style', messages, response_format: responseFormat(z.object({ reply: z.string() }), 'answer') };
    const parsed = await client.chat.completions.parse(params);
    expect(parsed.choices[0]?.message.reasoning).toBe(THOUGHT);
    expect(parsed.choices[0]?.message).not.toHaveProperty('reasoning_content');
    const stream = await client.chat.completions.parse({ ...params, stream: true });
    const final = (await stream.finalChatCompletion()).choices[0]?.message;
    expect(final?.reasoning).toBe(THOUGHT);
    expect(final).not.toHaveProperty('reasoning_content');
  });

  it('does the same for a stream read back with chatStreamFromReadable', async () => {
    const frames: ChatCompletionChunk[] = [
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', reasoning: 'Think' }, finish_reason: null }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { reasoning: 'ing.' }, finish_reason: null }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Done.' }, finish_reason: 'stop' }] },
    ];
    const body = new Response(`${frames.map((f) => JSON.stringify(f)).join('\n')}\n\n`).body as ReadableStream<Uint8Array>;
    const message = (await chatStreamFromReadable(body).finalChatCompletion()).choices[0]?.message;
    expect(message).toEqual({ role: 'assistant', reasoning: 'Thinking.', content: 'Done.' });
  });
});

describe('assistant message params', () => {
  it('take reasoning_content and send it as given', async () => {
    const { client, mock } = mockClient({ models });
    const assistant: ChatCompletionAssistantMessageParam = { role: 'assistant', content: 'Blue light scatters most.', reasoning_content: 'Rayleigh.' };
    await client.chat.completions.create({ model: 'deepseek-style', messages: [...messages, assistant, { role: 'user', content: 'More?' }] });
    expect((mock.requests[0]?.body as { messages: unknown[] }).messages[1]).toEqual(assistant);
  });

  it('refuse a reasoning_content that is not a string before sending', async () => {
    const { client, mock } = mockClient({ models });
    const assistant = { role: 'assistant', content: 'x', reasoning_content: 42 } as unknown as ChatCompletionAssistantMessageParam;
    const err = await client.chat.completions.create({ model: 'deepseek-style', messages: [...messages, assistant] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'messages[1].reasoning_content' });
    expect(mock.requests).toHaveLength(0);
  });
});
