import { GatewayError, ValidationError } from '../core/errors.js';
import { isRecord } from '../internal/is-record.js';
import { MIN_SECRET_LENGTH, Redactor } from '../internal/redact.js';
import { redactFrames } from '../core/streams/redact-frames.js';
import { canonicalRequest, decodeText, matchKey, modelOf, parseJSON, type CassetteRequest } from './canonical.js';
import { bodyKind, cassetteName, cassetteText, replayResponse, splitFrames, storedBody, storedHeaders, toCassette, type Cassette, type CassetteResponse } from './cassette.js';
import { CassetteNotFoundError } from './cassette-error.js';
import { checkWritableDir, hasFileSystem, listCassetteFiles, removeCassetteFiles, writeCassetteFile } from './cassette-files.js';
import { CassetteLibrary } from './cassette-library.js';

/** `record`: always send, and write what came back; `replay`: only cassettes, nothing sent; `auto`: replay what exists, record the rest. */
export type RecorderMode = 'record' | 'replay' | 'auto';

/** Options for {@link recorder}. */
export interface RecorderOptions {
  /**
   * The directory of cassette files, one JSON file per request (Node, Deno and Bun; created
   * before the first request is recorded). A directory that cannot be read, or written when
   * a request is to be recorded, is a `ValidationError` before anything is sent. In a browser
   * or an edge worker, pass `cassettes`.
   */
  dir?: string | undefined;
  /** Cassettes given inline (imported JSON files), replayed as if they were in `dir`; the only source where there is no file system. */
  cassettes?: readonly Cassette[] | undefined;
  /** @default 'replay' */
  mode?: RecorderMode | undefined;
  /** The fetch a request is recorded through. @default globalThis.fetch, read per request */
  fetch?: ((input: Request | string | URL, init?: RequestInit) => Promise<Response>) | undefined;
  /**
   * Body fields (JSON or multipart) that matching leaves out, as dotted paths: `'user'`,
   * `'metadata.trace_id'`, `'messages.*.name'` (`*` is any key or index). They are still
   * written. @default [] (every field counts)
   */
  ignore?: readonly string[] | undefined;
  /**
   * Paths are kept relative to this base URL, so cassettes recorded against one host replay
   * against another. @default the path after the URL's first `/v1/` (the whole path when it has none)
   */
  baseURL?: string | undefined;
  /** More strings never written, besides the key and the credential headers each request carries; each at least 4 characters. */
  secrets?: readonly string[] | undefined;
}

/** One request a recorder answered. */
export interface RecorderEntry {
  /** Answered from a cassette, or sent and written to one. */
  action: 'replayed' | 'recorded';
  /** `GET`, `POST`, … */
  method: string;
  /** As cassettes keep it: `chat/completions`. */
  path: string;
  /** The HTTP status answered. */
  status: number;
  /** The cassette's file name, e.g. `POST-chat-completions-3f9a1c2b.json`. */
  cassette: string;
}

/** What {@link recorder} returns: a fetch for `new Gateway({ fetch })`, and what it did. */
export interface Recorder {
  /** Pass as the client's `fetch`: `new Gateway({ fetch: rec.fetch })`. */
  fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** Every request answered, oldest first. */
  readonly entries: readonly RecorderEntry[];
  /** The cassettes recorded by this recorder, oldest first: the only copy when there is no `dir`. */
  readonly recorded: readonly Cassette[];
}

const MODES: readonly RecorderMode[] = ['record', 'replay', 'auto'];

/**
 * Records the client's requests into cassettes and replays them, with no network, on every
 * runtime the SDK supports. A cassette holds no secret: the key, credential headers and
 * cookies are never written, and the key is removed wherever it is echoed. Streams are
 * kept frame by frame. In `replay` mode a request with no cassette rejects with a
 * {@link CassetteNotFoundError} before anything is sent.
 * @example
 * const rec = recorder({ dir: 'test/cassettes', mode: process.env.RECORD ? 'record' : 'replay' });
 * const client = new Gateway({ apiKey, baseURL, fetch: rec.fetch });
 */
