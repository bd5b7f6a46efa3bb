import type { Redactor } from '../internal/redact.js';
import { readEnv } from '../internal/env.js';
import { checkApiKey, checkHooks, checkNumber } from './check.js';
import { GatewayError, ValidationError } from './errors.js';
import type { CoreEvents, GatewayHooks } from './hooks.js';
import { combineEvents, LOG_LEVELS, loggerEvents, type Logger, type LogLevel } from './logger.js';
import { retryDefaults, type RetryPacing } from './policy/waits.js';

/** An API key, or a function giving one for every attempt (rotating tokens). */
export type ApiKeySource = string | (() => string | Promise<string>);

/**
 * Pacing of retries; `maxRetries` stays a top-level option. Each field replaces its default.
 * @example new Gateway({ retry: { baseDelayMs: 250, maxRetryAfterMs: 10_000 } })
 */
export interface RetryOptions {
  /** The first pause; it doubles on every retry. @default 500 */
  baseDelayMs?: number | undefined;
  /** No pause is longer than this. @default 8_000 */
  maxDelayMs?: number | undefined;
  /**
   * A server-requested wait (`Retry-After`) longer than this is not waited for: the call
   * fails over to a healthy other base, or rejects at once with the wait on
   * `err.retryAfterMs`. @default 60_000
   */
  maxRetryAfterMs?: number | undefined;
  /** 0 to 1: the fraction by which a computed pause may be shortened at random. @default 0.25 */
  jitter?: number | undefined;
}

/**
 * The key getter the core calls for every attempt. A static key is wrapped in a closure; a
 * function's result is checked and remembered by the redactor, so a rotated key is kept out
 * of errors and logs like the first one.
 */
export function resolveApiKey(source: ApiKeySource | undefined, redactor: Redactor): () => string | Promise<string> {
  if (typeof source === 'function') {
    const remember = (key: unknown): string => {
      if (typeof key !== 'string' || !key.trim()) throw new GatewayError("The 'apiKey' function returned no key (a non-empty string).");
      redactor.add(key.trim());
      return checkApiKey(key.trim());
    };
    return () => {
      const key = source();
      return typeof key === 'string' ? remember(key) : Promise.resolve(key).then(remember);
    };
  }
  if (source !== undefined && typeof source !== 'string') throw new ValidationError('apiKey', `must be a string, or a function returning one (got ${source === null ? 'null' : typeof source})`);
  const key = source?.trim() || readEnv('GATEWAY_API_KEY');
  if (!key) throw new GatewayError("Missing API key. Pass it using the 'apiKey' option (a string, or a function returning one) or set the GATEWAY_API_KEY environment variable.");
  redactor.add(key);
  checkApiKey(key, source?.trim() ? 'apiKey' : 'GATEWAY_API_KEY');
  return () => key;
}

/** The retry pacing, each field checked and defaulted. */
export function resolveRetry(options: RetryOptions | undefined): RetryPacing {
  if (options === undefined) return retryDefaults;
  if (typeof options !== 'object' || options === null) throw new ValidationError('retry', 'must be an object');
  const pacing: RetryPacing = { ...retryDefaults };
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    checkNumber(`retry.${key}`, options[key], 'ms0');
    pacing[key] = options[key] ?? pacing[key];
  }
  pacing.jitter = options.jitter ?? pacing.jitter;
  if (typeof pacing.jitter !== 'number' || !(pacing.jitter >= 0 && pacing.jitter <= 1)) throw new ValidationError('retry.jitter', 'must be a number between 0 and 1');
  return pacing;
}

/**
 * The events of every call (the user's hooks first, then the logger at its level), and a
 * line logger at the same level for what is not a call's event (the store's outages).
 */
export function resolveEvents(listeners: { hooks: GatewayHooks | undefined; onAdapt: unknown }, logLevel: LogLevel | undefined, logger: Logger | undefined, redactor: Redactor): { events: CoreEvents; log: LineLogger } {
  const { hooks, onAdapt } = listeners;
  checkHooks(hooks);
  if (onAdapt !== undefined && typeof onAdapt !== 'function') throw new ValidationError('onAdapt', 'must be a function');
  const fromEnv = logLevel === undefined ? readEnv('GATEWAY_LOG') : undefined;
  const level = logLevel ?? fromEnv ?? 'warn';
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    throw new ValidationError(fromEnv === undefined ? 'logLevel' : 'GATEWAY_LOG', `must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
  }
  const sink = logger ?? console;
  if (typeof sink !== 'object' || sink === null || !(['error', 'warn', 'info', 'debug'] as const).every((m) => typeof sink[m] === 'function')) {
    throw new ValidationError('logger', 'must have error, warn, info and debug methods, as console does');
  }
  const rank = LOG_LEVELS.indexOf(level as LogLevel);
  const log: LineLogger = (at, line) => void (rank >= LOG_LEVELS.indexOf(at) && sink[at](redactor.string(line)));
  return { events: combineEvents({ ...hooks, onAdapt: onAdapt as CoreEvents['onAdapt'] }, loggerEvents(sink, level as LogLevel, redactor)), log };
}

/** Writes one line at a level, when the client logs that level. */
export type LineLogger = (level: 'warn' | 'info' | 'debug', line: string) => void;

/** The client's per-model fallback lists, checked. */
export function resolveFallbackModels(map: Readonly<Record<string, readonly string[]>> | undefined): Readonly<Record<string, readonly string[]>> {
  for (const [model, next] of Object.entries(map ?? {})) checkModels(`fallbackModels.${model}`, next);
  return { ...map };
}

/**
 * The most models one `fallbackModels` list may name: each is a full request (with its own
 * retries) made for one call, so a longer list is refused rather than cut silently.
 */
export const MAX_FALLBACK_MODELS = 10;

/** A list of model ids, as fallbackModels takes. */
export function checkModels(field: string, models: unknown): void {
  if (!Array.isArray(models) || !models.every((m) => typeof m === 'string' && m.trim())) throw new ValidationError(field, 'must be an array of model ids');
  if (models.length > MAX_FALLBACK_MODELS) throw new ValidationError(field, `must name at most ${MAX_FALLBACK_MODELS} models`);
}
