import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  Gateway,
  GatewayError,
  InsufficientQuotaError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
  ValidationError,
} from '../../src/index.js';
import { BASE, chatParams, client, KEY, leaksKey } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { parseErrorBody } from '../../src/core/error-factory.js';

const server = useMswServer();
const url = `${BASE}/chat/completions`;
const noRetry = () => client({ maxRetries: 0 });

describe('error classes by status', () => {
  const cases: Array<[number, new (...a: never[]) => APIError]> = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, ServiceUnavailableError],
  ];
  it.each(cases)('maps %i to its class', async (status, Class) => {
    server.use(http.post(url, () => HttpResponse.json({ error: { message: 'nope', type: 'x', code: 'c' } }, { status })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Class);
    expect(err).toMatchObject({ status, code: 'c', type: 'x' });
  });

  it('maps 429 insufficient_quota to InsufficientQuotaError, a RateLimitError', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } }, { status: 429 })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientQuotaError);
    expect(err).toBeInstanceOf(RateLimitError);
  });

  it('falls back to APIError for unlisted statuses', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: { message: 'too big' } }, { status: 413 })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect(err).not.toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 413 });
  });
});

describe('error body shapes', () => {
  it('reads the full OpenAI shape, keeping status, headers, request id and Retry-After', async () => {
    const body = { error: { message: 'Bad temperature', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } };
    server.use(http.post(url, () => HttpResponse.json(body, { status: 400, headers: { 'x-request-id': 'req_42', 'retry-after': '3' } })));
    const err = (await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e)) as BadRequestError;
    expect(err).toMatchObject({ status: 400, code: 'invalid_value', type: 'invalid_request_error', param: 'temperature', requestID: 'req_42', retryAfterMs: 3000, error: body });
    expect(err.headers.get('x-request-id')).toBe('req_42');
    expect(err.message).toContain('Bad temperature');
    expect(err.message).toContain('POST http://gateway.test/v1/chat/completions');
  });

  it('reads the shape without param or code', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: { message: 'Server exploded', type: 'server_error' } }, { status: 500 })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 500, code: null, param: null, type: 'server_error', message: expect.stringContaining('Server exploded') });
  });

  it('reads the flat {code, message, data} shape', async () => {
    server.use(http.post(url, () => HttpResponse.json({ code: 'model_not_found', message: 'no such model', data: null }, { status: 404 })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ code: 'model_not_found', message: expect.stringContaining('no such model') });
  });

  it('handles an empty body (a rate limiter in front of the gateway)', async () => {
    server.use(http.post(url, () => new HttpResponse(null, { status: 429 })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ status: 429, code: null, error: undefined });
  });

  it('handles a non-JSON body', async () => {
    server.use(http.post(url, () => new HttpResponse('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err).toMatchObject({ error: '<html>Bad Gateway</html>' });
  });

  it('treats an error object inside a 200 as an error, classified by code', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } })));
    const err = await client().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientQuotaError);
    expect(err).toMatchObject({ status: 200 });
  });

  it('treats a flat error with a non-success code inside a 200 as an error', async () => {
    server.use(http.post(url, () => HttpResponse.json({ code: 'invalid_api_key', message: 'bad key', data: null })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
  });

  it('classifies by code, never by message text', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: { message: 'insufficient_quota rate limit', type: 'invalid_request_error', code: 'bad_param' } }, { status: 429 })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).not.toBeInstanceOf(InsufficientQuotaError);
  });
});

describe('what real gateways send (REALITIES.md)', () => {
  const fail = async (body: unknown, status: number, headers: Record<string, string> = {}) => {
    server.use(
      http.post(url, () =>
        typeof body === 'string' ? new HttpResponse(body, { status, headers: { 'content-type': 'text/html', ...headers } }) : HttpResponse.json(body as Record<string, unknown>, { status, headers }),
      ),
    );
    return (await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e)) as APIError;
  };

  it('reads a flat {status, message} body from a routing gateway', async () => {
    const err = await fail({ status: 'failure', message: 'Invalid config: no target for model' }, 400);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toContain('Invalid config: no target for model');
  });

  it('reads an {"html-message"} body, keeping the upstream text', async () => {
    const err = await fail({ 'html-message': '<html><body><h1>502 Bad Gateway</h1> upstream reset</body></html>' }, 500);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.message).toContain('502 Bad Gateway upstream reset');
    expect(err.message).not.toContain('<h1>');
  });

  it('quotes an unknown JSON body instead of saying "no body"', async () => {
    const err = await fail({ result: 'denied', reason: 'region blocked' }, 403);
    expect(err.message).toContain('region blocked');
    expect(err.message).not.toContain('no body');
  });

  it('quotes an HTML error page as text, at most about 300 characters', async () => {
    const page = `<html><head><title>504 Gateway Time-out</title><style>h1{}</style></head><body>${'<p>nginx is waiting</p>'.repeat(60)}</body></html>`;
    const err = await fail(page, 504);
    expect(err.message).toContain('504 Gateway Time-out');
    expect(err.message).not.toMatch(/<p>|h1\{/);
    expect(err.message.length).toBeLessThan(450);
    expect(err.error).toBe(page);
  });

  it('says "(no body)" only when there was none', async () => {
    server.use(http.post(url, () => new HttpResponse(null, { status: 429 })));
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^429 \(no body\)/);
  });

  it('reads code as a number, "" or null, and ignores an empty param', async () => {
    const err = await fail({ error: { message: 'upstream said no', type: 'upstream_error', param: '', code: 500 } }, 500);
    expect(err).toMatchObject({ code: '500', param: null, type: 'upstream_error' });
    const empty = await fail({ error: { message: 'm', type: 't', param: '404', code: '' } }, 400);
    expect(empty).toMatchObject({ code: null, param: '404' });
  });

  it.each([
    ['403 insufficient_user_quota', 403, { error: { message: 'user quota is not enough', type: 'new_api_error', code: 'insufficient_user_quota' } }, PermissionDeniedError],
    ['429 pre_consume_token_quota_failed', 429, { error: { message: 'quota', type: 'new_api_error', code: 'pre_consume_token_quota_failed' } }, InsufficientQuotaError],
    ['429 with type insufficient_quota and another code', 429, { error: { message: 'upstream load saturated', type: 'insufficient_quota', code: 'rate_limited' } }, InsufficientQuotaError],
  ])('classifies %s by status, and never retries it', async (_, status, body, Class) => {
    let calls = 0;
    server.use(
      http.post(url, () => {
        calls++;
        return HttpResponse.json(body, { status, headers: { 'retry-after': '0' } });
      }),
    );
    const err = await client({ maxRetries: 3 }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Class);
    expect(calls).toBe(1);
  });

  it('takes the request id from x-request-id, else x-oneapi-request-id, else the message suffix', async () => {
    const body = { error: { message: 'bad thing (request id: 2026112112345678)', type: 'x' } };
    expect((await fail(body, 400, { 'x-request-id': 'req_1', 'x-oneapi-request-id': 'one_1' })).requestID).toBe('req_1');
    expect((await fail(body, 400, { 'x-oneapi-request-id': 'one_1' })).requestID).toBe('one_1');
    expect((await fail(body, 400)).requestID).toBe('2026112112345678');
    expect((await fail({ error: { message: 'no id', type: 'x' } }, 400)).requestID).toBeNull();
  });
});

