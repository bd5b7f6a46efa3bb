import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { chatStreamFromReadable, responseFormat, ValidationError, type ChatCompletionAssistantMessageParam, type ChatCompletionChunk } from '../../../src/index.js';
import type { MockModel } from '../../../src/testing/index.js';
import { mockClient } from '../../helpers/mock-client.js';

// Reasoning arrives in `reasoning_content` (DeepSeek, Qwen, Kimi, GLM) or `reasoning` (vLLM,
// Together, OpenRouter); the caller reads `reasoning_content` either way, and keeps the vendor's field.

const models: MockModel[] = [
  { id: 'vllm-style', owned_by: 'test', kind: 'chat', reasoning: { field: 'reasoning' } },
  { id: 'deepseek-style', owned_by: 'test', kind: 'chat', reasoning: {} },
];
const messages = [{ role: 'user' as const, content: 'Why is the sky blue?' }];
const THOUGHT = 'The user said: Why is the sky blue?';

describe('reasoning in chat completions', () => {
  it('gives a completion’s message reasoning_content when the vendor sent reasoning, and keeps reasoning', async () => {
    const { client } = mockClient({ models });
    const message = (await client.chat.completions.create({ model: 'vllm-style', messages })).choices[0]?.message;
    expect(message?.reasoning_content).toBe(THOUGHT);
    expect(message?.reasoning).toBe(THOUGHT);
  });

  it('leaves a reasoning_content reply as it came, adding no reasoning field', async () => {
    const { client } = mockClient({ models });
    const message = (await client.chat.completions.create({ model: 'deepseek-style', messages })).choices[0]?.message;
    expect(message?.reasoning_content).toBe(THOUGHT);
    expect(message).not.toHaveProperty('reasoning');
  });

  it('gives every streamed delta that carries reasoning a reasoning_content before the caller sees it', async () => {
    const { client } = mockClient({ models });
    const stream = await client.chat.completions.create({ model: 'vllm-style', messages, stream: true });
    const seen: Array<{ reasoning_content?: string | null | undefined; reasoning?: string | null | undefined }> = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.reasoning !== undefined) seen.push({ reasoning_content: delta.reasoning_content, reasoning: delta.reasoning });
    }
    expect(seen.length).toBeGreaterThan(1);
    for (const delta of seen) expect(delta.reasoning_content).toBe(delta.reasoning);
    expect(seen.map((d) => d.reasoning_content).join('')).toBe(THOUGHT);
  });

  it('accumulates reasoning deltas into the final completion, in both fields', async () => {
    const { client } = mockClient({ models });
    const stream = await client.chat.completions.create({ model: 'vllm-style', messages, stream: true });
    const message = (await stream.finalChatCompletion()).choices[0]?.message;
    expect(message).toMatchObject({ reasoning_content: THOUGHT, reasoning: THOUGHT, content: 'You said: Why is the sky blue?' });
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
    expect(parsed.choices[0]?.message.reasoning_content).toBe(THOUGHT);
    const stream = await client.chat.completions.parse({ ...params, stream: true });
    expect((await stream.finalChatCompletion()).choices[0]?.message.reasoning_content).toBe(THOUGHT);
  });

  it('does the same for a stream read back with chatStreamFromReadable', async () => {
    const frames: ChatCompletionChunk[] = [
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', reasoning: 'Think' }, finish_reason: null }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { reasoning: 'ing.' }, finish_reason: null }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Done.' }, finish_reason: 'stop' }] },
    ];
    const body = new Response(`${frames.map((f) => JSON.stringify(f)).join('\n')}\n\n`).body as ReadableStream<Uint8Array>;
    const message = (await chatStreamFromReadable(body).finalChatCompletion()).choices[0]?.message;
    expect(message).toMatchObject({ reasoning_content: 'Thinking.', reasoning: 'Thinking.', content: 'Done.' });
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
