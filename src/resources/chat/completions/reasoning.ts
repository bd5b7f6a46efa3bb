import type { ReasoningRule, ResolvedReasoningRule } from '../../../core/types.js';
import type { ChatCompletionAssistantMessageParam, ChatCompletionContentPartText, ChatCompletionMessageToolCall, ChatCompletionReasoningFields } from './types.js';

// Which models take their reasoning back, and in which field: one table, by model id, loaded
// with runTools (and, through `_reasoningRule`, with the AI SDK provider). docs/chat.md#reasoning-models
// shows it with the sources; keep the two in step.

/** A rule with its field filled in, as the lookup returns it. */
export type { ResolvedReasoningRule };

interface ReasoningEntry {
  /** Tested against the id's last path segment, lowercased: `deepseek-ai/DeepSeek-R1` is `deepseek-r1`. */
  pattern: RegExp;
  rule: ResolvedReasoningRule;
}

const always: ResolvedReasoningRule = { send: 'always', field: 'reasoning_content' };
const toolCalls: ResolvedReasoningRule = { send: 'tool-calls', field: 'reasoning_content' };
const never: ResolvedReasoningRule = { send: 'never', field: 'reasoning_content' };
// The same rules for families that merely lose reasoning without the field (their template
// drops or ignores it), and whose hosts may refuse it outright (Groq answers 400 to any
// reasoning_content): a turn that carried none gets no empty field. Told apart by identity,
// so the rules compare equal to the others; a client's `reasoningRules` entry always fills
// (docs/chat.md#reasoning-models).
const toolCallsIfGiven: ResolvedReasoningRule = { send: 'tool-calls', field: 'reasoning_content' };
const alwaysIfGiven: ResolvedReasoningRule = { send: 'always', field: 'reasoning_content' };
const neverFilled: ReadonlySet<ResolvedReasoningRule> = new Set([toolCallsIfGiven, alwaysIfGiven]);

/**
 * The families the gateway lists, first match wins. Sources are in docs/chat.md beside the
 * same table; a comment names each.
 */
export const reasoningTable: readonly ReasoningEntry[] = [
  // DeepSeek-R1 (and its distills): reasoning_content in any input message is a 400
  // (https://api-docs.deepseek.com/guides/reasoning_model); its template drops it anyway.
  { pattern: /^deepseek-r1/, rule: never },
  // DeepSeek's thinking mode (V3.1+, V4; the deepseek-reasoner and deepseek-chat aliases serve
  // it): a tool-call turn sent back without its reasoning_content is a 400, and reasoning on
  // other turns "will be ignored" (https://api-docs.deepseek.com/guides/thinking_mode), so every
  // turn carries it: the docs' "between two user messages" leaves the last answer of a tool
  // span unclear, and an empty field is what DeepSeek's own adapter sends when there was none.
  { pattern: /^deepseek-(reasoner|chat|flash|v4|v3[.-][1-9])/, rule: always },
  // QwQ: "No thinking content in history" (https://huggingface.co/Qwen/QwQ-32B, usage guidelines).
  { pattern: /^qwq/, rule: never },
  // Qwen3 and later (qwen-plus/max/turbo/flash are Qwen3 on Model Studio): the template keeps the
  // reasoning of the assistant turns after the last user query, the tool loop's
  // (https://huggingface.co/blog/qwen-3-chat-template-deep-dive), and drops older ones unless
  // preserve_thinking is on (Qwen3.6; then use 'always').
  // Qwen3 on Groq refuses reasoning_content: an empty one is never added.
  { pattern: /^(qwen3|qwen-(plus|max|turbo|flash))/, rule: toolCallsIfGiven },
  // Kimi's thinking models (kimi-k2-thinking…, kimi-k2.5 and later, which think by default,
  // kimi-for-coding, kimi-thinking-preview): reasoning_content must stay in the context of
  // multi-step tool calls (https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model);
  // without it a 400 (https://github.com/openai/openai-agents-python/issues/2669). Not
  // kimi-k2-instruct, kimi-k2-0905-preview and the other K2 previews: they do not think, and
  // the id says little (REALITIES.md).
  { pattern: /^kimi-(k2-thinking|k2\.[5-9]|k[3-9]|thinking|for-coding)/, rule: toolCalls },
  // Xiaomi MiMo: a tool-call turn without its reasoning_content is a 400
  // (https://platform.xiaomimimo.com/docs/zh-CN/usage-guide/passing-back-reasoning_content).
  { pattern: /^mimo-/, rule: toolCalls },
  // GLM-4.5/4.6: interleaved thinking, "thinking blocks should be explicitly preserved and
  // returned together with the tool results" (https://docs.z.ai/guides/capabilities/thinking-mode).
  { pattern: /^glm-4\.[56]/, rule: toolCallsIfGiven },
  // GLM-4.7 and 5: preserved thinking keeps earlier turns' reasoning (on for the coding
  // endpoint; elsewhere the server clears it itself), same page.
  { pattern: /^glm-(4\.[7-9]|[5-9])/, rule: alwaysIfGiven },
  // Claude: thinking goes back only as signed thinking blocks, which Chat Completions cannot
  // carry; Anthropic's own OpenAI layer returns no thinking at all
  // (https://platform.claude.com/docs/en/api/openai-sdk).
  { pattern: /^claude/, rule: never },
  // Gemini: the reasoning text does not go back; the thought signature does, on the tool call
  // itself (tool_calls[].extra_content, kept as received)
  // (https://ai.google.dev/gemini-api/docs/thought-signatures).
  { pattern: /^gemini/, rule: never },
  // OpenAI: Chat Completions returns no reasoning, and its endpoint refuses message fields it
  // does not know (https://github.com/openai/openai-node/issues/1161); gpt-oss hosts refuse
  // reasoning_content too (https://github.com/Kilo-Org/kilocode/issues/10375).
  { pattern: /^(o[1-9]|gpt-|chatgpt|codex)/, rule: never },
];

