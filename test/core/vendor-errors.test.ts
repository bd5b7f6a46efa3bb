import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/index.js';
import { parseErrorBody } from '../../src/core/error-factory.js';
import { BASE, chatParams, client, KEY, leaksKey } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';

// Vendor error shapes relayed by a gateway become readable messages with their cause
// (shared/design/REALITIES.md, "Models that differ"), the key removed as everywhere.

const server = useMswServer();
const url = `${BASE}/chat/completions`;
const answer = (body: unknown, status = 400) => server.use(http.post(url, () => HttpResponse.json(body as never, { status })));
const call = () => client({ maxRetries: 0 }).chat.completions.create(chatParams).catch((e: unknown) => e);

const geminiArray = [{ error: { code: 400, message: 'Function call is missing a thought_signature in functionCall parts.', status: 'INVALID_ARGUMENT' } }];

describe('Gemini: an array of error objects', () => {
  it('reads the first error’s message and status, not the raw JSON', async () => {
    answer(geminiArray);
    const err = await call();
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toMatchObject({ status: 400, type: 'INVALID_ARGUMENT', error: geminiArray });
    expect((err as Error).message).toBe('400 Function call is missing a thought_signature in functionCall parts. (POST http://gateway.test/v1/chat/completions)');
  });

  it('counts the others', () => {
    expect(parseErrorBody([...geminiArray, { error: { message: 'second' } }]).message).toBe('Function call is missing a thought_signature in functionCall parts. (and 1 more errors)');
  });
});

describe('OpenRouter: "Provider returned error" with the cause in error.metadata.raw', () => {
  it('adds the provider and its own message (raw as JSON text), without repeating the status as a code', async () => {
    answer({ error: { message: 'Provider returned error', code: 400, metadata: { raw: JSON.stringify(geminiArray), provider_name: 'Google AI Studio' } } });
    const err = await call();
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as Error).message).toBe('400 Provider returned error (Google AI Studio: Function call is missing a thought_signature in functionCall parts.) (POST http://gateway.test/v1/chat/completions)');
  });

  it.each([
    ['raw as text', { raw: 'upstream said no', provider_name: 'Anthropic' }, 'Provider returned error (Anthropic: upstream said no)'],
    ['raw as an object', { raw: { error: { type: 'invalid_request_error', message: 'messages.1.content.0.type: Expected `thinking`' } } }, 'Provider returned error (messages.1.content.0.type: Expected `thinking`)'],
    ['raw as text that only looks like JSON', { raw: '{not json', provider_name: 'X' }, 'Provider returned error (X: {not json)'],
    ['no raw', { provider_name: 'DeepInfra' }, 'Provider returned error (DeepInfra)'],
    ['metadata not an object', 'junk', 'Provider returned error'],
  ])('%s', (_name, metadata, message) => {
    expect(parseErrorBody({ error: { message: 'Provider returned error', code: 400, metadata } }).message).toBe(message);
  });

  it('removes the key from the cause, and cuts the whole message at 4,000 characters', async () => {
    answer({ error: { message: 'Provider returned error', code: 400, metadata: { raw: JSON.stringify({ error: { message: `bad key ${KEY} ${'x'.repeat(10_000)}` } }), provider_name: 'P' } } });
    const err = await call();
    expect(leaksKey(err)).toBe(false);
    expect((err as Error).message).toContain('Provider returned error (P: bad key [REDACTED] xxx');
    expect((err as Error).message.length).toBeLessThan(4_200);
  });

  it('reads a body and three nested in it, and quotes a deeper one as text', () => {
    let raw: unknown = 'deepest';
    for (let i = 0; i < 6; i++) raw = JSON.stringify({ error: { message: `level ${i}`, metadata: { raw } } });
    expect(parseErrorBody(JSON.parse(raw as string)).message).toMatch(/^level 5 \(level 4 \(level 3 \(level 2 \(\{"error":\{"message":"level 1"/);
  });

  it('quotes a raw too long to read as JSON', () => {
    const raw = JSON.stringify({ error: { message: 'inner' }, pad: 'x'.repeat(200_000) });
    expect(parseErrorBody({ error: { message: 'Provider returned error', metadata: { raw } } }).message).toMatch(/^Provider returned error \(\{"error":\{"message":"inner"\},"pad":"xxx.*…\)$/);
  });
});
