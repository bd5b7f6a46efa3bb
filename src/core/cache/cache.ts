import { isRecord } from '../../internal/is-record.js';
import { GatewayError } from '../errors.js';
import type { CacheOutcome } from '../hooks.js';
import { Frames } from '../streams/frames.js';
import { redactFrames } from '../streams/redact-frames.js';
import type { CacheCall, CachedReply, Reply } from '../types.js';
import { cacheKey } from './cache-key.js';
import type { CacheState } from './cache-state.js';
import { CACHE_FORMAT, isEmbedding, readEntry, writeEntry, type Entry, type FramesEntry, type VectorEntry } from './entries.js';
import { Flight, type Landed } from './flight.js';
import { guardStore } from '../store/fail-open-store.js';
import { MemoryStore, type Store } from '../store/store.js';

// The response cache (docs/cache.md) as stages of a call: `lookup` (a hit, an identical call
// in flight to join, or a miss that starts one), then the request (sendRequest, in call.ts),
// then `land` (the answer kept, under the model that produced it) and `settle` (each
// caller's own reply). Loaded with the first call of a client that has a cache.

/** What the cache found for a call. */
export type Lookup =
  /** Answered from the cache: nothing is sent. */
  | { kind: 'hit'; reply: CachedReply }
  /** Not the cache's to answer after all (a raw call it does not hold): send as usual, keep nothing. */
  | { kind: 'send' }
  /** Answered by a request that identical calls share; `first` for the call that starts it. */
  | { kind: 'flight'; flight: Flight; first: boolean; keep: Keep };

/** What a flight's answer is kept as, and what each caller adds to it. */
type Keep = { kind: 'answer'; mode: 'use' | 'refresh' } | { kind: 'inputs'; texts: string[]; single: boolean; found: Array<VectorEntry | undefined>; missing: number[] };

/**
 * Looks the call up: an answer the cache holds, an identical call in flight to join, or a
 * new flight. Embeddings are looked up input by input: the call's body keeps only the inputs
 * the cache lacks (all of them when the call may fall back to another model, so one answer
 * never mixes two models' vectors). A raw call (`asResponse()`) is never joined: its body is its own.
 */
export async function lookup(cache: CacheState, call: CacheCall, mode: 'use' | 'refresh'): Promise<Lookup> {
  const body = call.body as Record<string, unknown> | undefined;
  if (call.request.cache === 'per-input' && isTexts(body?.input)) return lookupInputs(cache, call, mode);
  const key = await keyOf(cache, call, body, call.request.model);
  if (mode === 'use') {
    const [entry] = await read(cache, [key], call.path);
    if (entry) return { kind: 'hit', reply: replay(entry, call) };
  }
  if (call.raw) return { kind: 'send' };
  return flightFor(cache, key, mode, { kind: 'answer', mode });
}

/** Embeddings: each input looked up, the body left with those missing. */
async function lookupInputs(cache: CacheState, call: CacheCall, mode: 'use' | 'refresh'): Promise<Lookup> {
  const body = call.body as Record<string, unknown>;
  const single = !Array.isArray(body.input);
  const texts = single ? [body.input as string] : (body.input as string[]);
  const keys = await Promise.all(texts.map((input) => keyOf(cache, call, { ...body, input }, call.request.model)));
  let found: Array<VectorEntry | undefined> = mode === 'use' ? ((await read(cache, keys, call.path)) as Array<VectorEntry | undefined>) : texts.map(() => undefined);
  if (found.every(Boolean)) return { kind: 'hit', reply: answerOf(call, merge(found, undefined, []), 'hit') };
  // A call that may fall back sends every input: a fallback's vectors never meet the requested model's.
  if (call.models.length > 0 || call.raw) found = texts.map(() => undefined);
  if (call.raw) return { kind: 'send' };
  const missing = found.flatMap((entry, i) => (entry ? [] : [i]));
  call.body = { ...body, input: single ? body.input : missing.map((i) => texts[i]) };
  return flightFor(cache, await keyOf(cache, call, call.body, call.request.model), mode, { kind: 'inputs', texts, single, found, missing });
}

