import type { MockReasoning } from './catalog.js';
import type { Reply } from './chat-reply.js';
import { countWords, isObject, textOf } from './context.js';

type Json = Record<string, unknown>;

/** The field a reasoning model writes in and reads back. */
export const reasoningField = (reasoning: MockReasoning): 'reasoning_content' | 'reasoning' => reasoning.field ?? 'reasoning_content';

// The vendors' own words, so a test that matches on them matches the real thing:
// DeepSeek's thinking mode (V4) answers a tool-call turn sent back without its reasoning with
// the first (https://github.com/decolua/9router/issues/773); DeepSeek-R1 answered any
// reasoning sent back with the second (https://github.com/Euyug/Mirai-Gpt-Plugin/issues/4).
const required = (field: string) => `The \`${field}\` in the thinking mode must be passed back to the API.`;
const rejected = (field: string) =>
  `The ${field} is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the ${field} from your message to reduce network traffic.`;

/** Why a reasoning model refuses these messages (the 400's message), or undefined. */
export function reasoningHistoryProblem(messages: unknown[], reasoning: MockReasoning | undefined): string | undefined {
  const history = reasoning?.history ?? 'ignored';
  if (!reasoning || history === 'ignored') return undefined;
  const field = reasoningField(reasoning);
  for (const m of messages) {
    if (!isObject(m)) continue;
    if (history === 'rejected' && field in m) return rejected(field);
    if (history === 'required-on-tool-calls' && m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0 && typeof m[field] !== 'string') return required(field);
  }
  return undefined;
}

/** What a reasoning model "thinks" before its deterministic reply: a sentence about the conversation. */
export function deterministicReasoning(body: Json, reply: Reply): string {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  const userText = textOf([...messages].reverse().find((m) => m.role === 'user')?.content);
  if (reply.toolCalls) return `The user asked: ${userText} A tool can answer that.`;
  if (messages[messages.length - 1]?.role === 'tool') return 'The tool answered; time to reply.';
  return `The user said: ${userText}`;
}

/** The reply with its reasoning, counted in the usage as reasoning tokens. */
export function withReasoning(reply: Reply, reasoning: string): Reply {
  const tokens = countWords(reasoning);
  const { usage } = reply;
  return {
    ...reply,
    reasoning,
    usage: { ...usage, completion_tokens: usage.completion_tokens + tokens, total_tokens: usage.total_tokens + tokens, completion_tokens_details: { reasoning_tokens: tokens } },
  };
}
