import { createAPIError, excerpt } from '../../../core/error-factory.js';
import { GatewayError } from '../../../core/errors.js';
import { isRecord } from '../../../internal/is-record.js';
import { Redactor } from '../../../internal/redact.js';
import type { ResponsesRoute } from '../../../core/types.js';
import { ResponseStream } from '../../responses/stream.js';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionChunkToolCall, ChatCompletionFinishReason, ChatCompletionMessageToolCall, CompletionUsage } from './types.js';

// Chat callers of models that answer only on /v1/responses (o1-pro, o3-pro, codex): the
// request goes out as a responses body and its answer comes back chat-shaped, streamed too.
// Pure converters; the request path decides when to use them. Spec: CreateResponse, InputItem,
// ResponseStreamEvent in the OpenAI OpenAPI document.

/** Where an answer came from, for the error a failed response becomes; the client's redactor keeps its key out. */
export interface ResponsesRouteSource {
  /** @default 'POST' */
  method?: string | undefined;
  /** @default 'responses' */
  url?: string | undefined;
  /** @default a redactor with no secrets */
  redactor?: Redactor | undefined;
}

/** Chat parameters sent under the same name and meaning. */
const SAME = ['model', 'temperature', 'top_p', 'parallel_tool_calls', 'user', 'metadata', 'store', 'stream', 'service_tier', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier'];
/** Chat parameters mapped to another responses field (below). */
const MAPPED = ['messages', 'tools', 'tool_choice', 'response_format', 'verbosity', 'max_tokens', 'max_completion_tokens', 'reasoning_effort'];
/** Values that ask for what responses does anyway: left out, not refused. `stream_options`: responses streams always carry usage. */
// A Map, not an object literal: the key is the caller's, and `{}['constructor']` is a function.
const HARMLESS: ReadonlyMap<string, (value: unknown) => boolean> = new Map<string, (value: unknown) => boolean>([
  ['stream_options', () => true],
  ['n', (v) => v === 1],
  ['logprobs', (v) => v === false],
  ['presence_penalty', (v) => v === 0],
  ['frequency_penalty', (v) => v === 0],
]);

/**
 * A chat/completions request body as a /v1/responses body. `messages` become `input` items
 * (user parts: `input_text`, `input_image`, `input_file`; an assistant turn: a message of
 * `output_text` and a refusal, then a `function_call` item per tool call; a tool message: a
 * `function_call_output`), tools are flattened, `response_format` and `verbosity` go to `text`,
 * `max_tokens`/`max_completion_tokens` to `max_output_tokens`, `reasoning_effort` to `reasoning`.
 * Nothing that responses cannot honour is sent: each such parameter (`n` > 1, `logprobs`,
 * `stop`, `seed`, `logit_bias`, `audio`, `modalities`, `prediction`, vendor fields…) and each
 * message field or part without an equivalent (`messages[0].name`, `messages[1].content[0]`
 * of type `input_audio`) is named in `unsupported`. Null values and `cache_control` hints are
 * left out; so are an assistant turn's reasoning fields (other vendors' formats). The input is
 * not changed.
 * @example
 * const { body, unsupported } = toResponsesRequest({ model: 'o3-pro', messages: [{ role: 'user', content: 'Hi' }] });
 */
export function toResponsesRequest(body: Record<string, unknown>): { body: Record<string, unknown>; unsupported: string[] } {
  const out: Record<string, unknown> = {};
  const unsupported: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (SAME.includes(key)) out[key] = value;
    else if (!MAPPED.includes(key) && !HARMLESS.get(key)?.(value)) unsupported.push(key);
  }
  if (Array.isArray(body.messages)) out.input = toInput(body.messages, unsupported);
  else if (body.messages !== undefined) unsupported.push('messages');
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null) out.max_output_tokens = maxTokens;
  if (typeof body.reasoning_effort === 'string') out.reasoning = { effort: body.reasoning_effort };
  if (Array.isArray(body.tools)) {
    out.tools = body.tools.flatMap((tool: unknown, i) => {
      const flat = toTool(tool);
      if (!flat) unsupported.push(`tools[${i}]`);
      return flat ? [flat] : [];
    });
  }
  if (body.tool_choice !== undefined && body.tool_choice !== null) {
    const choice = toToolChoice(body.tool_choice);
    if (choice === undefined) unsupported.push('tool_choice');
    else out.tool_choice = choice;
  }
  const text: Record<string, unknown> = {};
  if (isRecord(body.response_format)) {
    const format = toTextFormat(body.response_format);
    if (format === undefined) unsupported.push('response_format');
    else text.format = format;
  }
  if (typeof body.verbosity === 'string') text.verbosity = body.verbosity;
  if (Object.keys(text).length > 0) out.text = text;
  return { body: out, unsupported };
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

