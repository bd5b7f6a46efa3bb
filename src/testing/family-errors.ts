import { isObject } from './context.js';
import type { MockFamily } from './families.js';
import { errorBody } from './wire.js';

type Json = Record<string, unknown>;

/** A family's refusal: the status and the body exactly as its vendor (or gateway) sends it. */
export interface FamilyRefusal {
  status: number;
  body: unknown;
}

// ---------------------------------------------------------------------------------------------
// The vendors' words. Each text is copied from the source named beside it; where a part of it
// varies (an index, a name, a value), the mock fills it from the request the way the vendor does.
// ---------------------------------------------------------------------------------------------

/** DeepSeek's thinking mode: https://github.com/decolua/9router/issues/773, https://github.com/dirac-run/dirac/issues/5 */
const deepseekRequired = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
/** DeepSeek-R1: https://github.com/Euyug/Mirai-Gpt-Plugin/issues/4 */
const deepseekRejected =
  'The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your message to reduce network traffic.';
/** DeepSeek-R1 (served as deepseek-reasoner then): https://github.com/yym68686/ChatGPT-Telegram-Bot/issues/80 */
const deepseekNoTools = (model: string) => `${model} does not support Function Calling`;
/** Moonshot (Kimi): https://github.com/bytedance/deer-flow/issues/3043, https://github.com/labring/FastGPT/issues/6357 */
const kimiRequired = (index: number) => `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`;
/** Groq: https://github.com/janhq/jan/issues/8136, https://github.com/tashfeenahmed/freellmapi/issues/1070 */
const groqUnsupported = (index: number, role: string, field: string) =>
  `'messages.${index}' : for 'role:${role}' the following must be satisfied[('messages.${index}' : property '${field}' is unsupported)]`;
/** Gemini 3: https://github.com/TokenRhythm/opensquilla/issues/225, https://github.com/lbjlaq/Antigravity-Manager/issues/938 */
const geminiMissingSignature = (name: string, position: number) =>
  `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
/** OpenRouter's prefix for Gemini: https://github.com/LibreChat-AI/agents/issues/37, https://github.com/microsoft/agent-framework/issues/2947 */
const openrouterGeminiPrefix =
  'Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks. Upstream error: ';
/** Anthropic, thinking missing from a tool loop: https://github.com/BerriAI/litellm/issues/15601, https://github.com/kaitranntt/ccs/issues/113 */
const anthropicMissing = (index: number, found: string) =>
  `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
/** Anthropic, thinking sent back changed: https://github.com/anomalyco/opencode/issues/14716 */
const anthropicModified = (index: number) =>
  `messages.${index}.content.0: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`;
/** OpenAI: https://github.com/fish2018/YPrompt/issues/26 */
const openaiMaxTokens = "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
/** OpenAI: https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33, https://github.com/holoviz/lumen/pull/1087 */
const openaiTemperature = (value: unknown) => `Unsupported value: 'temperature' does not support ${String(value)} with this model. Only the default (1) value is supported.`;
/** OpenAI: https://github.com/lobehub/lobehub/pull/7747 */
const openaiTopP = "Unsupported parameter: 'top_p' is not supported with this model.";
/** OpenAI, o1-mini (a 404): https://github.com/UKGovernmentBEIS/inspect_ai/pull/1290, https://github.com/aaif-goose/goose/pull/921 */
const openaiNoTools = 'tools is not supported in this model. For a list of supported models, refer to https://platform.openai.com/docs/guides/function-calling#models-supporting-function-calling.';
/** OpenAI, o1-pro / o3-pro (a 404): https://github.com/chatboxai/chatbox/issues/2173, https://github.com/aaif-goose/goose/issues/2564 */
const openaiNotChat = 'This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?';
/** OpenAI, codex models (a 404): https://github.com/alvinunreal/tmuxai/issues/82, https://github.com/arbs-io/vscode-openai/issues/358 */
const openaiResponsesOnly = 'This model is only supported in v1/responses and not in v1/chat/completions.';
/** OpenAI, json_schema on gpt-4 and older: https://github.com/web-infra-dev/midscene/issues/259 (the text); `param` and `code` null as recorded in Mirascope's OpenAI test snapshots */
const openaiNoJsonSchema =
  "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model. Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs";
