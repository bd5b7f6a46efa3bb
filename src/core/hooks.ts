import type { GiveUpReason } from './policy/decide.js';
import type { GatewayError } from './errors.js';
import type { AdaptInfo } from './adapt/adapt.js';

/** What every hook event says about the attempt. Never carries the API key or request headers. */
export interface AttemptInfo {
  method: string;
  /** Full URL of this attempt. */
  url: string;
  /** The base URL this attempt went to (main or backup). */
  baseURL: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
  /** The `Idempotency-Key` shared by every attempt of one POST. */
  idempotencyKey: string | undefined;
}

/** Emitted when response headers arrive, whatever the status. */
export interface ResponseInfo extends AttemptInfo {
  status: number;
  /** ms from sending to response headers. */
  durationMs: number;
  requestID: string | null;
}

/** Emitted before the pause that precedes a retry. */
export interface RetryInfo extends AttemptInfo {
  /** The failure that is being retried. */
  error: GatewayError;
  /** HTTP status of the failure, or null for connection errors and timeouts. */
  status: number | null;
  /** How long the client waits before the next attempt, in ms. */
  delayMs: number;
  /** Where the next attempt goes. */
  nextBaseURL: string;
}

/** Emitted when the next attempt goes to a different base URL than the failed one. */
export interface FailoverInfo extends AttemptInfo {
  error: GatewayError;
  status: number | null;
  from: string;
  to: string;
}

/** Emitted when a call moves on to the next model of its `fallbackModels`. */
export interface ModelFallbackInfo {
  /** The model that was unavailable. */
  from: string;
  /** The model tried next. */
  to: string;
  /** Why `from` was given up (after its own retries and failover). */
  error: GatewayError;
}

/** What the response cache made of a call: answered from it, sent upstream, or (embeddings) partly both. */
export type CacheOutcome = 'hit' | 'miss' | 'partial';

/** Emitted for every call the response cache looks at (docs/cache.md). */
export interface CacheInfo {
  outcome: CacheOutcome;
  method: string;
  /** Relative to the base URL: `chat/completions`. */
  path: string;
  model: string | undefined;
}

/**
 * Emitted when what the fleet shares (docs/fleet.md) changes what a call does:
 * - `base-skipped`: the base is down for the fleet (it failed here or in another instance), so
 *   the call went to the other one;
 * - `paused`: the call waited out a pause a 429 asked for on this base and model;
 * - `held`: the call waited `waitMs` for its share of `limits`;
 * - `quota-exhausted`: the call was refused at once, nothing sent: the quota ran out and no
 *   probe has found it back yet.
 */
export interface FleetInfo {
  event: 'base-skipped' | 'paused' | 'held' | 'quota-exhausted';
  /** The base the call went to (for `base-skipped`, the one it skipped is `skipped`). */
  baseURL: string;
  skipped?: string | undefined;
  model: string | undefined;
  /** How long the call waited, in ms (0 when it did not wait). */
  waitMs: number;
}

/**
 * Observability hooks, called synchronously. An exception thrown by a hook propagates to
 * the caller of the request (it is never swallowed), so keep hooks simple.
 * @example new Gateway({ hooks: { onRetry: (e) => console.warn(`retry ${e.attempt} in ${e.delayMs} ms`) } })
 */
export interface GatewayHooks {
  onRequest?: ((info: AttemptInfo) => void) | undefined;
  onResponse?: ((info: ResponseInfo) => void) | undefined;
  onRetry?: ((info: RetryInfo) => void) | undefined;
  onFailover?: ((info: FailoverInfo) => void) | undefined;
  /** A model was unavailable and the call moves on to the next of `fallbackModels`. */
  onModelFallback?: ((info: ModelFallbackInfo) => void) | undefined;
  /** The fleet's shared state changed what a call does: a base skipped, a pause honoured, a call held for budget or refused for quota. */
  onFleet?: ((info: FleetInfo) => void) | undefined;
  /** The response cache answered a call (`hit`), sent it (`miss`), or sent only the inputs it lacked (`partial`); told once the answer is in, never for a call that fails. */
  onCache?: ((info: CacheInfo) => void) | undefined;
}

/** Emitted when a call fails for good after the SDK could have tried again (not a public hook). */
export interface GiveUpInfo extends AttemptInfo {
  error: GatewayError;
  /**
   * `retries`: every retry was used; `retry-after`: the server asked for a wait beyond
   * `maxRetryAfterMs` or past the call's `totalTimeout` (the call gives up with the server's
   * error, `retryAfterMs` set); `budget`: the SDK's own backoff would outlast `totalTimeout`.
   */
  reason: Exclude<GiveUpReason, 'final'>;
}

/** Every event of a call: the public hooks, and what only the logger listens to. */
export interface CoreEvents extends GatewayHooks {
  onGiveUp?: ((info: GiveUpInfo) => void) | undefined;
  /** The client's `onAdapt`: a request changed for its model (adapt/adapt.ts). */
  onAdapt?: ((info: AdaptInfo) => void) | undefined;
}
