import { anySignal } from '../../internal/signals.js';
import { APITimeoutError, APIUserAbortError, type GatewayError } from '../errors.js';
import { downloadURL } from './download.js';
import { expandPath } from './path.js';
import type { CallObserver } from '../telemetry.js';
import type { CallRequest, CoreConfig, RequestOptions } from '../types.js';

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
  /** A multipart body's files, read once for every model of the call. */
  files: Promise<Record<string, File>> | undefined;
  readonly #deadline: number | undefined;
  readonly #total: AbortController | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(config: CoreConfig, request: CallRequest, options: RequestOptions, at: { raw: boolean; models: string[]; observer: CallObserver | undefined }) {
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
    this.body = request.body;
    const { totalTimeout } = options;
    if (totalTimeout !== undefined) {
      this.#deadline = Date.now() + totalTimeout;
      const total = (this.#total = new AbortController());
      this.#timer = setTimeout(() => total.abort(TOTAL_TIMED_OUT), totalTimeout);
    }
    this.signal = anySignal(options.signal, this.controller?.signal, this.#total?.signal);
  }

  /** ms left of `totalTimeout`, or undefined without one. */
  budgetMs(): number | undefined {
    return this.#deadline === undefined ? undefined : this.#deadline - Date.now();
  }

  /** The error for a call stopped by its signal: the total timeout, or an abort. */
  stopped(what: string): GatewayError {
    if (this.signal?.reason === TOTAL_TIMED_OUT) return new APITimeoutError(`Request did not complete within totalTimeout (${this.options.totalTimeout} ms): ${what}.`);
    return new APIUserAbortError(undefined, { cause: this.signal?.reason });
  }

  end(): void {
    clearTimeout(this.#timer);
  }
}

/** One model's request, ready to send: serialised once, one Idempotency-Key for all its attempts. */
export interface PreparedRequest {
  /** The model this request asks for (a fallback's, after the first). */
  model: string | undefined;
  headers: Record<string, string>;
  body: string | Blob | undefined;
  /** The base every attempt must go to (a request pinned to a base, or a download's own address). */
  pinned: string | undefined;
}
