import { isRecord } from '../internal/is-record.js';
import type { Redactor } from '../internal/redact.js';
import {
  APIConnectionError,
  APITimeoutError,
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GatewayError,
  InsufficientQuotaError,
  InternalServerError,
  isQuotaCode,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from './errors.js';

// How error responses become error objects: the body's shape read, the class chosen by status
// and code, the client's secrets removed from everything an error keeps.

type APIErrorClass = new (init: APIErrorInit) => APIError;

/** Status → class. Statuses not listed fall back to {@link APIError}. */
const byStatus: Record<number, APIErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/**
 * Code or type → class, used when the status says nothing (an error object inside a 200).
 * Each entry is a code or type the gateway or common OpenAI-compatible servers send.
 * A Map, not an object literal: the key is server text, and `byCode['constructor']` of a
 * plain object is `Object` (a code of `valueOf` or `__proto__` made a TypeError).
 */
const byCode: ReadonlyMap<string, APIErrorClass> = new Map(Object.entries({
  insufficient_quota: InsufficientQuotaError, // one of the gateway's own error codes
  insufficient_user_quota: InsufficientQuotaError, // new-api / one-api
  pre_consume_token_quota_failed: InsufficientQuotaError, // new-api / one-api
  invalid_api_key: AuthenticationError, // one of the gateway's own error codes
  authentication_error: AuthenticationError, // OpenAI-style type
  model_not_found: NotFoundError, // one of the gateway's own error codes
  invalid_request_error: BadRequestError, // one of the gateway's own error codes
  rate_limit_exceeded: RateLimitError, // OpenAI-style code
  rate_limit_error: RateLimitError, // OpenAI-style type
  server_error: InternalServerError, // one of the gateway's own error codes
}));

function classify(status: number, code: string | null, type: string | null): APIErrorClass {
  if (status === 429) return isQuotaCode(code, type) ? InsufficientQuotaError : RateLimitError;
  if (status === 503) return ServiceUnavailableError;
  if (status >= 500) return InternalServerError;
  if (status >= 400) return byStatus[status] ?? APIError;
  // In a 200 (OpenRouter's shape), a code such as 429 or 502 is the status it names.
  if (code !== null && /^[45]\d\d$/.test(code)) return classify(Number(code), null, type);
  return (code !== null && byCode.get(code)) || (type !== null && byCode.get(type)) || APIError;
}

const asString = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : null);

/** How much of an unrecognised body a message quotes. */
const EXCERPT_CHARS = 300;

/**
 * A readable excerpt of a body the SDK does not recognise: tags of an HTML page removed
 * (its title first), whitespace collapsed, cut to about 300 characters.
 */
export function excerpt(text: string): string {
  let plain = text;
  if (/<[a-z!/][^>]*>/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    const body = text.replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
    plain = title && !body.includes(title) ? `${title}: ${body}` : body;
    plain = plain.replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  }
  plain = plain.replace(/\s+/g, ' ').trim();
  return plain.length > EXCERPT_CHARS ? `${plain.slice(0, EXCERPT_CHARS - 1)}…` : plain;
}

/** Fields read from any of the error-body shapes OpenAI-compatible gateways send. */
export interface ParsedErrorBody {
  message: string | undefined;
  code: string | null;
  type: string | null;
  param: string | null;
}

/**
 * Reads every error-body shape OpenAI-compatible gateways send: `{"error":{message,type,param,code}}` (with
 * or without param/code; code a string, a number, `""` or null), `{"error":"text"}`, the
 * flat `{"code","message","data"}` and `{"status","message"}`, `{"html-message"}`,
 * `{"detail"}`, plain text and HTML pages; Gemini's array of error objects (the first read,
 * the others counted); OpenRouter's "Provider returned error" with its cause (the upstream's
 * own body, in `error.metadata.raw`, read the same way) and provider added. Any other body is
 * quoted as an excerpt, so the server's own words always reach the message; only an empty
 * body has none. Never classifies by message text.
 */
export function parseErrorBody(body: unknown): ParsedErrorBody {
  const parsed = readErrorBody(body, 0);
  const { message } = parsed;
  // A server's message is kept whole up to a page of text; past it, cut (the whole body stays on `error`).
  return { ...parsed, message: message !== undefined && message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message };
}

/** How deep bodies inside bodies are read (OpenRouter's raw holding Gemini's array): past it, quoted. */
const MAX_NESTING = 3;

