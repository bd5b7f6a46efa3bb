import { isRecord } from '../internal/is-record.js';

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
  /**
   * When `totalTimeout` ran out because the server asked for a longer wait than was left:
   * that wait, in ms (the server's error is the `cause`). Otherwise null.
   */
  retryAfterMs: number | null = null;
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A stream broke (cut, or ended without its end marker) after content had reached the
 * caller, so it was not retried: sending the request again would repeat what the caller
 * already has. `partial` is what the caller received, accumulated: for chat a
 * `ChatCompletion` whose `finish_reason` is null, for legacy completions a `Completion`, for
 * responses the last `Response` the stream described. `finalChatCompletion()` rejects with
 * the same error.
 * @example
 * try { for await (const chunk of stream) render(chunk); }
 * catch (err) { if (StreamInterruptedError.isInstance(err)) save(err.partial); else throw err; }
 */
export class StreamInterruptedError<P = unknown> extends APIConnectionError {
  static override readonly kind = 'StreamInterruptedError';
  /** What the caller received before the cut, accumulated (see the class's description). */
  readonly partial: P | undefined;
  constructor(message: string, options: { cause?: unknown; partial: P | undefined }) {
    super(message, { cause: options.cause });
    this.partial = options.partial;
  }
}

/** The caller's `AbortSignal` fired (or a stream's `controller.abort()` was called). */
export class APIUserAbortError extends GatewayError {
  static override readonly kind = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A call that could break one of the client's `budgets` was refused before anything was sent:
 * its worst case (the prompt and `max_tokens` at the model's price) added to what the budget
 * has spent in its window would pass the limit (a call that only waited for room held by
 * calls in flight, 30 s, is refused the same way). See docs/cost.md.
 */
export class BudgetExceededError extends GatewayError {
  static override readonly kind = 'BudgetExceededError';
  /** The budget's `name`. */
  readonly budget: string;
  /** What the calls the budget holds have spent in its window so far (priced, then billed), in US dollars. */
  readonly spentUsd: number;
  /** The budget's limit, in US dollars. */
  readonly limitUsd: number;
  /** When its window starts again; null for a budget `per: 'total'`. */
  readonly resetsAt: Date | null;
  /** @internal */
  constructor(init: { budget: string; spentUsd: number; limitUsd: number; resetsAt: Date | null; wouldAddUsd: number }) {
    const until = init.resetsAt ? `; it resets at ${init.resetsAt.toISOString()}` : '';
    super(`Budget '${init.budget}' would be exceeded: $${round(init.spentUsd)} of $${round(init.limitUsd)} spent, and this call may cost up to $${round(init.wouldAddUsd)}${until}. Nothing was sent.`);
    this.budget = init.budget;
    this.spentUsd = init.spentUsd;
    this.limitUsd = init.limitUsd;
    this.resetsAt = init.resetsAt;
  }
}

const round = (usd: number) => String(Math.round(usd * 1e6) / 1e6);

/**
 * A reply did not match what was asked for: `parse()` got content that is not valid JSON or
 * fails the response format's schema, or tool arguments that fail their tool's schema.
 * `content` is the raw text the model sent.
 */
export class ParseError extends GatewayError {
  static override readonly kind = 'ParseError';
  /** The raw text: the message content, or the tool call's arguments; what was read of it when `partialObjects()` stopped a reply that cannot be JSON. */
  readonly content: string;
  /** The schema's complaints, when the text was JSON that did not match. */
  readonly issues: readonly string[];
  /** @internal */
  constructor(message: string, content: string, issues: readonly string[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.content = content;
    this.issues = issues;
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
  /** The URL that answered, without its query; kept as {@link APIError.url}. */
  url: string;
  /** Delay the server asked for (`retry-after-ms` or `Retry-After`), in ms. */
  retryAfterMs: number | null;
  /** The request id, when the server gave one; the factory also reads it from other headers and the message. */
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
  /**
   * The URL that gave this answer, without its query: the last attempt's (the backup's
   * after a failover, the target's after a redirect).
   */
  readonly url: string;

  constructor(init: APIErrorInit) {
    // A code that only repeats the status (OpenRouter's `code: 400`) would read "400 400: …".
    const code = init.code === String(init.status) ? null : init.code;
    const what = [code, init.message].filter(Boolean).join(': ') || '(no body)';
    super(`${init.status} ${what} (${init.method} ${init.url})${init.hint ? ` ${init.hint}` : ''}`);
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.param = init.param;
    this.headers = init.headers;
    this.requestID = init.requestID ?? init.headers.get('x-request-id');
    this.error = init.error;
    this.retryAfterMs = init.retryAfterMs;
    this.url = init.url;
  }
}

/** 400: the gateway rejected the parameters (`invalid_request_error`). */
export class BadRequestError extends APIError {
  static override readonly kind: string = 'BadRequestError';
}
/**
 * The model does not take a parameter of the request, as its rule says (built in, the
 * client's `modelRules`, or learnt from the gateway's 400), and leaving it out would change
 * the request (a non-default `temperature`): refused before anything is sent, or the gateway's
 * own 400 when it named the parameter first. `allowedBy` is the rule that would let the
 * client drop it. See docs/models.md.
 */
export class UnsupportedParameterError extends BadRequestError {
  static override readonly kind = 'UnsupportedParameterError';
  /** The model the request was for. */
  readonly model: string;
  /** The parameter it does not take (`response_format` for a format it does not take). */
  override readonly param: string;
  /**
   * The `modelRules` entry that would drop it, as code: `{ 'gpt-5': { params: { temperature: 'drop' } } }`;
   * null where no rule can (a part of a message, a tool of a kind the endpoint lacks).
   */
  readonly allowedBy: string | null;
  /** @internal */
  constructor(init: APIErrorInit & { model: string; param: string; allowedBy: string | null }) {
    super(init);
    this.model = init.model;
    this.param = init.param;
    this.allowedBy = init.allowedBy;
  }
}

/** The `modelRules` value, as code, that lets the client leave `param` out for `model`. */
export function allowingRule(model: string, param: string): string {
  const quote = (text: string) => `'${text.replace(/['\\]/g, '\\$&')}'`;
  return `{ ${quote(model)}: { params: { ${/^[A-Za-z_$][\w$]*$/.test(param) ? param : quote(param)}: 'drop' } } }`;
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

/**
 * Codes and types that mean the account is out of credit, whatever the status (as gateways send it:
 * 429 `insufficient_quota`, 403 `insufficient_user_quota`, `pre_consume_token_quota_failed`,
 * or a 429 whose `type` is `insufficient_quota` with another code). Never worth a retry.
 */
const quotaCodes: ReadonlySet<string> = new Set([
  'insufficient_quota', // the gateway's own code for 429, as OpenAI's
  'insufficient_user_quota', // new-api / one-api: the user's balance is exhausted (403)
  'pre_consume_token_quota_failed', // new-api / one-api: the token's quota cannot cover the request
]);

/** True when the code or type says the account is out of credit (see `quotaCodes`). */
export function isQuotaCode(code: string | null, type: string | null): boolean {
  return (code !== null && quotaCodes.has(code)) || (type !== null && quotaCodes.has(type));
}

/** True for an API error that means the account is out of credit, whatever its status or class. */
export const isQuotaError = (error: APIError): boolean => isQuotaCode(error.code, error.type);


/** Fields of a result: a body that has one is a result, even when it also carries an `error` (a failed video task does). */
const resultFields = ['choices', 'object', 'id', 'data'] as const;

/**
 * True when a 2xx JSON body (or a stream frame) is really an error: `{"error": {...}}`, or the
 * flat `{"code", "message"}` shape, with no result fields; Gemini's array of error objects;
 * OpenRouter's error beside a choice that finished with `"error"` (its mid-stream failure).
 */
export function isErrorPayload(body: unknown): boolean {
  // Gemini's OpenAI-compatible endpoint: an array of error objects.
  if (Array.isArray(body)) return body.length > 0 && isRecord(body[0]) && isRecord(body[0].error);
  if (!isRecord(body)) return false;
  // Checked first and cheaply: this runs on every response and every stream frame.
  const hasError = body.error !== undefined && body.error !== null && body.error !== false;
  if (!hasError && !('code' in body && 'message' in body)) return false;
  // OpenRouter's error mid-stream: the error beside a choice that ends with `finish_reason: "error"`.
  if (hasError && Array.isArray(body.choices) && body.choices.some((choice) => isRecord(choice) && choice.finish_reason === 'error')) return true;
  for (const field of resultFields) if (body[field] !== undefined && body[field] !== null) return false;
  return hasError || (body.code !== 0 && body.code !== 200 && body.code !== '0' && body.code !== 'success');
}

/** Redirects followed within one call, same-origin hops and moves between bases together. */
export const MAX_REDIRECTS = 5;

/** An attempt was redirected to the client's other base URL: the next attempt goes there (a failover). */
export class BaseRedirect extends Error {
  constructor(
    readonly baseURL: string,
    readonly error: APIError,
  ) {
    super('redirected to the other base URL');
  }
}
