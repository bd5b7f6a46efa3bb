import { anySignal } from '../internal/signals.js';
import { APITimeoutError, APIUserAbortError, type GatewayError } from './errors.js';
import type { CallObserver } from './telemetry.js';
import type { CoreConfig, CoreRequest, RequestOptions } from './types.js';

/** Why an attempt's own controller was aborted. */
const TOTAL_TIMED_OUT = Symbol('total timeout');

/**
 * What one call holds while it runs: the client's config, the caller's options, the models
 * left to fall back to, and the budget (`totalTimeout`) shared by every attempt and pause.
 */
export class CallState {
  readonly config: CoreConfig;
  readonly options: RequestOptions;
  /** Resolve with the response once its status is known, body unread (`asResponse()`). */
  readonly raw: boolean;
  /** The fallback models not tried yet. */
  readonly models: string[];
  /** Watches this call when the client has telemetry. */
  readonly observer: CallObserver | undefined;
  readonly #deadline: number | undefined;
  readonly #total: AbortController | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(config: CoreConfig, options: RequestOptions, raw: boolean, models: string[]) {
    this.config = config;
    this.options = options;
    this.raw = raw;
    this.models = models;
    this.observer = config.telemetry?.startCall(config.redactor);
    const { totalTimeout } = options;
    if (totalTimeout !== undefined) {
      this.#deadline = Date.now() + totalTimeout;
      const total = (this.#total = new AbortController());
      this.#timer = setTimeout(() => total.abort(TOTAL_TIMED_OUT), totalTimeout);
    }
  }

  /** ms left of `totalTimeout`, or undefined without one. */
  budgetMs(): number | undefined {
    return this.#deadline === undefined ? undefined : this.#deadline - Date.now();
  }

  /** What stops a request: the caller's signal, the stream's controller, and the total timeout. */
  signalFor(controller: AbortController | undefined): AbortSignal | undefined {
    return anySignal(this.options.signal, controller?.signal, this.#total?.signal);
  }

  /** The error for a request stopped by its signal: the total timeout, or an abort. */
  stopped(signal: AbortSignal | undefined, what: string): GatewayError {
    if (signal?.reason === TOTAL_TIMED_OUT) return new APITimeoutError(`Request did not complete within totalTimeout (${this.options.totalTimeout} ms): ${what}.`);
    return new APIUserAbortError(undefined, { cause: signal?.reason });
  }

  end(): void {
    clearTimeout(this.#timer);
  }
}

/** One model's request, ready to send: serialised once, one Idempotency-Key for all its attempts. */
export interface PreparedRequest {
  req: CoreRequest;
  headers: Record<string, string>;
  body: string | Blob | undefined;
  signal: AbortSignal | undefined;
  /** The base every attempt must go to (a request pinned to a base, or a download's own address). */
  pinned: string | undefined;
}