describe('the API key never leaks', () => {
  it('is removed from an error body that echoes it', async () => {
    server.use(
      http.post(url, ({ request }) =>
        HttpResponse.json(
          { error: { message: `Invalid key: ${request.headers.get('authorization')}`, type: 'invalid_request_error', code: 'invalid_api_key', param: KEY } },
          { status: 401, headers: { 'x-echo': KEY } },
        ),
      ),
    );
    const err = await noRetry().chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(leaksKey(err)).toBe(false);
    expect(String(err)).toContain('[REDACTED]');
  });

  it('is removed from connection errors raised by a custom fetch', async () => {
    const fetch = async () => {
      throw new TypeError(`connect failed for Bearer ${KEY}`);
    };
    const err = await client({ fetch, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(leaksKey(err)).toBe(false);
  });

  it('is not on the client object', () => {
    const c = client();
    expect(JSON.stringify(c)).not.toContain(KEY);
    expect(Object.values(c).map(String).join()).not.toContain(KEY);
  });
});

describe('error identity', () => {
  it('a GatewayError thrown by a custom fetch from another copy of the package (CJS beside ESM) reaches the caller as it is, not retried as a connection error', async () => {
    // A second instance of the errors module: the class a separately bundled entry carries.
    const copy = '../../src/core/errors.js?another-copy';
    const other = (await import(/* @vite-ignore */ copy)) as typeof import('../../src/core/errors.js');
    expect(other.GatewayError).not.toBe(GatewayError);
    let calls = 0;
    const thrown = new other.GatewayError('refused by the fetch itself');
    const fetch = async () => {
      calls++;
      throw thrown;
    };
    const err = await client({ fetch, maxRetries: 2 }).models.list().catch((e: unknown) => e);
    expect(err).toBe(thrown);
    expect(calls).toBe(1);
  });

  it('every error extends GatewayError and is exposed on Gateway', () => {
    for (const Class of [APIError, RateLimitError, APIConnectionError, APITimeoutError, ValidationError]) {
      expect(Object.create(Class.prototype)).toBeInstanceOf(GatewayError);
    }
    expect(Gateway.RateLimitError).toBe(RateLimitError);
    expect(Gateway.InsufficientQuotaError).toBe(InsufficientQuotaError);
    expect(Gateway.ServiceUnavailableError).toBe(ServiceUnavailableError);
    expect(Gateway.ValidationError).toBe(ValidationError);
  });

  it('isInstance recognises errors from another copy of the package by their marker', () => {
    const real = new APITimeoutError();
    const foreign = Object.assign(Object.create(Error.prototype) as object, {});
    for (const sym of Object.getOwnPropertySymbols(real)) Object.defineProperty(foreign, sym, { value: (real as unknown as Record<symbol, unknown>)[sym] });
    expect(APITimeoutError.isInstance(foreign)).toBe(true);
    expect(APIConnectionError.isInstance(foreign)).toBe(true);
    expect(GatewayError.isInstance(foreign)).toBe(true);
    expect(RateLimitError.isInstance(foreign)).toBe(false);
    expect(GatewayError.isInstance(new Error('x'))).toBe(false);
  });

  it('sets a literal name on each class', () => {
    expect(new APITimeoutError().name).toBe('APITimeoutError');
    expect(new ValidationError('temperature', 'must be between 0 and 2').message).toBe('Invalid temperature: must be between 0 and 2');
  });
});

describe('a huge message from the server', () => {
  it('is cut in the error message (the whole body stays on err.error)', () => {
    const message = 'x'.repeat(5_000_000);
    const parsed = parseErrorBody({ error: { message, type: 'invalid_request_error' } });
    expect(parsed.message?.length).toBeLessThanOrEqual(4_001);
    expect(parsed.type).toBe('invalid_request_error');
  });
});