/**
 * For a model the table does not know: never. Most OpenAI-style endpoints answer 400 to a
 * message field they do not know, which would break every model that never asked for its
 * reasoning; a model that does need it gets a rule in `reasoningRules`.
 */
export const DEFAULT_REASONING_RULE: ResolvedReasoningRule = never;

/**
 * How `model` takes its reasoning back: the client's rules first (`modelRules[id].reasoning`
 * and `reasoningRules`: an exact id, then the longest prefix ending in `*`; case-sensitive, as
 * ids are sent), then the table (by the id's last path segment, any case), then the client's
 * `'*'` rule (it covers what nothing more specific does), then {@link DEFAULT_REASONING_RULE}.
 * @example reasoningRuleFor('deepseek-reasoner') // { send: 'always', field: 'reasoning_content' }
 */
export function reasoningRuleFor(model: string, rules: Readonly<Record<string, ResolvedReasoningRule>> = {}): ResolvedReasoningRule {
  let prefix: string | undefined;
  for (const key of Object.keys(rules)) {
    if (key === model) return rules[key] as ResolvedReasoningRule;
    if (key === '*') continue;
    if (key.endsWith('*') && model.startsWith(key.slice(0, -1)) && (prefix === undefined || key.length > prefix.length)) prefix = key;
  }
  if (prefix !== undefined) return rules[prefix] as ResolvedReasoningRule;
  const id = lastSegment(model);
  return reasoningTable.find((entry) => entry.pattern.test(id))?.rule ?? rules['*'] ?? DEFAULT_REASONING_RULE;
}

/** An assistant turn as a reply (`ChatCompletionMessage`) or a param has it. */
export interface AssistantTurnSource extends ChatCompletionReasoningFields {
  content?: string | ChatCompletionContentPartText[] | null | undefined;
  name?: string | undefined;
  tool_calls?: readonly ChatCompletionMessageToolCall[] | null | undefined;
}

