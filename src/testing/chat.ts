import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageToolCall, CompletionUsage } from '../resources/chat/completions.types.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A parameter problem the mock reports as 400 `invalid_request_error`. */
export interface ParamProblem {
  param: string;
  message: string;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/** The gateway's own parameter checks for chat, independent of the SDK's. */
export function checkChatParams(body: Json): ParamProblem | undefined {
  if (typeof body.model !== 'string' || !body.model) return { param: 'model', message: 'you must provide a model parameter' };
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { param: 'messages', message: "'messages' must be a non-empty array" };
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) return { param: `messages[${i}].role`, message: 'invalid role' };
    const content = m.content;
    if (m.role !== 'assistant' && typeof content !== 'string' && !Array.isArray(content)) {
      return { param: `messages[${i}].content`, message: 'content must be a string or an array of parts' };
    }
  }
  const ranges: Array<[string, number, number]> = [
    ['temperature', 0, 2],
    ['top_p', 0, 1],
    ['presence_penalty', -2, 2],
    ['frequency_penalty', -2, 2],
  ];
  for (const [name, min, max] of ranges) {
    const v = body[name];
    if (v !== undefined && v !== null && (typeof v !== 'number' || v < min || v > max)) return { param: name, message: `${name} must be between ${min} and ${max}` };
  }
  for (const name of ['max_tokens', 'n']) {
    const v = body[name];
    if (v !== undefined && v !== null && (!Number.isInteger(v) || (v as number) < 1)) return { param: name, message: `${name} must be an integer >= 1` };
  }
  return undefined;
}

interface Reply {
  content: string | null;
  toolCalls: ChatCompletionMessageToolCall[] | undefined;
  finishReason: 'stop' | 'length' | 'tool_calls';
  usage: CompletionUsage;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join(' ').trim();
}

function countImages(messages: Json[]): number {
  let n = 0;
  for (const m of messages) if (Array.isArray(m.content)) for (const p of m.content) if (isObject(p) && p.type === 'image_url') n++;
  return n;
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** Fills a function's declared parameters from the user's words, so tool-call demos have plausible arguments. */
function argumentsFor(parameters: unknown, userText: string): string {
  const props = isObject(parameters) && isObject(parameters.properties) ? parameters.properties : {};
  const args: Json = {};
  for (const [name, schema] of Object.entries(props)) {
    const type = isObject(schema) ? schema.type : undefined;
    args[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : userText;
  }
  return JSON.stringify(args);
}

/** Decides the mock's deterministic reply to a conversation. */
export function composeReply(body: Json, requestId: number): Reply {
  const messages = (body.messages as Json[]).filter(isObject);
  const last = messages[messages.length - 1] ?? {};
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const userText = textOf(lastUser?.content);
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const prompt_tokens = messages.reduce((n, m) => n + words(textOf(m.content)), 0) + 3 * messages.length;

  if (tools.length > 0 && body.tool_choice !== 'none' && last.role !== 'tool') {
    const forced = isObject(body.tool_choice) && isObject(body.tool_choice.function) ? body.tool_choice.function.name : undefined;
    const tool = tools.find((t) => isObject(t.function) && (forced === undefined || t.function.name === forced)) ?? tools[0];
    const fn = (isObject(tool?.function) ? tool.function : {}) as Json;
    const call: ChatCompletionMessageToolCall = {
      id: `call_${requestId}`,
      type: 'function',
      function: { name: String(fn.name ?? 'tool'), arguments: argumentsFor(fn.parameters, userText) },
    };
    return { content: null, toolCalls: [call], finishReason: 'tool_calls', usage: usage(prompt_tokens, 12) };
  }

  let text: string;
  if (last.role === 'tool') text = `The tool returned: ${textOf(last.content)}`;
  else {
    const images = countImages(messages);
    text = `${images ? `I see ${images} image${images > 1 ? 's' : ''}. ` : ''}You said: ${userText || '(nothing)'}`;
  }
  let finishReason: Reply['finishReason'] = 'stop';
  const limit = typeof body.max_tokens === 'number' ? body.max_tokens : undefined;
  const parts = text.split(' ');
  if (limit !== undefined && parts.length > limit) {
    text = parts.slice(0, limit).join(' ');
    finishReason = 'length';
  }
  return { content: text, toolCalls: undefined, finishReason, usage: usage(prompt_tokens, words(text)) };
}

function usage(prompt: number, completion: number): CompletionUsage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The non-streaming response body. */
export function chatCompletion(body: Json, requestId: number, created: number): ChatCompletion {
  const n = typeof body.n === 'number' ? body.n : 1;
  const reply = composeReply(body, requestId);
  return {
    id: `chatcmpl-mock-${requestId}`,
    object: 'chat.completion',
    created,
    model: String(body.model),
    choices: Array.from({ length: n }, (_, index) => ({
      index,
      message: { role: 'assistant' as const, content: reply.content, ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}) },
      finish_reason: reply.finishReason,
    })),
    usage: reply.usage,
  };
}

/** The chunks of a streamed response: role, content word by word or tool-call fragments, finish, optional usage. */
export function chatChunks(body: Json, requestId: number, created: number): ChatCompletionChunk[] {
  const reply = composeReply(body, requestId);
  const base = { id: `chatcmpl-mock-${requestId}`, object: 'chat.completion.chunk' as const, created, model: String(body.model) };
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatCompletionChunk => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: ChatCompletionChunk[] = [chunk({ role: 'assistant', content: '' })];
  if (reply.toolCalls) {
    reply.toolCalls.forEach((call, index) => {
      const args = call.function.arguments;
      const half = Math.ceil(args.length / 2);
      chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }));
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
    });
  } else {
    const pieces = (reply.content ?? '').split(/(?<= )/);
    for (const piece of pieces) chunks.push(chunk({ content: piece }));
  }
  chunks.push(chunk({}, reply.finishReason));
  const options = body.stream_options;
  if (isObject(options) && options.include_usage === true) chunks.push({ ...base, choices: [], usage: reply.usage });
  return chunks;
}