function readErrorBody(body: unknown, depth: number): ParsedErrorBody {
  if (typeof body === 'string') return { message: excerpt(body) || undefined, code: null, type: null, param: null };
  if (body === undefined || body === null) return { message: undefined, code: null, type: null, param: null };
  // Gemini's OpenAI-compatible endpoint: `[{"error":{"code":400,"message":"…","status":"INVALID_ARGUMENT"}}]`.
  if (Array.isArray(body) && isRecord(body[0]) && depth < MAX_NESTING) {
    const first = readErrorBody(body[0], depth + 1);
    return body.length > 1 && first.message !== undefined ? { ...first, message: `${first.message} (and ${body.length - 1} more errors)` } : first;
  }
  if (!isRecord(body)) return { message: excerpt(quoted(body)), code: null, type: null, param: null };
  const inner = isRecord(body.error) ? body.error : body;
  const html = asString(body['html-message']);
  const message =
    asString(inner.message) ??
    asString(body.error) ??
    asString(body.message) ??
    (html === null ? null : excerpt(html)) ??
    asString(body.msg) ??
    asString(body.detail) ??
    excerpt(quoted(body));
  const cause = providerCause(inner.metadata, depth);
  // Gemini says `status: "INVALID_ARGUMENT"` where OpenAI says `type`.
  const type = asString(inner.type) ?? (depth > 0 ? asString(inner.status) : null);
  return { message: cause ? `${message} (${cause})` : message, code: asString(inner.code), type, param: asString(inner.param) };
}

/**
 * What OpenRouter's `error.metadata` says caused "Provider returned error": the provider's
 * name and its own error, from `raw` (a string, often JSON itself, or an object).
 */
function providerCause(metadata: unknown, depth: number): string | undefined {
  if (!isRecord(metadata)) return undefined;
  const provider = asString(metadata.provider_name);
  let raw = metadata.raw;
  if (typeof raw === 'string' && depth < MAX_NESTING && raw.length <= MAX_RAW_JSON && /^\s*[[{]/.test(raw)) {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      // Not JSON after all: quoted as text.
    }
  }
  const said = raw === undefined || raw === null ? undefined : readErrorBody(raw, depth + 1).message;
  if (provider && said) return `${provider}: ${said}`;
  return provider ?? said;
}

/**
 * A body the SDK does not recognise, as JSON text to quote; a body nested too deep for
 * `JSON.stringify` (a RangeError, which escaped as the call's error) is named instead.
 */
function quoted(body: unknown): string {
  try {
    return JSON.stringify(body) ?? String(body);
  } catch {
    return `(an error body nested too deep to quote)`;
  }
}

/** The longest `metadata.raw` read as JSON; a longer one is quoted as text. */
const MAX_RAW_JSON = 100_000;

/** The most of a server's own message an error's message keeps (a gateway has answered with one of 30 MB). */
const MAX_MESSAGE = 4_000;

/** The request id new-api puts at the end of its messages: `… (request id: X)`. */
function requestIDInMessage(message: string | undefined): string | null {
  return /\(request id: ([^)\s]+)\)\s*$/i.exec(message ?? '')?.[1] ?? null;
}

/** Builds the right {@link APIError} subclass; strips the client's secrets from everything it keeps. */
export function createAPIError(args: {
  status: number;
  body: unknown;
  headers: Headers;
  method: string;
  url: string;
  retryAfterMs: number | null;
  redactor: Redactor;
  /** The response's request id header (`x-request-id` or `x-oneapi-request-id`), if any. */
  requestID?: string | null | undefined;
  /** Replaces the message read from the body. */
  message?: string | undefined;
  hint?: string | undefined;
}): APIError {
  const { redactor } = args;
  const body = redactor.deep(args.body);
  const parsed = parseErrorBody(body);
  if (args.message !== undefined) parsed.message = redactor.string(args.message);
  const headers = new Headers();
  args.headers.forEach((value, key) => headers.set(key, redactor.string(value)));
  const Class = classify(args.status, parsed.code, parsed.type);
  const requestID = args.requestID ? redactor.string(args.requestID) : requestIDInMessage(parsed.message);
  return new Class({ ...parsed, status: args.status, error: body, headers, method: args.method, url: redactor.string(args.url), retryAfterMs: args.retryAfterMs, hint: args.hint, requestID });
}

/**
 * A sentence for errors that a base URL without `/v1` typically causes (a 404, an HTML page
 * where JSON or an event stream was expected); undefined when the base ends in /v1.
 */
export function baseURLHint(baseURL: string): string | undefined {
  const url = new URL(baseURL);
  if (/\/v1$/.test(url.pathname)) return undefined;
  return `Check the base URL: ${baseURL} does not end in /v1, and the gateway serves its API under /v1 (e.g. ${url.origin}/v1).`;
}

/** Where an unexpected body came from, and what was expected instead. */
interface UnexpectedAt {
  contentType: string;
  expected: string;
  method: string;
  url: string;
  /** The base URL the request went to; undefined for an absolute URL (a download), which gets no hint. */
  baseURL: string | undefined;
}

