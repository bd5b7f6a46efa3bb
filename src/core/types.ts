import type { Redactor } from '../internal/redact.js';
import type { GatewayError } from './errors.js';
import type { BaseURLPool } from './policy/failover.js';
import type { CacheOutcome, CoreEvents, RetryInfo } from './hooks.js';
import type { CacheState } from './cache/cache-state.js';
import type { Fleet } from './fleet/fleet.js';
export type { Limits } from './fleet/fleet.js';
import type { ModelId } from './model-catalog.js';
import type { ResolvedReasoningRule, UserModelRules } from './adapt/model-rules.js';
import type { RetryPacing } from './policy/waits.js';
import type { CallObserver, Telemetry } from './telemetry.js';
import type { FrameSource, StreamSink } from './streams/stream.js';
import type { Cost, CostState, CostTags } from './cost/cost.js';

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
  /**
   * The response cache for this call (with the client's `cache` option): `use` answers from it
   * and keeps the answer, `refresh` sends anyway and keeps the new answer, `bypass` neither
   * reads nor writes it. @default 'use'
   */
  cache?: 'use' | 'refresh' | 'bypass' | undefined;
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
  /**
   * Who or what this call is for, as strings (`tenant`, `feature`, `user`): with the client's
   * `cost`, its spend is kept per tag, and `budgets` select the calls they hold by them.
   * Never sent to the gateway. See docs/cost.md.
   * @example { tags: { tenant: 'acme', feature: 'search' } }
   */
  tags?: CostTags | undefined;
}

/**
 * Extra `fetch` init fields for every request, e.g. an undici `dispatcher` for a proxy, or
 * `credentials` in a browser. The SDK's own `method`, `headers`, `body`, `signal` and
 * `redirect` always win; set headers with `defaultHeaders` / `headers`.
 */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal' | 'redirect'> & { [key: string]: unknown };

export type { ReasoningSend, ReasoningField, ReasoningRule, ResolvedReasoningRule } from './adapt/model-rules.js';

/** Resolved client configuration the core works from. */
export interface CoreConfig {
  /** Gives the key for each attempt; a static key is wrapped. Never stored as a plain property, so no inspection shows it. */
  readonly apiKey: () => string | Promise<string>;
  /** Removes every key the client has used from errors, logs and hook events. */
  readonly redactor: Redactor;
  readonly pool: BaseURLPool;
  /** What this client knows about the gateway, shared with every client on its store: base health, pauses, quota, rate budget. */
  readonly fleet: Fleet;
  /** The response cache, with the client's `cache` option. */
  readonly cache: CacheState | undefined;
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
  readonly reasoningRules: Readonly<Record<string, ResolvedReasoningRule>>;
  /** The `params` and `endpoint` of the client's `modelRules`, checked and ordered (adapt/model-rules.ts). */
  readonly modelRules: UserModelRules;
  /** With `cost` or `budgets`: what prices calls and keeps budgets and spend (cost/); undefined costs nothing. */
  readonly cost: CostState | undefined;
}

/** What checks a method's arguments before anything is sent: a request's `schema.ts`, imported by name. */
export interface Schema {
  /** Throws a ValidationError naming the first field that breaks a rule. */
  check(value: unknown): void;
}

/** Multipart fields, and which of them are files (read once per call, so retries and fallbacks replay the same bytes). */
export interface FormRequest {
  fields: object;
  files: readonly string[];
}

/** What the chat resource lends the adapt step (core/request/adapt-step.ts): both loaded or read only when a model needs them. */
export interface AdaptHooks {
  /** The route through /v1/responses, loaded with the first model that answers only there. */
  responses(): Promise<ResponsesRoute>;
  /**
   * The endpoints the gateway's own table (`/api/pricing` `supported_endpoint_types`) lists
   * for `model`, or undefined when it has no table or does not list the model. Read only after
   * a refusal whose words do not say why (shared: once a minute per fleet), waited for at most
   * `waitMs` (a read another caller waited for in vain is not waited for again).
   */
  listedEndpoints(model: string, wait: { signal: AbortSignal | undefined; waitMs: number }): Promise<readonly string[] | undefined>;
}

/**
 * One method call, as a resource describes it: plain data the core runs (core/call.ts
 * `runCall`). The same for every attempt; a fallback model only changes `body.model`.
 */
