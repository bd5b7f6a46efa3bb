import { isRecord } from '../../../internal/is-record.js';

// What the SDK adds to a reply, which must not go back when the caller pushes the reply's
// message into `messages`: strict OpenAI-style hosts answer 400 to a message field they do
// not know. Only these keys are removed, and a reply's `refusal: null` (OpenAI's replies carry
// it; strict OpenAI-style hosts refuse it back, openai-node#1161): null says there is none.
// Everything else a vendor sent goes back as it came.

/** Keys the SDK adds to an assistant message: `parse()`'s `parsed`. */
const MESSAGE_KEYS = ['parsed'];
/** Keys the SDK adds to a tool call: a partial's `incomplete`. */
const CALL_KEYS = ['incomplete'];
/** Keys the SDK adds to a tool call's `function`: `parse()`'s `parsed_arguments`. */
const FUNCTION_KEYS = ['parsed_arguments'];

/**
 * The request body as it goes on the wire: the body itself when no assistant message carries
 * a key the SDK added (the usual case, nothing copied), else a copy with those keys left out
 * of the messages that have them. The caller's objects are never changed.
 */
export function wireBody<B>(body: B): B {
  const messages = isRecord(body) ? body.messages : undefined;
  if (!Array.isArray(messages) || !messages.some(hasAddedKeys)) return body;
  return { ...body, messages: messages.map((message: unknown) => (hasAddedKeys(message) ? withoutAddedKeys(message) : message)) };
}

const hasAny = (value: unknown, keys: readonly string[]): boolean => isRecord(value) && keys.some((key) => Object.prototype.hasOwnProperty.call(value, key));

function hasAddedKeys(message: unknown): message is Record<string, unknown> {
  if (!isRecord(message) || message.role !== 'assistant') return false;
  return hasAny(message, MESSAGE_KEYS) || message.refusal === null || (Array.isArray(message.tool_calls) && message.tool_calls.some((call: unknown) => hasAny(call, CALL_KEYS) || (isRecord(call) && hasAny(call.function, FUNCTION_KEYS))));
}

function withoutAddedKeys(message: Record<string, unknown>): Record<string, unknown> {
  const out = without(message, MESSAGE_KEYS);
  if (out.refusal === null) delete out.refusal;
  if (Array.isArray(message.tool_calls)) {
    out.tool_calls = message.tool_calls.map((call: unknown) => {
      if (!isRecord(call)) return call;
      const kept = without(call, CALL_KEYS);
      if (isRecord(call.function)) kept.function = without(call.function, FUNCTION_KEYS);
      return kept;
    });
  }
  return out;
}

function without(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out = { ...record };
  for (const key of keys) delete out[key];
  return out;
}
