import { isRecord } from '../../internal/is-record.js';
import { readJSON } from '../../internal/read-json.js';

// What the response cache keeps, and how it reads it back. A store's contents are untrusted
// input (another version of the SDK, a hand edit, a store that lost half a value): every
// entry is checked on read, and one of the wrong shape or format is a miss, replaced by the
// answer that follows; never an answer, never an error.

/** The format of entries, in their keys (`cache:<format>:<hash>`); 0.4's entries are format 1 (`cache:<hash>`) and never read. */
export const CACHE_FORMAT = 2;

/** The largest entry kept, in characters of its JSON (docs/cache.md, "Limits"): a larger answer is answered but not kept. */
export const MAX_ENTRY_CHARS = 8 * 2 ** 20;

/** A whole JSON answer. */
export interface AnswerEntry {
  v: typeof CACHE_FORMAT;
  path: string;
  body: Record<string, unknown>;
}

/** A streamed answer: its frames' JSON texts as the gateway sent them (keys removed), and whether the SDK asked for its usage chunk. */
export interface FramesEntry {
  v: typeof CACHE_FORMAT;
  path: string;
  frames: string[];
  usageAsked: boolean;
}

/** One embeddings input's vector, and the model that made it. */
export interface VectorEntry {
  v: typeof CACHE_FORMAT;
  path: 'embeddings';
  model: string | undefined;
  vector: number[] | string;
}

export type Entry = AnswerEntry | FramesEntry | VectorEntry;

/**
 * An entry as read back, checked for the call's path: undefined for anything else (absent,
 * not JSON, another format, another endpoint, a body that is not that endpoint's answer).
 */
export function readEntry(text: string | null, path: string): Entry | undefined {
  const entry = readJSON(text, MAX_ENTRY_CHARS);
  if (!isRecord(entry) || entry.v !== CACHE_FORMAT || entry.path !== path) return undefined;
  if (Array.isArray(entry.frames)) return entry.frames.length > 0 && entry.frames.every((frame) => isFrameText(path, frame)) && typeof entry.usageAsked === 'boolean' ? (entry as unknown as FramesEntry) : undefined;
  if ('vector' in entry) return isVector(entry.vector) && (entry.model === undefined || typeof entry.model === 'string') ? (entry as unknown as VectorEntry) : undefined;
  return isAnswer(path, entry.body) ? (entry as unknown as AnswerEntry) : undefined;
}

/** An entry's text, or undefined when it is too large to keep. */
export function writeEntry(entry: Entry): string | undefined {
  const text = JSON.stringify(entry);
  return text.length > MAX_ENTRY_CHARS ? undefined : text;
}

/** A frame's text: a JSON object its endpoint streams (what the stream classes read of it has its type). */
function isFrameText(path: string, text: unknown): boolean {
  if (typeof text !== 'string' || !text.startsWith('{')) return false;
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isRecord(frame)) return false;
  if (path === 'responses') return typeof frame.type === 'string';
  return Array.isArray(frame.choices) && frame.choices.every((choice) => isRecord(choice) && (path === 'completions' ? optional(choice.text, isText) : choice.delta === undefined || isMessage(choice.delta)));
}

const isText = (value: unknown): boolean => typeof value === 'string';
const optional = (value: unknown, check: (v: unknown) => boolean): boolean => value === undefined || value === null || check(value);

/** A message or a delta as the chat classes read it: text fields are text, tool calls are objects with a function. */
function isMessage(message: unknown): boolean {
  if (!isRecord(message)) return false;
  const { role, content, refusal, reasoning_content, reasoning, tool_calls } = message;
  const textual = [content, refusal, reasoning_content, reasoning].every((field) => optional(field, (v) => isText(v) || (Array.isArray(v) && v.every(isRecord))));
  const calls = optional(tool_calls, (v) => Array.isArray(v) && v.every((call) => isRecord(call) && optional(call.function, isRecord)));
  return optional(role, isText) && textual && calls;
}

/** A vector as an embeddings answer holds it: finite numbers, or base64 text. */
const isVector = (vector: unknown): boolean =>
  (Array.isArray(vector) && vector.length > 0 && vector.every((n) => typeof n === 'number' && Number.isFinite(n))) || (typeof vector === 'string' && vector.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(vector));

/** A whole answer of the endpoint, as its readers read it: a chat completion's choices have messages, a completion's text, a response its output, embeddings their vectors. */
function isAnswer(path: string, body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (path === 'responses') return (body.object === 'response' || Array.isArray(body.output)) && optional(body.output, (v) => Array.isArray(v) && v.every(isRecord));
  if (path === 'embeddings') return Array.isArray(body.data) && body.data.length > 0 && body.data.every(isEmbedding);
  const { choices } = body;
  if (!Array.isArray(choices) || choices.length === 0 || !choices.every(isRecord)) return false;
  return choices.every((choice) => optional(choice.finish_reason, isText) && (path === 'completions' ? isText(choice.text) : isMessage(choice.message) && choice.message !== undefined));
}

/** True for a vector in an embeddings answer (what a reply must hold for each input sent). */
export const isEmbedding = (item: unknown): item is { embedding: number[] | string; index?: unknown } => isRecord(item) && isVector(item.embedding);
