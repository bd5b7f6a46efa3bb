import * as Errors from './core/errors.js';
import { GatewayError, ValidationError } from './core/errors.js';
import type { CacheOptions, CacheState } from './core/cache/cache-state.js';
import { BaseURLPool, FAILOVER_COOLDOWN_MS } from './core/policy/failover.js';
import { Fleet, fleetMemory, type FleetMemory, type Limits } from './core/fleet/fleet.js';
import type { GatewayHooks } from './core/hooks.js';
import type { ModelId } from './core/model-catalog.js';
import { checkBaseURL, checkCache, checkFetchOptions, checkHeaders, checkLimits, checkNumber, checkStore, checkTelemetry } from './core/check.js';
import type { Logger, LogLevel } from './core/logger.js';
import { resolveApiKey, resolveEvents, resolveFallbackModels, resolveRetry, type ApiKeySource, type RetryOptions } from './core/options.js';
import type { Telemetry } from './core/telemetry.js';
import type { FetchOptions, ReasoningRule } from './core/types.js';
import { bindConfig, configOf, type APIClient } from './core/resource.js';
import type { Store } from './core/store/store.js';
import { retryDefaults } from './core/policy/waits.js';
import { isBrowserLike, readEnv } from './internal/env.js';
import { Redactor } from './internal/redact.js';
import { Audio } from './resources/audio/index.js';
import { Chat } from './resources/chat/index.js';
import { Completions } from './resources/completions/index.js';
import { Embeddings } from './resources/embeddings/index.js';
import { Images } from './resources/images/index.js';
import { Models } from './resources/models/index.js';
import { Responses } from './resources/responses/index.js';
import { Videos } from './resources/videos/index.js';
import { EmbeddingBatchError, ToolRunLimitError, VideoTaskFailedError, VideoTaskNotFoundError } from './resources/errors.js';
import { reasoningOf, resolveReasoningRules } from './resources/chat/completions/reasoning-rules.js';
import { resolveModelRules, type ModelRule } from './core/adapt/model-rules.js';
import type { AdaptInfo } from './core/adapt/adapt.js';
import { resolveCost, type Balance, type Budget, type CostEvent, type CostOption, type CostState, type SpendReport } from './core/cost/cost.js';

/**
 * Options for {@link Gateway}. Every field is optional when its environment variable is set.
 */
