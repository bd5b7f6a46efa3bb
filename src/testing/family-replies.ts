import type { MockReasoning } from './catalog.js';
import type { Reply } from './chat-reply.js';
import { isObject } from './context.js';
import { sign, thinks } from './family-errors.js';
import type { MockFamily } from './families.js';

type Json = Record<string, unknown>;

/**
 * How a family's replies carry their reasoning and signatures, in a whole completion and in
 * stream chunks, as the vendor (or gateway) sends them. The text field goes through the mock's
 * usual path; this adds what only some vendors send.
 */

/** The plain reasoning field a family writes its text in (undefined when this request does not think). */
export function familyReasoning(family: MockFamily, body: Json): MockReasoning | undefined {
  if (!thinks(family, body)) return undefined;
  const field = family.reasoning === 'reasoning_details' || family.reasoning === 'reasoning' ? 'reasoning' : 'reasoning_content';
  return { field };
}

const FORMAT: Partial<Record<MockFamily['name'], string>> = { 'openrouter-claude': 'anthropic-claude-v1', 'openrouter-gemini-3': 'google-gemini-v1', 'openrouter-openai': 'openai-responses-v1' };

/** OpenAI's reasoning item id, as OpenRouter passes it on (`rs_…`). */
const itemId = (text: string) => `rs_${sign('openai-id', text)}`;

/** OpenRouter's `reasoning_details` for a whole reply (https://openrouter.ai/docs/guides/best-practices/reasoning-tokens). */
function reasoningDetails(family: MockFamily, reply: Reply): Json[] {
  const format = FORMAT[family.name] ?? 'unknown';
  const details: Json[] = [];
  if (family.name === 'openrouter-openai') {
    // A summary of the reasoning and the encrypted item, under one id (OpenAI's reasoning item).
    if (reply.reasoning === undefined) return details;
    const id = itemId(reply.reasoning);
    return [
      { type: 'reasoning.summary', summary: reply.reasoning, id, format, index: 0 },
      { type: 'reasoning.encrypted', data: sign('openai', reply.reasoning), id, format, index: 1 },
    ];
  }
  if (reply.reasoning !== undefined) {
    details.push({ type: 'reasoning.text', text: reply.reasoning, ...(family.name === 'openrouter-claude' ? { signature: sign('claude', reply.reasoning) } : { signature: null }), format, index: 0 });
  }
  const call = reply.toolCalls?.[0];
  if (family.name === 'openrouter-gemini-3' && call) details.push(encrypted(call.id, details.length));
  return details;
}

const encrypted = (callId: string, index: number): Json => ({ type: 'reasoning.encrypted', data: sign('gemini', callId), id: callId, format: 'google-gemini-v1', index });

const thoughtSignature = (callId: string) => ({ google: { thought_signature: sign('gemini', callId) } });

/** Adds the family's extras to a whole completion's message(s). */
export function decorateCompletion(family: MockFamily, completion: Json, reply: Reply): Json {
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  return {
    ...completion,
    choices: choices.map((choice) => {
      if (!isObject(choice) || !isObject(choice.message)) return choice;
      const message: Json = { ...choice.message };
      if (family.reasoning === 'reasoning_details' && (reply.reasoning !== undefined || reply.toolCalls)) message.reasoning_details = reasoningDetails(family, reply);
      if (family.reasoning === 'thinking_blocks' && reply.reasoning !== undefined) message.thinking_blocks = [{ type: 'thinking', thinking: reply.reasoning, signature: sign('claude', reply.reasoning) }];
      if (family.toolCallSignatures && Array.isArray(message.tool_calls)) {
        message.tool_calls = message.tool_calls.map((call, i) => (i === 0 && isObject(call) ? { ...call, extra_content: thoughtSignature(String(call.id)) } : call));
      }
      return { ...choice, message };
    }),
  };
}

const deltaOf = (chunk: Json): Json | undefined => {
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  return isObject(choice) && isObject(choice.delta) ? choice.delta : undefined;
};

const withDelta = (chunk: Json, delta: Json): Json => ({ ...chunk, choices: [{ ...(chunk.choices as Json[])[0], delta }] });

