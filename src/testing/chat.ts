import type { ChatCompletion, ChatCompletionChunk } from '../resources/chat/completions/types.js';
import { deterministicReasoning, reasoningField, reasoningHistoryProblem, withReasoning } from './chat-reasoning.js';
import { composeReply, type Reply } from './chat-reply.js';
import { scriptedReply, type MockChatReply } from './chat-script.js';
import { isObject, outOfRange, type MockContext } from './context.js';
import { familyOf } from './families.js';
import { checkChatRequest, lostReasoning } from './family-errors.js';
import { decorateChunks, decorateCompletion, familyReasoning } from './family-replies.js';
import type { PromptCache } from './prompt-cache.js';

type Json = Record<string, unknown>;
type Delta = ChatCompletionChunk['choices'][number]['delta'];

/** A parameter problem the mock reports as 400 `invalid_request_error`. */
export interface ParamProblem {
  param: string;
  message: string;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const RANGES: Array<[string, number, number]> = [
  ['temperature', 0, 2],
  ['top_p', 0, 1],
  ['presence_penalty', -2, 2],
  ['frequency_penalty', -2, 2],
];

/** The gateway's own parameter checks for chat, independent of the SDK's. */
export function checkChatParams(body: Json): ParamProblem | undefined {
  if (typeof body.model !== 'string' || !body.model) return { param: 'model', message: 'you must provide a model parameter' };
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { param: 'messages', message: "'messages' must be a non-empty array" };
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) return { param: `messages[${i}].role`, message: 'invalid role' };
    if (m.role !== 'assistant' && typeof m.content !== 'string' && !Array.isArray(m.content)) {
      return { param: `messages[${i}].content`, message: 'content must be a string or an array of parts' };
    }
  }
  for (const [name, min, max] of RANGES) {
    const message = outOfRange(body, name, min, max);
    if (message) return { param: name, message };
  }
  for (const name of ['max_tokens', 'n']) {
    const v = body[name];
    if (v !== undefined && v !== null && (!Number.isInteger(v) || (v as number) < 1)) return { param: name, message: `${name} must be an integer >= 1` };
  }
  const format = body.response_format;
  if (format === undefined || format === null) return undefined;
  if (!isObject(format) || !['text', 'json_object', 'json_schema'].includes(String(format.type))) {
    return { param: 'response_format.type', message: "response_format.type must be 'text', 'json_object' or 'json_schema'" };
  }
  const spec = format.json_schema;
  if (format.type === 'json_schema' && !(isObject(spec) && typeof spec.name === 'string' && /^[\w-]{1,64}$/.test(spec.name))) {
    return { param: 'response_format.json_schema.name', message: "json_schema.name is required: 1 to 64 letters, digits, '_' or '-'" };
  }
  return undefined;
}