/**
 * An assistant turn ready to go back to a model with this rule, with the fields it came with
 * and nothing renamed: its content, name and tool calls (each as received, `extra_content`
 * and all); `reasoning_details` and `thinking_blocks` as received (only the vendors that want
 * them back send them: OpenRouter, LiteLLM); and the reasoning text in the rule's `field`, as
 * received, when the rule names the turn ('always': every turn; 'tool-calls': a turn with
 * tool calls). The other text field is not sent (Groq refuses `reasoning_content`; a host
 * that wants `reasoning` has a rule that names it). One exception adds a field: a tool-call
 * turn the rule names whose reply carried no reasoning at all gets the rule's field empty,
 * which the vendors that demand it check for (not Qwen3 or GLM, which only lose reasoning
 * without it, and whose hosts may refuse it). Nothing else a reply carries goes back
 * (`refusal`, `annotations`): strict endpoints refuse fields they do not know.
 *
 * `own` false: another model wrote the turn (a fallback answered it, or the conversation
 * moved to this model). Its reasoning is that model's alone: none of its vendor fields go
 * (text, `reasoning_details`, `thinking_blocks`, the calls' `extra_content`), and the rule
 * applies as to a turn that carried no reasoning.
 */
export function prepareAssistantTurn(message: AssistantTurnSource, rule: ResolvedReasoningRule, own = true): ChatCompletionAssistantMessageParam {
  const calls = message.tool_calls?.length ? (own ? [...message.tool_calls] : message.tool_calls.map(withoutExtraContent)) : undefined;
  const turn: ChatCompletionAssistantMessageParam = { role: 'assistant', content: message.content ?? null };
  if (message.name !== undefined) turn.name = message.name;
  if (calls) turn.tool_calls = calls;
  if (own && message.reasoning_details !== undefined && message.reasoning_details !== null) turn.reasoning_details = message.reasoning_details;
  if (own && message.thinking_blocks !== undefined && message.thinking_blocks !== null) turn.thinking_blocks = message.thinking_blocks;
  if (rule.send === 'always' || (rule.send === 'tool-calls' && calls)) {
    const text = own ? message[rule.field] : undefined;
    if (typeof text === 'string') turn[rule.field] = text;
    else if (calls && !(own && carriesReasoning(message)) && !neverFilled.has(rule)) turn[rule.field] = '';
  }
  return turn;
}

/** A tool call without its vendor data (Gemini's thought signature), for another model. */
function withoutExtraContent(call: ChatCompletionMessageToolCall): ChatCompletionMessageToolCall {
  if (!('extra_content' in call)) return call;
  const { extra_content: _, ...rest } = call;
  return rest;
}

/** True when a reply carried reasoning in any field (text, details or blocks), even empty. */
function carriesReasoning(message: ChatCompletionReasoningFields): boolean {
  return typeof message.reasoning_content === 'string' || typeof message.reasoning === 'string' || Array.isArray(message.reasoning_details) || Array.isArray(message.thinking_blocks);
}

/**
 * Which model wrote a reply: `requested`, or one of its `fallbacks` when the requested one was
 * unavailable (the core swaps the model and says so only to hooks). Told from the reply's
 * `model`, which hosts spell their own way: the same id, the same last path segment (any
 * case), that segment with a suffix (`gpt-4o-2024-08-06`; the longest match wins), else the
 * one candidate of the same family of the table. Without fallbacks, always `requested`.
 * Undefined when the reply cannot be placed: then it is taken as another model's (its
 * reasoning lost, rather than a strict host's 400).
 */
export function answeringModel(requested: string, fallbacks: readonly string[], answered: unknown): string | undefined {
  const others = fallbacks.filter((model) => model !== requested);
  if (others.length === 0) return requested;
  if (typeof answered !== 'string' || answered === '') return undefined;
  const candidates = [requested, ...others];
  if (candidates.includes(answered)) return answered;
  const seg = lastSegment(answered);
  const same = candidates.find((model) => lastSegment(model) === seg);
  if (same !== undefined) return same;
  let best: string | undefined;
  for (const model of candidates) {
    const id = lastSegment(model);
    if (id && seg.startsWith(id) && /[-_:@.]/.test(seg.charAt(id.length)) && (best === undefined || id.length > lastSegment(best).length)) best = model;
  }
  if (best !== undefined) return best;
  const family = familyOf(seg);
  if (family < 0) return undefined;
  const kin = candidates.filter((model) => familyOf(lastSegment(model)) === family);
  return kin.length === 1 ? kin[0] : undefined;
}

function lastSegment(model: string): string {
  return (model.split('/').pop() ?? '').toLowerCase();
}

function familyOf(id: string): number {
  return reasoningTable.findIndex((entry) => entry.pattern.test(id));
}