/** Adds the family's extras to a stream's chunks, and reshapes its tool-call deltas as it streams them. */
export function decorateChunks(family: MockFamily, chunks: Json[], reply: Reply): Json[] {
  let out = chunks;
  if (family.reasoning === 'reasoning_details') {
    const format = FORMAT[family.name] ?? 'unknown';
    const last = out.map((c) => typeof deltaOf(c)?.reasoning === 'string').lastIndexOf(true);
    let sawCall = false;
    out = out.map((chunk, i) => {
      const delta = deltaOf(chunk);
      if (!delta) return chunk;
      if (typeof delta.reasoning === 'string' && family.name === 'openrouter-openai' && reply.reasoning !== undefined) {
        const id = itemId(reply.reasoning);
        const summary = { type: 'reasoning.summary', summary: delta.reasoning, id, format, index: 0 };
        const details = i === last ? [summary, { type: 'reasoning.encrypted', data: sign('openai', reply.reasoning), id, format, index: 1 }] : [summary];
        return withDelta(chunk, { ...delta, reasoning_details: details });
      }
      if (typeof delta.reasoning === 'string') {
        const signature = i === last && family.name === 'openrouter-claude' && reply.reasoning !== undefined ? sign('claude', reply.reasoning) : null;
        return withDelta(chunk, { ...delta, reasoning_details: [{ type: 'reasoning.text', text: delta.reasoning, signature, format, index: 0 }] });
      }
      const call = Array.isArray(delta.tool_calls) && isObject(delta.tool_calls[0]) ? delta.tool_calls[0] : undefined;
      if (family.name === 'openrouter-gemini-3' && call && typeof call.id === 'string' && !sawCall) {
        sawCall = true;
        return withDelta(chunk, { ...delta, reasoning_details: [encrypted(call.id, reply.reasoning !== undefined ? 1 : 0)] });
      }
      return chunk;
    });
  }
  if (family.reasoning === 'thinking_blocks' && reply.reasoning !== undefined) {
    const last = out.map((c) => typeof deltaOf(c)?.reasoning_content === 'string').lastIndexOf(true);
    out = out.flatMap((chunk, i) => {
      const delta = deltaOf(chunk);
      if (!delta || typeof delta.reasoning_content !== 'string') return [chunk];
      const piece = withDelta(chunk, { ...delta, thinking_blocks: [{ type: 'thinking', thinking: delta.reasoning_content }] });
      if (i !== last) return [piece];
      // LiteLLM sends the block's signature last, in a delta of its own.
      const signature = withDelta(chunk, { reasoning_content: '', thinking_blocks: [{ type: 'thinking', thinking: '', signature: sign('claude', reply.reasoning as string) }] });
      return [piece, signature];
    });
  }
  if (!family.stream.toolCallIndex && reply.toolCalls) {
    // Gemini's OpenAI-compatible endpoint: each call whole, in one delta, with no `index`.
    const first = out.findIndex((c) => Array.isArray(deltaOf(c)?.tool_calls));
    const template = out[first];
    if (first >= 0 && template) {
      const calls = reply.toolCalls.map((call, i) =>
        withDelta(template, {
          tool_calls: [{ id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments }, ...(i === 0 && family.toolCallSignatures ? { extra_content: thoughtSignature(call.id) } : {}) }],
        }),
      );
      out = [...out.slice(0, first), ...calls, ...out.slice(first).filter((c) => !Array.isArray(deltaOf(c)?.tool_calls))];
    }
  } else if (family.toolCallSignatures && reply.toolCalls) {
    let done = false;
    out = out.map((chunk) => {
      const delta = deltaOf(chunk);
      const call = Array.isArray(delta?.tool_calls) && isObject(delta.tool_calls[0]) ? delta.tool_calls[0] : undefined;
      if (done || !delta || !call || typeof call.id !== 'string') return chunk;
      done = true;
      return withDelta(chunk, { ...delta, tool_calls: [{ ...call, extra_content: thoughtSignature(call.id) }] });
    });
  }
  return out;
}