/** A strict OpenAI-style host (JSON Schema validation of the body): https://github.com/openai/openai-node/issues/1161 */
const strictUnexpected = (fields: string[], index: number) =>
  `Additional properties are not allowed (${fields.map((f) => `'${f}'`).join(', ')} ${fields.length === 1 ? 'was' : 'were'} unexpected) - 'messages.${index}'`;

// ---------------------------------------------------------------------------------------------
// The body shapes.
// ---------------------------------------------------------------------------------------------

/** Anthropic's error body, as OpenRouter and LiteLLM quote it. */
const anthropicError = (message: string, requestId: string) => JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message }, request_id: requestId });

/** Gemini's own error object (its OpenAI-compatible endpoint wraps it in an array; OpenRouter quotes it pretty-printed). */
const geminiError = (message: string) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });

/** OpenRouter: https://github.com/microsoft/vscode/issues/279676 (with `user_id`), https://github.com/dirac-run/dirac/issues/5 (with `is_byok`). */
const openrouterBody = (raw: string, provider: string) => ({
  error: { message: 'Provider returned error', code: 400, metadata: { raw, provider_name: provider, is_byok: false } },
  user_id: 'user_mock',
});

/** LiteLLM's proxy: https://github.com/BerriAI/litellm/issues/15601 (the message), https://github.com/anomalyco/opencode/issues/3077 (the body, code "400"). */
const litellmBody = (raw: string, model: string) => ({
  error: { message: `litellm.BadRequestError: AnthropicException - b'${raw}'. Received Model Group=${model}\nAvailable Model Group Fallbacks=None`, type: null, param: null, code: '400' },
});

/** new-api: the message with its ` (request id: …)` suffix and type `new_api_error` (https://github.com/sigoden/aichat/issues/1233); `param`/`code` as new-api's OpenAI error carries them. */
const newApiBody = (message: string, requestId: string) => ({ error: { message: `${message} (request id: ${requestId})`, type: 'new_api_error', param: '', code: null } });

const refusal = (status: number, body: unknown): FamilyRefusal => ({ status, body });
const openai = (message: string, param: string | null, code: string | null, status = 400) => refusal(status, errorBody(message, 'invalid_request_error', code, param));

// ---------------------------------------------------------------------------------------------
// The checks, in the order a vendor meets them: endpoint, parameters, message fields, reasoning.
// ---------------------------------------------------------------------------------------------

/** What a family check needs to know of the request. */
export interface FamilyRequest {
  body: Json;
  model: string;
  /** The mock's request number, for request ids. */
  id: number;
  now: number;
}

/** The refusal of a chat/completions request by its family, or undefined when it keeps every rule. */
export function checkChatRequest(family: MockFamily, request: FamilyRequest): FamilyRefusal | undefined {
  if (family.endpoint === 'responses-only') return openai(family.name === 'openai-codex' ? openaiResponsesOnly : openaiNotChat, 'model', null, 404);
  const messages = Array.isArray(request.body.messages) ? (request.body.messages as unknown[]) : [];
  return checkParams(family, request) ?? checkFields(family, messages) ?? checkReasoning(family, request, messages);
}

/** The refusal of a /v1/responses request by its family (its sampling parameters), or undefined. */
export function checkResponsesRequest(family: MockFamily, request: FamilyRequest): FamilyRefusal | undefined {
  const { body } = request;
  if (family.refusedParams.includes('temperature') && body.temperature !== undefined && body.temperature !== null && body.temperature !== 1) return openai(openaiTemperature(body.temperature), 'temperature', 'unsupported_value');
  if (family.refusedParams.includes('top_p') && body.top_p !== undefined && body.top_p !== null && body.top_p !== 1) return openai(openaiTopP, 'top_p', 'unsupported_parameter');
  return undefined;
}