export function recorder(options: RecorderOptions = {}): Recorder {
  checkOptions(options);
  // Inline cassettes are checked now; a dir's files when the first request loads them (before anything is sent).
  for (const [i, cassette] of (options.cassettes ?? []).entries()) toCassette(cassette, `cassettes[${i}]`);
  const { dir, cassettes, baseURL } = options;
  const mode = options.mode ?? 'replay';
  const ignore = [...(options.ignore ?? [])];
  const entries: RecorderEntry[] = [];
  const recorded: Cassette[] = [];
  let loading: Promise<CassetteLibrary> | undefined;
  const library = () => (loading ??= CassetteLibrary.load({ dir, cassettes, ignore }));
  let writable: Promise<void> | undefined;
  /** Resolves once `dir` takes a cassette; checked before the first request is sent, so an unwritable dir costs no paid request. */
  const checkDir = (at: string) =>
    (writable ??= checkWritableDir(at).catch((error: unknown) => {
      writable = undefined;
      throw new ValidationError('dir', `${at} cannot be written (${(error as Error).message}). Nothing was sent. Pass a writable directory as dir, or replay only (mode: 'replay').`);
    }));
  /** How many times this recorder has recorded each request: the next one's `sequence`. */
  const times = new Map<string, number>();

  async function fetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
    const upstream = options.fetch ?? globalThis.fetch;
    const request = new Request(input, init);
    // data: URLs never leave the process: fetch answers them itself.
    if (request.url.startsWith('data:')) return upstream(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const redactor = redactorFor(request.headers, options.secrets ?? []);
    const canonical = await canonicalRequest(request.clone(), { baseURL, redactor });
    if (mode !== 'record') {
      const cassettes = await library();
      // auto replays only requests that had cassettes before: a polled task being recorded now must reach the network each time.
      const found = mode === 'replay' || cassettes.has(canonical) ? cassettes.take(canonical) : undefined;
      if (found) {
        entries.push({ action: 'replayed', method: canonical.method, path: canonical.path, status: found.cassette.response.status, cassette: found.name });
        return replay(found.cassette, found.name, request.signal);
      }
      if (mode === 'replay') throw notFound(canonical, cassettes);
    }
    if (dir !== undefined) await checkDir(dir);
    // The caller's own arguments where the body can be sent twice (they may carry options a Request drops, such as undici's dispatcher).
    const send = () => (isReusable(input, init) ? upstream(input, init) : upstream(request));
    return record(send, canonical, redactor);
  }

  async function record(send: () => Promise<Response>, request: CassetteRequest, redactor: Redactor): Promise<Response> {
    const response = await send();
    // Browsers answer a redirect under redirect: 'manual' with an opaque response: nothing to keep, and no Response can be made of it.
    if (response.type === 'opaqueredirect') return response;
    // Numbered once an answer came: a request that failed below HTTP leaves no gap in the sequence.
    const key = matchKey(request, ignore);
    const sequence = (times.get(key) ?? 0) + 1;
    times.set(key, sequence);
    const name = await cassetteName(request, ignore, sequence);
    for (const cookie of setCookies(response.headers)) redactor.add(cookie);
    const contentType = response.headers.get('content-type') ?? '';
    const kept = { status: response.status, headers: storedHeaders(response.headers, redactor) };
    const save = async (stored: CassetteResponse) => {
      const cassette: Cassette = { cassette: 1, ...(sequence > 1 ? { sequence } : {}), request, response: stored };
      recorded.push(cassette);
      if (dir !== undefined) await writeCassette(dir, name, cassette, sequence);
    };
    entries.push({ action: 'recorded', method: request.method, path: request.path, status: response.status, cassette: name });
    const init = { status: response.status, statusText: response.statusText, headers: withoutFraming(response.headers) };
    const kind = bodyKind(contentType);
    if ((kind === 'frames' || kind === 'lines') && response.body) {
      const body = tap(response.body, kind, async (bytes, cut) => {
        const frames = redactAcrossFrames(splitFrames(redactor.string(decodeText(bytes) ?? new TextDecoder().decode(bytes)), kind), kind, redactor);
        await save({ ...kept, frames, ...(cut ? { cut: true } : {}) });
      });
      return new Response(body, init);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    await save({ ...kept, ...storedBody(bytes, contentType, redactor) });
    return new Response(bytes.length === 0 && isNullBodyStatus(response.status) ? null : bytes, init);
  }

  /** Writes a cassette; the first answer to a request also removes later answers left from an older recording. */
  async function writeCassette(at: string, name: string, cassette: Cassette, sequence: number): Promise<void> {
    try {
      if (sequence === 1) {
        const later = `${name.slice(0, -'.json'.length)}-`;
        const stale = (await listCassetteFiles(at)).filter((file) => file.startsWith(later) && /^\d+\.json$/.test(file.slice(later.length)));
        await removeCassetteFiles(at, stale);
      }
      await writeCassetteFile(at, name, cassetteText(cassette));
    } catch (error) {
      throw new GatewayError(`Could not write the cassette ${at}/${name}: ${(error as Error).message}. The request was sent and answered, but not recorded: free space or make ${at} writable, then record again.`, { cause: error });
    }
  }

  return { fetch, entries, recorded };
}

/** The options {@link recorder} takes; any other key is a typo that would be ignored silently (`secret` for `secrets`). */
const OPTION_NAMES: readonly string[] = ['dir', 'cassettes', 'mode', 'fetch', 'ignore', 'baseURL', 'secrets'];

/** Each option checked before anything is recorded: a mistake here would write a secret or fail only once a paid request was sent. */
function checkOptions(options: unknown): asserts options is RecorderOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ValidationError('options', `must be an object such as { dir: 'test/cassettes', mode: 'auto' } (got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options})`);
  }
  const unknown = Object.keys(options).find((key) => !OPTION_NAMES.includes(key));
  if (unknown !== undefined) throw new ValidationError(unknown, `is not a recorder option: use ${OPTION_NAMES.join(', ')}`);
  const { dir, cassettes, mode = 'replay', fetch, ignore, baseURL, secrets } = options as RecorderOptions;
  if (!MODES.includes(mode)) throw new ValidationError('mode', "must be 'record', 'replay' or 'auto'");
  if (dir !== undefined && (typeof dir !== 'string' || dir === '')) throw new ValidationError('dir', 'must be a directory path');
  if (cassettes !== undefined && !Array.isArray(cassettes)) throw new ValidationError('cassettes', 'must be an array of cassettes');
  if (fetch !== undefined && typeof fetch !== 'function') throw new ValidationError('fetch', 'must be a function with the signature of fetch (or left out for globalThis.fetch)');
  if (ignore !== undefined && !(Array.isArray(ignore) && ignore.every((p) => typeof p === 'string' && p !== ''))) {
    throw new ValidationError('ignore', "must be an array of field paths such as 'metadata.trace_id'");
  }
  if (baseURL !== undefined && !(typeof baseURL === 'string' && isAbsoluteURL(baseURL))) throw new ValidationError('baseURL', 'must be an absolute URL such as https://gateway.example/v1');
  if (secrets !== undefined) {
    if (!Array.isArray(secrets)) throw new ValidationError('secrets', "must be an array of strings, e.g. secrets: ['tenant-token']");
    for (const [i, secret] of secrets.entries()) {
      // The redactor leaves shorter strings alone (replacing them would mangle ordinary text), so such a secret would be written.
      if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) throw new ValidationError(`secrets[${i}]`, `must be a string of at least ${MIN_SECRET_LENGTH} characters`);
    }
  }
  if (dir !== undefined && !hasFileSystem) {
    throw new ValidationError('dir', "needs a file system (Node, Deno or Bun). In a browser or an edge worker, import the cassettes and pass them inline: recorder({ cassettes, mode: 'replay' })");
  }
  if (mode === 'replay' && dir === undefined && cassettes === undefined) {
    throw new ValidationError('dir', "is needed to replay: pass dir (a directory of cassette files) or cassettes (inline)");
  }
}

