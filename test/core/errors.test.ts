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
