import { ValidationError } from '../core/errors.js';
import { isRecord } from '../internal/is-record.js';
import { isCredentialHeader, type Redactor } from '../internal/redact.js';
import { decodeText, matchKey, parseJSON, sha256Hex, sortKeys, type CassetteRequest } from './canonical.js';

/**
 * One recorded exchange: the request as it matches (see {@link CassetteRequest}) and the
 * response as it came, with no secret in either. A file of the recorder's `dir` holds one,
 * as readable JSON.
 */
export interface Cassette {
  /** The format's version. */
  cassette: 1;
  /** The request as it matches. */
  request: CassetteRequest;
  /** The response as it came, secrets removed. */
  response: CassetteResponse;
  /**
   * The n-th answer to this same request (a polled video task is asked the same thing until
   * it completes). Replay gives them in order and repeats the last. @default 1
   */
  sequence?: number;
}

/** A recorded response. The body is in exactly one of `body`, `text`, `frames` or `base64` (none when empty). */
export interface CassetteResponse {
  /** The HTTP status. */
  status: number;
  /** Lower-case names, without credentials, cookies, `date` and the framing headers (`content-length`, `content-encoding`). */
  headers: Record<string, string>;
  /** A JSON body, as parsed; replayed as `JSON.stringify(body)`, which is the text as it came (else it is kept in `text`). */
  body?: unknown;
  /** A text body that is not JSON (a transcript as srt or vtt, an error page). */
  text?: string;
  /** An event stream (SSE) event by event, or JSON lines line by line, as they came: joined, they are the body byte for byte. */
  frames?: string[];
  /** Any other body (an image, a video), base64-encoded. */
  base64?: string;
  /** The stream ended early while it was recorded (the reader stopped, or the connection broke): replay breaks off after the last frame. */
  cut?: boolean;
}

/** Response headers a cassette never keeps: cookies, and headers that describe the wire rather than the answer. */
const DROPPED_HEADERS: ReadonlySet<string> = new Set(['set-cookie', 'set-cookie2', 'date', 'content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/** True for a header a cassette never keeps. */
export const isDroppedHeader = (name: string): boolean => DROPPED_HEADERS.has(name.toLowerCase()) || isCredentialHeader(name);

/** Headers as a cassette keeps them: sorted, credentials and cookies dropped, the key removed from the rest. */
export function storedHeaders(headers: Headers, redactor: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  const names: string[] = [];
  headers.forEach((_, name) => names.push(name));
  for (const name of names.sort()) if (!isDroppedHeader(name)) out[name] = redactor.string(headers.get(name) ?? '');
  return out;
}

/** How a response body is kept, by its content type. */
export function bodyKind(contentType: string): 'frames' | 'lines' | 'text' | 'binary' {
  const type = contentType.toLowerCase();
  if (type.includes('text/event-stream')) return 'frames';
  if (type.includes('ndjson') || type.includes('jsonl')) return 'lines';
  if (type.includes('json') || type.startsWith('text/') || type.includes('xml') || type.includes('subrip') || type === '') return 'text';
  return 'binary';
}

/** A whole (not streamed) response body as a cassette keeps it. */
export function storedBody(bytes: Uint8Array, contentType: string, redactor: Redactor): Pick<CassetteResponse, 'body' | 'text' | 'base64'> {
  if (bytes.length === 0) return {};
  const text = bodyKind(contentType) === 'binary' ? undefined : decodeText(bytes);
  if (text === undefined) return { base64: toBase64(bytes) };
  const safe = redactor.string(text);
  const json = parseJSON(safe);
  return json.ok && JSON.stringify(json.value) === safe ? { body: json.value } : { text: safe };
}

/** A streamed body's text as frames: SSE events (each with the blank line that ends it) or JSON lines. */
export function splitFrames(text: string, kind: 'frames' | 'lines'): string[] {
  const parts = text.split(kind === 'frames' ? /(?<=\r\n\r\n|\n\n|\r\r)/ : /(?<=\n)/);
  return parts.filter((part) => part !== '');
}

/** The response a cassette replays; a stream gives its frames one by one and stops when `signal` aborts. */
export function replayResponse(cassette: Cassette, signal?: AbortSignal | null): Response {
  const { status, headers, body, text, frames, base64, cut } = cassette.response;
  const init = { status, headers };
  if (frames !== undefined) return new Response(frameStream(frames, cut === true, signal), init);
  if ([101, 204, 205, 304].includes(status)) return new Response(null, init);
  if (base64 !== undefined) return new Response(fromBase64(base64), init);
  if (body !== undefined) return new Response(JSON.stringify(body), init);
  return new Response(text ?? null, init);
}

function frameStream(frames: readonly string[], cut: boolean, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (signal?.aborted) return controller.error(signal.reason);
      const frame = frames[next++];
      if (frame !== undefined) return controller.enqueue(encoder.encode(frame));
      // As fetch reports a body cut on the wire, so the client reads it as it did when recording.
      if (cut) return controller.error(new TypeError('terminated', { cause: new Error('the stream was cut here when this cassette was recorded') }));
      controller.close();
    },
  });
}

