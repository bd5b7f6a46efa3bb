import { redactCause, redactDeep, redactString } from '../internal/redact.js';

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
  /** The `x-request-id` response header, to quote to support. */
  readonly requestID: string | null;
  /** The parsed JSON error body (or its text when not JSON), with the API key removed. */
  readonly error: unknown;
  /** The delay the server asked for before retrying, in ms, or null. */
  readonly retryAfterMs: number | null;

  constructor(init: APIErrorInit) {
    const what = [init.code, init.message].filter(Boolean).join(': ') || 'status code (no body)';
    super(`${init.status} ${what} (${init.method} ${init.url})`);
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.param = init.param;
    this.headers = init.headers;
    this.requestID = init.headers.get('x-request-id');
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
 * Code or type → class, used when the status says nothing (an error object inside a 200).
 * Each entry is a code or type the gateway or common OpenAI-compatible servers send.
 */
const byCode: Record<string, APIErrorClass> = {
  insufficient_quota: InsufficientQuotaError, // gateway spec §7
  invalid_api_key: AuthenticationError, // gateway spec §7
  authentication_error: AuthenticationError, // OpenAI-style type
  model_not_found: NotFoundError, // gateway spec §7
  invalid_request_error: BadRequestError, // gateway spec §7
  rate_limit_exceeded: RateLimitError, // OpenAI-style code
  rate_limit_error: RateLimitError, // OpenAI-style type
  server_error: InternalServerError, // gateway spec §7
};

function classify(status: number, code: string | null, type: string | null): APIErrorClass {
  const isQuota = code === 'insufficient_quota' || type === 'insufficient_quota';
  if (status === 429) return isQuota ? InsufficientQuotaError : RateLimitError;
  if (status === 503) return ServiceUnavailableError;
  if (status >= 500) return InternalServerError;
  if (status >= 400) return byStatus[status] ?? APIError;
  return (code && byCode[code]) || (type && byCode[type]) || APIError;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asString = (v: unknown): string | null => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

/** Fields read from any of the error-body shapes OpenAI-compatible gateways send. */
export interface ParsedErrorBody {
  message: string | undefined;
  code: string | null;
  type: string | null;
  param: string | null;
}

/**
 * Reads `{"error":{message,type,param,code}}` (with or without param/code),
 * `{"error":"text"}`, the flat `{"code","message","data"}`, `{"detail"}`, plain text and
 * empty bodies. Never classifies by message text.
 */
export function parseErrorBody(body: unknown): ParsedErrorBody {
  if (typeof body === 'string') return { message: body.trim().slice(0, 500) || undefined, code: null, type: null, param: null };
  if (!isRecord(body)) return { message: undefined, code: null, type: null, param: null };
  const inner = isRecord(body.error) ? body.error : body;
  const message = asString(inner.message) ?? asString(body.error) ?? asString(body.msg) ?? asString(body.detail) ?? undefined;
  return { message: message ?? undefined, code: asString(inner.code), type: asString(inner.type), param: asString(inner.param) };
}

/**
 * True when a 2xx JSON body is really an error: `{"error": {...}}`, or the flat
 * `{"code", "message"}` shape with no result fields.
 */
export function isErrorPayload(body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (body.error !== undefined && body.error !== null && body.error !== false) return !('choices' in body) && !('object' in body);
  const flat = 'code' in body && 'message' in body && !('object' in body) && !('choices' in body) && !('id' in body);
  return flat && body.code !== 0 && body.code !== 200 && body.code !== '0' && body.code !== 'success';
}

/** Builds the right {@link APIError} subclass; strips the API key from everything it keeps. */
export function createAPIError(args: {
  status: number;
  body: unknown;
  headers: Headers;
  method: string;
  url: string;
  retryAfterMs: number | null;
  secret: string | undefined;
}): APIError {
  const body = redactDeep(args.body, args.secret);
  const parsed = parseErrorBody(body);
  const headers = new Headers();
  args.headers.forEach((value, key) => headers.set(key, redactString(value, args.secret)));
  const Class = classify(args.status, parsed.code, parsed.type);
  return new Class({ ...parsed, status: args.status, error: body, headers, method: args.method, url: args.url, retryAfterMs: args.retryAfterMs });
}

/** Wraps a low-level failure so that its message and cause never carry the key. */
export function toConnectionError(error: unknown, secret: string | undefined, message?: string): APIConnectionError {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new APIConnectionError(redactString(message ?? `Connection error: ${detail}`, secret), { cause: redactCause(error, secret) });
}
