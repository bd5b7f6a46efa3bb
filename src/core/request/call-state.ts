import { anySignal } from '../../internal/signals.js';
import { createAPIError } from '../error-factory.js';
import { APITimeoutError, APIUserAbortError, ValidationError, type GatewayError } from '../errors.js';
import { expandPath } from './path.js';
import type { CallObserver } from '../telemetry.js';
import type { CallCost } from '../cost/stage.js';
import type { CallRequest, CoreConfig, RequestOptions, ResponsesRoute } from '../types.js';

/** Why the total-timeout controller was aborted. */
const TOTAL_TIMED_OUT = Symbol('total timeout');

/**
 * What one call holds while it runs: the client's config, the request and the caller's
 * options, the fallback models left, the budget (`totalTimeout`) shared by every attempt and
 * pause, and for a stream the controller its Stream will own.
 */
export class CallState {
  readonly config: CoreConfig;
  readonly request: CallRequest;
  /** The request's path, its placeholders filled (and checked). */
  readonly path: string;
  /** A download's absolute URL (the request's, resolved and checked), or undefined. */
  readonly url: string | undefined;
  /** Whether the key is sent: to the client's own origins only. */
  readonly auth: boolean;
  readonly options: RequestOptions;
  /** Resolve with the response once its status is known, body unread (`asResponse()`). */
  readonly raw: boolean;
  /** The fallback models not tried yet. */
  readonly models: string[];
  /** Watches this call when the client has telemetry. */
  readonly observer: CallObserver | undefined;
  /** Aborts the request from inside the SDK: a Stream's `controller`. */
  readonly controller: AbortController | undefined;
  /** What stops the call's requests: the caller's signal, the stream's controller, and the total timeout. */
  readonly signal: AbortSignal | undefined;
  /** The JSON body to send: the request's, or (the response cache) only the embeddings inputs it lacks. */
  body: object | undefined;
  /** The tokens the call reserved of the fleet's budget (`limits`), reconciled with its answer's usage. */
  tokens = 0;
  /** The call is the one that probes an exhausted quota back (it holds the fleet's lock). */
  quotaProbe = false;
  /** The base this call is the one to probe back (it holds the fleet's lock), if any. */
  probing: string | undefined;
  /** The base where this call is the one that sends first after a pause (it holds the fleet's lock), if any. */
  pauseProbe: string | undefined;
  /** The SDK asked the stream for usage the caller did not (usage/stream-usage.ts): the caller's frames are given back without it. */
  usageAsked = false;
  /** The models this call sent again after a refusal taught what they take (request/adapt-step.ts): once each. */
  relearnt: Set<string> | undefined;
  /** With the client's `cost` or `budgets`: the call's tags, what it reserved, and what it cost (cost/stage.ts). */
  readonly costing: CallCost | undefined;
  /** A multipart body's files, read once for every model of the call. */
  files: Promise<Record<string, File>> | undefined;
  readonly #deadline: number | undefined;
  readonly #total: AbortController | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  /** A request that identical calls share (the response cache's flight): its stop and its budget are theirs. */
  readonly #owner: CallOwner | undefined;