function toInput(messages: unknown[], unsupported: string[]): unknown[] {
  const input: unknown[] = [];
  for (const [i, message] of messages.entries()) {
    const at = `messages[${i}]`;
    // A message of a role responses does not know (`function`) is named whole, not field by field.
    if (!isRecord(message) || !ROLES.includes(message.role as string)) {
      unsupported.push(at);
      continue;
    }
    if (typeof message.name === 'string') unsupported.push(`${at}.name`);
    const { role } = message;
    if (role === 'system' || role === 'developer' || role === 'user') {
      input.push({ role, content: typeof message.content === 'string' ? message.content : toParts(message.content, at, unsupported) });
    } else if (role === 'assistant') {
      const content: unknown[] = [];
      const said = textOf(message.content);
      if (said) content.push({ type: 'output_text', text: said, annotations: [] });
      if (typeof message.refusal === 'string' && message.refusal) content.push({ type: 'refusal', refusal: message.refusal });
      if (content.length > 0) input.push({ type: 'message', role: 'assistant', content });
      for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : []) {
        const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
        if (!isRecord(call) || !fn || (call.type !== undefined && call.type !== 'function')) unsupported.push(`${at}.tool_calls`);
        else input.push({ type: 'function_call', call_id: call.id, name: fn.name, arguments: fn.arguments });
      }
    } else {
      input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: textOf(message.content) });
    }
  }
  return input;
}

/** A user or instruction message's parts as responses input content. */
function toParts(content: unknown, at: string, unsupported: string[]): unknown[] {
  if (!Array.isArray(content)) {
    unsupported.push(`${at}.content`);
    return [];
  }
  return content.flatMap((part: unknown, j) => {
    if (isRecord(part) && part.type === 'text') return [{ type: 'input_text', text: part.text }];
    if (isRecord(part) && part.type === 'image_url' && isRecord(part.image_url)) return [{ type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' }];
    // Chat's file part (`{ type: 'file', file: { file_id | file_data, filename } }`) has the same fields flat in responses.
    if (isRecord(part) && part.type === 'file' && isRecord(part.file)) return [{ type: 'input_file', ...part.file }];
    unsupported.push(`${at}.content[${j}]`);
    return [];
  });
}

/** A string, or the text parts joined (chat allows text parts for assistant and tool content). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function toTool(tool: unknown): Record<string, unknown> | undefined {
  if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) return undefined;
  const { name, description, parameters, strict } = tool.function;
  return defined({ type: 'function', name, description, parameters, strict });
}

function toToolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  if (isRecord(choice) && choice.type === 'function' && isRecord(choice.function)) return { type: 'function', name: choice.function.name };
  return undefined;
}

function toTextFormat(format: Record<string, unknown>): Record<string, unknown> | undefined {
  if (format.type === 'text' || format.type === 'json_object') return { type: format.type };
  if (format.type !== 'json_schema' || !isRecord(format.json_schema)) return undefined;
  const { name, description, schema, strict } = format.json_schema;
  return defined({ type: 'json_schema', name, description, schema, strict });
}

/** The object without its undefined and null fields (responses refuses `strict: null` where chat takes it). */
function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== null));
}