/**
 * A cassette's file name: method, path and a short hash of the request as it matches, so the
 * same request always lands in the same file (`POST-chat-completions-3f9a1c2b.json`); the
 * n-th answer to it ends in `-n`.
 */
export async function cassetteName(request: CassetteRequest, ignore: readonly string[], sequence = 1): Promise<string> {
  const hash = (await sha256Hex(matchKey(request, ignore))).slice(0, 8);
  return `${cassetteStem(request)}-${hash}${sequence > 1 ? `-${sequence}` : ''}.json`;
}

/** The readable part of a cassette's name: `POST-chat-completions`. */
function cassetteStem(request: CassetteRequest): string {
  const slug = (request.path.split('?')[0] ?? '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  return `${request.method}-${slug || 'root'}`;
}

/** A cassette as its file holds it. */
export const cassetteText = (cassette: Cassette): string => `${JSON.stringify(cassette, null, 2)}\n`;

/** Checks a parsed file (or an inline object) is a cassette, and sorts its request body's keys. */
export function toCassette(value: unknown, where: string): Cassette {
  const fail = (rule: string): never => {
    throw new ValidationError(`cassettes (${where})`, `is not a cassette: ${rule}`);
  };
  if (!isRecord(value) || value.cassette !== 1) return fail('expected an object with "cassette": 1');
  const { request, response, sequence } = value;
  if (!isRecord(request) || typeof request.method !== 'string' || typeof request.path !== 'string') return fail('request needs a method and a path');
  if (!isRecord(response) || typeof response.status !== 'number' || !isRecord(response.headers)) return fail('response needs a status and headers');
  // Everything replay hands to new Response() is checked here: a value it throws on would reach the client as a connection error, retried in vain.
  if (!(Number.isInteger(response.status) && response.status >= 200 && response.status <= 599)) return fail(`response.status must be a whole number from 200 to 599 (a fetch response's), got ${JSON.stringify(response.status)}`);
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value !== 'string') return fail('response header values must be strings');
    if (!isHeader(name, value)) return fail(`response.headers[${JSON.stringify(name)}] is not a valid header (a token name; a value without line breaks)`);
  }
  if (response.frames !== undefined && !(Array.isArray(response.frames) && response.frames.every((f) => typeof f === 'string'))) return fail('response.frames must be strings');
  if ((response.text !== undefined && typeof response.text !== 'string') || (response.base64 !== undefined && typeof response.base64 !== 'string')) return fail('response.text and response.base64 must be strings');
  if (typeof response.base64 === 'string' && !isBase64(response.base64)) return fail('response.base64 must be base64 (A-Z, a-z, 0-9, +, / and = padding)');
  if (response.cut !== undefined && typeof response.cut !== 'boolean') return fail('response.cut must be true or false');
  if (sequence !== undefined && !(Number.isInteger(sequence) && (sequence as number) >= 1)) return fail('sequence must be a whole number from 1');
  const kept: CassetteRequest = { method: request.method.toUpperCase(), path: request.path };
  if (request.body !== undefined) kept.body = sortKeys(request.body);
  if (isRecord(request.form)) kept.form = sortKeys(request.form) as Record<string, unknown>;
  if (typeof request.text === 'string') kept.text = request.text;
  if (isRecord(request.bytes)) kept.bytes = request.bytes as { size: number; sha256: string };
  return { cassette: 1, request: kept, response: response as unknown as CassetteResponse, ...(sequence !== undefined ? { sequence: sequence as number } : {}) };
}

/** What `new Headers()` accepts, asked of it rather than restated. */
function isHeader(name: string, value: string): boolean {
  try {
    new Headers([[name, value]]);
    return true;
  } catch {
    return false;
  }
}

/** Standard padded base64, as `toBase64` writes it (atob would throw at replay on anything else). */
const isBase64 = (text: string): boolean => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const fromBase64 = (base64: string): Uint8Array<ArrayBuffer> => new Uint8Array(Array.from(atob(base64), (c) => c.charCodeAt(0)));