/** Without URL.canParse, which older runtimes the SDK supports lack. */
function isAbsoluteURL(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** A cassette's response; one that cannot be made (a check of `toCassette` missed it) names the file and is not a connection error to retry. */
function replay(cassette: Cassette, name: string, signal: AbortSignal): Response {
  try {
    return replayResponse(cassette, signal);
  } catch (error) {
    throw new GatewayError(`The cassette ${name} cannot be replayed: ${(error as Error).message}. Record it again (mode 'record'), or correct the file.`, { cause: error });
  }
}

function notFound(request: CassetteRequest, library: CassetteLibrary): CassetteNotFoundError {
  const miss = library.miss(request);
  const message = `${miss.text}\nNothing was sent. Record it with mode 'auto' or 'record'${miss.differences.length > 0 ? ', or leave a field that changes on every run out of matching with ignore' : ''}.`;
  return new CassetteNotFoundError(message, { method: request.method, path: request.path, model: modelOf(request) ?? null, nearest: miss.nearest, differences: miss.differences });
}

/**
 * The secrets of one request: its credential headers (the key among them) and each cookie's
 * value, and the caller's extra `secrets`.
 */
function redactorFor(headers: Headers, secrets: readonly string[]): Redactor {
  const redactor = new Redactor();
  const all: Record<string, string> = {};
  headers.forEach((value, name) => {
    all[name] = value;
  });
  redactor.addHeaders(all);
  for (const pair of (headers.get('cookie') ?? '').split(';')) {
    const value = pair.slice(pair.indexOf('=') + 1).trim();
    if (pair.includes('=')) redactor.add(value);
  }
  for (const secret of secrets) redactor.add(secret);
  return redactor;
}

/** The values of a response's cookies. */
function setCookies(headers: Headers): string[] {
  const lines = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [headers.get('set-cookie') ?? ''];
  return lines.flatMap((line) => {
    const first = line.split(';')[0] ?? '';
    return first.includes('=') ? [first.slice(first.indexOf('=') + 1).trim()] : [];
  });
}

/** The response's headers for the caller, without the framing ones that no longer hold for a body read whole (it is decoded now). */
function withoutFraming(headers: Headers): Headers {
  const out = new Headers(headers);
  out.delete('content-encoding');
  out.delete('content-length');
  return out;
}

const isNullBodyStatus = (status: number): boolean => [101, 204, 205, 304].includes(status);

/** Bodies that can be sent a second time as they are. */
function isReusable(input: Request | string | URL, init: RequestInit | undefined): boolean {
  if (input instanceof Request) return false;
  const body = init?.body;
  return body == null || typeof body === 'string' || body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof URLSearchParams || body instanceof FormData;
}

/**
 * Passes a body through as it comes, and hands over all of it to be saved: when a frame that
 * ends the stream arrives (before the reader sees it, since the client stops reading there
 * and only cancels the rest), at the end of the body, or `cut` when the reader stopped early
 * or the connection broke first.
 */
function tap(body: ReadableStream<Uint8Array>, kind: 'frames' | 'lines', save: (bytes: Uint8Array<ArrayBuffer>, cut: boolean) => Promise<void>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  const watch = kind === 'frames' ? finalFrameWatch() : undefined;
  let final = false;
  let saved = -1;
  const saveNow = (cut: boolean) => {
    saved = chunks.length;
    return save(concat(chunks), cut);
  };
  /** After the body stopped without a proper end: complete if its final frame came, else cut. */
  const stopped = () => (final ? (saved === chunks.length ? Promise.resolve() : saveNow(false)) : saveNow(true));
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          await stopped().catch(() => undefined);
          return controller.error(error);
        }
        if (result.done) {
          if (saved !== chunks.length) await saveNow(false);
          return controller.close();
        }
        chunks.push(result.value);
        if (watch?.(result.value)) {
          final = true;
          await saveNow(false);
        }
        controller.enqueue(result.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
      await stopped();
    },
  });
}

