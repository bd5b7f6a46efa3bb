import { describe, expect, it } from 'vitest';
import { Gateway, GatewayError, reasoningText, StreamInterruptedError, type ChatCompletion, type ChatCompletionChunk } from '../../../src/index.js';
import { sseResponse, sseText } from '../../helpers/sse.js';

// Replies as vendors send them (issue 31): every reasoning field kept as sent and merged from
// stream deltas as the vendor streams it; tool-call deltas without `index` (Gemini); a cut
// stream's partial. Each frame list below is the shape the vendor's docs or users' logs show.

type Delta = ChatCompletionChunk['choices'][number]['delta'] & Record<string, unknown>;
const frame = (delta: Delta | Record<string, unknown>, finish_reason: string | null = null): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: delta as Delta, finish_reason }],
});

/** A client whose every call is answered with these frames (and `[DONE]` unless `done: false`). */
function clientAnswering(frames: unknown[], done = true) {
  const seen: ChatCompletionChunk[] = [];
  const client = new Gateway({ apiKey: 'sk-test-key-1234567890', baseURL: 'http://gw.local/v1', maxRetries: 0, fetch: async () => sseResponse(sseText(frames, { done })) });
  const stream = async () => {
    const s = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
    return { final: async () => (await s.finalChatCompletion()).choices[0]?.message, read: async () => { for await (const c of s) seen.push(c); } };
  };
  return { client, stream, seen };
}

async function finalMessage(frames: unknown[]) {
  return (await clientAnswering(frames).stream()).final();
}

