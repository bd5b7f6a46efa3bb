import { lazy } from '../internal/lazy.js';
import { requestIDFrom } from '../internal/request-id.js';
import { anySignal } from '../internal/signals.js';
import type { CallState, PreparedRequest } from './call-state.js';
import { apiError, shownURL, transportError, type Exchange } from './exchange.js';
import type { AttemptInfo } from './hooks.js';
import { readResponse } from './response.js';
import type { AttemptObserver } from './telemetry.js';
import type { Answer } from './types.js';

// One HTTP attempt: the key, the per-attempt timeout, fetch, and redirects, then the
// response read by response.ts. Every failure leaves as a GatewayError; call.ts decides
// what happens next.

/** Redirect handling loads with the first redirect. */
const loadRedirects = lazy(() => import('./redirects.js'));

/** Statuses that redirect when they carry a Location header. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Sends one attempt and reads its response; resolves with the answer, or throws a GatewayError. */
export async function attempt(call: CallState, request: PreparedRequest, info: AttemptInfo, watch?: AttemptObserver): Promise<Answer> {
  if (request.signal?.aborted) throw call.stopped(request.signal, `${info.method} ${info.url}`);
  const { config } = call;
  const timer = new AbortController();
  const timeoutMs = call.options.timeout ?? config.timeout;
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  const ex: Exchange = { call, request, info, url: request.req.url ?? info.url, signal: anySignal(request.signal, timer.signal), timer, custom: config.fetch !== undefined, watch };
  try {
    const authorized = authorize(ex);
    const headers = authorized instanceof Promise ? await authorized : authorized;
    config.events.onRequest?.(info);
    const started = Date.now();
    const response = await fetchFollowingRedirects(ex, headers);
    config.events.onResponse?.({ ...info, url: shownURL(ex.url), status: response.status, durationMs: Date.now() - started, requestID: requestIDFrom(response.headers) });
    return await readResponse(ex, response);
  } finally {
    clearTimeout(timeout);
  }
}

/**
 * A copy of the request's headers with the key: per attempt, since a key function may
 * rotate it and a 303 rewrites the request. A promise only when a key function returns one
 * (no promise per request otherwise). Keys were checked when given (options.ts).
 */
function authorize(ex: Exchange): Record<string, string> | Promise<Record<string, string>> {
  // Trace context (with telemetry) for this attempt beside the request's own headers.
  const traced = ex.watch?.headers;
  const headers = traced ? { ...ex.request.headers, ...traced } : { ...ex.request.headers };
  if (headers.authorization !== undefined || ex.request.req.auth === false) return headers;
  const key = ex.call.config.apiKey();
  if (typeof key === 'string') {
    headers.authorization = `Bearer ${key}`;
    return headers;
  }
  return key.then((resolved) => {
    headers.authorization = `Bearer ${resolved}`;
    return headers;
  });
}

/**
 * Fetches, following redirects only as redirects.ts allows: fetch would drop the key on a
 * cross-origin hop (the request arrives unauthenticated) or carry it where it must not go.
 */
async function fetchFollowingRedirects(ex: Exchange, headers: Record<string, string>): Promise<Response> {
  const { config, options } = ex.call;
  // Read globalThis.fetch per call, not at construction, so polyfills and interceptors
  // installed later (msw, test stubs) are honoured.
  const fetchImpl = config.fetch ?? globalThis.fetch;
  const extra = options.fetchOptions ? { ...config.fetchOptions, ...options.fetchOptions } : config.fetchOptions;
  let method: string = ex.request.req.method;
  let sent: string | Blob | null = ex.request.body ?? null;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      const init: RequestInit = { ...extra, method, headers, body: sent, signal: ex.signal ?? null, redirect: 'manual' };
      // Inside the attempt's span, with telemetry: a fetch instrumentation's span is its child.
      response = await (ex.watch?.run ? ex.watch.run(() => fetchImpl(ex.url, init)) : fetchImpl(ex.url, init));
    } catch (error) {
      throw await transportError(ex, error);
    }
    if (!isRedirect(response)) return response;
    const at = { ...ex.info, url: ex.url, hop, method, sent, headers, download: ex.request.req.download === true };
    const next = await (await loadRedirects()).followRedirect(response, at, config, (r, payload, more) => apiError(ex, r, payload, more));
    ({ url: ex.url, method, sent } = next);
  }
}

/** A response that redirects: a 3xx with a Location, or a browser's opaque redirect. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (REDIRECT_STATUSES.has(response.status) && response.headers.has('location'));
}

export function joinURL(base: string, path: string): string {
  return `${base.endsWith('/') ? base.replace(/\/+$/, '') : base}/${path}`;
}
