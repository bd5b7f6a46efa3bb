import { requestIDFrom } from '../../internal/request-id.js';
import { patientTimeout } from '../../internal/patient-timeout.js';
import { anySignal } from '../../internal/signals.js';
import type { CallState, PreparedRequest } from './call-state.js';
import type { AttemptInfo } from '../hooks.js';
import type { AttemptObserver } from '../telemetry.js';
import { followRedirect, isRedirect, type Hop } from './redirects.js';
import { readResponse } from './response.js';
import { notAResponse } from '../error-factory.js';
import { shownURL, transportError, where, type AttemptContext } from './transport.js';
import type { Reply } from '../types.js';

/**
 * One HTTP attempt: the key, the per-attempt timeout, `fetch` (redirects followed only as
 * redirects.ts allows: fetch would drop the key on a cross-origin hop, or carry it where it
 * must not go), then the response read by response.ts. Every failure leaves as a
 * GatewayError; sendRequest (call.ts) decides what happens next.
 */
export async function attempt(call: CallState, request: PreparedRequest, info: AttemptInfo, telemetry: AttemptObserver | undefined): Promise<Reply> {
  if (call.signal?.aborted) throw call.stopped(`${info.method} ${info.url}`);
  const { config, options } = call;
  const timer = new AbortController();
  // A timer that fires late because the event loop was busy gives an answer that came meanwhile its turn first.
  const cancelTimeout = patientTimeout(() => timer.abort(), options.timeout ?? config.timeout);
  const ctx: AttemptContext = { call, request, info, url: call.url ?? info.url, signal: anySignal(call.signal, timer.signal), timer };
  try {
    // Read per call, not at construction, so polyfills and interceptors installed later (msw, test stubs) are honoured.
    const fetch = config.fetch ?? globalThis.fetch;
    const init = options.fetchOptions ? { ...config.fetchOptions, ...options.fetchOptions } : config.fetchOptions;
    let hop: Hop = { url: ctx.url, method: info.method, body: request.body ?? null, headers: await authorize(call, request, telemetry?.headers), count: 0 };
    config.events.onRequest?.(info);
    const started = Date.now();
    for (;;) {
      let response: Response;
      try {
        const sent = { ...init, method: hop.method, headers: hop.headers, body: hop.body, signal: ctx.signal ?? null, redirect: 'manual' } as const;
        // Inside the attempt's trace context (telemetry), so an instrumented fetch's span is its child.
        response = await (telemetry?.run ? telemetry.run(() => fetch(hop.url, sent)) : fetch(hop.url, sent));
      } catch (error) {
        throw transportError(ctx, error);
      }
      // Final, not a connection error: the same fetch would answer the same way on every retry.
      if (!isResponse(response)) throw notAResponse(response, config.fetch !== undefined, where(ctx));
      if (!isRedirect(response)) {
        config.events.onResponse?.({ ...info, url: shownURL(hop.url), status: response.status, durationMs: Date.now() - started, requestID: requestIDFrom(response.headers) });
        return await readResponse(ctx, response);
      }
      hop = followRedirect(ctx, response, hop);
      ctx.url = hop.url;
    }
  } finally {
    cancelTimeout();
  }
}

/**
 * The request's headers with the key, per attempt: a key function may rotate it. Trace
 * context (with telemetry) is added beside the request's own headers. Keys were checked when
 * given (options.ts).
 */
async function authorize(call: CallState, request: PreparedRequest, traced: Record<string, string> | undefined): Promise<Record<string, string>> {
  const headers = traced ? { ...request.headers, ...traced } : { ...request.headers };
  if (headers.authorization !== undefined || !call.auth) return headers;
  const key = call.config.apiKey();
  headers.authorization = `Bearer ${typeof key === 'string' ? key : await key}`;
  return headers;
}

/**
 * What the SDK reads of a Response, checked by shape (not `instanceof`): a custom fetch may
 * return another implementation's (node-fetch, undici's own).
 */
function isResponse(value: unknown): value is Response {
  const r = value as Partial<Response> | null | undefined;
  return typeof r?.status === 'number' && typeof r.headers?.get === 'function' && typeof r.text === 'function';
}

export function joinURL(base: string, path: string): string {
  return `${base.endsWith('/') ? base.replace(/\/+$/, '') : base}/${path}`;
}
