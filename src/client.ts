import * as Errors from './core/errors.js';
import { GatewayError } from './core/errors.js';
import { BaseURLPool, FAILOVER_COOLDOWN_MS } from './core/failover.js';
import type { GatewayHooks } from './core/hooks.js';
import type { CoreConfig } from './core/request.js';
import type { APIClient } from './core/resource.js';
import { retryDefaults } from './core/retry.js';
import { isBrowserLike, readEnv } from './internal/env.js';
import { Audio } from './resources/audio/index.js';
import { Chat } from './resources/chat/index.js';
import { Completions } from './resources/completions.js';
import { Embeddings } from './resources/embeddings.js';
import { Images } from './resources/images.js';
import { Models } from './resources/models.js';
import { Responses } from './resources/responses.js';
import { VideoTaskFailedError, VideoTaskNotFoundError, Videos } from './resources/videos.js';

/**
 * Options for {@link Gateway}. Every field is optional when its environment variable is set.
 */
export interface GatewayOptions {
  /** @default process.env.GATEWAY_API_KEY */
  apiKey?: string;
  /** Ends in `/v1`. @default process.env.GATEWAY_BASE_URL */
  baseURL?: string;
  /** Serves the same paths; used when the main base fails. @default process.env.GATEWAY_BACKUP_BASE_URL */
  backupBaseURL?: string;
  /** Retries after the first attempt. @default 2 */
  maxRetries?: number;
  /** ms per attempt (to the end of the body, or to the first bytes of a stream). @default 600_000 */
  timeout?: number;
  /** ms a stream may stay silent (no byte, not even a `: PING` comment) before it fails. @default 60_000 */
  idleTimeout?: number;
  /** ms the main base is avoided after it fails, when a backup is set. @default 30_000 */
  failoverCooldown?: number;
  /** A fetch implementation, e.g. a mock gateway's `mock.fetch`. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
  /** Observability callbacks: requests, responses, retries, failovers. */
  hooks?: GatewayHooks;
  /**
   * Allow use in a browser, where the key is visible to anyone who opens dev tools. Only
   * for keys scoped to the end user, or behind your own proxy.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean;
}

/** Defaults applied once, in one place. */
const defaults = {
  maxRetries: retryDefaults.maxRetries,
  timeout: 600_000,
  idleTimeout: 60_000,
  failoverCooldown: FAILOVER_COOLDOWN_MS,
} as const;

/**
 * Client for the unified model gateway.
 * @example
 * import { Gateway } from 'unified-gateway';
 * const client = new Gateway(); // GATEWAY_API_KEY, GATEWAY_BASE_URL
 * const completion = await client.chat.completions.create({
 *   model: 'gpt-4o-mini',
 *   messages: [{ role: 'user', content: 'Hello!' }],
 * });
 */
export class Gateway implements APIClient {
  /** Chat completions. */
  readonly chat: Chat;
  /** Legacy text completions. */
  readonly completions: Completions;
  /** Text to vectors. */
  readonly embeddings: Embeddings;
  /** Image generation and editing. */
  readonly images: Images;
  /** Speech to text. */
  readonly audio: Audio;
  /** Model catalogue. */
  readonly models: Models;
  /** The responses endpoint. */
  readonly responses: Responses;
  /** Asynchronous video generation. */
  readonly videos: Videos;
  /** The main base URL, e.g. `https://gateway.example/v1`. */
  readonly baseURL: string;
  /** The backup base URL, if any. */
  readonly backupBaseURL: string | undefined;
  readonly maxRetries: number;
  readonly timeout: number;
  // Private field: never enumerable, so the key stays out of JSON.stringify, console.log and errors.
  readonly #config: CoreConfig;

