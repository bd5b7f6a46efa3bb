import { excerpt } from '../../../core/error-factory.js';
import { GatewayError } from '../../../core/errors.js';
import { Stream } from '../../../core/streams/stream.js';
import { isRecord } from '../../../internal/is-record.js';
import { ReasoningAccumulator } from './reasoning-fields.js';
import { TextBuffer } from './text-buffer.js';
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionChunk, ChatCompletionChunkChoice, ChatCompletionChunkToolCall, ChatCompletionMessageToolCall } from './types.js';

/**
 * The stream returned by `chat.completions.create({ stream: true })`. Besides iteration it
 * can await the whole reply with {@link ChatCompletionStream.finalChatCompletion}; from
 * `chat.completions.parse({ stream: true })` that reply is parsed (`Final`).
 */
export class ChatCompletionStream<Final = ChatCompletion> extends Stream<ChatCompletionChunk> {
  /** @internal A chunk carries content when any choice's delta has text, reasoning, a refusal or a tool call. */
  static override hasContent(chunk: unknown): boolean {
    const choices = (chunk as Partial<ChatCompletionChunk> | null)?.choices;
    if (!Array.isArray(choices)) return false;
    for (const choice of choices as Array<Partial<ChatCompletionChunkChoice> | null>) {
      const delta = choice?.delta as Partial<ChatCompletionChunkChoice['delta']> | undefined;
      if (delta && (delta.content || delta.reasoning_content || delta.reasoning || delta.reasoning_details?.length || delta.thinking_blocks?.length || delta.refusal || delta.tool_calls?.length)) return true;
    }
    return false;
  }

  #accumulator = new ChatCompletionAccumulator();
  #final: Promise<Final> | undefined;

  /** @internal */
  override _observe(chunk: ChatCompletionChunk): void {
    this.#accumulator.add(chunk);
  }

  /**
   * @internal What arrived, as a completion cut short: a `finish_reason` that had arrived is
   * kept (null where it had not), and in a choice without one, a tool call whose arguments
   * are not valid JSON (cut inside them) is marked `incomplete: true`.
   */
  override _partial(): ChatCompletion {
    const completion = this.#accumulator.result();
    return { ...completion, choices: completion.choices.map(markCut) };
  }

  /**
   * Consumes what is left of the stream and resolves to the accumulated completion:
   * content and tool-call deltas merged per choice, finish reasons, and usage when sent.
   * Chunks already read with `for await` are included. Rejects with the stream's error.
   * @example
   * const stream = await client.chat.completions.create({ model, messages, stream: true });
   * const completion = await stream.finalChatCompletion();
   */
  finalChatCompletion(): Promise<Final> {
    this.#final ??= this.drain().then(() => this._finalize(this.#accumulator.result()));
    return this.#final;
  }

  /** @internal What the accumulated completion becomes: itself, or parsed (`parse({ stream: true })`). */
  protected _finalize(completion: ChatCompletion): Final | Promise<Final> {
    return completion as Final;
  }
}

/** The text of one choice, built from its deltas; its reasoning in the fields its vendor used. */
interface ChoiceText {
  content?: TextBuffer;
  refusal?: TextBuffer;
  reasoning?: ReasoningAccumulator;
}

/**
 * Merges chunks into one {@link ChatCompletion}. `add` runs for every chunk of every stream,
 * so it reads fields by name (no loop over field names, no empty arrays made per chunk).
 */
export class ChatCompletionAccumulator {
  #completion: ChatCompletion = { id: '', object: 'chat.completion', created: 0, model: '', choices: [] };
  /** Per choice index, the text fields seen so far. */
  #text: ChoiceText[] = [];