/**
 * A successful response whose body is not what the endpoint sends: quote it (secrets
 * removed: a proxy's page may echo the request's headers), and point at the base URL.
 */
export function unexpectedBody(text: string, at: UnexpectedAt, redactor: Redactor): GatewayError {
  const hint = at.baseURL === undefined ? undefined : baseURLHint(at.baseURL);
  const quote = excerpt(text);
  return new GatewayError(redactor.string(`Expected ${at.expected} but got ${at.contentType || 'a body without a content type'}${quote ? `: "${quote}"` : ''} (${at.method} ${at.url}).${hint ? ` ${hint}` : ''}`));
}

/**
 * A copy of a low-level error that is safe to keep as `cause`: name, message, stack and the
 * plain fields Node puts on network errors (`code`, `errno`, `syscall`, …), secrets
 * removed, and its own cause copied the same way. Never the object itself: a custom fetch
 * may hang the request (headers, key and all) on it, where `util.inspect` would show it.
 */
function safeCause(cause: unknown, redactor: Redactor, depth = 0): unknown {
  if (typeof cause === 'string') return redactor.string(cause);
  if (typeof cause !== 'object' || cause === null) return cause;
  if (!(cause instanceof Error) || depth > 3) return undefined;
  const safe = new Error(redactor.string(cause.message));
  safe.name = cause.name;
  safe.stack = redactor.string(cause.stack ?? '');
  const fields = safe as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(cause)) {
    if (typeof value === 'string') fields[key] = redactor.string(value);
    else if (typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  if (cause.cause !== undefined) safe.cause = safeCause(cause.cause, redactor, depth + 1);
  return safe;
}

/** Wraps a low-level failure (refused, reset, DNS, a cut stream) so that its message and cause never carry a secret. */
export function toConnectionError(error: unknown, redactor: Redactor, message: string): APIConnectionError {
  return new APIConnectionError(redactor.string(`${message}: ${describe(error)}`), { cause: safeCause(error, redactor) });
}

/**
 * What fetch rejected with, as the SDK's error: a connection error (retried), or, when
 * fetch refused its own arguments (undici's `UND_ERR_INVALID_ARG`, as a `dispatcher` of
 * another undici major gives), a final GatewayError: every retry would be refused the same.
 */
export function fetchFailure(error: unknown, redactor: Redactor, where: string): GatewayError {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if ((error as { code?: unknown } | null)?.code !== INVALID_ARG && cause?.code !== INVALID_ARG) return toConnectionError(error, redactor, `Connection error (${where})`);
  const message = `fetch refused the request's arguments (${INVALID_ARG}, ${where}): ${describe(error)}. Not retried. A fetchOptions.dispatcher must come from an undici release whose major version is Node's (process.versions.undici), or be passed with undici's own fetch (docs/retries.md#fetch-options-and-proxies).`;
  return new GatewayError(redactor.string(message), { cause: safeCause(error, redactor) });
}

/** A fetch that resolved to something other than a Response (attempt.ts checks its shape). */
export function notAResponse(value: unknown, custom: boolean, where: string): GatewayError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object without status, headers and text()' : typeof value;
  return new GatewayError(`${custom ? 'The custom fetch' : 'globalThis.fetch'} resolved to ${got}, not a Response (${where}). A fetch must resolve to a Response, as the platform's does.`);
}

/** undici's code for an argument it refuses (`InvalidArgumentError`). */
const INVALID_ARG = 'UND_ERR_INVALID_ARG';

/**
 * An error's message, with what undici puts on its cause ("connect ECONNREFUSED …", "other
 * side closed"). The cause's words, not its code: undici's codes (`UND_ERR_SOCKET`) mean
 * nothing to the people a message is shown to, and stay on the cause. Only a cause without
 * words (Node's AggregateError of a refused dual-stack connect) is named by its code.
 */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.message === 'string' && cause.message ? cause.message : typeof cause?.code === 'string' ? cause.code : undefined;
  return detail ? `${error.message} (${detail})` : error.message;
}

/** The APITimeoutError for a call whose next pause would outlast its `totalTimeout`; the server's error is the cause. */
export function budgetTimeout(error: GatewayError, at: { method: string; url: string; totalTimeout: number; leftMs: number }): APITimeoutError {
  const wait = error instanceof APIError ? error.retryAfterMs : null;
  const why = wait === null ? `no time was left for another attempt` : `the server asked to wait ${wait} ms before retrying, and ${at.leftMs} ms were left`;
  const timeout = new APITimeoutError(`Request did not complete within totalTimeout (${at.totalTimeout} ms): ${why}. The last answer: ${error.message}`, { cause: error });
  timeout.retryAfterMs = wait;
  return timeout;
}
