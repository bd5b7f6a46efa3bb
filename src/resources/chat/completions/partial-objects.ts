import { APIUserAbortError, ParseError } from '../../../core/errors.js';
import { parse } from 'jsonriver';

// Loaded by the first partialObjects() call (docs/architecture.md#loading-on-first-use).

/** What `partialObjects()` reads from its stream. */
export interface PartialSource {
  /** The stream's chunks; each `next()` pushes the content it carried onto `deltas`. */
  chunks: AsyncIterator<unknown>;
  /** Content deltas of the first choice, pushed as chunks are read (by anyone: `finalChatCompletion()` too). */
  deltas: string[];
  /** The stream's `finalChatCompletion()`. */
  final(): Promise<unknown>;
  /** Makes `finalChatCompletion()` reject with `error`, unless it was already called. */
  fail(error: unknown): void;
}

/**
 * The reply's JSON as increasingly complete values (see {@link partialValues}), then the end:
 * `source.final()` (the reply validated by its schema) settles before the iteration ends, and
 * its error is thrown. Content that cannot be JSON stops the request at once with ParseError,
 * whose `content` is the text read until then;
 * a stream that fails throws its own error; leaving early cancels the request.
 */
export async function* streamPartials(source: PartialSource): AsyncGenerator<unknown, void, undefined> {
  const { chunks, deltas } = source;
  const read = new TextBlocks();
  let ended = false;
  let failed: { error: unknown } | undefined;
  let started = false;
  async function* text(): AsyncGenerator<string, void, undefined> {
    for (let i = 0; ; ) {
      if (i < deltas.length) {
        const delta = deltas[i++] as string;
        read.push(delta);
        // jsonriver waits for more text after a character that cannot start JSON (prose,
        // a ``` fence), so it would fail only at the end: check the first one here.
        if (!started && /\S/.test(delta)) {
          started = true;
          if (!/^\s*[[{"\-0-9tfn]/.test(read.toString())) throw new SyntaxError('The reply does not start with a JSON value');
        }
        yield delta;
        continue;
      }
      deltas.length = i = 0;
      if (ended) return;
      try {
        if ((await chunks.next()).done) ended = true;
      } catch (error) {
        failed = { error };
        throw error;
      }
    }
  }
  try {
    yield* partialValues(text());
  } catch (error) {
    if (failed) throw stop(source, failed.error);
    // The reply can no longer become JSON: reading the rest would only spend tokens. So
    // `content` is what was read, and the message says the reply was cut here.
    if (!ended) {
      const content = read.toString();
      const shown = content.length > 200 ? `${content.slice(0, 200)}…` : content;
      throw stop(source, new ParseError(`The reply is not valid JSON; partialObjects() stopped the request after its first ${content.length} characters, which were: ${shown}`, content, [], { cause: error }));
    }
    // Otherwise the whole reply is in (cut at max_tokens, text after the JSON, or no
    // content: a refusal); finalChatCompletion() tells which, as parse() would.
  } finally {
    if (!ended && !failed) {
      source.fail(new APIUserAbortError('partialObjects() was left before the reply ended, which cancelled the request.'));
      await chunks.return?.();
    }
  }
  await source.final();
}

function stop(source: PartialSource, error: unknown): unknown {
  source.fail(error);
  return error;
}

/**
 * What a copy may cost per character read since the one before, in slots: an array item or
 * object key each, more in long arrays and objects, whose copies cost more per item. A copy
 * goes through the arrays and objects still being written, so a copy at every delta would
 * cost the square of the reply's length in all. Here a copy waits until the characters read
 * since the last one, times this, reach what that one cost; as a copy holds at most the last
 * one's items plus one per character read since, the whole reply costs a bounded number of
 * items per character: linear. In 8-character deltas, a partial after every delta that
 * changed the value while the open arrays hold up to about 250 items and the open objects
 * about 100 keys, one every few deltas beyond.
 */
const SLOTS_PER_CHARACTER = 32;

/**
 * Increasingly complete values of the JSON text arriving as `deltas`. Each is a new top-level
 * value in which what changed is new and what did not is the previous value's own, so a UI
 * can compare by identity. Strings may be cut short (never inside a surrogate pair);
 * numbers, true, false and null appear only once complete; a value keeps its type. Throws
 * what jsonriver throws for text that cannot be JSON or ends early.
 *
 * jsonriver parses each delta once, updating one value in place; a copy of it follows a
 * delta when the characters read since the last copy pay for it (SLOTS_PER_CHARACTER), and
 * the whole value always ends the sequence.
 */
export async function* partialValues(deltas: AsyncIterable<string>): AsyncGenerator<unknown, void, undefined> {
  const text = new ReadText(deltas);
  const copies = new Copies();
  let last: unknown = copies;
  let live: unknown;
  let copiedAt = 0;
  let cost = 0;
  let behind = false;
  const copy = (): unknown => {
    copiedAt = text.read;
    behind = false;
    const value = copies.copy(live, text.endsInHalfPair());
    cost = copies.cost;
    return value;
  };
  for await (const value of parse(text, { completeCallback: copies.completed })) {
    live = value;
    behind = true;
    if ((text.read - copiedAt) * SLOTS_PER_CHARACTER < cost) continue;
    const next = copy();
    if (next !== last) yield (last = next);
  }
  if (behind) {
    const next = copy();
    if (next !== last) yield next;
  }
}

/** The text handed to jsonriver: how much of it was read, and whether it ends inside a surrogate pair. */
class ReadText implements AsyncIterable<string> {
  read = 0;
  /** The last characters read: enough to hold a `\uD83D\uDE0` escape cut short. */
  #tail = '';
  readonly #deltas: AsyncIterable<string>;
  constructor(deltas: AsyncIterable<string>) {
    this.#deltas = deltas;
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<string, void, undefined> {
    for await (const delta of this.#deltas) {
      this.read += delta.length;
      this.#tail = delta.length >= 16 ? delta.slice(-16) : (this.#tail + delta).slice(-16);
      yield delta;
    }
  }
  /**
   * Whether the string being written may end in half a surrogate pair: the text ends with a
   * high surrogate, or with its `\u` escape (then perhaps the start of the next escape, which
   * jsonriver waits for). Told by the text, so the string itself, which can be long, is not read.
   */
  endsInHalfPair(): boolean {
    return /(?:[\ud800-\udbff]|\\u[dD][89abAB][0-9a-fA-F]{2}(?:\\(?:u.{0,3})?)?)$/.test(this.#tail);
  }
}

/** The copy last made of one of jsonriver's arrays or objects. */
interface Mirror {
  copy: unknown[] | Record<string, unknown>;
  /** The value is complete, so the copy is final. */
  done: boolean;
}

/**
 * Immutable copies of the values jsonriver updates in place. jsonriver only appends to an
 * array or changes its last element, so an array's copy rechecks from its last element on.
 * An object is checked key by key: a key repeated in the text replaces an earlier value
 * (as JSON.parse does), not only the last one.
 */
class Copies {
  readonly #mirrors = new WeakMap<object, Mirror>();
  readonly #complete = new WeakSet<object>();
  /** The text read so far ends inside a surrogate pair. */
  #halfPair = false;
  /** What the last copy() cost: the sizes of the arrays and objects it went through. */
  cost = 0;
  /** The last copy of the top-level value. */
  #top: unknown;

  readonly completed = (value: unknown): void => {
    if (typeof value === 'object' && value !== null) this.#complete.add(value);
  };

  /** The copy of the top-level value; `halfPair` when the text read ends inside a surrogate pair. */
  copy(value: unknown, halfPair: boolean): unknown {
    this.#halfPair = halfPair;
    this.cost = 0;
    return (this.#top = this.#of(value, this.#top, true));
  }

  /**
   * The copy of `value`, whose copy in the previous partial was `previous`. `writing` when it
   * is the last value of every array and object around it, none of them complete: the one
   * the text read may end inside of.
   */
  #of(value: unknown, previous: unknown, writing: boolean): unknown {
    if (typeof value === 'string') {
      if (!writing || !this.#halfPair || value === previous) return value;
      // The text read ends inside a surrogate pair, in this string or in a key after it: the
      // last copy stands until the pair is whole (the next copy reads this value again).
      // Cutting the half off instead would read the whole string back, which for a long
      // one costs its length each time.
      return typeof previous === 'string' ? previous : wholeCharacters(value);
    }
    if (typeof value !== 'object' || value === null) return value;
    const mirror = this.#mirrors.get(value);
    if (mirror?.done) return mirror.copy;
    const done = this.#complete.has(value);
    const open = writing && !done;
    const copy = Array.isArray(value) ? this.#array(value, mirror?.copy as unknown[] | undefined, open) : this.#object(value as Record<string, unknown>, mirror?.copy as Record<string, unknown> | undefined, open);
    if (mirror && mirror.copy === copy) mirror.done = done;
    else this.#mirrors.set(value, { copy, done });
    return copy;
  }

  /** `open`: being written (see #of), so its last item may be. */
  #array(live: unknown[], previous: unknown[] | undefined, open: boolean): unknown[] {
    // Copying costs more per item the longer the array (about ten times more past 16,000
    // items on Node 20, whose arrays then live in the large-object space).
    this.cost += 1 + live.length + (live.length * live.length) / 8192;
    const from = previous && previous.length > 0 ? previous.length - 1 : 0;
    const items: unknown[] = [];
    for (let i = from; i < live.length; i++) items.push(this.#of(live[i], previous?.[i], open && i === live.length - 1));
    if (previous && live.length === previous.length && (live.length === 0 || items[0] === previous[from])) return previous;
    const copy = previous ? previous.slice(0, from) : [];
    for (const item of items) copy.push(item);
    return copy;
  }

  /** `open`: being written (see #of), so its last key's value may be. */
  #object(live: Record<string, unknown>, previous: Record<string, unknown> | undefined, open: boolean): Record<string, unknown> {
    const keys = Object.keys(live);
    // Keys come in the order they were written but for integer-like ones, which come first:
    // the value being written is the last key's, or an integer-like key's.
    const last = keys[keys.length - 1];
    // Copying costs more per key the more keys the object has (about ten times more at
    // 1,000 keys than at 20, on Node 20).
    this.cost += 1 + keys.length + (keys.length * keys.length) / 64;
    let changes: Array<[string, unknown]> | undefined;
    for (const key of keys) {
      const before = previous && Object.hasOwn(previous, key) ? previous[key] : undefined;
      const value = this.#of(live[key], before, open && (key === last || INTEGER_KEY.test(key)));
      if (!previous || !Object.hasOwn(previous, key) || before !== value) (changes ??= []).push([key, value]);
    }
    if (previous && !changes) return previous;
    const copy = { ...previous };
    for (const [key, value] of changes ?? []) setProperty(copy, key, value);
    return copy;
  }
}

/** Keys that objects list first, in numeric order (and a few more, such as "4294967295", only ever taken for the key being written). */
const INTEGER_KEY = /^(?:0|[1-9][0-9]*)$/;

/** `object[key] = value`, where a `"__proto__"` key from the text stays a plain property. */
function setProperty(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/** A string still being written, without a last high surrogate whose pair has not arrived. */
function wholeCharacters(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/** Text kept as flat blocks of 1,024 deltas, so memory follows its length, not the delta count. */
class TextBlocks {
  #blocks: string[] = [];
  #parts: string[] = [];
  push(text: string): void {
    this.#parts.push(text);
    if (this.#parts.length === 1024) this.#blocks.push(this.#parts.splice(0).join(''));
  }
  toString(): string {
    return this.#blocks.join('') + this.#parts.join('');
  }
}