/** The flight for a key: the one in flight to join (with `use`), or a new one. `refresh` never joins: it asks again. */
function flightFor(cache: CacheState, key: string, mode: 'use' | 'refresh', keep: Keep): Lookup {
  const running = mode === 'use' ? cache.flights.get(key) : undefined;
  if (running) return { kind: 'flight', flight: running, first: false, keep };
  const flight = new Flight(key);
  if (mode === 'use') cache.flights.set(key, flight);
  return { kind: 'flight', flight, first: true, keep };
}

/**
 * A flight's request answered (`upstream` is the call that sent it): the answer is kept
 * under the model that produced it, then every caller waiting gets it. A stream is kept once
 * it ended normally, its frames as the gateway sent them with the client's keys removed over
 * the joined text. Resolves once what is kept is written.
 */
export async function land(cache: CacheState, upstream: CacheCall & { readonly usageAsked: boolean }, found: Lookup & { kind: 'flight' }, reply: Reply): Promise<void> {
  const { flight, keep } = found;
  const done = () => void (cache.flights.get(flight.key) === flight && cache.flights.delete(flight.key));
  const redactor = upstream.config.redactor;
  try {
    if (upstream.request.stream) {
      const usageAsked = upstream.usageAsked;
      const frames = Frames.live(reply.data as { nextText(): Promise<string | undefined> }, usageAsked, () => flight.cancel());
      frames.whenEnded((texts) => {
        if (!texts) return done();
        const entry: FramesEntry = { v: CACHE_FORMAT, path: upstream.path, frames: redactFrames(texts, redactor), usageAsked };
        void keyOf(cache, upstream, upstream.body, reply.model)
          .then((key) => write(cache, key, entry))
          .catch(() => undefined)
          .finally(done);
      });
      flight.land({ ...reply, data: frames });
      return;
    }
    if (keep.kind === 'inputs') await keepVectors(cache, upstream, keep, reply);
    else if (isRecord(reply.data)) await write(cache, await keyOf(cache, upstream, upstream.body, reply.model), { v: CACHE_FORMAT, path: upstream.path, body: redactor.deep(reply.data) });
    flight.land(reply);
    done();
  } catch (error) {
    flight.fail(error);
    done();
  }
}

/** A flight's request failed: every caller waiting gets its error, and the next identical call sends again. */
export function failed(cache: CacheState, flight: Flight, error: unknown): void {
  flight.fail(error);
  if (cache.flights.get(flight.key) === flight) cache.flights.delete(flight.key);
}

/** Each embeddings input's vector kept under the model that answered; an answer without one vector per input sent is refused (and nothing kept). */
async function keepVectors(cache: CacheState, upstream: CacheCall, keep: Keep & { kind: 'inputs' }, reply: Reply): Promise<void> {
  const list = reply.data as { data?: unknown; model?: unknown };
  const items = Array.isArray(list?.data) ? list.data : [];
  if (items.length !== keep.missing.length || !items.every(isEmbedding)) {
    throw new GatewayError(`The gateway answered ${items.filter(isEmbedding).length} embeddings for the ${keep.missing.length} inputs sent (${upstream.request.method} ${upstream.path}); nothing was kept.`);
  }
  const model = typeof list.model === 'string' ? list.model : reply.model;
  const body = upstream.body as Record<string, unknown>;
  await Promise.all(
    keep.missing.map(async (at, i) => {
      const key = await keyOf(cache, upstream, { ...body, input: keep.texts[at] }, reply.model);
      await write(cache, key, { v: CACHE_FORMAT, path: 'embeddings', model, vector: itemAt(items, i).embedding });
    }),
  );
}

/**
 * A caller's own reply from its flight's answer: the first caller gets the answer itself,
 * the others a copy (a result is the caller's to change); each caller of a stream reads it
 * from the first frame, at its own pace.
 */
export function settle(call: CacheCall, found: Lookup & { kind: 'flight' }, landed: Landed): CachedReply {
  const outcome: CacheOutcome = found.first ? 'miss' : 'hit';
  const { keep } = found;
  if (landed.data instanceof Frames) return { response: landed.response, data: landed.data.reader(readerOf(call)), cache: outcome };
  if (keep.kind === 'inputs') {
    const merged = merge(keep.found, landed.data as EmbeddingList, keep.missing);
    return { response: landed.response, data: found.first ? merged : structuredClone(merged), cache: keep.found.some(Boolean) ? 'partial' : outcome };
  }
  return { response: landed.response, data: found.first ? landed.data : structuredClone(landed.data), cache: outcome };
}