/** POST /chat/completions: the next scripted reply from `next`, else the deterministic one; cached tokens from `cache`. */
export function chat(ctx: MockContext, next: () => MockChatReply | undefined, cache: PromptCache): Response {
  const problem = checkChatParams(ctx.body);
  if (problem) return ctx.invalid(problem.message, problem.param);
  const bad = ctx.checkModel(ctx.body.model, 'chat', 'chat completions');
  if (bad) return bad;
  const entry = ctx.model(ctx.body.model);
  const family = familyOf(entry);
  if (family) {
    // The strict catalogue: the family's own rules, in its vendor's words and body shape.
    const refusal = checkChatRequest(family, { body: ctx.body, model: String(ctx.body.model), id: ctx.id, now: ctx.now });
    if (refusal) return ctx.reply(refusal.status, refusal.body);
  }
  const thinking = family ? familyReasoning(family, ctx.body) : entry?.reasoning;
  const refused = family ? undefined : reasoningHistoryProblem(ctx.body.messages as unknown[], thinking);
  if (refused) return ctx.invalid(refused, null);
  // Taken only now, so a request turned away above leaves the script for its retry.
  const script = next();
  let reply = script ? scriptedReply(script, (ctx.body.messages as unknown[]).filter(isObject), ctx.id) : composeReply(ctx.body, ctx.id);
  const reasoning = script?.reasoning ?? (thinking ? deterministicReasoning(ctx.body, reply) : undefined);
  if (reasoning !== undefined) reply = withReasoning(reply, reasoning);
  const cached = cache.cachedTokens(ctx.body);
  if (cached !== undefined) reply = { ...reply, usage: { ...reply.usage, prompt_tokens_details: { cached_tokens: cached } } };
  // Billed on the usage the reply carries, streamed or not, whether or not the client asked for it.
  ctx.charge({ kind: 'tokens', model: String(ctx.body.model), stream: ctx.body.stream === true, prompt: reply.usage.prompt_tokens, completion: reply.usage.completion_tokens, cached });
  const head = { id: `chatcmpl-mock-${ctx.id}`, created: Math.floor(ctx.now / 1000), model: String(ctx.body.model) };
  const field = reasoningField(thinking ?? {});
  let response: Response;
  if (ctx.body.stream === true) {
    const chunks = chatChunks(reply, head, ctx.body.stream_options, field) as unknown as Json[];
    response = ctx.sse((family ? decorateChunks(family, chunks, reply) : chunks).map((data) => ({ data })));
  } else {
    const completion = chatCompletion(reply, head, typeof ctx.body.n === 'number' ? ctx.body.n : 1, field) as unknown as Json;
    response = ctx.reply(200, family ? decorateCompletion(family, completion, reply) : completion);
  }
  const lost = family ? lostReasoning(family, ctx.body.messages as unknown[]) : [];
  // Qwen and GLM answer without a word when a tool loop's reasoning did not come back: the mock says so in a header.
  if (lost.length > 0) response.headers.set('x-mock-reasoning-lost', lost.map((i) => `messages[${i}]`).join(', '));
  return response;
}

/** The field a model's reasoning goes in. */
type Field = ReturnType<typeof reasoningField>;

interface Head {
  id: string;
  created: number;
  model: string;
}

function chatCompletion(reply: Reply, head: Head, n: number, field: Field): ChatCompletion {
  const message = {
    role: 'assistant' as const,
    content: reply.content,
    refusal: reply.refusal,
    ...(reply.reasoning !== undefined ? { [field]: reply.reasoning } : {}),
    ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}),
  };
  return {
    ...head,
    object: 'chat.completion',
    choices: Array.from({ length: n }, (_, index) => ({ index, message, finish_reason: reply.finishReason })),
    usage: reply.usage,
  };
}

/** Splits after spaces, and after JSON punctuation not followed by one, so JSON streams in pieces too. */
const pieces = (text: string) => text.split(/(?<= )|(?<=[,:{[])(?! )/);

/** The chunks of a streamed reply: role, reasoning then text piece by piece, tool-call fragments per index, finish, optional usage. */
function chatChunks(reply: Reply, head: Head, streamOptions: unknown, field: Field): ChatCompletionChunk[] {
  const chunk = (delta: Delta, finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatCompletionChunk => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  // As OpenAI does: a refusal opens with `content: null`, anything else with `content: ''`.
  const chunks = [chunk(reply.refusal === null ? { role: 'assistant', content: '' } : { role: 'assistant', content: null, refusal: '' })];
  if (reply.reasoning) for (const piece of pieces(reply.reasoning)) chunks.push(chunk({ [field]: piece }));
  if (reply.content) for (const piece of pieces(reply.content)) chunks.push(chunk({ content: piece }));
  if (reply.refusal) for (const piece of pieces(reply.refusal)) chunks.push(chunk({ refusal: piece }));
  reply.toolCalls?.forEach((call, index) => {
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  chunks.push(chunk({}, reply.finishReason));
  if (isObject(streamOptions) && streamOptions.include_usage === true) chunks.push({ ...head, object: 'chat.completion.chunk', choices: [], usage: reply.usage });
  return chunks;
}
