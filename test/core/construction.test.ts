import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Gateway, ValidationError } from '../../src/index.js';
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
});

describe('a request refuses, before sending, what would escape as a raw TypeError or a retried connection error', () => {
  const rec = createRecorder();
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

  it('a key function that returns a key with a line break: once, not retried', async () => {
    serve();
    const err = await client({ apiKey: () => 'sk-rotated-0001\n' + 'x' }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(String(err)).not.toContain('sk-rotated-0001');
    expect(rec.calls).toHaveLength(0);
  });
});
