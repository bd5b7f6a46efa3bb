import { Gateway, type GatewayOptions } from '../../src/index.js';

export const KEY = 'sk-test-0123456789-secret';
export const BASE = 'http://gateway.test/v1';
export const BACKUP = 'http://backup.test/v1';

/**
 * `options` with retries paced at 0 ms unless they set `retry.baseDelayMs` themselves: the
 * default backoff (500 ms, doubling) would make every test that retries wait for real. A test
 * about backoff timing passes its own pacing, or builds its client with `new Gateway`.
 */
export function fastRetries<T extends GatewayOptions>(options: T): T {
  return { ...options, retry: { baseDelayMs: 0, ...options.retry } };
}

/** A client for msw-backed tests, on {@link BASE} with {@link KEY}, retries paced at 0 ms. */
export function client(options: GatewayOptions = {}): Gateway {
  return new Gateway(fastRetries({ apiKey: KEY, baseURL: BASE, ...options }));
}

export const chatParams = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello' }] };

export const completionFixture = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
};

/** Asserts nothing a user could print from `err` contains the key. */
export function leaksKey(err: unknown): boolean {
  const e = err as Error & Record<string, unknown>;
  const parts = [String(e), e.message, e.stack ?? '', JSON.stringify(e), String(e.cause ?? ''), JSON.stringify(e.error ?? null)];
  if (e.headers instanceof Headers) e.headers.forEach((v) => parts.push(v));
  return parts.some((p) => p.includes(KEY));
}