/** Terminal events of the responses endpoint: the stream ends after them, without `[DONE]`. */
const FINAL_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.failed', 'response.incomplete']);

/** Reads SSE bytes as they come; true once a frame that ends the stream (`data: [DONE]`, a final responses event) is complete. */
function finalFrameWatch(): (chunk: Uint8Array) => boolean {
  const decoder = new TextDecoder();
  let pending = '';
  return (chunk) => {
    pending += decoder.decode(chunk, { stream: true });
    const frames = pending.split(/\r\n\r\n|\n\n|\r\r/);
    pending = frames.pop() ?? '';
    return frames.some(isFinalFrame);
  };
}

function isFinalFrame(frame: string): boolean {
  for (const line of frame.split(/\r\n|\n|\r/)) {
    const data = /^data: ?(.*)$/.exec(line)?.[1];
    if (data === '[DONE]') return true;
    const event = /^event: ?(.*)$/.exec(line)?.[1];
    if (event !== undefined && FINAL_EVENTS.has(event)) return true;
    const parsed = data?.startsWith('{') ? parseJSON(data) : undefined;
    if (parsed?.ok && isRecord(parsed.value) && typeof parsed.value.type === 'string' && FINAL_EVENTS.has(parsed.value.type)) return true;
  }
  return false;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * A stream's frames with the secrets also removed where a model's tokens split one across
 * frames ("sk-live0123", "456789…"): each frame's JSON is read joined with the others, field by
 * field (core/streams/redact-frames.ts, as the response cache keeps a stream), then put back.
 */
function redactAcrossFrames(frames: string[], kind: 'frames' | 'lines', redactor: Redactor): string[] {
  const data = frames.map((frame) => {
    const json = kind === 'lines' ? frame.trim() : /^data: ?(.*)$/m.exec(frame)?.[1];
    return json?.startsWith('{') ? json : undefined;
  });
  const parsable = data.flatMap((json, i) => {
    if (json === undefined) return [];
    try {
      JSON.parse(json);
      return [i];
    } catch {
      return [];
    }
  });
  const redacted = redactFrames(parsable.map((i) => data[i] as string), redactor);
  const out = [...frames];
  parsable.forEach((at, i) => {
    if (redacted[i] !== data[at]) out[at] = (frames[at] as string).replace(data[at] as string, () => redacted[i] as string);
  });
  return out;
}