  constructor(config: CoreConfig, request: CallRequest, options: RequestOptions, at: { raw: boolean; models: string[]; observer: CallObserver | undefined; owner?: CallOwner | undefined; body?: object | undefined }) {
    this.config = config;
    this.request = request;
    this.path = request.pathParams ? expandPath(request.path, request.pathParams) : request.path;
    this.url = request.url === undefined && !request.download ? undefined : downloadURL(request.url, request.baseURL ?? config.pool.main);
    this.auth = this.url === undefined || config.pool.isOwnOrigin(new URL(this.url).origin);
    this.options = options;
    this.raw = at.raw;
    this.models = at.models;
    this.observer = at.observer;
    this.controller = request.stream ? new AbortController() : undefined;
    this.body = at.body ?? request.body;
    this.costing = config.cost ? { tags: options.tags ?? {}, charge: undefined, result: undefined } : undefined;
    this.#owner = at.owner;
    const { totalTimeout } = options;
    if (totalTimeout !== undefined && !at.owner) {
      this.#deadline = Date.now() + totalTimeout;
      const total = (this.#total = new AbortController());
      this.#timer = setTimeout(() => total.abort(TOTAL_TIMED_OUT), totalTimeout);
    }
    this.signal = at.owner ? anySignal(at.owner.signal, this.controller?.signal) : anySignal(options.signal, this.controller?.signal, this.#total?.signal);
  }

  /**
   * The same request, sent for every caller waiting for it (the response cache's flight):
   * stopped by `owner` (every caller left), never by this caller's own signal or
   * totalTimeout; its budget is the most patient waiting caller's. Its observer sees the
   * request and its attempts; each caller's own sees the answer.
   */
  forOwner(owner: CallOwner): CallState {
    const observer = this.observer && { request: this.observer.request.bind(this.observer), attempt: this.observer.attempt.bind(this.observer), chunk: () => true, end: () => undefined, streamEnd: () => undefined };
    return new CallState(this.config, this.request, this.options, { raw: false, models: [...this.models], observer, owner, body: this.body });
  }

  /** ms left of `totalTimeout` (for a shared request, of the most patient caller's), or undefined without one. */
  budgetMs(): number | undefined {
    if (this.#owner) return this.#owner.budgetMs();
    return this.#deadline === undefined ? undefined : this.#deadline - Date.now();
  }

  /** The error for a call stopped by its signal: the total timeout, or an abort. */
  stopped(what: string): GatewayError {
    if (this.signal?.reason === TOTAL_TIMED_OUT) return new APITimeoutError(`Request did not complete within totalTimeout (${this.options.totalTimeout} ms): ${what}.`);
    return new APIUserAbortError(undefined, { cause: this.signal?.reason });
  }

  /**
   * The error for a call the fleet's state refuses before anything is sent (an exhausted
   * quota, a pause or a rate budget longer than the call may wait): a 429 as the gateway
   * would give it, with the wait on `retryAfterMs` (fleet/shared-fleet.ts).
   */
  refused(code: 'insufficient_quota' | 'rate_limit_exceeded', message: string, retryAfterMs: number | null): GatewayError {
    const { main } = this.config.pool;
    return createAPIError({
      status: 429,
      body: { error: { message, type: code, code } },
      headers: new Headers(),
      method: this.request.method,
      url: `${main.replace(/\/+$/, '')}/${this.path}`,
      retryAfterMs,
      redactor: this.config.redactor,
    });
  }

  end(): void {
    clearTimeout(this.#timer);
  }
}

/** Who owns a request that identical calls share: its stop, and how long it may take. */
export interface CallOwner {
  readonly signal: AbortSignal;
  budgetMs(): number | undefined;
}

/** One model's request, ready to send: serialised once, one Idempotency-Key for all its attempts. */
export interface PreparedRequest {
  /** The model this request asks for (a fallback's, after the first). */
  model: string | undefined;
  headers: Record<string, string>;
  body: string | Blob | undefined;
  /** The base every attempt must go to (a request pinned to a base, or a download's own address). */
  pinned: string | undefined;
  /** The path it goes to: the call's, or `responses` for a chat request its model takes only there. */
  path: string;
  /** The JSON body as sent (adapted to the model), for what a refusal of it teaches (adapt/lessons.ts). */
  json?: Record<string, unknown> | undefined;
  /** How the answer of a chat request served through `/v1/responses` is read back in chat shape. */
  route?: ResponsesRoute | undefined;
  /** Whether the caller (or telemetry) asked a chat stream for its usage: the route's last chunk. */
  usage?: boolean | undefined;
}

/**
 * The absolute URL of a download: an absolute http(s) URL as it is, a relative one resolved
 * against the gateway that made the file. Anything else is refused before sending.
 */
function downloadURL(given: unknown, base: string): string {
  if (typeof given !== 'string' || !given.trim()) throw new ValidationError('url', 'must be a URL (or a completed video task with video_url)');
  let url: URL;
  try {
    url = new URL(given.trim(), base);
  } catch {
    throw new ValidationError('url', 'must be an absolute http(s) URL or a path on the gateway');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('url', `must use http: or https: (got ${url.protocol})`);
  return url.href;
}
