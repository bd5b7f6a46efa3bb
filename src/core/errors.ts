import type { Redactor } from '../internal/redact.js';

const LINEAGE = Symbol.for('unified-gateway.error');

/**
 * Base class of every error this package throws.
 *
 * Besides `instanceof`, use {@link GatewayError.isInstance} (also on every subclass) when
 * two copies of the package may be loaded (ESM and CJS side by side): it recognises errors
 * by a registered symbol rather than by class identity.
 */
export class GatewayError extends Error {
  /** Stable class tag used by {@link GatewayError.isInstance}; survives minification. */
  static readonly kind: string = 'GatewayError';
  /** The class name, e.g. `RateLimitError` (set from the class's `kind`, so it survives minification). */
  declare readonly name: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, 'name', { value: (new.target as unknown as { kind: string }).kind, enumerable: true, configurable: true, writable: true });
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.prototype.hasOwnProperty.call(c, 'kind')) kinds.push((c as unknown as { kind: string }).kind);
    }
    Object.defineProperty(this, LINEAGE, { value: kinds });
  }

  /**
   * True when `value` is an instance of this class (or a subclass), also across copies of
   * the package.
   * @example if (RateLimitError.isInstance(err)) console.log(err.retryAfterMs);
   */
  static isInstance<T extends abstract new (...args: never[]) => GatewayError>(this: T & { kind: string }, value: unknown): value is InstanceType<T> {
    if (value instanceof this) return true;
    const kinds = (value as { [LINEAGE]?: unknown } | null)?.[LINEAGE];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** Arguments were rejected before any request was sent. `field` is a dotted path such as `messages[0].content`. */
export class ValidationError extends GatewayError {
  static override readonly kind = 'ValidationError';
  /** The offending field, as a path (`temperature`, `messages[1].role`). */
  readonly field: string;
  /** The rule it broke, in words (`must be between 0 and 2`). */
  readonly rule: string;
  constructor(field: string, rule: string) {
    super(`Invalid ${field || 'argument'}: ${rule}`);
    this.field = field;
    this.rule = rule;
  }
}

/** The request never got an HTTP response: refused, reset, DNS failure, or a stream cut mid-way. */
export class APIConnectionError extends GatewayError {
  static override readonly kind: string = 'APIConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** An attempt exceeded `timeout`, a stream stayed silent past its idle timeout, or a wait exceeded its limit. */
export class APITimeoutError extends APIConnectionError {
  static override readonly kind = 'APITimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The caller's `AbortSignal` fired (or a stream's `controller.abort()` was called). */
export class APIUserAbortError extends GatewayError {
  static override readonly kind = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** What the error factory knows about a failed HTTP exchange. */
export interface APIErrorInit {
  status: number;
  /** Parsed error body as the server sent it (the API key removed if echoed). */
  error: unknown;
  headers: Headers;
  /** The server's own message text. */
  message: string | undefined;
  code: string | null;
  type: string | null;
  param: string | null;
  method: string;
  url: string;
  /** Delay the server asked for (`retry-after-ms` or `Retry-After`), in ms. */
  retryAfterMs: number | null;
  /** The request id, when the server gave one (see {@link readRequestID}). */
  requestID?: string | null | undefined;
  /** A sentence appended to the message: how to fix it (e.g. a base URL without `/v1`). */
  hint?: string | undefined;
}

/**
 * The server answered with an error. Carries the status, the parsed error body and its
 * `code`/`type`/`param`, the response headers and the `x-request-id`.
 */
export class APIError extends GatewayError {
  static override readonly kind: string = 'APIError';
  /** HTTP status; 200 when the server put an error object inside a successful response. */
  readonly status: number;
  readonly code: string | null;
  readonly type: string | null;
  readonly param: string | null;
  readonly headers: Headers;
  /**
   * The request id to quote to support: the `x-request-id` header, else `x-oneapi-request-id`,
   * else the `(request id: …)` suffix of the server's message (browsers cannot read headers
   * a server does not expose).
   */
  readonly requestID: string | null;
  /** The parsed JSON error body (or its text when not JSON), with the API key removed. */
  readonly error: unknown;
  /** The delay the server asked for before retrying, in ms, or null. */
  readonly retryAfterMs: number | null;

  constructor(init: APIErrorInit) {
    const what = [init.code, init.message].filter(Boolean).join(': ') || '(no body)';
    super(`${init.status} ${what} (${init.method} ${init.url})${init.hint ? ` ${init.hint}` : ''}`);
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.param = init.param;
    this.headers = init.headers;
    this.requestID = init.requestID ?? readRequestID(init.headers, init.message);
    this.error = init.error;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 400: the gateway rejected the parameters (`invalid_request_error`). */
export class BadRequestError extends APIError {
  static override readonly kind = 'BadRequestError';
}
/** 401: missing or invalid API key (`invalid_api_key`). */
export class AuthenticationError extends APIError {
  static override readonly kind = 'AuthenticationError';
}
/** 403: the key may not use this resource. */
export class PermissionDeniedError extends APIError {
  static override readonly kind = 'PermissionDeniedError';
}
/** 404: unknown model (`model_not_found`) or resource. */
export class NotFoundError extends APIError {
  static override readonly kind: string = 'NotFoundError';
}
/** 409: conflicting request; retried. */
export class ConflictError extends APIError {
  static override readonly kind = 'ConflictError';
}
/** 422: well-formed but semantically invalid request. */
export class UnprocessableEntityError extends APIError {
  static override readonly kind = 'UnprocessableEntityError';
}
/** 429: too many requests; retried with backoff, honouring `Retry-After`. */
export class RateLimitError extends APIError {
  static override readonly kind: string = 'RateLimitError';
}
/** 429 with code `insufficient_quota`: the account is out of credit. Never retried. */
export class InsufficientQuotaError extends RateLimitError {
  static override readonly kind = 'InsufficientQuotaError';
}
/** 5xx: the gateway or an upstream vendor failed; retried. */
export class InternalServerError extends APIError {
  static override readonly kind: string = 'InternalServerError';
}
/** 503: temporarily unavailable; retried and failed over. */
export class ServiceUnavailableError extends InternalServerError {
  static override readonly kind = 'ServiceUnavailableError';
}

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
 * Codes and types that mean the account is out of credit, whatever the status (REALITIES.md:
 * 429 `insufficient_quota`, 403 `insufficient_user_quota`, `pre_consume_token_quota_failed`,
 * or a 429 whose `type` is `insufficient_quota` with another code). Never worth a retry.
 */
const quotaCodes: ReadonlySet<string> = new Set([
  'insufficient_quota', // gateway spec §7, OpenAI
  'insufficient_user_quota', // new-api / one-api: the user's balance is exhausted (403)
  'pre_consume_token_quota_failed', // new-api / one-api: the token's quota cannot cover the request
]);

/**
 * Code or type → class, used when the status says nothing (an error object inside a 200).
 * Each entry is a code or type the gateway or common OpenAI-compatible servers send.
 */
const byCode: Record<string, APIErrorClass> = {
  insufficient_quota: InsufficientQuotaError, // gateway spec §7
  insufficient_user_quota: InsufficientQuotaError, // new-api / one-api
  pre_consume_token_quota_failed: InsufficientQuotaError, // new-api / one-api
  invalid_api_key: AuthenticationError, // gateway spec §7
  authentication_error: AuthenticationError, // OpenAI-style type
  model_not_found: NotFoundError, // gateway spec §7
  invalid_request_error: BadRequestError, // gateway spec §7
  rate_limit_exceeded: RateLimitError, // OpenAI-style code
  rate_limit_error: RateLimitError, // OpenAI-style type
  server_error: InternalServerError, // gateway spec §7
};

/** True when the code or type says the account is out of credit (see `quotaCodes`). */
export function isQuotaCode(code: string | null, type: string | null): boolean {
  return (code !== null && quotaCodes.has(code)) || (type !== null && quotaCodes.has(type));
}

/** True for an API error that means the account is out of credit, whatever its status or class. */
export const isQuotaError = (error: APIError): boolean => isQuotaCode(error.code, error.type);

function classify(status: number, code: string | null, type: string | null): APIErrorClass {
  if (status === 429) return isQuotaCode(code, type) ? InsufficientQuotaError : RateLimitError;
  if (status === 503) return ServiceUnavailableError;
  if (status >= 500) return InternalServerError;
  if (status >= 400) return byStatus[status] ?? APIError;
  return (code && byCode[code]) || (type && byCode[type]) || APIError;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
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
 * Reads every error-body shape of REALITIES.md: `{"error":{message,type,param,code}}` (with
 * or without param/code; code a string, a number, `""` or null), `{"error":"text"}`, the
 * flat `{"code","message","data"}` and `{"status","message"}`, `{"html-message"}`,
 * `{"detail"}`, plain text and HTML pages. Any other body is quoted as an excerpt, so the
 * server's own words always reach the message; only an empty body has none. Never
 * classifies by message text.
 */
export function parseErrorBody(body: unknown): ParsedErrorBody {
  if (typeof body === 'string') return { message: excerpt(body) || undefined, code: null, type: null, param: null };
  if (body === undefined || body === null) return { message: undefined, code: null, type: null, param: null };
  if (!isRecord(body)) return { message: excerpt(JSON.stringify(body)), code: null, type: null, param: null };
  const inner = isRecord(body.error) ? body.error : body;
  const html = asString(body['html-message']);
  const message =
    asString(inner.message) ??
    asString(body.error) ??
    asString(body.message) ??
    (html === null ? null : excerpt(html)) ??
    asString(body.msg) ??
    asString(body.detail) ??
    excerpt(JSON.stringify(body));
  return { message, code: asString(inner.code), type: asString(inner.type), param: asString(inner.param) };
}

/** The request id: `x-request-id`, else `x-oneapi-request-id`, else the message's `(request id: X)` suffix. */
export function readRequestID(headers: Headers, message: string | undefined): string | null {
  return headers.get('x-request-id') ?? headers.get('x-oneapi-request-id') ?? /\(request id: ([^)\s]+)\)\s*$/i.exec(message ?? '')?.[1] ?? null;
}

/** Fields of a result: a body that has one is a result, even when it also carries an `error` (a failed video task does). */
const resultFields = ['choices', 'object', 'id', 'data'] as const;

/**
 * True when a 2xx JSON body is really an error: `{"error": {...}}`, or the flat
 * `{"code", "message"}` shape, with no result fields.
 */
export function isErrorPayload(body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (resultFields.some((field) => field in body && body[field] !== null)) return false;
  if (body.error !== undefined && body.error !== null && body.error !== false) return true;
  const flat = 'code' in body && 'message' in body;
  return flat && body.code !== 0 && body.code !== 200 && body.code !== '0' && body.code !== 'success';
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
  return new Class({ ...parsed, status: args.status, error: body, headers, method: args.method, url: redactor.string(args.url), retryAfterMs: args.retryAfterMs, hint: args.hint });
}

/** Wraps a low-level failure so that its message and cause never carry a secret. */
export function toConnectionError(error: unknown, redactor: Redactor, message?: string): APIConnectionError {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new APIConnectionError(redactor.string(message ?? `Connection error: ${detail}`), { cause: redactor.cause(error) });
}
