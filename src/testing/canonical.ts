import type { Redactor } from '../internal/redact.js';

/**
 * A request as a cassette keeps it and as replay matches it: the method, the path relative
 * to the base URL, and the body in a form that does not depend on property order or on a
 * multipart boundary. Secrets are already removed.
 */
export interface CassetteRequest {
  /** `GET`, `POST`, … */
  method: string;
  /** Relative to the base URL (`chat/completions`), with the query; a URL outside the base keeps its whole path (`/mock-files/a.png`). */
  path: string;
  /** A JSON body, keys sorted. */
  body?: unknown;
  /** A multipart body field by field (a repeated key, or one ending in `[]`, as an array); files as `{ file, type, size, sha256 }`. */
  form?: Record<string, unknown>;
  /** A body that is text but not JSON. */
  text?: string;
  /** Any other body, by its size and SHA-256. */
  bytes?: { size: number; sha256: string };
}

/** How a request's URL and body are read. */
export interface CanonicalOptions {
  /** The base URL paths are relative to; without it, the path after the first `/v1/`. */
  baseURL?: string | undefined;
  redactor: Redactor;
}

/** Reads a request (its body is consumed) as a {@link CassetteRequest}. */
export async function canonicalRequest(request: Request, options: CanonicalOptions): Promise<CassetteRequest> {
  const { redactor } = options;
  const out: CassetteRequest = { method: request.method.toUpperCase(), path: redactor.string(relativePath(request.url, options.baseURL)) };
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return out;
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length === 0) return out;
  const type = request.headers.get('content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    out.form = await canonicalForm(await new Response(bytes, { headers: { 'content-type': type } }).formData(), redactor);
    return out;
  }
  const text = decodeText(bytes);
  if (text === undefined) {
    out.bytes = { size: bytes.length, sha256: await sha256Hex(bytes) };
    return out;
  }
  const safe = redactor.string(text);
  const json = parseJSON(safe);
  if (json.ok) out.body = sortKeys(json.value);
  else out.text = safe;
  return out;
}

/** A URL's path (and query) relative to the base URL. */
export function relativePath(url: string, baseURL: string | undefined): string {
  const { pathname, search } = new URL(url);
  if (baseURL !== undefined) {
    const prefix = `${new URL(baseURL).pathname.replace(/\/+$/, '')}/`;
    return pathname.startsWith(prefix) ? pathname.slice(prefix.length) + search : pathname + search;
  }
  const at = pathname.indexOf('/v1/');
  return at < 0 ? pathname + search : pathname.slice(at + '/v1/'.length) + search;
}

async function canonicalForm(form: FormData, redactor: Redactor): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of [...new Set(form.keys())].sort()) {
    const values = await Promise.all(
      form.getAll(key).map(async (value) => {
        if (typeof value === 'string') return redactor.string(value);
        // The file's bytes by hash: the upload still matches, and the cassette stays small.
        return { file: value.name, type: value.type, size: value.size, sha256: await sha256Hex(new Uint8Array(await value.arrayBuffer())) };
      }),
    );
    out[key] = values.length > 1 || key.endsWith('[]') ? values : values[0];
  }
  return out;
}

/** The text of UTF-8 bytes, or undefined when they are not UTF-8. */
export function decodeText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export function parseJSON(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A copy of a JSON value with every object's keys in order, so two bodies that differ only in order are equal. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/**
 * The string two requests match on: method, path and body, keys sorted, with the `ignore`d
 * fields left out.
 */
export function matchKey(request: CassetteRequest, ignore: readonly string[]): string {
  const { method, path, body, form, text, bytes } = request;
  return JSON.stringify(sortKeys({ method, path, body: omitPaths(body, ignore), form: omitPaths(form, ignore), text, bytes }));
}

/**
 * A copy of `value` without the fields at `paths`: dotted (`metadata.trace_id`), `*` for
 * any key or array index (`messages.*.name`).
 */
export function omitPaths<T>(value: T, paths: readonly string[]): T {
  if (paths.length === 0 || typeof value !== 'object' || value === null) return value;
  const copy = structuredClone(value);
  for (const path of paths) omit(copy, path.split('.'));
  return copy;
}

function omit(value: unknown, parts: string[]): void {
  if (typeof value !== 'object' || value === null || parts.length === 0) return;
  const [head, ...rest] = parts as [string, ...string[]];
  const record = value as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(record) : [head];
  for (const key of keys) {
    if (rest.length === 0) {
      if (!Array.isArray(value)) delete record[key];
    } else omit(record[key], rest);
  }
}

/** The model a request names (JSON body or form field), for messages. */
export function modelOf(request: CassetteRequest): string | undefined {
  const from = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>).model : undefined);
  const model = from(request.body) ?? from(request.form);
  return typeof model === 'string' ? model : undefined;
}

/** Lower-case hex SHA-256 (Web Crypto: Node, Deno, Bun, browsers and workers alike). */
export async function sha256Hex(data: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The field-level differences between a request and a recorded one, one line per field
 * (`messages[0].content: recorded "hi", sent "hello"`), at most `limit` of them and a count
 * of the rest.
 */
export function describeDifferences(sent: CassetteRequest, recorded: CassetteRequest, ignore: readonly string[], limit = 6): string[] {
  const lines: string[] = [];
  const a = JSON.parse(matchKey(sent, ignore)) as Record<string, unknown>;
  const b = JSON.parse(matchKey(recorded, ignore)) as Record<string, unknown>;
  for (const part of ['method', 'path', 'body', 'form', 'text', 'bytes']) diff(part === 'body' ? '' : part, b[part], a[part], lines);
  return lines.length > limit ? [...lines.slice(0, limit), `… and ${lines.length - limit} more`] : lines;
}

/** The number of fields in which two requests differ, a request to another path or method counting far more. */
export function distance(sent: CassetteRequest, recorded: CassetteRequest, ignore: readonly string[]): number {
  const lines: string[] = [];
  const a = JSON.parse(matchKey(sent, ignore)) as Record<string, unknown>;
  const b = JSON.parse(matchKey(recorded, ignore)) as Record<string, unknown>;
  for (const part of ['body', 'form', 'text', 'bytes']) diff(part, b[part], a[part], lines);
  return lines.length + (sent.method === recorded.method ? 0 : 10_000) + (sent.path === recorded.path ? 0 : 1_000);
}

function diff(at: string, recorded: unknown, sent: unknown, lines: string[]): void {
  if (JSON.stringify(recorded) === JSON.stringify(sent)) return;
  const bothObjects = isContainer(recorded) && isContainer(sent) && Array.isArray(recorded) === Array.isArray(sent);
  if (!bothObjects) {
    lines.push(`${at || '(body)'}: recorded ${show(recorded)}, sent ${show(sent)}`);
    return;
  }
  const keys = Array.isArray(recorded)
    ? Array.from({ length: Math.max(recorded.length, (sent as unknown[]).length) }, (_, i) => i)
    : [...new Set([...Object.keys(recorded), ...Object.keys(sent as object)])].sort();
  for (const key of keys) {
    const next = typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${key}` : key;
    diff(next, (recorded as Record<string, unknown>)[key], (sent as Record<string, unknown>)[key], lines);
  }
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

/** A value as a difference line shows it: JSON, a long string cut inside its quotes, anything else at 60 characters. */
function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
