import type { Redactor } from '../../internal/redact.js';
import { redactDeep } from '../error-factory.js';
import { APITimeoutError, APIUserAbortError } from '../errors.js';
import { hashKey } from '../store/hash-key.js';
import type { Store } from '../store/store.js';
import type { CallObserver } from '../telemetry.js';
import type { CacheCall, CachedReply, CallCache, Reply } from '../types.js';

// The response cache (docs/cache.md): an answer already paid for is answered again from the
// store. The key is a canonical form of what changes the answer (the base URL, the path, every
// body field, in any property order), under a hash of the API key unless shared across keys.
// Only what completed is kept: no error, no stream that was cut, aborted or failed. Identical
// calls in flight at once make one upstream call. Embeddings are kept per input, so a batch
// whose inputs are partly known sends only the rest.

/** Options of the response cache (`new Gateway({ cache })`). */
export interface CacheOptions {
  /** Where answers are kept: `memoryStore({ maxBytes })`, or `redisStore(...)` to share them. @default memoryStore() */
  store?: Store | undefined;
  /** How long an answer is kept, in ms. @default 86_400_000 (a day) */
  ttl?: number | undefined;
  /** Share answers between API keys (by default each key's answers are its own). @default false */
  shareAcrossKeys?: boolean | undefined;
}

/** A cached JSON answer, or a stream's frames. */
interface Entry {
  body?: unknown;
  frames?: unknown[];
  contentType: string;
}

export interface CacheSettings {
  store: Store;
  ttlMs: number;
  shareAcrossKeys: boolean;
  /** The API key when static (its hash names the entries); undefined for a key function. */
  accountKey: (() => string) | undefined;
  base: string;
  /** Removes the client's keys from what is kept: a reply that echoes one is kept without it. */
  redactor: Redactor;
}

/** Whole answers (chat, completions, responses), and embeddings input by input. */
export class ResponseCache implements CallCache {
  readonly settings: CacheSettings;
  /** Calls in flight by key: an identical call waits for the first's answer. */
  readonly #inFlight = new Map<string, Promise<CachedReply>>();

  constructor(settings: CacheSettings) {
    this.settings = settings;
  }

