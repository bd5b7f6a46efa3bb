import { APICallError } from '@ai-sdk/provider';
import { embedMany, generateText, streamText } from 'ai';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { InsufficientQuotaError, ServiceUnavailableError, ValidationError } from '../../src/index.js';
import { BACKUP, BASE, client, completionFixture, KEY, leaksKey } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { mockProvider } from './helpers.js';

const server = useMswServer();

describe('errors and retries', () => {
  it('makes exactly the client’s attempts against an always-503 gateway, not the AI SDK’s times the client’s', async () => {
    let attempts = 0;
    server.use(
      http.post(`${BASE}/chat/completions`, () => {
        attempts++;
        // The key echoed back, as some upstreams do: it must not reach the error.
        return HttpResponse.json({ error: { message: `unavailable for ${KEY}`, type: 'server_error', code: 'unavailable' } }, { status: 503 });
      }),
    );
    const gw = createUnifiedGateway({ client: client() });
    const error = await generateText({ model: gw('gpt-4o-mini'), prompt: 'x', maxRetries: 2 }).catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(503);
    expect(apiError.isRetryable).toBe(false);
    expect(apiError.url).toBe(`${BASE}/chat/completions`);
    expect(apiError.cause).toBeInstanceOf(ServiceUnavailableError);
    expect(apiError.responseBody).toContain('unavailable for');
    expect(apiError.requestBodyValues).toMatchObject({ model: 'gpt-4o-mini' });
    expect(leaksKey(apiError)).toBe(false);
    expect(apiError.responseBody?.includes(KEY)).toBe(false);
    expect(JSON.stringify(apiError.requestBodyValues).includes(KEY)).toBe(false);
  });

  it('never retries a quota error', async () => {
    let attempts = 0;
    server.use(
      http.post(`${BASE}/chat/completions`, () => {
        attempts++;
        return HttpResponse.json({ error: { message: 'out of credit', type: 'insufficient_quota', code: 'insufficient_quota' } }, { status: 429 });
      }),
    );
    const gw = createUnifiedGateway({ client: client() });
    const error = (await generateText({ model: gw('gpt-4o-mini'), prompt: 'x' }).catch((e: unknown) => e)) as APICallError;
    expect(attempts).toBe(1);
    expect(error.statusCode).toBe(429);
    expect(error.cause).toBeInstanceOf(InsufficientQuotaError);
  });

  it('fails a stream that cannot open with the same error, once', async () => {
    let attempts = 0;
    server.use(
      http.post(`${BASE}/chat/completions`, () => {
        attempts++;
        return HttpResponse.json({ error: { message: 'down' } }, { status: 503 });
      }),
    );
    const gw = createUnifiedGateway({ client: client() });
    const errors: unknown[] = [];
    const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'x', onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(attempts).toBe(3);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).cause).toBeInstanceOf(ServiceUnavailableError);
  });

  it('gives the URL of the last attempt, read from the error rather than from its message', async () => {
    server.use(
      http.post(`${BASE}/chat/completions`, () => HttpResponse.error()),
      // A server's message that quotes a request line of its own, as a proxy's may.
      http.post(`${BACKUP}/chat/completions`, () => HttpResponse.json({ error: { message: 'upstream failed (POST http://upstream.internal/v1/x)', type: 'server_error' } }, { status: 500 })),
    );
    const gw = createUnifiedGateway({ client: client({ backupBaseURL: BACKUP, maxRetries: 1 }) });
    const error = (await generateText({ model: gw('gpt-4o-mini'), prompt: 'x' }).catch((e: unknown) => e)) as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error.url).toBe(`${BACKUP}/chat/completions`);
    expect(error.cause).toMatchObject({ url: `${BACKUP}/chat/completions` });
  });

  it('fails bad arguments before sending, with the client’s ValidationError', async () => {
    const { gw, mock } = mockProvider();
    const error = await generateText({ model: gw('gpt-4o-mini'), prompt: 'x', temperature: 7 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(mock.requests).toHaveLength(0);
  });

  it('fails a file the chat endpoint cannot take before sending', async () => {
    const { gw, mock } = mockProvider();
    const error = await generateText({ model: gw('gpt-4o-mini'), messages: [{ role: 'user', content: [{ type: 'file', data: new Uint8Array([1]), mediaType: 'application/pdf' }] }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(mock.requests).toHaveLength(0);
  });

  it('fails over to the backup base URL', async () => {
    server.use(
      http.post(`${BASE}/chat/completions`, () => HttpResponse.error()),
      http.post(`${BACKUP}/chat/completions`, () => HttpResponse.json({ ...completionFixture, choices: [{ index: 0, message: { role: 'assistant', content: 'from the backup' }, finish_reason: 'stop' }] })),
    );
    const gw = createUnifiedGateway({ client: client({ backupBaseURL: BACKUP }) });
    const { text } = await generateText({ model: gw('gpt-4o-mini'), prompt: 'x' });
    expect(text).toBe('from the backup');
  });

  it('falls back to the next model, and says which model answered', async () => {
    const { gw, mock } = mockProvider({}, { fallbackModels: { 'gpt-4o': ['gpt-4o-mini'] } });
    mock.inject({ type: 'unavailable', path: 'chat/completions', times: 3 });
    const result = await generateText({ model: gw('gpt-4o'), prompt: 'x' });
    expect(result.text).toBe('You said: x');
    expect(result.response.modelId).toBe('gpt-4o-mini');
    expect(mock.requests.map((r) => (r.body as { model: string }).model)).toEqual(['gpt-4o', 'gpt-4o', 'gpt-4o', 'gpt-4o-mini']);
  });

  it('uses the fallback list given per call in provider options', async () => {
    const { gw, mock } = mockProvider();
    mock.inject({ type: 'unavailable', path: 'chat/completions', times: 3 });
    const result = await generateText({ model: gw('gpt-4o'), prompt: 'x', providerOptions: { unifiedGateway: { fallbackModels: ['gpt-4o-mini'] } } });
    expect(result.response.modelId).toBe('gpt-4o-mini');
  });

  it('does not multiply the attempts of embeddings either', async () => {
    const { gw, mock } = mockProvider();
    mock.inject({ type: 'server_error', path: 'embeddings', times: 10 });
    const error = (await embedMany({ model: gw.embeddingModel('text-embedding-3-small'), values: ['a', 'b'] }).catch((e: unknown) => e)) as APICallError;
    expect(mock.requests).toHaveLength(3);
    expect(error.statusCode).toBe(500);
  });
});