export interface CallRequest<T = unknown> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Relative path without a leading slash: `chat/completions`; `{name}` placeholders are filled from `pathParams`. */
  path: string;
  /** Values of the path's placeholders, encoded (and refused when they would change the route) by the core. */
  pathParams?: Readonly<Record<string, unknown>> | undefined;
  /** The JSON body, serialised once and reused on every attempt. */
  body?: object | undefined;
  /** A multipart body instead of `body`. */
  form?: FormRequest | undefined;
  /** Checks `body` (or `form.fields`) before anything is sent. */
  schema?: Schema | undefined;
  /** The model asked for: with it, model fallback applies (its body field is swapped). */
  model?: string | undefined;
  /** Whether the client's per-model `fallbackModels` apply (not for embeddings: vectors of different models do not mix). @default true */
  clientFallbacks?: boolean | undefined;
  /** The answer is server-sent events, read into this Stream class. */
  stream?: StreamClass<StreamSink> | undefined;
  /** Handed to the stream class's constructor (parse() gives its params, to parse the final completion). */
  streamParams?: unknown;
  /** The response cache may answer this call: as a whole (chat, completions, responses), or input by input (embeddings). */
  cache?: 'whole' | 'per-input' | undefined;
  /** Shapes the parsed body into the result. @default the body as it is */
  map?: ((data: unknown, response: Response) => T | Promise<T>) | undefined;
  /** Turns a failure into the error the method documents. */
  mapError?: ((error: unknown) => unknown) | undefined;
  /** `text` returns the body as a string (transcripts as srt, vtt or text). @default 'json' */
  responseType?: 'json' | 'text' | undefined;
  /** Send every attempt to this base URL (no failover): for resources that live on one base. */
  baseURL?: string | undefined;
  /**
   * A URL instead of a base URL and `path` (downloads): absolute, or relative to `baseURL` (else
   * the main base). No failover, no effect on base health; the key goes only to the client's
   * own origins.
   */
  url?: string | undefined;
  /**
   * A download: resolves once the first body bytes arrived, with a Response whose body
   * reports progress. Redirects to another origin are followed without the key: a download
   * URL often hands off to a CDN.
   */
  download?: { onProgress?: ((progress: DownloadProgress) => void) | undefined } | undefined;
  /**
   * A chat request: adapted to each model it goes to by the client's `modelRules`, what the
   * fleet learnt and the built-in table (core/adapt), and served through `/v1/responses` for
   * a model that answers only there, by the route this loads (docs/models.md).
   */
  adapt?: AdaptHooks | undefined;
  /** Told which base URL answered successfully. */
  onServed?: ((baseURL: string) => void) | undefined;
  /** Told of each retry, before its pause (createMany adapts its concurrency to rate limits). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /** Awaited after a retry's pause, right before the next attempt: createMany holds a retry here until a slot is free. */
  beforeRetry?: ((info: RetryInfo) => Promise<void> | void) | undefined;
}

/**
 * A Stream subclass as the core constructs it: from the events' source, the call's
 * controller, and the request's `streamParams`. Its statics say how its endpoint's stream
 * ends and which frames carry content (see `Stream`).
 */
export interface StreamClass<S> {
  new (source: FrameSource<never>, controller: AbortController, params?: unknown): S;
  /** Event types that end the stream normally, for endpoints that send no `[DONE]`. */
  readonly terminalEvents: readonly string[] | undefined;
  /** True for a frame that carries content; before the first one a cut stream is retried. */
  hasContent(frame: unknown): boolean;
}

/** What a call hands back: the response, and the result unless the raw response was asked for. */
export interface CallOutcome<T> {
  response: Response;
  data?: T;
  /** What the response cache made of the call; null when it did not look (no cache, not cacheable, `bypass`). */
  cache: CacheOutcome | null;
  /** With the client's `cost`: what the call cost (0 for a cache hit); null unpriced, or for a stream (priced at its end). */
  cost: Cost | null;
}

/** What an attempt produced: the response, and its body (parsed JSON or text, the opened stream or download). */
export interface Reply {
  response: Response;
  /** Undefined for a raw call (`asResponse()`). */
  data: unknown;
  /** The model that answered (a fallback's, after one). */
  model?: string | undefined;
}

/** Options of a download (`images.download`, `videos.download`): the usual request options, and progress. */
export interface DownloadOptions extends RequestOptions {
  /** Called with `{ loadedBytes, totalBytes }` as the body is read. */
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
}

/** How far a download has come. */
export interface DownloadProgress {
  loadedBytes: number;
  /** From Content-Length; null when the server did not say (or compressed the body). */
  totalBytes: number | null;
}

/** A download whose first bytes have arrived: from here on it is never retried. */
export interface OpenBody {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  first: Uint8Array;
  /** Aborts when the caller's signal aborts. */
  signal: AbortSignal;
  method: string;
  url: string;
}

/** What the response cache reads of a call (request/call-state.ts's CallState is one). */
export interface CacheCall {
  readonly config: CoreConfig;
  readonly request: CallRequest;
  readonly path: string;
  readonly options: RequestOptions;
  /** The body to send; for embeddings, replaced by the inputs the cache lacks. */
  body: object | undefined;
  readonly raw: boolean;
  readonly observer: CallObserver | undefined;
  /** What stops the call: the caller's signal, the stream's controller, the total timeout. */
  readonly signal: AbortSignal | undefined;
  /** The fallback models not tried yet. */
  readonly models: string[];
  /** ms left of `totalTimeout`, or undefined without one. */
  budgetMs(): number | undefined;
  /** The error for a call stopped by its signal. */
  stopped(what: string): GatewayError;
}

/** A call's answer: from the cache, or sent upstream; and what the cache made of it (null when it did not look). */
export interface CachedReply extends Reply {
  cache: CacheOutcome | null;
}

/**
 * How a chat request is served through `/v1/responses` and its answer given back in chat
 * shape (resources/chat/completions/responses-route.ts).
 */
export interface ResponsesRoute {
  /** The chat body as a responses body; `unsupported` names the parameters that have no equivalent there. */
  request(body: Record<string, unknown>): { body: Record<string, unknown>; unsupported: string[] };
  /** A responses result as a chat completion (throws for a failed response). */
  reply(data: unknown): unknown;
  /** A new reader of one streamed answer's events: each event as the chat chunks it makes (`usage`: whether the last, usage-only chunk is wanted). */
  frames(usage: boolean): RouteFrames;
}

/** A streamed answer's events read as chat chunks (see ResponsesRoute). */
export interface RouteFrames {
  /** The chat chunks one event makes (often none); throws for an event that says the response failed. */
  translate(event: unknown): unknown[];
  /** The events that end the stream (it sends no `[DONE]`). */
  readonly terminalEvents: readonly string[];
  /** True for an event that carries content. */
  hasContent(event: unknown): boolean;
}