export interface GatewayOptions {
  /**
   * The API key, or a function giving one (sync or async), called for every attempt so a
   * rotating token stays fresh across a long retry. Whatever it returns is kept out of
   * errors and logs like a static key.
   * @default process.env.GATEWAY_API_KEY
   */
  apiKey?: ApiKeySource | undefined;
  /** Ends in `/v1`. @default process.env.GATEWAY_BASE_URL */
  baseURL?: string | undefined;
  /** Serves the same paths; used when the main base fails. @default process.env.GATEWAY_BACKUP_BASE_URL */
  backupBaseURL?: string | undefined;
  /** Retries after the first attempt. @default 2 */
  maxRetries?: number | undefined;
  /** ms per attempt (to the end of the body, or to the first bytes of a stream). @default 600_000 */
  timeout?: number | undefined;
  /** ms a stream may stay silent (no byte, not even a `: PING` comment) before it fails. @default 60_000 */
  idleTimeout?: number | undefined;
  /**
   * ms the main base is avoided once it is down (after the second failure that says so, with
   * no answer between them: docs/fleet.md), when a backup is set; then one call probes it.
   * @default 30_000
   */
  failoverCooldown?: number | undefined;
  /** A fetch implementation, e.g. a mock gateway's `mock.fetch`. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Extra `fetch` init fields for every request, e.g. an undici `dispatcher` for a proxy.
   * A request's own `fetchOptions` are merged over these, key by key.
   */
  fetchOptions?: FetchOptions | undefined;
  /** Pacing of retries: `{ baseDelayMs, maxDelayMs, maxRetryAfterMs, jitter }`. */
  retry?: RetryOptions | undefined;
  /** Observability callbacks: requests, responses, retries, failovers, model fallbacks. */
  hooks?: GatewayHooks | undefined;
  /**
   * How much to log: `debug` every attempt, `info` retries and failovers, `warn` calls that
   * failed after a retry or a refused wait. @default process.env.GATEWAY_LOG ?? 'warn'
   */
  logLevel?: LogLevel | undefined;
  /** Where to log (`console`-shaped: pino, winston and consola loggers fit). Never given the key. @default console */
  logger?: Logger | undefined;
  /**
   * Per model id, the models to try next when it is unavailable after its own retries and
   * failover (see docs/fallback.md). A request's `fallbackModels` replaces the list.
   * @example { 'gpt-4o': ['claude-3-5-sonnet-20241022', 'gemini-1.5-pro'] }
   */
  fallbackModels?: Readonly<Record<string, readonly ModelId[]>> | undefined;
  /**
   * Traces and metrics for every call: `openTelemetry()` from `unified-gateway/otel`, or
   * any {@link Telemetry}. Unset, it costs nothing. See docs/observability.md.
   */
  telemetry?: Telemetry | undefined;
  /**
   * @deprecated Since 0.5: `modelRules: { [id]: { reasoning } }`, which this stays an alias of
   * (an entry of `modelRules` wins the same key).
   * How `runTools` sends a reasoning model's reasoning back on later turns, per model id or
   * per prefix ending in `*`, over the built-in table (docs/chat.md#reasoning-models). An
   * exact id wins over a prefix, a longer prefix over a shorter; `'*'` alone covers every
   * model the others do not.
   * @example { 'my-deepseek-*': { send: 'always' }, 'gpt-oss-120b': { send: 'tool-calls', field: 'reasoning' } }
   */
  reasoningRules?: Readonly<Record<string, ReasoningRule>> | undefined;
  /**
   * What each model takes, per model id or prefix ending in `*`: how its reasoning goes back
   * (`reasoning`), the parameters it renames, drops or refuses (`params`), and the endpoint
   * it answers on (`endpoint`), over the built-in table and what the gateway's 400s taught
   * (docs/models.md). The most specific entry that names a parameter wins; `'*'` covers what
   * nothing more specific does. A drop that changes the request (a non-default `temperature`)
   * is made only where a rule says `'drop'`; otherwise `UnsupportedParameterError`, nothing sent.
   * @example { 'gpt-5*': { params: { temperature: 'drop' } }, 'o3-pro*': { endpoint: 'responses' } }
   */
  modelRules?: Readonly<Record<string, ModelRule>> | undefined;
  /**
   * Told of every change the client made to a request for its model, and why: a parameter
   * renamed or dropped, a request rerouted to `/v1/responses` (also a `debug` log line).
   * @example (e) => console.log(`${e.model}: ${e.action} ${e.param ?? ''} (${e.source})`)
   */
  onAdapt?: ((info: AdaptInfo) => void) | undefined;
  /**
   * Where the client keeps what it learns (base health, 429 pauses, an exhausted quota, the
   * rate budget of `limits`), shared by every client on the same store:
   * `redisStore(client)` from `unified-gateway/redis` shares it across processes. When the
   * store cannot be reached the client goes on with its own memory; no call fails because of
   * it. See docs/fleet.md.
   * @default none: base health stays in this client (and those withOptions() makes from it)
   */
  store?: Store | undefined;
  /**
   * A response cache: an identical chat, completions or responses call (a stream too), or an
   * embeddings input already embedded, is answered from `store` instead of being paid for
   * again; per call, `cache: 'refresh' | 'bypass'`. Never images, transcriptions or videos.
   * See docs/cache.md.
   * @example { store: memoryStore({ maxBytes: 64 * 2 ** 20 }), ttl: 86_400_000 }
   */
  cache?: CacheOptions | undefined;
  /**
   * Request and token rates the whole fleet on the store stays under: a call waits for its
   * share, and rejects with `RateLimitError` (nothing sent) when that would take longer than
   * `retry.maxRetryAfterMs`. See docs/fleet.md.
   * @example { requestsPerMinute: 600, tokensPerMinute: 200_000 }
   */
  limits?: Limits | undefined;
  /**
   * Price every answered call as the gateway bills it (its own `/api/pricing` and
   * `/api/status`), reconciled with its log where the key can read it: `withResponse().cost`,
   * a stream's `cost()`, `onCost`, and spend per tag (`spend()`). `{ group }` names the
   * gateway group the key bills in when it may use several. See docs/cost.md.
   * @default false
   */
  cost?: CostOption | undefined;
  /**
   * Limits on what the calls each selects (by their `tags`) may cost per hour, day, month or
   * in total, held across every process on the `store`: a call that could break one is
   * refused before it is sent with `BudgetExceededError`. Turns on `cost`. See docs/cost.md.
   * @example [{ name: 'acme-daily', usd: 5, per: 'day', where: { tenant: 'acme' } }]
   */
  budgets?: readonly Budget[] | undefined;
  /**
   * Told when a call is priced, and again with the difference when the gateway billed
   * another figure: the sum of `delta` is what was billed. Needs `cost` or `budgets`.
   * @example (e) => metrics.add(e.delta.quota, e.tags)
   */
  onCost?: ((event: CostEvent) => void) | undefined;
  /**
   * Allow use in a browser, where the key is visible to anyone who opens dev tools. Only
   * for keys scoped to the end user, or behind your own proxy.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** The options each client was made with, for withOptions(); private, like its config. */
const givenOptions = new WeakMap<Gateway, GatewayOptions>();

/** What a client made by withOptions() shares with the one it came from: its fleet's memory and its response cache (unless its options name another store or cache). */
interface Shared {
  fleet: FleetMemory;
  cache: CacheState | undefined;
  /** The `store`, `cache` and `apiKey` options they were made from, and the base URLs. */
  bases: string;
  store: Store | undefined;
  cacheOptions: CacheOptions | undefined;
  apiKey: ApiKeySource | undefined;
  /** Budgets and spend without a store: this process's (the store made with the first use). */
  costMemory: { store?: Store } | undefined;
}
const sharedBy = new WeakMap<Gateway, Shared>();
/** Set while withOptions() constructs the derived client: what it inherits. */
let inheriting: Shared | undefined;

/** Defaults applied once, in one place. */
const defaults = {
  maxRetries: retryDefaults.maxRetries,
  timeout: 600_000,
  idleTimeout: 60_000,
  failoverCooldown: FAILOVER_COOLDOWN_MS,
  /** A day: re-runs of an evaluation the same day are answered from the cache. */
  cacheTtl: 86_400_000,
} as const;

/** Options must be an object: `new Gateway(null)` would otherwise fail on a property read with a TypeError. */
function checkOptionsObject(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new ValidationError('options', 'must be an object');
}

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
  constructor(options: GatewayOptions = {}) {
    checkOptionsObject(options);
    const redactor = new Redactor();
    const apiKey = resolveApiKey(options.apiKey, redactor);
    const baseURL = options.baseURL?.trim() || readEnv('GATEWAY_BASE_URL');
    if (!baseURL) {
      throw new GatewayError("Missing base URL. Pass it using the 'baseURL' option (it ends in /v1) or set the GATEWAY_BASE_URL environment variable.");
    }
    if (!options.dangerouslyAllowBrowser && isBrowserLike()) {
      throw new GatewayError(
        "Refusing to run in a browser: the API key would be exposed to every visitor. Pass 'dangerouslyAllowBrowser: true' only for keys scoped to the end user, or call the gateway from your server.",
      );
    }
    const backupBaseURL = options.backupBaseURL?.trim() || readEnv('GATEWAY_BACKUP_BASE_URL');
    checkNumber('maxRetries', options.maxRetries, 'count');
    checkNumber('timeout', options.timeout, 'ms');
    checkNumber('idleTimeout', options.idleTimeout, 'ms');
    checkNumber('failoverCooldown', options.failoverCooldown, 'ms0');
    checkHeaders('defaultHeaders', options.defaultHeaders);
    if (options.defaultHeaders) redactor.addHeaders(options.defaultHeaders);
    if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new ValidationError('fetch', 'must be a function with the signature of fetch');
    checkFetchOptions('fetchOptions', options.fetchOptions);
    checkTelemetry(options.telemetry);
    checkStore(options.store);
    checkLimits(options.limits);
    checkCache(options.cache);
    this.baseURL = checkBaseURL('baseURL', baseURL);
    this.backupBaseURL = backupBaseURL?.trim() ? checkBaseURL('backupBaseURL', backupBaseURL) : undefined;
    this.maxRetries = options.maxRetries ?? defaults.maxRetries;
    this.timeout = options.timeout ?? defaults.timeout;
    const { events, log } = resolveEvents({ hooks: options.hooks, onAdapt: options.onAdapt }, options.logLevel, options.logger, redactor);
    const pool = new BaseURLPool(this.baseURL, this.backupBaseURL);
    const inherited = inheriting;
    inheriting = undefined;
    // A store of the user's (Redis) is put behind a guard where it is used (no call fails
    // because of it); without one, what the client learns stays in this process.
    // Another key is another account: its quota is not this one's (base health starts afresh too).
    // Another gateway (base URLs) is another set of channels: what one taught of a model is not the other's.
    const bases = `${pool.main}\n${pool.backup ?? ''}`;
    const memory = inherited && options.store === inherited.store && options.apiKey === inherited.apiKey && bases === inherited.bases ? inherited.fleet : fleetMemory(options.store);
    const retry = resolveRetry(options.retry);
    const fleet = new Fleet(
      {
        main: pool.main,
        retry,
        backup: pool.backup,
        cooldownMs: options.failoverCooldown ?? defaults.failoverCooldown,
        limits: options.limits,
        // A static key names what this account keeps in a store (hashed); a key function is never called for it.
        accountKey: typeof options.apiKey === 'function' ? undefined : (apiKey as () => string),
        onFleet: events.onFleet,
        log,
      },
      memory,
    );
    let cache = inherited && options.cache === inherited.cacheOptions ? inherited.cache : undefined;
    if (options.cache && !cache) cache = { store: options.cache.store, log, ttlMs: options.cache.ttl ?? defaults.cacheTtl, shareAcrossKeys: options.cache.shareAcrossKeys === true, flights: new Map() };
    const costSettings = resolveCost(options);
    // Budgets and spend without a store live in this process, shared with the clients withOptions() makes (on the same store).
    const costMemory = costSettings && !options.store ? ((inherited && options.store === inherited.store ? inherited.costMemory : undefined) ?? {}) : undefined;
    const cost: CostState | undefined = costSettings && { settings: costSettings, get: (url) => this.models._text(url), memory: costMemory ?? {}, unknown: new Set() };
    sharedBy.set(this, { fleet: memory, cache, bases, store: options.store, cacheOptions: options.cache, apiKey: options.apiKey, costMemory });
    bindConfig(this, {
      // A closure rather than a property: nothing that inspects the config can print the key.
      apiKey,
      redactor,
      pool,
      fleet,
      cache,
      maxRetries: this.maxRetries,
      retry,
      timeout: this.timeout,
      idleTimeout: options.idleTimeout ?? defaults.idleTimeout,
      fetch: options.fetch,
      fetchOptions: options.fetchOptions,
      defaultHeaders: { ...options.defaultHeaders },
      events,
      fallbackModels: resolveFallbackModels(options.fallbackModels),
      telemetry: options.telemetry,
      // 0.4's reasoningRules is modelRules' `reasoning` under another name; an entry of modelRules wins a tie.
      reasoningRules: { ...resolveReasoningRules(options.reasoningRules), ...resolveReasoningRules(reasoningOf(options.modelRules), (id) => `modelRules.${id}.reasoning`) },
      modelRules: resolveModelRules(options.modelRules),
      cost,
    });
    givenOptions.set(this, options);
    this.chat = new Chat(this);
    this.completions = new Completions(this);
    this.embeddings = new Embeddings(this);
    this.images = new Images(this);
    this.audio = new Audio(this);
    this.models = new Models(this);
    this.responses = new Responses(this);
    this.videos = new Videos(this);
  }

