import { isRecord, num as int, str } from './values.js';

// What an answer says, for its span and metrics: ids, the model that answered, why it
// stopped, token counts, and (for content capture) the messages it returned. Read from the
// JSON of a chat completion, a text completion, embeddings or a response, and accumulated
// from a stream's chunks.

/** A message part as the conventions' `gen_ai.*.messages` schema names it. */
export type Part = { type: string; [key: string]: unknown };

/** One returned message (one choice). */
export interface OutputMessage {
  role: string;
  parts: Part[];
  finish_reason: string;
}

export interface Answer {
  id?: string | undefined;
  model?: string | undefined;
  finishReasons: string[];
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  cacheReadTokens?: number | undefined;
  reasoningTokens?: number | undefined;
  output: OutputMessage[];
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Token counts from a `usage` object, in either naming (chat: prompt/completion; responses: input/output). */
function readUsage(into: Answer, usage: unknown): void {
  if (!isRecord(usage)) return;
  into.inputTokens = int(usage.prompt_tokens) ?? int(usage.input_tokens) ?? into.inputTokens;
  into.outputTokens = int(usage.completion_tokens) ?? int(usage.output_tokens) ?? into.outputTokens;
  const input = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : isRecord(usage.input_tokens_details) ? usage.input_tokens_details : undefined;
  const output = isRecord(usage.completion_tokens_details) ? usage.completion_tokens_details : isRecord(usage.output_tokens_details) ? usage.output_tokens_details : undefined;
  // DeepSeek names them on its own: prompt_cache_hit_tokens.
  into.cacheReadTokens = int(input?.cached_tokens) ?? int(usage.prompt_cache_hit_tokens) ?? into.cacheReadTokens;
  into.reasoningTokens = int(output?.reasoning_tokens) ?? into.reasoningTokens;
}

/** Tool-call arguments as an object when they are JSON (the conventions ask for that), else as sent. */
function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

function toolCallParts(calls: unknown): Part[] {
  return list(calls).flatMap((call) => {
    if (!isRecord(call)) return [];
    const fn = isRecord(call.function) ? call.function : {};
    return [{ type: 'tool_call', id: str(call.id), name: str(fn.name), arguments: parsedArguments(fn.arguments) }];
  });
}

/** A whole (not streamed) answer. */
export function readAnswer(data: unknown): Answer {
  const answer: Answer = { finishReasons: [], output: [] };
  if (!isRecord(data)) return answer;
  answer.id = str(data.id);
  answer.model = str(data.model);
  readUsage(answer, data.usage);
  if (Array.isArray(data.choices)) {
    for (const choice of data.choices) {
      if (!isRecord(choice)) continue;
      const finish = str(choice.finish_reason) ?? 'error';
      answer.finishReasons.push(finish);
      const message = isRecord(choice.message) ? choice.message : undefined;
      const text = message ? str(message.content) : str(choice.text);
      const parts: Part[] = text ? [{ type: 'text', content: text }] : [];
      if (message) parts.push(...toolCallParts(message.tool_calls));
      answer.output.push({ role: str(message?.role) ?? 'assistant', parts, finish_reason: finish });
    }
  } else if (data.object === 'response') {
    readResponseObject(answer, data);
  }
  return answer;
}

/** The responses endpoint's object: `status` stands for the finish reason, `output` items for the messages. */
function readResponseObject(answer: Answer, data: Record<string, unknown>): void {
  const incomplete = isRecord(data.incomplete_details) ? str(data.incomplete_details.reason) : undefined;
  const finish = data.status === 'completed' ? 'stop' : incomplete === 'max_output_tokens' ? 'length' : (incomplete ?? str(data.status) ?? 'error');
  answer.finishReasons.push(finish);
  const parts: Part[] = [];
  for (const item of list(data.output)) {
    if (!isRecord(item)) continue;
    if (item.type === 'message') {
      for (const c of list(item.content)) if (isRecord(c) && typeof c.text === 'string') parts.push({ type: 'text', content: c.text });
    } else if (item.type === 'function_call') {
      parts.push({ type: 'tool_call', id: str(item.call_id), name: str(item.name), arguments: parsedArguments(item.arguments) });
    }
  }
  answer.output.push({ role: 'assistant', parts, finish_reason: finish });
}

/** Builds an answer from a stream's frames, one at a time. */
export class StreamAnswer {
  readonly answer: Answer = { finishReasons: [], output: [] };
  readonly #texts: string[] = [];
  readonly #finish: string[] = [];
  readonly #tools: Map<string, { id?: string | undefined; name?: string | undefined; args: string }>[] = [];
  /** Set once a complete answer arrived (the responses endpoint's final event). */
  #whole: Answer | undefined;

  /** Reads one frame; `content` keeps the text and tool calls (only with content capture: it costs memory). */
  add(frame: unknown, content: boolean): void {
    if (!isRecord(frame)) return;
    if (isRecord(frame.response)) {
      // responses: every lifecycle event carries the response; the last one is complete.
      if (frame.response.usage !== undefined || frame.type === 'response.completed') this.#whole = readAnswer(frame.response);
      this.answer.id ??= str(frame.response.id);
      this.answer.model ??= str(frame.response.model);
      return;
    }
    this.answer.id ??= str(frame.id);
    this.answer.model ??= str(frame.model);
    if (frame.usage) readUsage(this.answer, frame.usage);
    for (const choice of list(frame.choices)) {
      if (!isRecord(choice)) continue;
      const i = int(choice.index) ?? 0;
      const finish = str(choice.finish_reason);
      if (finish) this.#finish[i] = finish;
      if (!content) continue;
      const delta = isRecord(choice.delta) ? choice.delta : undefined;
      const text = delta ? str(delta.content) : str(choice.text);
      if (text) this.#texts[i] = (this.#texts[i] ?? '') + text;
      for (const call of list(delta?.tool_calls)) {
        if (!isRecord(call)) continue;
        const tools = (this.#tools[i] ??= new Map());
        const key = String(int(call.index) ?? tools.size);
        const fn = isRecord(call.function) ? call.function : {};
        const entry = tools.get(key) ?? { args: '' };
        entry.id ??= str(call.id);
        entry.name ??= str(fn.name);
        entry.args += str(fn.arguments) ?? '';
        tools.set(key, entry);
      }
    }
  }

  /** The answer so far (the whole one, when the stream sent it). */
  result(): Answer {
    if (this.#whole) return { ...this.#whole, id: this.#whole.id ?? this.answer.id, model: this.#whole.model ?? this.answer.model };
    const count = Math.max(this.#finish.length, this.#texts.length, this.#tools.length);
    const answer = { ...this.answer, finishReasons: [] as string[], output: [] as OutputMessage[] };
    for (let i = 0; i < count; i++) {
      const finish = this.#finish[i] ?? 'error';
      answer.finishReasons.push(finish);
      const parts: Part[] = this.#texts[i] ? [{ type: 'text', content: this.#texts[i] }] : [];
      for (const t of this.#tools[i]?.values() ?? []) parts.push({ type: 'tool_call', id: t.id, name: t.name, arguments: parsedArguments(t.args) });
      answer.output.push({ role: 'assistant', parts, finish_reason: finish });
    }
    return answer;
  }
}