  add(chunk: ChatCompletionChunk): void {
    // Valid JSON that is not a chunk (`data: null`) would otherwise fail below with a TypeError.
    if (!isObject(chunk)) throw invalidChunk(chunk);
    const c = this.#completion;
    if (!c.id) c.id = chunk.id;
    if (!c.created) c.created = chunk.created;
    if (!c.model) c.model = chunk.model;
    if (chunk.system_fingerprint) c.system_fingerprint = chunk.system_fingerprint;
    if (chunk.usage) c.usage = chunk.usage;
    const parts = chunk.choices;
    if (!parts) return;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as ChatCompletionChunkChoice;
      if (!isObject(part) || !isIndex(part.index)) throw invalidChunk(chunk);
      const choice: ChatCompletionChoice = (c.choices[part.index] ??= { index: part.index, message: { role: 'assistant', content: null }, finish_reason: null });
      const delta = part.delta;
      if (delta) {
        if (delta.content || delta.refusal) {
          const text = (this.#text[part.index] ??= {});
          if (delta.content) (text.content ??= new TextBuffer()).push(delta.content);
          if (delta.refusal) (text.refusal ??= new TextBuffer()).push(delta.refusal);
        }
        // Each field as its vendor sent it, never renamed (docs/chat.md#reasoning-models).
        if (delta.reasoning_content || delta.reasoning || delta.reasoning_details || delta.thinking_blocks) ((this.#text[part.index] ??= {}).reasoning ??= new ReasoningAccumulator()).add(delta);
        if (delta.tool_calls) addToolCalls(choice, delta.tool_calls, chunk);
      }
      if (part.finish_reason) choice.finish_reason = part.finish_reason;
      if (part.logprobs) choice.logprobs = part.logprobs;
    }
  }

  /** The completion so far; choices missing from the stream are dropped from the array. */
  result(): ChatCompletion {
    const c = this.#completion;
    const choices = c.choices.filter(Boolean).map((choice) => {
      const message = { ...choice.message };
      const text = this.#text[choice.index];
      if (text?.content) message.content = String(text.content);
      if (text?.refusal) message.refusal = String(text.refusal);
      if (text?.reasoning) Object.assign(message, text.reasoning.result());
      return { ...choice, message };
    });
    return { ...c, choices };
  }
}

function addToolCalls(choice: ChatCompletionChoice, fragments: readonly ChatCompletionChunkToolCall[], chunk: ChatCompletionChunk): void {
  const calls = (choice.message.tool_calls ??= []);
  // Indexed, like the choices: a `tool_calls` that is not an array adds nothing rather than throwing a TypeError.
  for (let i = 0; i < fragments.length; i++) {
    const fragment = fragments[i] as ChatCompletionChunkToolCall;
    if (!isObject(fragment)) throw invalidChunk(chunk);
    // Gemini's OpenAI-compatible endpoint sends no index: the fragment gets the index of the
    // call it belongs to, before the caller sees the chunk (the stream observes each chunk
    // before yielding it), so every reader of `index` (the AI SDK provider too) agrees.
    if (fragment.index === undefined || fragment.index === null) fragment.index = slotWithoutIndex(calls, fragment);
    if (!isIndex(fragment.index)) throw invalidChunk(chunk);
    const call: ChatCompletionMessageToolCall = (calls[fragment.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
    if (fragment.id) call.id = fragment.id;
    // Some backends repeat the whole name in every delta instead of sending it once.
    const name = fragment.function?.name;
    if (name && name !== call.function.name) call.function.name += name;
    if (fragment.function?.arguments) call.function.arguments += fragment.function.arguments;
    // Gemini's thought signature rides on the call and must go back with it (runTools sends calls as received).
    if (fragment.extra_content !== undefined) call.extra_content = fragment.extra_content;
  }
}

/**
 * Where a tool-call fragment without `index` goes: to the call with its `id`; to a new call
 * for an `id` not seen yet (parallel calls, each sent whole with its own id, as Gemini does);
 * without an id (proxies send `""` or null), to a new call when it names a function and the
 * last call's arguments are already a whole JSON object, else to the last call (a
 * continuation), or a first call when there is none.
 */
function slotWithoutIndex(calls: readonly ChatCompletionMessageToolCall[], fragment: ChatCompletionChunkToolCall): number {
  const id: unknown = fragment.id;
  if (typeof id === 'string' && id) {
    for (let i = calls.length - 1; i >= 0; i--) if (calls[i]?.id === id) return i;
    return calls.length;
  }
  const last = calls[calls.length - 1];
  const name: unknown = isObject(fragment.function) ? (fragment.function as { name?: unknown }).name : undefined;
  if (last && typeof name === 'string' && name && isArguments(last.function.arguments)) return calls.length;
  return Math.max(calls.length - 1, 0);
}

/** A choice of a partial: its finish reason as it arrived; when none had, a call cut inside its arguments marked `incomplete`. */
function markCut(choice: ChatCompletionChoice): ChatCompletionChoice {
  const calls = choice.message.tool_calls;
  if (choice.finish_reason !== null || !calls) return choice;
  const marked = calls.map((call) => (isArguments(call.function.arguments) ? call : { ...call, incomplete: true as const }));
  return { ...choice, message: { ...choice.message, tool_calls: marked } };
}

/** Whole arguments: a JSON object (`"12"` parses, but a call's arguments are an object cut short). */
function isArguments(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Above any real reply's count of choices or tool calls. */
const MAX_INDEX = 2 ** 16;

/**
 * Choice and tool-call indexes are array slots: a string such as `"__proto__"` would write to
 * Array.prototype, and an index in the billions makes an array that `result()` (and the
 * caller) would loop over for minutes.
 */
const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < MAX_INDEX;

function invalidChunk(chunk: unknown): GatewayError {
  return new GatewayError(`Invalid chat completion chunk in stream: ${excerpt(JSON.stringify(chunk) ?? String(chunk))}`);
}
