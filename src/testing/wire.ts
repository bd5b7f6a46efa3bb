/** Headers on every answer (set by {@link finish}), so the mock also serves browser tests across origins. */
const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-expose-headers': 'x-request-id, x-oneapi-request-id, retry-after, retry-after-ms, x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-mock-reasoning-lost',
};

/**
 * The OpenAI-compatible error body the gateway sends.
 * @example
 * errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
 * // { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }
 */
export function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** A JSON response with the mock's rate-limit headers; {@link finish} adds the rest. */
export function json(status: number, payload: unknown, id: number, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json', ...rateLimitHeaders(id), ...extra } });
}

/**
 * Gives an answer the headers every answer of the mock carries: the CORS set, `x-request-id`
 * and new-api's `X-Oneapi-Request-Id` (`requestId`, the id its consume log is found by).
 * Headers the answer already has win (a preflight's echoed `access-control-allow-headers`, a
 * `status` fault's own headers).
 */
export function finish(response: Response, id: number, requestId?: string): Response {
  const headers: Record<string, string> = { 'x-request-id': `req_mock_${id}`, ...(requestId !== undefined ? { 'x-oneapi-request-id': requestId } : {}), ...CORS };
  for (const [key, value] of Object.entries(headers)) if (!response.headers.has(key)) response.headers.set(key, value);
  return response;
}

/** The requests a mock serves in its (never resetting) window, for the x-ratelimit-* headers. */
const REQUEST_LIMIT = 10_000;

/** OpenAI-style rate-limit headers, so code that reads them (withResponse()) has something to read. */
function rateLimitHeaders(id: number): Record<string, string> {
  return { 'x-ratelimit-limit-requests': String(REQUEST_LIMIT), 'x-ratelimit-remaining-requests': String(Math.max(0, REQUEST_LIMIT - id)) };
}

/** The error fetch raises when a socket drops, so the SDK sees what it sees on the wire. */
export function connectionDropped(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
}
