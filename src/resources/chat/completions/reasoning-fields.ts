import { isRecord } from '../../../internal/is-record.js';
import { TextBuffer } from './text-buffer.js';
import type { ChatCompletionReasoningDetail, ChatCompletionReasoningFields, ChatCompletionThinkingBlock } from './types.js';

// Reasoning as each vendor sends it: read (reasoningText) and merged from stream deltas
// (ReasoningAccumulator), never renamed. docs/chat.md#reasoning-models lists the fields.

/**
 * The reasoning text of a reply's message (or of a stream delta), from whichever field its
 * vendor used, first found of: `reasoning_content`, `reasoning`, the `text` and `summary` of
 * `reasoning_details` entries (joined), the `thinking` of `thinking_blocks` (joined).
 * Vendors that send two of them (OpenRouter: `reasoning` and `reasoning_details`; LiteLLM:
 * `reasoning_content` and `thinking_blocks`) send the same text twice, so only the first is
 * read. Undefined when the message has no reasoning text (none sent, or only encrypted).
 * @example
 * const completion = await client.chat.completions.create({ model: 'deepseek-reasoner', messages });
 * console.log(reasoningText(completion.choices[0].message) ?? '(no reasoning)');
 */
export function reasoningText(message: ChatCompletionReasoningFields | null | undefined): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  for (const field of [message.reasoning_content, message.reasoning]) if (typeof field === 'string' && field) return field;
  const details = joined(message.reasoning_details, (d) => (d.type === 'reasoning.summary' ? d.summary : d.type === 'reasoning.text' ? d.text : undefined));
  return details || joined(message.thinking_blocks, (b) => (b.type === 'thinking' ? b.thinking : undefined)) || undefined;
}

/** The text pieces of an array's entries joined; what is not an object, or has no string there, adds nothing (a reply is untrusted). */
function joined(entries: unknown, text: (entry: Record<string, unknown>) => unknown): string {
  if (!Array.isArray(entries)) return '';
  let out = '';
  for (const entry of entries) {
    const piece = isRecord(entry) ? text(entry) : undefined;
    if (typeof piece === 'string') out += piece;
  }
  return out;
}

/** One structured entry (a reasoning detail or a thinking block) being merged: its fields as sent, its text pieces buffered. */
interface Entry {
  fields: Record<string, unknown>;
  /** Per text key (`text`, `summary`, `thinking`), its pieces. */
  text: Map<string, TextBuffer>;
}

/** The keys whose pieces are joined; every other key keeps the last non-empty value sent (a `signature` arrives whole at the end). */
const TEXT_KEYS = new Set(['text', 'summary', 'thinking']);

/**
 * Merges the reasoning fields of one choice's deltas into what a whole message carries:
 * `reasoning_content` and `reasoning` pieces concatenated; `reasoning_details` pieces merged
 * by their `index` as OpenRouter streams them (text and summary joined, other keys as last
 * sent; an entry without an index stays an entry of its own, and a piece whose `type` differs
 * from its index's entry starts a new one); `thinking_blocks` pieces joined
 * into the current `thinking` block until it gets its `signature` (a `redacted_thinking`
 * block is whole). Deltas are untrusted: what is not an object is skipped.
 */
export class ReasoningAccumulator {
  #content: TextBuffer | undefined;
  #reasoning: TextBuffer | undefined;
  #details: Entry[] | undefined;
  /** Reasoning-detail entries by their `index` (a Map: an index is server data, never an array slot). */
  #detailAt = new Map<number, Entry>();
  #blocks: Entry[] | undefined;

  add(delta: ChatCompletionReasoningFields): void {
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) (this.#content ??= new TextBuffer()).push(delta.reasoning_content);
    if (typeof delta.reasoning === 'string' && delta.reasoning) (this.#reasoning ??= new TextBuffer()).push(delta.reasoning);
    if (Array.isArray(delta.reasoning_details)) for (const piece of delta.reasoning_details) this.#addDetail(piece);
    if (Array.isArray(delta.thinking_blocks)) for (const piece of delta.thinking_blocks) this.#addBlock(piece);
  }

  #addDetail(piece: unknown): void {
    if (!isRecord(piece)) return;
    const details = (this.#details ??= []);
    const index = piece.index;
    const keyed = typeof index === 'number' && Number.isInteger(index);
    let entry = keyed ? this.#detailAt.get(index) : undefined;
    // OpenRouter streams every entry with index 0 (its non-streamed reply numbers them): a
    // piece of another type starts the next entry rather than overwriting this one's type.
    if (entry && typeof piece.type === 'string' && typeof entry.fields.type === 'string' && piece.type !== entry.fields.type) entry = undefined;
    if (!entry) {
      details.push((entry = { fields: {}, text: new Map() }));
      if (keyed) this.#detailAt.set(index, entry);
    }
    merge(entry, piece);
  }

  #addBlock(piece: unknown): void {
    if (!isRecord(piece)) return;
    const blocks = (this.#blocks ??= []);
    const last = blocks[blocks.length - 1];
    // Pieces of one thinking block come one after another, and its signature ends it.
    const continues = piece.type === 'thinking' && last?.fields.type === 'thinking' && !last.fields.signature;
    const entry = continues && last ? last : { fields: {}, text: new Map<string, TextBuffer>() };
    if (entry !== last) blocks.push(entry);
    merge(entry, piece);
  }

  /** The fields the deltas carried, merged; a field no delta carried is absent. */
  result(): ChatCompletionReasoningFields {
    const out: ChatCompletionReasoningFields = {};
    if (this.#content) out.reasoning_content = String(this.#content);
    if (this.#reasoning) out.reasoning = String(this.#reasoning);
    if (this.#details) out.reasoning_details = this.#details.map(whole) as unknown as ChatCompletionReasoningDetail[];
    if (this.#blocks) out.thinking_blocks = this.#blocks.map(whole) as unknown as ChatCompletionThinkingBlock[];
    return out;
  }
}

function merge(entry: Entry, piece: Record<string, unknown>): void {
  for (const key of Object.keys(piece)) {
    const value = piece[key];
    if (TEXT_KEYS.has(key) && typeof value === 'string') {
      let buffer = entry.text.get(key);
      if (!buffer) entry.text.set(key, (buffer = new TextBuffer()));
      buffer.push(value);
      if (!has(entry.fields, key)) define(entry.fields, key, '');
    } else if (!has(entry.fields, key) || (value !== null && value !== '' && value !== undefined)) {
      define(entry.fields, key, value);
    }
  }
}

function whole(entry: Entry): Record<string, unknown> {
  const out = { ...entry.fields };
  for (const [key, buffer] of entry.text) define(out, key, String(buffer));
  return out;
}

const has = (target: object, key: string): boolean => Object.prototype.hasOwnProperty.call(target, key);

/** Sets a key as data, `__proto__` included (a key from the network must not set a prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