/**
 * A /v1/responses result as a chat completion: one choice whose message has the text of the
 * output messages (`null` when none), a refusal, and the `function_call` items as `tool_calls`;
 * usage in chat's names. Reasoning items are not carried (chat has no place for OpenAI's
 * reasoning items, and they cannot go back through `messages`).
 * A response that did not complete (`failed`, `cancelled`, or an `error`) throws the
 * `APIError` its error names, status 200, as an error inside a successful answer does.
 * `finish_reason`: `'length'` or `'content_filter'` for an incomplete response (before
 * `'tool_calls'`: a cut call's arguments may be unfinished JSON), else `'tool_calls'` when
 * it has calls, else `'stop'`.
 * @example
 * const completion = toChatCompletion(await res.json());
 */
export function toChatCompletion(response: unknown, source?: ResponsesRouteSource): ChatCompletion {
  const r = checked(response, source);
  let text: string | null = null;
  let refusal: string | null = null;
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const item of Array.isArray(r.output) ? (r.output as unknown[]) : []) {
    if (!isRecord(item)) continue;
    if (item.type === 'function_call') toolCalls.push({ id: String(item.call_id), type: 'function', function: { name: String(item.name), arguments: typeof item.arguments === 'string' ? item.arguments : '' } });
    if (item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as unknown[]) {
      if (isRecord(part) && part.type === 'output_text' && typeof part.text === 'string') text = (text ?? '') + part.text;
      if (isRecord(part) && part.type === 'refusal' && typeof part.refusal === 'string') refusal = (refusal ?? '') + part.refusal;
    }
  }
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: text, refusal };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const completion: ChatCompletion = { id: String(r.id), object: 'chat.completion', created: typeof r.created_at === 'number' ? r.created_at : Math.floor(Date.now() / 1000), model: String(r.model), choices: [{ index: 0, message, finish_reason: finishReason(r, toolCalls.length > 0) }] };
  const usage = toUsage(r.usage);
  if (usage) completion.usage = usage;
  return completion;
}

/** The response as a record; throws for anything but a completed or incomplete one. */
function checked(response: unknown, source: ResponsesRouteSource | undefined): Record<string, unknown> {
  if (!isRecord(response)) throw new GatewayError(`Expected a responses result, got ${response === null ? 'null' : typeof response}.`);
  const { status } = response;
  const failed = (response.error !== undefined && response.error !== null) || (status !== undefined && status !== 'completed' && status !== 'incomplete');
  if (failed) throw failure(isRecord(response.error) ? response.error : { message: `Response ${String(response.id)} ended with status '${String(status)}' and no error.`, code: null }, source);
  // Not an answer at all (a proxy's JSON, a changed API): never an empty reply.
  if (!Array.isArray(response.output)) throw new GatewayError(`Expected a responses result with an output array, got ${excerpt(JSON.stringify(response) ?? '')}.`);
  return response;
}

/** The error a failed response or an `error` event names, classed by its code as the core classes an error inside a 200. */
function failure(error: Record<string, unknown>, source: ResponsesRouteSource | undefined): GatewayError {
  return createAPIError({ status: 200, body: { error }, headers: new Headers(), method: source?.method ?? 'POST', url: source?.url ?? 'responses', retryAfterMs: null, redactor: source?.redactor ?? new Redactor() });
}

function finishReason(response: Record<string, unknown>, hasCalls: boolean): ChatCompletionFinishReason {
  const reason = isRecord(response.incomplete_details) ? response.incomplete_details.reason : undefined;
  if (response.status === 'incomplete' && reason === 'max_output_tokens') return 'length';
  if (response.status === 'incomplete' && reason === 'content_filter') return 'content_filter';
  return hasCalls ? 'tool_calls' : 'stop';
}

