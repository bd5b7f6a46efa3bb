import type { ChatCompletionFinishReason, ChatCompletionMessageToolCall, CompletionUsage } from '../resources/chat/completions/types.js';
import { countWords, isObject, textOf } from './context.js';
import { sampleFromSchema } from './json-schema.js';

type Json = Record<string, unknown>;

/** What the assistant says, before it is shaped into a completion or into chunks. */
export interface Reply {
  content: string | null;
  refusal: string | null;
  toolCalls: ChatCompletionMessageToolCall[] | undefined;
  finishReason: ChatCompletionFinishReason;
  usage: CompletionUsage;
  /** What a reasoning model thought first, sent in its vendor's field. */
  reasoning?: string | undefined;
}

/** The refusal sent when a structured-output request contains the word "refuse". */
export const REFUSAL = "I'm sorry, but I can't help with that request.";

/** The prompt tokens of these messages, as the mock counts them: their words, and 3 per message. */
export const promptTokens = (messages: Json[]): number => messages.reduce((n, m) => n + countWords(textOf(m.content)), 0) + 3 * messages.length;

/** Rough usage: words for prose, a token per 4 characters for JSON (which has few spaces). */
export function usageOf(messages: Json[], prose: string, json: string[]): CompletionUsage {
  const prompt = promptTokens(messages);
  const completion = countWords(prose) + json.reduce((n, s) => n + Math.ceil(s.length / 4), 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Arguments built from the function's JSON Schema, so tool-call demos get plausible values. */
function argumentsFor(parameters: unknown, userText: string): string {
  return JSON.stringify(sampleFromSchema(isObject(parameters) ? { type: 'object', ...parameters } : { type: 'object' }, userText));
}

/** Decides the mock's deterministic reply to a conversation. */
export function composeReply(body: Json, requestId: number): Reply {
  const messages = (body.messages as unknown[]).filter(isObject);
  const last = messages[messages.length - 1] ?? {};
  const userText = textOf([...messages].reverse().find((m) => m.role === 'user')?.content);
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];

  if (tools.length > 0 && body.tool_choice !== 'none' && last.role !== 'tool') {
    const forced = isObject(body.tool_choice) && isObject(body.tool_choice.function) ? body.tool_choice.function.name : undefined;
    const tool = tools.find((t) => isObject(t.function) && (forced === undefined || t.function.name === forced)) ?? tools[0];
    const fn = isObject(tool?.function) ? tool.function : {};
    const args = argumentsFor(fn.parameters, userText);
    const call: ChatCompletionMessageToolCall = { id: `call_${requestId}`, type: 'function', function: { name: String(fn.name ?? 'tool'), arguments: args } };
    return { content: null, refusal: null, toolCalls: [call], finishReason: 'tool_calls', usage: usageOf(messages, '', [args]) };
  }

  let text: string;
  if (last.role === 'tool') text = `The tool returned: ${textOf(last.content)}`;
  else {
    const images = messages.reduce((n, m) => n + (Array.isArray(m.content) ? m.content.filter((p) => isObject(p) && p.type === 'image_url').length : 0), 0);
    text = `${images ? `I see ${images} image${images > 1 ? 's' : ''}. ` : ''}You said: ${userText || '(nothing)'}`;
  }
  const format = isObject(body.response_format) ? body.response_format : {};
  if (format.type === 'json_schema' || format.type === 'json_object') {
    if (/\brefuse\b/i.test(userText)) return { content: null, refusal: REFUSAL, toolCalls: undefined, finishReason: 'stop', usage: usageOf(messages, REFUSAL, []) };
    const schema = isObject(format.json_schema) && format.json_schema.schema !== undefined ? format.json_schema.schema : undefined;
    const content = JSON.stringify(schema === undefined ? { reply: text } : sampleFromSchema(schema, userText));
    return { content, refusal: null, toolCalls: undefined, finishReason: 'stop', usage: usageOf(messages, '', [content]) };
  }

  let finishReason: ChatCompletionFinishReason = 'stop';
  const limit = typeof body.max_tokens === 'number' ? body.max_tokens : undefined;
  const parts = text.split(' ');
  if (limit !== undefined && parts.length > limit) {
    text = parts.slice(0, limit).join(' ');
    finishReason = 'length';
  }
  return { content: text, refusal: null, toolCalls: undefined, finishReason, usage: usageOf(messages, text, []) };
}
