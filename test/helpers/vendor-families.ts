import { isDeepStrictEqual } from 'node:util';
import type { ChatCompletionMessage } from '../../src/index.js';
import { sseResponse, sseText } from './sse.js';

// Servers that answer as each vendor family does behind an OpenAI-style gateway, and refuse
// with the vendor's 400 what it refuses (shared/design/REALITIES.md, "Models that differ").
// Each answers a tool call first, then, once a tool result is in the history, a final answer.

type Msg = Record<string, unknown> & { role: string; tool_calls?: Array<Record<string, unknown>> };

export interface Family {
  name: string;
  model: string;
  /** The first reply: a tool call, with the family's reasoning fields. */
  toolTurn: ChatCompletionMessage & Record<string, unknown>;
  /** Streams without `index` on tool-call deltas. */
  indexless?: boolean;
  /** The vendor's 400 for this history, or undefined when it takes it. */
  refuse(messages: Msg[]): string | undefined;
}

const call = (extra: Record<string, unknown> = {}) => ({ id: 'call_1', type: 'function' as const, function: { name: 'add', arguments: '{"a":2,"b":2}' }, ...extra });
const toolTurns = (messages: Msg[]) => messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length);
/** The strict OpenAI-style check: a message key no spec names is a 400. */
const ASSISTANT_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'refusal', 'audio', 'reasoning_content', 'reasoning', 'reasoning_details', 'thinking_blocks']);
function unknownKey(messages: Msg[]): string | undefined {
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const key = Object.keys(m).find((k) => !ASSISTANT_KEYS.has(k));
    if (key) return `Additional properties are not allowed ('${key}' was unexpected) - 'messages.1'`;
    for (const c of m.tool_calls ?? []) {
      const inner = Object.keys(c).find((k) => !['id', 'type', 'function', 'extra_content'].includes(k)) ?? Object.keys(c.function as object).find((k) => k !== 'name' && k !== 'arguments');
      if (inner) return `Additional properties are not allowed ('${inner}' was unexpected)`;
    }
  }
  return undefined;
}

const details = [
  { type: 'reasoning.text', text: 'Add 2 and 2.', signature: 'EqQBsig', format: 'anthropic-claude-v1', index: 0 },
  { type: 'reasoning.encrypted', data: 'gAAAAB', id: 'rs_1', format: 'anthropic-claude-v1', index: 1 },
];
const blocks = [{ type: 'thinking', thinking: 'Add 2 and 2.', signature: 'sig-1' }];