function toUsage(usage: unknown): CompletionUsage | undefined {
  if (!isRecord(usage) || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') return undefined;
  const out: CompletionUsage = { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: typeof usage.total_tokens === 'number' ? usage.total_tokens : usage.input_tokens + usage.output_tokens };
  const cached = isRecord(usage.input_tokens_details) ? usage.input_tokens_details.cached_tokens : undefined;
  const reasoning = isRecord(usage.output_tokens_details) ? usage.output_tokens_details.reasoning_tokens : undefined;
  if (typeof cached === 'number') out.prompt_tokens_details = { cached_tokens: cached };
  if (typeof reasoning === 'number') out.completion_tokens_details = { reasoning_tokens: reasoning };
  return out;
}

/** The events that end a responses stream (it sends no `[DONE]`). */
const FINAL_EVENTS = ['response.completed', 'response.incomplete', 'response.failed'];

/** True for `response.completed`, `response.incomplete` and `response.failed`: nothing follows them. */
export function isFinalResponseEvent(event: unknown): boolean {
  return isRecord(event) && FINAL_EVENTS.includes(event.type as string);
}

/**
 * Turns a responses stream's events, one by one, into chat completion chunks: a first chunk
 * with `role`, text and refusal deltas, tool calls (indexed by order of their function calls)
 * and their argument deltas, then at `response.completed` / `.incomplete` a chunk with the
 * `finish_reason` {@link toChatCompletion} would give and a `choices: []` chunk with `usage`
 * (when the response has usage). `response.failed` and `error` events throw their
 * `APIError`. Reasoning events and other output items give no chunk.
 * @example
 * const chunks = new ChatChunksFromResponseEvents();
 * for await (const event of events) for (const chunk of chunks.push(event)) yield chunk;
 */
export class ChatChunksFromResponseEvents {
  #source: ResponsesRouteSource | undefined;
  #head = { id: '', created: 0, model: '' };
  #started = false;
  #done = false;
  /** Function calls by item id: their chunk index and the arguments sent so far. */
  #calls = new Map<string, { index: number; sent: string }>();
  /** Item ids by output index, for argument deltas that name only the output index. */
  #byOutput = new Map<number, string>();
  /** Text sent per message item, to send what only its `output_item.done` carries. */
  #texts = new Map<string, string>();

  constructor(source?: ResponsesRouteSource) {
    this.#source = source;
  }

  /** The chunks this event gives (often none); throws for `response.failed` and `error`. */
  push(event: unknown): ChatCompletionChunk[] {
    if (!isRecord(event) || this.#done) return [];
    if (event.type === 'error') throw failure({ message: event.message, code: event.code ?? null, param: event.param ?? null }, this.#source);
    if (isRecord(event.response)) this.#see(event.response);
    switch (event.type) {
      case 'response.created':
        return this.#start();
      case 'response.output_text.delta':
        if (typeof event.item_id === 'string') this.#texts.set(event.item_id, (this.#texts.get(event.item_id) ?? '') + String(event.delta));
        return this.#delta({ content: String(event.delta) });
      case 'response.refusal.delta':
        return this.#delta({ refusal: String(event.delta) });
      case 'response.output_item.added':
        return isRecord(event.item) && event.item.type === 'function_call' ? this.#call(event.item, Number(event.output_index)) : [];
      case 'response.function_call_arguments.delta': {
        const call = this.#calls.get(typeof event.item_id === 'string' ? event.item_id : (this.#byOutput.get(Number(event.output_index)) ?? ''));
        if (!call) return [];
        call.sent += String(event.delta);
        return this.#delta({ tool_calls: [{ index: call.index, function: { arguments: String(event.delta) } }] });
      }
      case 'response.output_item.done':
        return isRecord(event.item) ? this.#itemDone(event.item, Number(event.output_index)) : [];
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        return this.#end(event.response);
      default:
        return [];
    }
  }

  #see(response: Record<string, unknown>): void {
    if (typeof response.id === 'string') this.#head.id = response.id;
    if (typeof response.created_at === 'number') this.#head.created = response.created_at;
    if (typeof response.model === 'string') this.#head.model = response.model;
  }

  #chunk(choices: ChatCompletionChunk['choices'], usage?: CompletionUsage): ChatCompletionChunk {
    return { ...this.#head, object: 'chat.completion.chunk', choices, ...(usage ? { usage } : {}) };
  }

  #start(): ChatCompletionChunk[] {
    if (this.#started) return [];
    this.#started = true;
    return [this.#chunk([{ index: 0, delta: { role: 'assistant' }, finish_reason: null }])];
  }

  /** A content chunk, after the role chunk if none went out yet (a stream without `response.created`). */
  #delta(delta: ChatCompletionChunk['choices'][number]['delta']): ChatCompletionChunk[] {
    return [...this.#start(), this.#chunk([{ index: 0, delta, finish_reason: null }])];
  }

  #call(item: Record<string, unknown>, outputIndex: number): ChatCompletionChunk[] {
    const key = typeof item.id === 'string' ? item.id : String(item.call_id);
    if (this.#calls.has(key)) return [];
    const args = typeof item.arguments === 'string' ? item.arguments : '';
    this.#calls.set(key, { index: this.#calls.size, sent: args });
    this.#byOutput.set(outputIndex, key);
    const call: ChatCompletionChunkToolCall = { index: this.#calls.size - 1, id: String(item.call_id), type: 'function', function: { name: String(item.name), arguments: args } };
    return this.#delta({ tool_calls: [call] });
  }

  /** What an item's `done` carries beyond its deltas: a call or text a server sent only whole. */
  #itemDone(item: Record<string, unknown>, outputIndex: number): ChatCompletionChunk[] {
    if (item.type === 'function_call') {
      const key = typeof item.id === 'string' ? item.id : String(item.call_id);
      const call = this.#calls.get(key);
      if (!call) return this.#call(item, outputIndex);
      const args = typeof item.arguments === 'string' ? item.arguments : '';
      if (args.length <= call.sent.length || !args.startsWith(call.sent)) return [];
      const rest = args.slice(call.sent.length);
      call.sent = args;
      return this.#delta({ tool_calls: [{ index: call.index, function: { arguments: rest } }] });
    }
    if (item.type !== 'message' || typeof item.id !== 'string' || !Array.isArray(item.content)) return [];
    const text = textOf((item.content as unknown[]).filter((part) => isRecord(part) && part.type === 'output_text'));
    const sent = this.#texts.get(item.id) ?? '';
    if (text.length <= sent.length || !text.startsWith(sent)) return [];
    this.#texts.set(item.id, text);
    return this.#delta({ content: text.slice(sent.length) });
  }

  #end(response: unknown): ChatCompletionChunk[] {
    this.#done = true;
    const r = checked(response, this.#source);
    const hasCalls = this.#calls.size > 0 || (Array.isArray(r.output) && r.output.some((item: unknown) => isRecord(item) && item.type === 'function_call'));
    const chunks = [...this.#start(), this.#chunk([{ index: 0, delta: {}, finish_reason: finishReason(r, hasCalls) }])];
    const usage = toUsage(r.usage);
    if (usage) chunks.push(this.#chunk([], usage));
    return chunks;
  }
}

/**
 * How the request path serves a chat request for a model that answers only on
 * `/v1/responses` (core/request/adapt-step.ts): the body converted, the answer and the
 * stream's events read back as chat. Loaded with the first such request.
 */
export const responsesRoute: ResponsesRoute = {
  request: toResponsesRequest,
  reply: (data) => toChatCompletion(data),
  frames(usage) {
    const chunks = new ChatChunksFromResponseEvents();
    return {
      terminalEvents: ResponseStream.terminalEvents,
      hasContent: (event) => ResponseStream.hasContent(event),
      // The last, usage-only chunk is a chat stream's only when its caller (or telemetry) asked for it.
      translate: (event) => chunks.push(event).filter((chunk) => usage || chunk.choices.length > 0),
    };
  },
};
