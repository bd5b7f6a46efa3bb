import { afterEach, expect, it, vi } from 'vitest';
import { APITimeoutError, Gateway } from '../../src/index.js';

// A user's own tests with fake timers: an attempt's `timeout` fires when the fake clock passes
// it, whichever timers are faked (the busy-loop patience of internal/patient-timeout.ts must
// not read a clock moved by hand as a busy event loop).

afterEach(() => {
  vi.useRealTimers();
});

type Faked = NonNullable<Parameters<typeof vi.useFakeTimers>[0]>['toFake'];

it.for<[string, Faked]>([
  ['the defaults', undefined],
  ['setTimeout alone', ['setTimeout', 'clearTimeout']],
  ['setTimeout and Date', ['setTimeout', 'clearTimeout', 'Date']],
  ['all but performance', ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date']],
])('a hung attempt times out when fake timers (%s) pass its timeout', async ([, toFake]) => {
  vi.useFakeTimers(toFake ? { toFake } : undefined);
  let fetched = 0;
  const hanging = (_: unknown, init?: RequestInit) => {
    fetched++;
    return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
  };
  const client = new Gateway({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', fetch: hanging, maxRetries: 0, logLevel: 'off' });
  const outcome = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, { timeout: 5_000 }).catch((e: unknown) => e);
  for (let i = 0; i < 200 && fetched === 0; i++) await vi.advanceTimersByTimeAsync(0);
  expect(fetched).toBe(1);
  await vi.advanceTimersByTimeAsync(5_001);
  expect(await outcome).toBeInstanceOf(APITimeoutError);
});
