import { APIUserAbortError, ParseError } from '../../../core/errors.js';

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
 * its error is thrown. Content that cannot be JSON stops the request at once with ParseError;
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
    // The reply can no longer become JSON: waiting for the rest would only spend tokens.
    if (!ended) {
      const content = read.toString();
      throw stop(source, new ParseError(`The reply is not valid JSON: ${content.length > 200 ? `${content.slice(0, 200)}…` : content}`, content, [], { cause: error }));
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
 * Increasingly complete values of the JSON text arriving as `deltas`, one per delta that
 * changed the value. Each is a new top-level value in which what changed is new and what did
 * not is the previous value's own, so a UI can compare by identity. Strings may be cut short
 * (never inside a surrogate pair); numbers, true, false and null appear only once complete;
 * a value keeps its type. Throws what jsonriver throws for text that cannot be JSON or ends early.
 *
 * jsonriver parses in time linear in the text, updating one value in place; a copy per delta
 * costs the size of the arrays and objects still open (each copied shallowly).
 */
export async function* partialValues(deltas: AsyncIterable<string>): AsyncGenerator<unknown, void, undefined> {
  // A dynamic import even here: the CJS build inlines this module, and would turn a static
  // import of jsonriver (ESM only) into a require() that Node 20 before 20.19 refuses.
  const { parse } = await import('jsonriver');
  const copies = new Copies();
  let last: unknown = copies;
  for await (const value of parse(deltas, { completeCallback: copies.completed })) {
    const copy = copies.of(value, true);
    if (copy !== last) yield (last = copy);
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

  readonly completed = (value: unknown): void => {
    if (typeof value === 'object' && value !== null) this.#complete.add(value);
  };

  /** The copy of `value`; `open` when it may still grow (its last character may be half a pair). */
  of(value: unknown, open: boolean): unknown {
    if (typeof value === 'string') return open ? wholeCharacters(value) : value;
    if (typeof value !== 'object' || value === null) return value;
    const mirror = this.#mirrors.get(value);
    if (mirror?.done) return mirror.copy;
    const done = this.#complete.has(value);
    const copy = Array.isArray(value) ? this.#array(value, mirror?.copy as unknown[] | undefined, done) : this.#object(value as Record<string, unknown>, mirror?.copy as Record<string, unknown> | undefined, done);
    if (mirror && mirror.copy === copy) mirror.done = done;
    else this.#mirrors.set(value, { copy, done });
    return copy;
  }

  #array(live: unknown[], previous: unknown[] | undefined, done: boolean): unknown[] {
    const from = previous && previous.length > 0 ? previous.length - 1 : 0;
    const items: unknown[] = [];
    for (let i = from; i < live.length; i++) items.push(this.of(live[i], !done));
    if (previous && live.length === previous.length && (live.length === 0 || items[0] === previous[from])) return previous;
    const copy = previous ? previous.slice(0, from) : [];
    for (const item of items) copy.push(item);
    return copy;
  }

  #object(live: Record<string, unknown>, previous: Record<string, unknown> | undefined, done: boolean): Record<string, unknown> {
    let changes: Array<[string, unknown]> | undefined;
    for (const key of Object.keys(live)) {
      const value = this.of(live[key], !done);
      if (!previous || !Object.hasOwn(previous, key) || previous[key] !== value) (changes ??= []).push([key, value]);
    }
    if (previous && !changes) return previous;
    const copy = { ...previous };
    for (const [key, value] of changes ?? []) setProperty(copy, key, value);
    return copy;
  }
}

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