  /**
   * A new client with these options changed and the rest kept. It shares this client's
   * failover health, so a base URL found down by one is avoided by both.
   * @example const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   */
  withOptions(options: GatewayOptions): Gateway {
    // Before the spread, which would turn a string into an object of its characters.
    checkOptionsObject(options);
    // What the new client shares with this one: its fleet's memory (base health, pauses, quota,
    // rate budget) and its response cache, unless the new options name another store or cache.
    inheriting = sharedBy.get(this);
    try {
      // `this.constructor`, not `Gateway`: a class that names itself is renamed by bundlers (_Gateway).
      // An option given as undefined is an option not given: it keeps this client's (a `store: maybeStore` keeps the shared store).
      const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
      return new (this.constructor as typeof Gateway)({ ...givenOptions.get(this), ...given });
    } finally {
      inheriting = undefined;
    }
  }

  /**
   * What the key may still spend, from the gateway (`/api/usage/token`, else the OpenAI-shaped
   * billing endpoints): in quota units and USD. Kept 30 s, and with a `store` shared by the
   * fleet (the gateway rate-limits these queries). Works without `cost`. See docs/cost.md.
   * @example const { available } = await client.balance(); if ((available.usd ?? Infinity) < 1) alert();
   */
  async balance(): Promise<Balance> {
    const { readBalance } = await import('./core/cost/reports.js');
    return readBalance(configOf(this), (url) => this.models._text(url));
  }