  constructor(options: GatewayOptions = {}) {
    const apiKey = options.apiKey ?? readEnv('GATEWAY_API_KEY');
    if (!apiKey) {
      throw new GatewayError("Missing API key. Pass it using the 'apiKey' option or set the GATEWAY_API_KEY environment variable.");
    }
    const baseURL = options.baseURL ?? readEnv('GATEWAY_BASE_URL');
    if (!baseURL) {
      throw new GatewayError("Missing base URL. Pass it using the 'baseURL' option (it ends in /v1) or set the GATEWAY_BASE_URL environment variable.");
    }
    if (!options.dangerouslyAllowBrowser && isBrowserLike()) {
      throw new GatewayError(
        "Refusing to run in a browser: the API key would be exposed to every visitor. Pass 'dangerouslyAllowBrowser: true' only for keys scoped to the end user, or call the gateway from your server.",
      );
    }
    const backupBaseURL = options.backupBaseURL ?? readEnv('GATEWAY_BACKUP_BASE_URL');
    const checked = {
      baseURL: checkURL('baseURL', baseURL),
      backupBaseURL: backupBaseURL ? checkURL('backupBaseURL', backupBaseURL) : undefined,
      maxRetries: checkNumber('maxRetries', options.maxRetries ?? defaults.maxRetries, 'count'),
      timeout: checkNumber('timeout', options.timeout ?? defaults.timeout, 'ms'),
      idleTimeout: checkNumber('idleTimeout', options.idleTimeout ?? defaults.idleTimeout, 'ms'),
      failoverCooldown: checkNumber('failoverCooldown', options.failoverCooldown ?? defaults.failoverCooldown, 'ms0'),
    };
    this.baseURL = checked.baseURL;
    this.backupBaseURL = checked.backupBaseURL;
    this.maxRetries = checked.maxRetries;
    this.timeout = checked.timeout;
    this.#config = {
      apiKey,
      pool: new BaseURLPool(checked.baseURL, checked.backupBaseURL, checked.failoverCooldown),
      maxRetries: checked.maxRetries,
      timeout: checked.timeout,
      idleTimeout: checked.idleTimeout,
      fetch: options.fetch,
      defaultHeaders: { ...options.defaultHeaders },
      hooks: { ...options.hooks },
    };
    this.chat = new Chat(this);
    this.completions = new Completions(this);
    this.embeddings = new Embeddings(this);
    this.images = new Images(this);
    this.audio = new Audio(this);
    this.models = new Models(this);
    this.responses = new Responses(this);
    this.videos = new Videos(this);
  }

  /** @internal Resolved configuration for resources; not part of the public API. */
  get _config(): CoreConfig {
    return this.#config;
  }

  static GatewayError = Errors.GatewayError;
  static APIError = Errors.APIError;
  static APIConnectionError = Errors.APIConnectionError;
  static APITimeoutError = Errors.APITimeoutError;
  static APIUserAbortError = Errors.APIUserAbortError;
  static ValidationError = Errors.ValidationError;
  static BadRequestError = Errors.BadRequestError;
  static AuthenticationError = Errors.AuthenticationError;
  static PermissionDeniedError = Errors.PermissionDeniedError;
  static NotFoundError = Errors.NotFoundError;
  static ConflictError = Errors.ConflictError;
  static UnprocessableEntityError = Errors.UnprocessableEntityError;
  static RateLimitError = Errors.RateLimitError;
  static InsufficientQuotaError = Errors.InsufficientQuotaError;
  static InternalServerError = Errors.InternalServerError;
  static ServiceUnavailableError = Errors.ServiceUnavailableError;
  static VideoTaskFailedError = VideoTaskFailedError;
  static VideoTaskNotFoundError = VideoTaskNotFoundError;
}

function checkURL(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Errors.ValidationError(name, `must be an absolute http(s) URL ending in /v1, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Errors.ValidationError(name, 'must use http: or https:');
  return value.replace(/\/+$/, '');
}

/** A whole number of retries, or a number of ms that setTimeout can hold. */
function checkNumber(name: string, value: number, kind: 'count' | 'ms' | 'ms0'): number {
  const min = kind === 'ms' ? 1 : 0;
  const ok = typeof value === 'number' && value >= min && value <= 2_147_483_647 && (kind !== 'count' || Number.isInteger(value));
  if (!ok) throw new Errors.ValidationError(name, kind === 'count' ? 'must be an integer >= 0' : `must be a number of ms between ${min} and 2147483647`);
  return value;
}