  /**
   * The call's answer from the cache when there is one (a stream replays its frames), else
   * from `send` (once for identical calls in flight), kept when it completes. With `refresh`
   * the cache is not read, only written.
   */
  async through(call: CacheCall, mode: 'use' | 'refresh', send: () => Promise<Reply>): Promise<CachedReply> {
    if (call.request.cache === 'per-input' && isTexts((call.body as { input?: unknown } | undefined)?.input)) return this.#perInput(call, mode, send);
    const key = await this.#key(call, call.body);
    const found = mode === 'use' ? await this.#read([key]) : [undefined];
    if (found[0]) return { ...replay(found[0], call), cache: 'hit' };
    const running = mode === 'use' ? this.#inFlight.get(key) : undefined;
    if (running && !call.request.stream) return this.#join(call, key, running, () => this.through(call, mode, send));
    const sent = this.#send(call, key, send);
    if (!call.request.stream && mode === 'use') {
      this.#inFlight.set(key, sent);
      void sent.finally(() => this.#inFlight.get(key) === sent && this.#inFlight.delete(key)).catch(() => undefined);
    }
    return sent;
  }

  /**
   * An identical call is in flight: its answer, copied (a result is the caller's to change).
   * This caller's signal and totalTimeout stop this caller only. When the call in flight was
   * stopped by its own caller (an abort, a timeout of its own), that is not this call's
   * failure: it is sent again, by the first of those waiting, the others joining it.
   */
  async #join(call: CacheCall, key: string, running: Promise<CachedReply>, sendAgain: () => Promise<CachedReply>): Promise<CachedReply> {
    try {
      const reply = await untilStopped(running, call);
      return { ...reply, data: structuredClone(reply.data), cache: 'hit' };
    } catch (error) {
      if (call.signal?.aborted || !(error instanceof APIUserAbortError || error instanceof APITimeoutError)) throw error;
      if (this.#inFlight.get(key) === running) this.#inFlight.delete(key);
      return sendAgain();
    }
  }

  async #send(call: CacheCall, key: string, send: () => Promise<Reply>): Promise<CachedReply> {
    const reply = await send();
    const contentType = reply.response.headers.get('content-type') ?? 'application/json';
    if (call.request.stream) {
      // Kept once the stream ended normally: a cut, an abort or an error keeps nothing.
      (reply.data as { record?: (done: (frames: unknown[]) => void) => void } | undefined)?.record?.((frames) => void this.#write(key, { frames, contentType }).catch(() => undefined));
    } else if (!call.raw) {
      await this.#write(key, { body: reply.data, contentType });
    }
    return { ...reply, cache: 'miss' };
  }

  /** Embeddings: each input looked up; only the missing ones sent; the answer in input order. */
  async #perInput(call: CacheCall, mode: 'use' | 'refresh', send: () => Promise<Reply>): Promise<CachedReply> {
    const body = call.body as { input?: unknown } & Record<string, unknown>;
    const inputs = Array.isArray(body.input) ? (body.input as unknown[]) : [body.input];
    const keys = await Promise.all(inputs.map((input) => this.#key(call, { ...body, input })));
    const found = mode === 'use' ? await this.#read(keys) : keys.map(() => undefined);
    const missing = inputs.flatMap((_, i) => (found[i] ? [] : [i]));
    if (missing.length === 0) return { response: cachedResponse('application/json'), data: merge(found, undefined, missing), cache: 'hit' };
    // Only what is missing goes upstream, in one request.
    call.body = { ...body, input: Array.isArray(body.input) ? missing.map((i) => inputs[i]) : body.input };
    const reply = await send();
    const sent = reply.data as EmbeddingList;
    await Promise.all(missing.map((at, i) => this.#write(keys[at] as string, { body: { ...sent, data: [itemAt(sent, i)] }, contentType: 'application/json' })));
    return { response: reply.response, data: merge(found, sent, missing), cache: missing.length === inputs.length ? 'miss' : 'partial' };
  }

  async #read(keys: string[]): Promise<Array<Entry | undefined>> {
    const values = await this.settings.store.get(keys);
    return values.map((value) => {
      if (!value) return undefined;
      try {
        return JSON.parse(value) as Entry;
      } catch {
        return undefined;
      }
    });
  }

  async #write(key: string, entry: Entry): Promise<void> {
    await this.settings.store.set(key, JSON.stringify(redactDeep(entry, this.settings.redactor)), { ttlMs: this.settings.ttlMs });
  }

  /** The key of a request: a SHA-256 of what changes its answer, in a canonical form, and whose it is. */
  async #key(call: CacheCall, body: unknown): Promise<string> {
    const { shareAcrossKeys, accountKey, base } = this.settings;
    const account = shareAcrossKeys ? '' : (accountKey?.() ?? '');
    return `cache:${await hashKey(`${account}\n${base}\n${call.request.method} ${call.path}\n${canonicalJSON(body)}`)}`;
  }
}

/**
 * JSON with every object's keys in order, so `{a, b}` and `{b, a}` are one request; `undefined`
 * fields are left out as JSON.stringify leaves them.
 */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** A Response for an answer from the cache: it says so in `x-unified-gateway-cache`. */
function cachedResponse(contentType: string): Response {
  return new Response(null, { status: 200, headers: { 'content-type': contentType, 'x-unified-gateway-cache': 'hit' } });
}

/** A cached entry as the reply of an attempt: the body, or the stream's frames replayed. */
function replay(entry: Entry, call: CacheCall): Reply {
  const response = cachedResponse(entry.contentType);
  if (call.raw) return { response: new Response(entry.frames ? framesText(entry.frames) : JSON.stringify(entry.body), { status: 200, headers: response.headers }), data: undefined };
  return { response, data: entry.frames ? new ReplaySource(entry.frames, call.observer) : entry.body };
}

/** A text or texts: embeddings kept input by input (token arrays are kept as one request). */
const isTexts = (input: unknown): boolean => typeof input === 'string' || (Array.isArray(input) && input.length > 0 && input.every((text) => typeof text === 'string'));

const framesText = (frames: unknown[]) => `${frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('')}data: [DONE]\n\n`;

interface EmbeddingList {
  object?: string;
  data: Array<{ index: number; embedding: unknown; object?: string }>;
  model?: string | undefined;
  usage?: unknown;
}

const itemAt = (list: EmbeddingList, i: number) => list.data.find((item) => item.index === i) ?? list.data[i];

/** The embeddings of every input in its place: from the cache, or from the answer for the missing ones. */
function merge(found: Array<Entry | undefined>, sent: EmbeddingList | undefined, missing: number[]): EmbeddingList {
  const first = (found.find(Boolean)?.body ?? sent) as EmbeddingList;
  const data = found.map((entry, index) => {
    const item = entry ? (entry.body as EmbeddingList).data[0] : itemAt(sent as EmbeddingList, missing.indexOf(index));
    return { ...item, index } as EmbeddingList['data'][number];
  });
  // Usage is what this call was billed for: the inputs it sent.
  return { object: 'list', data, model: sent?.model ?? first.model, usage: sent?.usage ?? { prompt_tokens: 0, total_tokens: 0 } };
}

/** `promise`, or the call's own stop (its signal: an abort, its totalTimeout), whichever comes first. */
function untilStopped<T>(promise: Promise<T>, call: CacheCall): Promise<T> {
  const { signal } = call;
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(call.stopped('waiting for an identical call in flight'));
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** A cached stream's frames, handed out as the SSE reader would: the Stream and telemetry see each first. */
export class ReplaySource implements AsyncIterator<never> {
  readonly #frames: unknown[];
  readonly #observer: CallObserver | undefined;
  #next = 0;
  #sink: { _observe(frame: unknown): void } | undefined;

  constructor(frames: unknown[], observer: CallObserver | undefined) {
    this.#frames = frames;
    this.#observer = observer;
  }

  attach(sink: { _observe(frame: unknown): void }): void {
    this.#sink = sink;
  }

  async next(): Promise<IteratorResult<never>> {
    if (this.#next >= this.#frames.length) {
      if (this.#next++ === this.#frames.length) this.#observer?.streamEnd({});
      return { done: true, value: undefined };
    }
    const frame = this.#frames[this.#next++];
    this.#observer?.chunk(frame);
    this.#sink?._observe(frame);
    return { done: false, value: frame as never };
  }

  async return(): Promise<IteratorResult<never>> {
    if (this.#next <= this.#frames.length) this.#observer?.streamEnd({ left: true });
    this.#next = this.#frames.length + 1;
    return { done: true, value: undefined };
  }
}