  /**
   * What this client's store recorded, grouped by the values of one tag (`null`: calls
   * without it), from the UTC day that holds `since` (default: today). Needs `cost` or
   * `budgets`. See docs/cost.md.
   * @example const { groups } = await client.spend({ by: 'tenant', since: Date.now() - 7 * 86_400_000 });
   */
  async spend(query: { by: string; since?: Date | number | undefined }): Promise<SpendReport> {
    const { spendReport } = await import('./core/cost/reports.js');
    return spendReport(configOf(this), (url) => this.models._text(url), query);
  }

  static GatewayError = Errors.GatewayError;
  static APIError = Errors.APIError;
  static APIConnectionError = Errors.APIConnectionError;
  static APITimeoutError = Errors.APITimeoutError;
  static APIUserAbortError = Errors.APIUserAbortError;
  static StreamInterruptedError = Errors.StreamInterruptedError;
  static ValidationError = Errors.ValidationError;
  static BadRequestError = Errors.BadRequestError;
  static UnsupportedParameterError = Errors.UnsupportedParameterError;
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
  static ParseError = Errors.ParseError;
  static BudgetExceededError = Errors.BudgetExceededError;
  static ToolRunLimitError = ToolRunLimitError;
  static EmbeddingBatchError = EmbeddingBatchError;
  static VideoTaskNotFoundError = VideoTaskNotFoundError;
}
