import { describe, expect, it } from 'vitest';
import { reasoningText, type ChatCompletionReasoningFields } from '../../../src/index.js';
import { wireBody } from '../../../src/resources/chat/completions/wire-body.js';

describe('reasoningText', () => {
  it.each<[string, unknown, string | undefined]>([
    ['reasoning_content (DeepSeek)', { reasoning_content: 'A.' }, 'A.'],
    ['reasoning (Groq, vLLM)', { reasoning: 'B.' }, 'B.'],
    ['reasoning and reasoning_details (OpenRouter): one of them, not both', { reasoning: 'C.', reasoning_details: [{ type: 'reasoning.text', text: 'C.', index: 0 }] }, 'C.'],
    ['reasoning_details alone: text and summary joined, encrypted skipped', { reasoning_details: [{ type: 'reasoning.summary', summary: 'S1.' }, { type: 'reasoning.encrypted', data: 'x' }, { type: 'reasoning.text', text: 'T2.' }] }, 'S1.T2.'],
    ['thinking_blocks (LiteLLM): thinking joined, redacted skipped', { thinking_blocks: [{ type: 'thinking', thinking: 'D1.', signature: 's' }, { type: 'redacted_thinking', data: 'x' }, { type: 'thinking', thinking: 'D2.' }] }, 'D1.D2.'],
    ['empty text falls through to the next field', { reasoning_content: '', reasoning: 'E.' }, 'E.'],
    ['only encrypted reasoning', { reasoning_details: [{ type: 'reasoning.encrypted', data: 'x' }] }, undefined],
    ['none', { content: 'Hi.' }, undefined],
    ['null fields', { reasoning_content: null, reasoning: null }, undefined],
    ['entries that are not objects, or text that is not a string', { reasoning_details: [null, 'x', { type: 'reasoning.text', text: 42 }] }, undefined],
    ['fields of the wrong type', { reasoning_content: 42, reasoning_details: 'x', thinking_blocks: {} }, undefined],
    ['undefined', undefined, undefined],
    ['null', null, undefined],
  ])('%s', (_name, message, expected) => {
    expect(reasoningText(message as ChatCompletionReasoningFields | undefined)).toBe(expected);
  });
});

describe('wireBody: keys the SDK added stay off the wire', () => {
  const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}', parsed_arguments: {} }, incomplete: true, extra_content: { google: { thought_signature: 's' } } };

  it('leaves out parsed, parsed_arguments and incomplete from assistant messages, and nothing a vendor sent', () => {
    const assistant = { role: 'assistant', content: 'x', parsed: { a: 1 }, reasoning: 'r', reasoning_details: [], tool_calls: [call] };
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }, assistant] };
    const sent = wireBody(body);
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: 'x', reasoning: 'r', reasoning_details: [], tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' }, extra_content: { google: { thought_signature: 's' } } }] });
    // The caller's objects are unchanged: the reply stays usable.
    expect(assistant.parsed).toEqual({ a: 1 });
    expect(call.function.parsed_arguments).toEqual({});
  });

  it('returns the body itself when there is nothing to leave out, and ignores other roles and odd shapes', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi', parsed: 1 }, { role: 'assistant', content: 'x', tool_calls: [null, 'x'] }, null] };
    expect(wireBody(body)).toBe(body);
    expect(wireBody(null)).toBe(null);
    expect(wireBody({ messages: 'x' })).toEqual({ messages: 'x' });
  });
});
