import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { Gateway, ValidationError, type GatewayOptions } from '../../src/index.js';
import { BASE, chatParams, client, KEY } from '../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../helpers/msw.js';

const server = useMswServer();

/** The ValidationError `make` throws, checked to name `field` and to quote no secret. */
function refused(make: () => unknown, field: string, secret?: string): ValidationError {
  let caught: unknown;
  try {
    make();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  const err = caught as ValidationError;
  expect(err.field).toBe(field);
  if (secret) expect(`${err.message}${err.stack}${JSON.stringify(err)}`).not.toContain(secret);
  return err;
}

describe('new Gateway() refuses, at construction, what would only fail when sending', () => {
  it('a base URL with a user name and password, without quoting the password', () => {
    refused(() => new Gateway({ apiKey: KEY, baseURL: 'https://user:hunter22@gw.test/v1' }), 'baseURL', 'hunter22');
    refused(() => new Gateway({ apiKey: KEY, baseURL: BASE, backupBaseURL: 'https://u:hunter22@backup.test/v1' }), 'backupBaseURL', 'hunter22');
  });

  it('a base URL with a query or a fragment (paths would be appended after it)', () => {
    expect(refused(() => new Gateway({ apiKey: KEY, baseURL: 'https://gw.test/v1?tenant=a' }), 'baseURL').rule).toMatch(/query or fragment/);
    refused(() => new Gateway({ apiKey: KEY, baseURL: 'https://gw.test/v1#x' }), 'baseURL');
    refused(() => new Gateway({ apiKey: KEY, baseURL: 'https://gw.test/v1?' }), 'baseURL');
  });

  it('a key with a line break or a character beyond Latin-1, without quoting it', () => {
    refused(() => new Gateway({ apiKey: 'sk-abcdef\nX-Evil: 1', baseURL: BASE }), 'apiKey', 'sk-abcdef');
    refused(() => new Gateway({ apiKey: 'sk-abcdef…', baseURL: BASE }), 'apiKey', 'sk-abcdef');
  });

  it('a key of the wrong type, saying so (not "missing")', () => {
    const err = refused(() => new Gateway({ apiKey: 123 as unknown as string, baseURL: BASE }), 'apiKey');
    expect(err.rule).toMatch(/must be a string, or a function returning one \(got number\)/);
  });

  it('a default header name with a space, or a value with a line break', () => {
    refused(() => new Gateway({ apiKey: KEY, baseURL: BASE, defaultHeaders: { 'X Tenant': 'a' } }), 'defaultHeaders.X Tenant');
    refused(() => new Gateway({ apiKey: KEY, baseURL: BASE, defaultHeaders: { 'x-tenant': 'a\r\nb' } }), 'defaultHeaders.x-tenant');
  });

  it('a fetch that is not a function', () => {
    refused(() => new Gateway({ apiKey: KEY, baseURL: BASE, fetch: {} as unknown as typeof fetch }), 'fetch');
  });

  it('a hook that is not a function, an unknown hook name, and hooks that are not an object', () => {
    const make = (hooks: unknown) => () => new Gateway({ apiKey: KEY, baseURL: BASE, hooks: hooks as GatewayOptions['hooks'] });
    expect(refused(make({ onRequest: 'x' }), 'hooks.onRequest').rule).toMatch(/must be a function/);
    expect(refused(make({ onRequset: () => undefined }), 'hooks.onRequset').rule).toMatch(/is not a hook: use onRequest, onResponse, onRetry, onFailover, onModelFallback, onFleet or onCache/);
    // The logger's own event, not a hook: it was picked up from hooks and called.
    refused(make({ onGiveUp: () => undefined }), 'hooks.onGiveUp');
    refused(make('onRequest'), 'hooks');
    refused(make(null), 'hooks');
    expect(() => make({ onRequest: () => undefined, onRetry: undefined })()).not.toThrow();
    refused(() => client().withOptions({ hooks: { onRetry: 1 } as never }), 'hooks.onRetry');
  });

  it('maxRetries above 100, saying so', () => {
    expect(refused(() => new Gateway({ apiKey: KEY, baseURL: BASE, maxRetries: 1e9 }), 'maxRetries').rule).toMatch(/whole number from 0 to 100/);
    expect(new Gateway({ apiKey: KEY, baseURL: BASE, maxRetries: 100 }).maxRetries).toBe(100);
  });

  it('a fetchOptions.window other than null, and a fetchOptions field fetch refuses', () => {
    const make = (fetchOptions: unknown) => () => new Gateway({ apiKey: KEY, baseURL: BASE, fetchOptions: fetchOptions as GatewayOptions['fetchOptions'] });
    expect(refused(make({ window: {} }), 'fetchOptions.window').rule).toMatch(/only be null/);
    refused(make({ window: undefined, mode: 'navigate' }), 'fetchOptions.mode');
    refused(make({ credentials: 'always' }), 'fetchOptions.credentials');
    refused(make({ cache: 'sometimes' }), 'fetchOptions.cache');
    refused(make({ referrerPolicy: 'everything' }), 'fetchOptions.referrerPolicy');
    expect(() => make({ window: null, mode: 'cors', credentials: 'omit', cache: 'no-store', keepalive: true })()).not.toThrow();
  });
});

describe('a request refuses, before sending, what would escape as a raw TypeError or a retried connection error', () => {
  const rec = createRecorder();
  beforeEach(() => {
    rec.calls.length = 0;
  });
  const serve = () =>
    server.use(
      http.post(`${BASE}/chat/completions`, async ({ request }) => {
        await rec.record(request);
        return HttpResponse.json({});
      }),
    );

  it('a circular body', async () => {
    serve();
    const messages: Array<Record<string, unknown>> = [{ role: 'user', content: 'hi' }];
    (messages[0] as Record<string, unknown>).self = messages[0];
    const err = await client().chat.completions.create({ model: 'm', messages } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'body' });
    expect(rec.calls).toHaveLength(0);
  });

  it('a signal that is not an AbortSignal', async () => {
    serve();
    const err = await client().chat.completions.create(chatParams, { signal: {} as AbortSignal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', field: 'signal' });
    expect(rec.calls).toHaveLength(0);
  });

  it('a header name with a space', async () => {
    serve();
    const err = await client().chat.completions.create(chatParams, { headers: { 'X Tenant': 'a' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', field: 'headers.X Tenant' });
    expect(rec.calls).toHaveLength(0);
  });

  it('a fetchOptions.window (fetch throws on it at once, which was retried as a connection error)', async () => {
    serve();
    const err = await client().chat.completions.create(chatParams, { fetchOptions: { window: {} } as never }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', field: 'fetchOptions.window' });
    expect(rec.calls).toHaveLength(0);
    expect(await client().chat.completions.create(chatParams, { fetchOptions: { window: null } })).toEqual({});
  });

  it('maxRetries above 100', async () => {
    serve();
    const err = await client().chat.completions.create(chatParams, { maxRetries: 101 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', field: 'maxRetries' });
    expect(rec.calls).toHaveLength(0);
  });

  it('a key function that returns a key with a line break: once, not retried', async () => {
    serve();
    const err = await client({ apiKey: () => 'sk-rotated-0001\n' + 'x' }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(String(err)).not.toContain('sk-rotated-0001');
    expect(rec.calls).toHaveLength(0);
  });
});

describe('telemetry', () => {
  it('leaves a call unwatched when startCall returns something that is not an object, rather than failing it', async () => {
    server.use(http.post(`${BASE}/chat/completions`, () => HttpResponse.json({ id: 'c' })));
    for (const returned of [5, 'observer', true, null, undefined]) {
      const telemetry = { startCall: () => returned } as unknown as GatewayOptions['telemetry'];
      expect(await client({ telemetry }).chat.completions.create(chatParams)).toEqual({ id: 'c' });
    }
  });

  it('leaves a call unwatched when startCall throws: telemetry never fails the caller (STYLE.md 17)', async () => {
    server.use(http.post(`${BASE}/chat/completions`, () => HttpResponse.json({ id: 'c' })));
    const telemetry = {
      startCall: () => {
        throw new Error('a broken tracer');
      },
    } as unknown as GatewayOptions['telemetry'];
    expect(await client({ telemetry }).chat.completions.create(chatParams)).toEqual({ id: 'c' });
  });
});
