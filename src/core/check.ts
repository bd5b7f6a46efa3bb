import { checkTags } from './cost/cost.js';
import { ValidationError } from './errors.js';
import type { GatewayHooks } from './hooks.js';
import type { RequestOptions } from './types.js';

// Checks of the options a client and a request take, written out rather than with zod: they
// run at construction and before every request, on the chat path of every app.

/** The longest delay setTimeout can hold (2^31 - 1 ms, about 24.8 days). */
const MAX_MS = 2_147_483_647;

/**
 * The most retries a call may make (`maxRetries`), as the command line's `--max-retries`.
 * Each is a full attempt with its own timeout and pause: `maxRetries: 1e9` would retry a
 * dead gateway for days, so a larger number is refused rather than cut silently.
 */
export const MAX_RETRIES = 100;

/**
 * Checks a numeric option, for the client's options and a request's alike:
 * `count` a whole number from 0 to {@link MAX_RETRIES} (retries), `ms` a delay >= 1 ms,
 * `ms0` a delay >= 0 ms. `undefined` passes (the default applies).
 */
export function checkNumber(name: string, value: unknown, kind: 'count' | 'ms' | 'ms0'): void {
  if (value === undefined) return;
  const min = kind === 'ms' ? 1 : 0;
  const max = kind === 'count' ? MAX_RETRIES : MAX_MS;
  const ok = typeof value === 'number' && value >= min && value <= max && (kind !== 'count' || Number.isInteger(value));
  if (!ok) {
    throw new ValidationError(name, kind === 'count' ? `must be a whole number from 0 to ${MAX_RETRIES} (to bound a call's time, use totalTimeout)` : `must be a number of ms between ${min} and ${MAX_MS}`);
  }
}

/**
 * A base URL as `new URL()` reads it, without trailing slashes: scheme and host in lower
 * case, a default port dropped, the path as given (case kept; fetch would encode it the
 * same way). So `HTTP://Gateway.Example/v1` and `http://gateway.example/v1` are one base:
 * the URLs fetch and redirects report are in this form, and failover, redirects and the
 * fleet's store keys compare them as strings. It must be an absolute http(s) URL without
 * credentials, query or fragment (the path is joined to it as it is). A path that does not
 * end in /v1 is accepted (some gateways mount the API elsewhere); errors it leads to say so
 * (see `baseURLHint` in error-factory.ts).
 */
