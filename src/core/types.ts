import type { Redactor } from '../internal/redact.js';
import type { BaseURLPool } from './failover.js';
import type { CoreEvents, RetryInfo } from './hooks.js';
import type { ModelId } from './model-catalog.js';
import type { RetryPacing } from './retry.js';
import type { CallObserver, Telemetry } from './telemetry.js';

// The types the core's stages share: what a caller passes, what a resource describes, what
// the client resolved. Kept apart from the code so that no two core modules import each other.

/**
 * Options every method takes as its last argument.
 * @example await client.models.list({ timeout: 5_000, maxRetries: 0 })
 */
export interface RequestOptions {
  /** Aborts at once, including a backoff pause; no further attempt is made. */
  signal?: AbortSignal | undefined;
  /** ms per attempt, overriding the client's `timeout`. */
  timeout?: number | undefined;
  /** Retries after the first attempt, overriding the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Extra headers for this request; they win over the client's `defaultHeaders`. */
  headers?: Record<string, string> | undefined;
  /** Streams only: ms without a single byte (SSE `: PING` comments count) before the stream fails. */
  idleTimeout?: number | undefined;
  /**
   * ms for the whole call: every attempt, every backoff pause and every fallback model (for
   * a stream, until its first bytes). Past it, or when a pause the server asks for cannot
   * fit in what is left, the call fails with `APITimeoutError`. Unset by default.
   */
  totalTimeout?: number | undefined;
  /** Merged over the client's `fetchOptions`, key by key, for this call. */
  fetchOptions?: FetchOptions | undefined;
  /**
   * The models to try, in order, when the requested one is unavailable after its own
   * retries and failover; replaces the client's `fallbackModels` for this call. `[]` turns
   * fallback off. See docs/fallback.md.
   */
  fallbackModels?: readonly ModelId[] | undefined;
}

/**
 * Extra `fetch` init fields for every request, e.g. an undici `dispatcher` for a proxy, or
 * `credentials` in a browser. The SDK's own `method`, `headers`, `body`, `signal` and
 * `redirect` always win; set headers with `defaultHeaders` / `headers`.
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal' | 'redirect'> & { [key: string]: unknown };

/**
 * Whether a model's reasoning goes back in later assistant turns: on every assistant turn,
 * on those that called tools, or never. See docs/chat.md#reasoning-models.
 */
export type ReasoningSend = 'always' | 'tool-calls' | 'never';

/** The message field reasoning goes back in. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/**
 * How a model takes its reasoning back (the client's `reasoningRules`, over the built-in
 * table of docs/chat.md#reasoning-models). A turn the rule names carries the field, empty
 * when the model gave no reasoning on it.
 * @example { send: 'tool-calls', field: 'reasoning_content' }
 */
export interface ReasoningRule {
  /** Which assistant turns carry the reasoning: every one, those with tool calls, or none. */
  send: ReasoningSend;
  /** @default 'reasoning_content' */
  field?: ReasoningField | undefined;
}

/** Resolved client configuration the core works from. */
export interface CoreConfig {
  /** Gives the key for each attempt; a static key is wrapped. Never stored as a plain property, so no inspection shows it. */
  readonly apiKey: () => string | Promise<string>;
  /** Removes every key the client has used from errors, logs and hook events. */
  readonly redactor: Redactor;
  readonly pool: BaseURLPool;
  readonly maxRetries: number;
  readonly retry: RetryPacing;
  readonly timeout: number;
  readonly idleTimeout: number;
  readonly fetch: typeof globalThis.fetch | undefined;
  readonly fetchOptions: FetchOptions | undefined;
  readonly defaultHeaders: Record<string, string>;
  /** The user's hooks and the logger, subscribed to the same events. */
  readonly events: CoreEvents;
  /** Per model id, the models to try next. */
  readonly fallbackModels: Readonly<Record<string, readonly string[]>>;
  /** Watches every call (traces, metrics); undefined costs nothing. */
  readonly telemetry: Telemetry | undefined;
  /** Per model id, or prefix ending in `*`, how reasoning goes back (over the chat resource's table); checked, fields filled in. */
  readonly reasoningRules: Readonly<Record<string, Required<ReasoningRule>>>;
}

/** One HTTP request, as a resource describes it (the same for every attempt). */
export interface CoreRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative path without a leading slash: `chat/completions`. */
  path: string;
  /** JSON body; serialised once and reused on every attempt. */
  body?: unknown | undefined;
  /** A multipart body, built once as a Blob so every attempt replays it whole. */
  form?: { blob: Blob; contentType: string } | undefined;
  /** Send every attempt to this base URL (no failover): for resources that live on one base. */
  baseURL?: string | undefined;
  /** Told which base URL answered successfully. */
  onServed?: ((baseURL: string) => void) | undefined;
  /** Told of each retry of this request, before its pause (createMany adapts its concurrency to rate limits). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Awaited after a retry's pause, right before the next attempt is sent: a caller that
   * bounds requests in flight (createMany) holds the retry here until a slot is free.
   */
  beforeRetry?: ((info: RetryInfo) => Promise<void> | void) | undefined;
  /** Expect `text/event-stream`. */
  stream?: boolean | undefined;
  /** `text` returns the body as a string (transcripts as srt, vtt or text). @default 'json' */
  responseType?: 'json' | 'text' | undefined;
  /** Aborts the request from inside the SDK (a Stream's controller). */
  controller?: AbortController | undefined;
  /** An absolute URL instead of a base URL and `path` (downloads): no failover, no effect on base health. */
  url?: string | undefined;
  /** Send the Authorization header. @default true */
  auth?: boolean | undefined;
  /**
   * Resolve once the first body bytes arrived, with the opened body as the data (like a
   * stream, without its content checks). Redirects to another origin are followed without
   * the key: a download URL often hands off to a CDN.
   */
  download?: boolean | undefined;
}

/** What an attempt produced: the response, and its parsed body (JSON, text, or the opened stream). */
export interface Answer {
  response: Response;
  /** Undefined for a raw call (`asResponse()`). */
  data: unknown;
}

/** A streamed response whose first bytes have arrived: from here on it is never retried. */
export interface OpenStream {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  first: Uint8Array;
  /** Aborts when the caller's signal or the stream's controller aborts. */
  signal: AbortSignal;
  method: string;
  url: string;
  /** The call's observer, told of each frame and of the stream's end (a download's is unused). */
  observer?: CallObserver | undefined;
}