function checkParams(family: MockFamily, request: FamilyRequest): FamilyRefusal | undefined {
  const { body, model } = request;
  const refuses = (param: (typeof family.refusedParams)[number]) => family.refusedParams.includes(param);
  if (refuses('tools') && Array.isArray(body.tools) && body.tools.length > 0) {
    return family.name === 'openai-no-tools' ? openai(openaiNoTools, null, null, 404) : openai(deepseekNoTools(model), null, 'invalid_request_error');
  }
  if (refuses('max_tokens') && body.max_tokens !== undefined && body.max_tokens !== null) return openai(openaiMaxTokens, 'max_tokens', 'unsupported_parameter');
  if (refuses('temperature') && body.temperature !== undefined && body.temperature !== null && body.temperature !== 1) return openai(openaiTemperature(body.temperature), 'temperature', 'unsupported_value');
  if (refuses('top_p') && body.top_p !== undefined && body.top_p !== null && body.top_p !== 1) return openai(openaiTopP, 'top_p', 'unsupported_parameter');
  if (refuses('json_schema') && isObject(body.response_format) && body.response_format.type === 'json_schema') return openai(openaiNoJsonSchema, null, null);
  return undefined;
}

/** The fields the OpenAI schema names for each role, as a strict host validates them. */
const KNOWN_FIELDS: Record<string, readonly string[]> = {
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'function_call', 'audio'],
  tool: ['role', 'content', 'tool_call_id'],
};

function checkFields(family: MockFamily, messages: unknown[]): FamilyRefusal | undefined {
  const refused = family.refusedMessageFields;
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) continue;
    const role = String(m.role);
    if (refused === 'unknown') {
      const known = KNOWN_FIELDS[role] ?? [];
      const extra = Object.keys(m).filter((k) => !known.includes(k));
      if (extra.length > 0) return openai(strictUnexpected(extra, i), null, null);
    } else {
      const field = refused.find((f) => f in m);
      if (field !== undefined) return refusal(400, { error: { message: groqUnsupported(i, role, field), type: 'invalid_request_error' } });
    }
  }
  return undefined;
}

const hasToolCalls = (m: unknown): m is Json & { tool_calls: unknown[] } => isObject(m) && m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0;

/** Whether this request makes the family think (deepseek-chat only with `thinking: { type: 'enabled' }`). */
export const thinks = (family: MockFamily, body: Json): boolean =>
  family.reasoning !== 'none' && (family.thinking === 'always' || (isObject(body.thinking) && body.thinking.type === 'enabled'));

/** The index of the last user message (-1 when none): what comes after it is the current turn, a tool loop. */
const lastUserIndex = (messages: unknown[]) => messages.map((m) => isObject(m) && m.role === 'user').lastIndexOf(true);

/**
 * The index message `i` gets once system messages go to a separate field and each run of tool
 * results becomes one message, as the Anthropic and Gemini APIs number them.
 */
function convertedIndex(messages: unknown[], i: number): number {
  let n = 0;
  for (const [j, m] of messages.slice(0, i).entries()) {
    if (!isObject(m) || m.role === 'system' || m.role === 'developer') continue;
    const previous = messages[j - 1];
    if (m.role === 'tool' && isObject(previous) && previous.role === 'tool') continue;
    n++;
  }
  return n;
}

/** The last assistant message that called tools with no user message after it: the tool loop's turn Anthropic checks. */
function toolLoopTurn(messages: unknown[]): number | undefined {
  const i = messages.map((m) => isObject(m) && m.role === 'assistant').lastIndexOf(true);
  return i >= 0 && i > lastUserIndex(messages) && hasToolCalls(messages[i]) ? i : undefined;
}

const firstBlock = (m: Json) => (typeof m.content === 'string' && m.content !== '' ? 'text' : Array.isArray(m.content) && m.content.length > 0 ? 'text' : 'tool_use');