export const families: Family[] = [
  {
    name: 'DeepSeek thinking mode',
    model: 'deepseek-reasoner',
    toolTurn: { role: 'assistant', content: null, reasoning_content: 'Add 2 and 2.', tool_calls: [call()] },
    refuse: (ms) => (unknownKey(ms) ?? toolTurns(ms).some((m) => typeof m.reasoning_content !== 'string') ? 'Missing `reasoning_content` field in the assistant message at message index 1' : undefined),
  },
  {
    name: 'Kimi K2 thinking',
    model: 'kimi-k2-thinking',
    toolTurn: { role: 'assistant', content: null, reasoning_content: 'Add 2 and 2.', tool_calls: [call()] },
    refuse: (ms) => (toolTurns(ms).some((m) => typeof m.reasoning_content !== 'string') ? 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 1' : undefined),
  },
  {
    name: 'Qwen3 on Groq (reasoning)',
    model: 'qwen/qwen3-32b',
    toolTurn: { role: 'assistant', content: null, reasoning: 'Add 2 and 2.', tool_calls: [call()] },
    refuse: (ms) => (ms.some((m) => 'reasoning_content' in m) ? "property 'reasoning_content' is unsupported" : undefined),
  },
  {
    name: 'Kimi K2 instruct on Groq',
    model: 'moonshotai/kimi-k2-instruct',
    toolTurn: { role: 'assistant', content: null, tool_calls: [call()] },
    refuse: (ms) => (ms.some((m) => 'reasoning_content' in m) ? "property 'reasoning_content' is unsupported" : undefined),
  },
  {
    name: 'Gemini 3 (OpenAI-compatible endpoint)',
    model: 'gemini-3-pro-preview',
    indexless: true,
    toolTurn: { role: 'assistant', content: null, tool_calls: [call({ extra_content: { google: { thought_signature: 'c2ln' } } })] },
    refuse: (ms) => (toolTurns(ms).some((m) => m.tool_calls?.some((c) => (c.extra_content as { google?: { thought_signature?: string } } | undefined)?.google?.thought_signature !== 'c2ln')) ? 'Function call is missing a thought_signature in functionCall parts.' : undefined),
  },
  {
    name: 'Claude on OpenRouter (reasoning_details)',
    model: 'anthropic/claude-sonnet-4.5',
    toolTurn: { role: 'assistant', content: null, reasoning: 'Add 2 and 2.', reasoning_details: details as never, tool_calls: [call()] },
    refuse: (ms) => (toolTurns(ms).some((m) => !isDeepStrictEqual(m.reasoning_details, details)) ? 'Provider returned error' : undefined),
  },
  {
    name: 'Claude on LiteLLM (thinking_blocks)',
    model: 'litellm/claude-sonnet-4-5',
    toolTurn: { role: 'assistant', content: null, reasoning_content: 'Add 2 and 2.', thinking_blocks: blocks as never, tool_calls: [call()] },
    refuse: (ms) => (toolTurns(ms).some((m) => !isDeepStrictEqual(m.thinking_blocks, blocks)) ? 'Expected `thinking` or `redacted_thinking`, but found `tool_use`.' : undefined),
  },
  {
    name: 'strict OpenAI-style host',
    model: 'gpt-5',
    toolTurn: { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: [call()] } as never,
    refuse: (ms) => unknownKey(ms.map(({ annotations: _a, ...m }) => m as Msg)),
  },
];

/** The frames a vendor streams `message` in: reasoning and details in pieces, each tool call whole (without index when `indexless`). */
function framesOf(message: Record<string, unknown>, indexless: boolean, finish: string): unknown[] {
  const frame = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason }] });
  const out: unknown[] = [frame({ role: 'assistant' })];
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const text = message[field];
    if (typeof text === 'string') out.push(frame({ [field]: text.slice(0, 4) }), frame({ [field]: text.slice(4) }));
  }
  for (const d of (message.reasoning_details as Array<Record<string, unknown>> | undefined) ?? []) {
    if (typeof d.text === 'string') {
      const { signature, ...rest } = d;
      out.push(frame({ reasoning_details: [{ ...rest, text: d.text.slice(0, 4) }] }), frame({ reasoning_details: [{ ...rest, text: d.text.slice(4) }] }), frame({ reasoning_details: [{ type: d.type, text: '', signature, format: d.format, index: d.index }] }));
    } else out.push(frame({ reasoning_details: [d] }));
  }
  for (const b of (message.thinking_blocks as Array<Record<string, unknown>> | undefined) ?? []) {
    const thinking = String(b.thinking);
    out.push(frame({ thinking_blocks: [{ type: 'thinking', thinking: thinking.slice(0, 4) }] }), frame({ thinking_blocks: [{ type: 'thinking', thinking: thinking.slice(4) }] }), frame({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: b.signature }] }));
  }
  if (typeof message.content === 'string') out.push(frame({ content: message.content }));
  const calls = (message.tool_calls as Array<Record<string, unknown>> | undefined) ?? [];
  calls.forEach((c, index) => out.push(frame({ tool_calls: [{ ...(indexless ? {} : { index }), ...c }] })));
  out.push(frame({}, finish));
  return out;
}

/** A fetch that answers as `family` does; `requests` holds each request's body. */
export function familyFetch(family: Family): { fetch: typeof globalThis.fetch; requests: Array<{ messages: Msg[] }> } {
  const requests: Array<{ messages: Msg[] }> = [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as { messages: Msg[]; stream?: boolean };
    requests.push(body);
    const refusal = family.refuse(body.messages);
    if (refusal) return Response.json({ error: { message: refusal, type: 'invalid_request_error', code: 'invalid_request_error' } }, { status: 400 });
    const done = body.messages.some((m) => m.role === 'tool');
    const message = done ? { role: 'assistant', content: 'Four.' } : family.toolTurn;
    const finish = done ? 'stop' : 'tool_calls';
    if (body.stream) return sseResponse(sseText(framesOf(message, family.indexless === true, finish)));
    return Response.json({ id: 'c', object: 'chat.completion', created: 1, model: family.model, choices: [{ index: 0, message, finish_reason: finish }] });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}