async function keyOf(cache: CacheState, call: CacheCall, body: unknown, model: string | undefined): Promise<string> {
  return cacheKey(call, { body, model, shared: cache.shareAcrossKeys, format: CACHE_FORMAT });
}

/** Entries as read back, each checked (cache/entries.ts): a wrong one is a miss. */
async function read(cache: CacheState, keys: string[], path: string): Promise<Array<Entry | undefined>> {
  const texts = await storeOf(cache).get(keys);
  return keys.map((_, i) => readEntry(texts[i] ?? null, path));
}

async function write(cache: CacheState, key: string, entry: Entry): Promise<void> {
  const text = writeEntry(entry);
  if (text !== undefined) await storeOf(cache).set(key, text, { ttlMs: cache.ttlMs });
}

/** The cache's store as used: the user's behind its guard (the fleet's guard when it is the same store), or a memoryStore() of 64 MiB. */
function storeOf(cache: CacheState): Store {
  return (cache.ready ??= cache.store ? guardStore(cache.store, cache.log) : new MemoryStore());
}

/** A cached entry as the call's reply: the answer's body, or the stream's frames replayed. */
function replay(entry: Entry, call: CacheCall): CachedReply {
  if ('frames' in entry) {
    if (call.raw) return { response: cachedResponse(framesText(entry.frames, call), 'text/event-stream'), data: undefined, cache: 'hit' };
    return { response: cachedResponse(null, 'text/event-stream'), data: Frames.replayed(entry.frames, entry.usageAsked).reader(readerOf(call)), cache: 'hit' };
  }
  const body = 'body' in entry ? entry.body : undefined;
  return answerOf(call, body, 'hit');
}

/** A JSON answer as the call's reply (for a raw call, as the body of its Response). */
function answerOf(call: CacheCall, body: unknown, outcome: CacheOutcome): CachedReply {
  if (call.raw) return { response: cachedResponse(JSON.stringify(body), 'application/json'), data: undefined, cache: outcome };
  return { response: cachedResponse(null, 'application/json'), data: body, cache: outcome };
}

const readerOf = (call: CacheCall) => ({ observer: call.observer, signal: call.signal, redactor: call.config.redactor });

/** A Response for an answer from the cache: it says so in `x-unified-gateway-cache`. */
function cachedResponse(body: string | null, contentType: string): Response {
  return new Response(body, { status: 200, headers: { 'content-type': contentType, 'x-unified-gateway-cache': 'hit' } });
}

/** A stream's frames as the event stream a raw call reads: `data:` lines, and the end its endpoint sends. */
function framesText(frames: string[], call: CacheCall): string {
  const ends = call.request.stream?.terminalEvents === undefined ? 'data: [DONE]\n\n' : '';
  return `${frames.map((frame) => `data: ${frame}\n\n`).join('')}${ends}`;
}

/** A text or texts: embeddings kept input by input (token arrays are kept as one request). */
const isTexts = (input: unknown): boolean => typeof input === 'string' || (Array.isArray(input) && input.length > 0 && input.every((text) => typeof text === 'string'));

interface EmbeddingList {
  object?: string;
  data: Array<{ index?: unknown; embedding: unknown; object?: string }>;
  model?: string | undefined;
  usage?: unknown;
}

const itemAt = (items: Array<{ index?: unknown; embedding: number[] | string }>, i: number) => items.find((item) => item.index === i) ?? (items[i] as { embedding: number[] | string });

/** The embeddings of every input in its place: from the cache, or from the answer for the missing ones. */
function merge(found: Array<VectorEntry | undefined>, sent: EmbeddingList | undefined, missing: number[]): EmbeddingList {
  const items = (sent?.data ?? []) as Array<{ index?: unknown; embedding: number[] | string }>;
  const data = found.map((entry, index) => ({ object: 'embedding', embedding: entry ? entry.vector : itemAt(items, missing.indexOf(index)).embedding, index }));
  const model = sent?.model ?? found.find(Boolean)?.model;
  // Usage is what this call was billed for: the inputs it sent.
  return { object: 'list', data, model, usage: sent?.usage ?? { prompt_tokens: 0, total_tokens: 0 } };
}