describe('finalChatCompletion() keeps every reasoning field as the vendor streamed it', () => {
  it('OpenRouter: reasoning_details pieces merged by index (text joined, the signature kept), beside reasoning', async () => {
    const message = await finalMessage([
      frame({ role: 'assistant', reasoning: '', reasoning_details: [{ type: 'reasoning.text', text: '', signature: '', format: 'anthropic-claude-v1', index: 0 }] }),
      frame({ reasoning: 'Add ', reasoning_details: [{ type: 'reasoning.text', text: 'Add ', format: 'anthropic-claude-v1', index: 0 }] }),
      frame({ reasoning: 'them.', reasoning_details: [{ type: 'reasoning.text', text: 'them.', format: 'anthropic-claude-v1', index: 0 }] }),
      frame({ reasoning_details: [{ type: 'reasoning.text', text: '', signature: 'EqQBCkYIBxgC', format: 'anthropic-claude-v1', index: 0 }] }),
      frame({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAAB', id: 'rs_1', format: 'openai-responses-v1', index: 1 }] }),
      frame({ content: 'Four.' }, 'stop'),
    ]);
    expect(message).toEqual({
      role: 'assistant',
      content: 'Four.',
      reasoning: 'Add them.',
      reasoning_details: [
        { type: 'reasoning.text', text: 'Add them.', signature: 'EqQBCkYIBxgC', format: 'anthropic-claude-v1', index: 0 },
        { type: 'reasoning.encrypted', data: 'gAAAAB', id: 'rs_1', format: 'openai-responses-v1', index: 1 },
      ],
    });
    expect(reasoningText(message)).toBe('Add them.');
  });

  it('keeps reasoning_details entries without an index as entries of their own, and skips what is not an object', async () => {
    const message = await finalMessage([
      frame({ reasoning_details: [{ type: 'reasoning.summary', summary: 'One.' }, 'junk', null] }),
      frame({ reasoning_details: [{ type: 'reasoning.summary', summary: 'Two.' }] }),
      frame({ content: 'x' }, 'stop'),
    ]);
    expect(message?.reasoning_details).toEqual([{ type: 'reasoning.summary', summary: 'One.' }, { type: 'reasoning.summary', summary: 'Two.' }]);
    expect(reasoningText(message)).toBe('One.Two.');
  });

  it('LiteLLM: thinking_blocks pieces joined until their signature; a redacted block whole; reasoning_content beside them', async () => {
    const message = await finalMessage([
      frame({ role: 'assistant', reasoning_content: 'Add ', thinking_blocks: [{ type: 'thinking', thinking: 'Add ', signature: null }] }),
      frame({ reasoning_content: 'them.', thinking_blocks: [{ type: 'thinking', thinking: 'them.' }] }),
      frame({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig-1' }] }),
      frame({ thinking_blocks: [{ type: 'redacted_thinking', data: 'opaque' }] }),
      frame({ thinking_blocks: [{ type: 'thinking', thinking: 'Again.', signature: 'sig-2' }] }),
      frame({ content: 'Four.' }, 'stop'),
    ]);
    expect(message).toEqual({
      role: 'assistant',
      content: 'Four.',
      reasoning_content: 'Add them.',
      thinking_blocks: [
        { type: 'thinking', thinking: 'Add them.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'thinking', thinking: 'Again.', signature: 'sig-2' },
      ],
    });
  });

  it('does not let a key from the network set a prototype', async () => {
    const message = await finalMessage([`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_details":[{"type":"reasoning.text","text":"a","index":0,"__proto__":{"polluted":true}}]},"finish_reason":"stop"}]}`]);
    const detail = message?.reasoning_details?.[0] as unknown as Record<string, unknown>;
    expect(detail.text).toBe('a');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(detail)).toBe(Object.prototype);
  });
});

describe('tool-call deltas without index (Gemini’s OpenAI-compatible endpoint)', () => {
  const call = (id: string | undefined, name: string | undefined, args: string, extra?: Record<string, unknown>) => ({
    ...(id ? { id } : {}),
    type: 'function',
    function: { ...(name ? { name } : {}), arguments: args },
    ...(extra ? { extra_content: extra } : {}),
  });

  it('reads parallel calls, each with its own id, and keeps each one’s extra_content', async () => {
    const signature = { google: { thought_signature: 'c2lnbmF0dXJl' } };
    const { stream, seen } = clientAnswering([
      frame({ role: 'assistant', tool_calls: [call('function-call-1', 'get_weather', '{"city":"Oslo"}', signature), call('function-call-2', 'get_weather', '{"city":"Rome"}')] }),
      frame({ tool_calls: [call('function-call-3', 'get_time', '{"zone":"CET"}')] }, 'tool_calls'),
    ]);
    const s = await stream();
    await s.read();
    // Before the caller saw the chunks, each fragment got the index of its call.
    expect(seen.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((f) => f.index)).toEqual([0, 1, 2]);
  });

  it('merges into finalChatCompletion(): a fragment without an id continues the last call, one with a known id its call', async () => {
    const signature = { google: { thought_signature: 'c2lnbmF0dXJl' } };
    const message = await finalMessage([
      frame({ role: 'assistant', tool_calls: [call('function-call-1', 'get_weather', '{"city":', signature)] }),
      frame({ tool_calls: [call(undefined, undefined, '"Oslo"}')] }),
      frame({ tool_calls: [call('function-call-2', 'get_weather', '{"city":"Rome"')] }),
      frame({ tool_calls: [call('function-call-2', undefined, '}')] }, 'tool_calls'),
    ]);
    expect(message?.tool_calls).toEqual([
      { id: 'function-call-1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' }, extra_content: signature },
      { id: 'function-call-2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
    ]);
  });

  it('still refuses an index that is present but not an array slot', async () => {
    const err = await finalMessage([frame({ tool_calls: [{ index: '__proto__', id: 'x', function: { name: 'f', arguments: '{}' } }] })]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(String(err)).toMatch(/Invalid chat completion chunk/);
  });
});

describe('partial after a cut', () => {
  async function cut(frames: unknown[]): Promise<ChatCompletion> {
    const { stream } = clientAnswering(frames, false);
    const err = await (await stream()).final().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamInterruptedError);
    return (err as StreamInterruptedError<ChatCompletion>).partial as ChatCompletion;
  }
  const calls = (args: string, index = 0) => ({ tool_calls: [{ index, ...(args.startsWith('{"c') ? { id: `call_${index}`, type: 'function', function: { name: 'get_weather', arguments: args } } : { function: { arguments: args } }) }] });

  it('keeps a finish_reason that had already arrived (a cut before the usage chunk)', async () => {
    const partial = await cut([frame({ role: 'assistant', content: 'Hello' }), frame({}, 'stop')]);
    expect(partial.choices[0]?.finish_reason).toBe('stop');
    expect(partial.choices[0]?.message.content).toBe('Hello');
  });

  it('marks a tool call cut inside its arguments incomplete, and only that one', async () => {
    const partial = await cut([frame({ role: 'assistant', ...calls('{"city":"Oslo"}') }), frame(calls('{"city":"Ro', 1))]);
    expect(partial.choices[0]?.finish_reason).toBeNull();
    const [first, second] = partial.choices[0]?.message.tool_calls ?? [];
    expect(first).not.toHaveProperty('incomplete');
    expect(second).toMatchObject({ function: { arguments: '{"city":"Ro' }, incomplete: true });
  });

  it('marks nothing once the finish reason had arrived', async () => {
    const partial = await cut([frame({ role: 'assistant', ...calls('{"city":"Oslo"}') }, 'tool_calls')]);
    expect(partial.choices[0]?.finish_reason).toBe('tool_calls');
    expect(partial.choices[0]?.message.tool_calls?.[0]).not.toHaveProperty('incomplete');
  });
});