function checkReasoning(family: MockFamily, request: FamilyRequest, messages: unknown[]): FamilyRefusal | undefined {
  const { body, model } = request;
  const requestId = `req_mock_${request.id}`;
  if (family.toolCallSignatures) {
    for (const [i, m] of messages.entries()) {
      if (i <= lastUserIndex(messages) || !hasToolCalls(m)) continue;
      const first = m.tool_calls[0];
      if (!(isObject(first) && signatureOf(first) !== undefined)) {
        const name = isObject(first) && isObject(first.function) ? String(first.function.name) : 'tool';
        return refusal(400, [geminiError(geminiMissingSignature(name, convertedIndex(messages, i) + 1))]);
      }
    }
  }
  switch (family.sendBack) {
    case 'required-on-tool-calls': {
      if (!thinks(family, body)) return undefined;
      const i = messages.findIndex((m) => hasToolCalls(m) && typeof m.reasoning_content !== 'string');
      if (i < 0) return undefined;
      return family.errorShape === 'moonshot' ? refusal(400, { error: { message: kimiRequired(i), type: 'invalid_request_error' } }) : openai(deepseekRequired, null, 'invalid_request_error');
    }
    case 'rejected': {
      const found = messages.some((m) => isObject(m) && 'reasoning_content' in m);
      return found ? openai(deepseekRejected, null, 'invalid_request_error') : undefined;
    }
    case 'fails-in-tool-loop': {
      const i = toolLoopTurn(messages);
      if (i === undefined) return undefined;
      const date = new Date(request.now).toISOString().replace(/\D/g, '').slice(0, 14);
      return refusal(400, newApiBody(anthropicMissing(convertedIndex(messages, i), firstBlock(messages[i] as Json)), `${date}${String(request.id).padStart(6, '0')}mock`));
    }
    case 'required-in-tool-loop': {
      const i = toolLoopTurn(messages);
      if (i === undefined) return undefined;
      const turn = messages[i] as Json & { tool_calls: unknown[] };
      const index = convertedIndex(messages, i);
      if (family.reasoning === 'reasoning_details') {
        const details = Array.isArray(turn.reasoning_details) ? turn.reasoning_details.filter(isObject) : [];
        if (family.name === 'openrouter-gemini-3') {
          const call = turn.tool_calls[0];
          const callId = isObject(call) ? String(call.id) : '';
          const encrypted = details.find((d) => d.type === 'reasoning.encrypted' && d.id === callId);
          if (encrypted && encrypted.data === sign('gemini', callId)) return undefined;
          const name = isObject(call) && isObject(call.function) ? String(call.function.name) : 'tool';
          const upstream = `${JSON.stringify(geminiError(geminiMissingSignature(name, index + 1)), null, 2)}\n`;
          return refusal(400, openrouterBody(openrouterGeminiPrefix + upstream, 'Google AI Studio'));
        }
        const text = details.find((d) => d.type === 'reasoning.text');
        if (!text) return refusal(400, openrouterBody(anthropicError(anthropicMissing(index, firstBlock(turn)), requestId), 'Anthropic'));
        if (typeof text.text !== 'string' || text.signature !== sign('claude', text.text)) return refusal(400, openrouterBody(anthropicError(anthropicModified(index), requestId), 'Anthropic'));
        return undefined;
      }
      const blocks = Array.isArray(turn.thinking_blocks) ? turn.thinking_blocks.filter(isObject) : [];
      const block = blocks.find((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
      const raw = !block
        ? anthropicError(anthropicMissing(index, firstBlock(turn)), requestId)
        : typeof block.thinking !== 'string' || block.signature !== sign('claude', block.thinking)
          ? anthropicError(anthropicModified(index), requestId)
          : undefined;
      return raw === undefined ? undefined : refusal(400, litellmBody(raw, model));
    }
    default:
      return undefined;
  }
}

/** The indexes of the tool loop's assistant turns that came back without their reasoning (the families that lose it silently). */
export function lostReasoning(family: MockFamily, messages: unknown[]): number[] {
  if (family.sendBack !== 'lost-if-missing') return [];
  const after = lastUserIndex(messages);
  return messages.flatMap((m, i) => (i > after && hasToolCalls(m) && typeof m.reasoning_content !== 'string' ? [i] : []));
}

/** A tool call's thought signature, if it carries one. */
function signatureOf(call: Json): string | undefined {
  const google = isObject(call.extra_content) && isObject(call.extra_content.google) ? call.extra_content.google : undefined;
  return typeof google?.thought_signature === 'string' && google.thought_signature !== '' ? google.thought_signature : undefined;
}

/**
 * The mock's signature of a text (a reasoning block's, or a tool call id's): a hash, so the mock
 * can tell on a later request, without keeping state, whether what came back is what it sent.
 */
export function sign(kind: string, text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ kind.length;
  for (const ch of `${kind}:${text}`) {
    const c = ch.codePointAt(0) ?? 0;
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return `Ev${kind === 'gemini' ? 'Cw' : 'sB'}${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}mock`;
}