export function checkBaseURL(name: string, value: string): string {
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ValidationError(name, 'must be an absolute http(s) URL such as https://gateway.example/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(name, 'must use http: or https:');
  // Never quoted back: the password would end up in the message.
  if (url.username || url.password) throw new ValidationError(name, 'must not contain credentials (use apiKey or defaultHeaders)');
  if (/[?#]/.test(trimmed)) throw new ValidationError(name, 'must not have a query or fragment (paths are appended to it)');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** What fetch refuses in a header value. */
const NOT_HEADER_TEXT = 'must be printable Latin-1 text without line breaks (it travels in a header)';

/** A key that can travel in a header: Latin-1, no line breaks or control characters. The message never quotes it. */
export function checkApiKey(key: string, field = 'apiKey'): string {
  // eslint-disable-next-line no-control-regex
  if (/[^\x20-\x7e\x80-\xff]/.test(key)) throw new ValidationError(field, NOT_HEADER_TEXT);
  return key;
}

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Header names and values that fetch would refuse when sending (then as a retried connection error). */
export function checkHeaders(field: string, headers: unknown): void {
  if (headers === undefined) return;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) throw new ValidationError(field, 'must be an object of header names to values');
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new ValidationError(`${field}.${name}`, 'is not a header name (no spaces or separators)');
    // eslint-disable-next-line no-control-regex
    if (typeof value !== 'string') throw new ValidationError(`${field}.${name}`, 'must be a string');
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw new ValidationError(`${field}.${name}`, NOT_HEADER_TEXT);
  }
}

/**
 * The values fetch takes for the RequestInit fields it checks by list (the Fetch standard's
 * enums). `navigate` is a mode only a browser's own navigations have: fetch refuses it.
 */
const FETCH_ENUMS: Readonly<Record<string, readonly string[]>> = {
  mode: ['cors', 'no-cors', 'same-origin'],
  credentials: ['omit', 'same-origin', 'include'],
  cache: ['default', 'no-store', 'reload', 'no-cache', 'force-cache', 'only-if-cached'],
  referrerPolicy: ['', 'no-referrer', 'no-referrer-when-downgrade', 'same-origin', 'origin', 'strict-origin', 'origin-when-cross-origin', 'strict-origin-when-cross-origin', 'unsafe-url'],
  priority: ['high', 'low', 'auto'],
  duplex: ['half'],
};

/**
 * `fetchOptions`: an object of extra fetch init fields. What fetch would refuse when sending
 * is refused here: fetch throws at once, and that was reported as a connection error and
 * retried in vain. A `dispatcher` (undici's) must have a `dispatch` method; `window` can
 * only be null (outside a browser's own pages there is no window to give); the enum fields
 * take their listed values.
 */
export function checkFetchOptions(field: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(field, 'must be an object');
  const init = value as Record<string, unknown>;
  const { dispatcher } = init as { dispatcher?: { dispatch?: unknown } | null };
  if (dispatcher !== undefined && typeof dispatcher?.dispatch !== 'function') throw new ValidationError(`${field}.dispatcher`, 'must be an undici Dispatcher (with a dispatch method)');
  if (init.window !== undefined && init.window !== null) throw new ValidationError(`${field}.window`, 'can only be null (fetch refuses any other value): leave it out');
  for (const [name, allowed] of Object.entries(FETCH_ENUMS)) {
    const given = init[name];
    if (given !== undefined && !allowed.includes(given as string)) throw new ValidationError(`${field}.${name}`, `must be one of ${allowed.map((v) => `'${v}'`).join(', ')}`);
  }
}

/** The hooks a client calls, each a function or undefined (GatewayHooks); the type makes the list complete. */
const HOOK_NAMES: Readonly<Record<keyof GatewayHooks, true>> = { onRequest: true, onResponse: true, onRetry: true, onFailover: true, onModelFallback: true, onFleet: true, onCache: true };

/** The client's `hooks`: a hook of another type was ignored in silence, and a misspelt one never called. */
export function checkHooks(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError('hooks', 'must be an object of hook functions, e.g. { onRetry: (e) => log(e) }');
  const names = Object.keys(HOOK_NAMES);
  for (const [name, hook] of Object.entries(value)) {
    if (!Object.hasOwn(HOOK_NAMES, name)) throw new ValidationError(`hooks.${name}`, `is not a hook: use ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`);
    if (hook !== undefined && typeof hook !== 'function') throw new ValidationError(`hooks.${name}`, `must be a function (got ${hook === null ? 'null' : typeof hook})`);
  }
}

/** The client's `telemetry`: anything with a `startCall` method (else every call would fail with a TypeError). */
export function checkTelemetry(value: unknown): void {
  if (value === undefined) return;
  if (typeof (value as { startCall?: unknown } | null)?.startCall !== 'function') {
    throw new ValidationError('telemetry', "must be openTelemetry() from 'unified-gateway/otel', or an object with a startCall(redactor) method");
  }
}

/** A call's cache mode (`RequestOptions.cache`; the AI SDK provider's `providerOptions.unifiedGateway.cache`). `undefined` passes: 'use'. */
export function checkCacheMode(field: string, value: unknown): void {
  if (value !== undefined && value !== 'use' && value !== 'refresh' && value !== 'bypass') throw new ValidationError(field, "must be 'use', 'refresh' or 'bypass'");
}

/** The per-request options, checked before anything is sent. */
export function checkRequestOptions(options: RequestOptions): void {
  checkNumber('timeout', options.timeout, 'ms');
  checkNumber('maxRetries', options.maxRetries, 'count');
  checkNumber('idleTimeout', options.idleTimeout, 'ms');
  checkNumber('totalTimeout', options.totalTimeout, 'ms');
  const { signal } = options;
  if (signal !== undefined && !(typeof signal === 'object' && signal !== null && typeof signal.addEventListener === 'function' && 'aborted' in signal)) {
    throw new ValidationError('signal', 'must be an AbortSignal (e.g. controller.signal)');
  }
  if (options.headers !== undefined) checkHeaders('headers', options.headers);
  checkCacheMode('cache', options.cache);
  if (options.fetchOptions !== undefined) checkFetchOptions('fetchOptions', options.fetchOptions);
  checkTags('tags', options.tags);
}

/** The client's `store`: an object with the four methods of `Store` (docs/fleet.md). */
export function checkStore(value: unknown): void {
  if (value === undefined) return;
  const store = value as Record<string, unknown> | null;
  if (typeof store !== 'object' || store === null || !['get', 'set', 'delete', 'take'].every((m) => typeof store[m] === 'function')) {
    throw new ValidationError('store', "must be memoryStore(), redisStore(...) from 'unified-gateway/redis', or an object with get, set, delete and take (docs/fleet.md)");
  }
}

/** The client's `limits`: positive rates per minute. */
export function checkLimits(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError('limits', 'must be an object { requestsPerMinute?, tokensPerMinute? }');
  for (const [name, rate] of Object.entries(value)) {
    if (name !== 'requestsPerMinute' && name !== 'tokensPerMinute') throw new ValidationError(`limits.${name}`, 'is not a limit: use requestsPerMinute or tokensPerMinute');
    if (rate !== undefined && !(typeof rate === 'number' && Number.isFinite(rate) && rate > 0)) throw new ValidationError(`limits.${name}`, 'must be a number above 0');
  }
}

/** The client's `cache`: `{ store?, ttl?, shareAcrossKeys? }`. */
export function checkCache(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError('cache', 'must be an object { store?, ttl?, shareAcrossKeys? }');
  const { store, ttl, shareAcrossKeys, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ValidationError(`cache.${unknown}`, 'is not a cache option: use store, ttl or shareAcrossKeys');
  if (store !== undefined) checkStore(store);
  checkNumber('cache.ttl', ttl, 'ms');
  if (shareAcrossKeys !== undefined && typeof shareAcrossKeys !== 'boolean') throw new ValidationError('cache.shareAcrossKeys', 'must be true or false');
}
