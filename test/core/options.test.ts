import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APITimeoutError, APIUserAbortError, Gateway, InternalServerError, memoryStore, RateLimitError, type RetryInfo, ValidationError } from '../../src/index.js';
import { BACKUP, BASE, chatParams, completionFixture } from '../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const modelsURL = `${BASE}/models`;
const list = { object: 'list', data: [] };
const make = (options: ConstructorParameters<typeof Gateway>[0] = {}) => new Gateway({ apiKey: 'static-key-0001', baseURL: BASE, ...options });

/** Answers each request with the next status (the last repeats), recording it. */
function statuses(url: string, codes: number[], headers: Record<string, string> = { 'retry-after': '0' }) {
  const rec = createRecorder();
  server.use(
    http.all(url, async ({ request }) => {
      await rec.record(request);
      const code = codes[Math.min(rec.calls.length - 1, codes.length - 1)] ?? 200;
      return code === 200 ? HttpResponse.json(request.method === 'GET' ? list : completionFixture) : HttpResponse.json({ error: { message: `status ${code}` } }, { status: code, headers });
    }),
  );
  return rec;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('apiKey as a function', () => {
  it('is called for every attempt, so a rotating token is fresh on the retry (sync or async)', async () => {
    const rec = statuses(modelsURL, [503, 200]);
    let n = 0;
    await make({ apiKey: async () => `async-key-000${++n}` }).models.list();
    expect(rec.calls.map((c) => c.headers.authorization)).toEqual(['Bearer async-key-0001', 'Bearer async-key-0002']);
    const sync = statuses(modelsURL, [200]);
    await make({ apiKey: () => 'sync-key-0001' }).models.list();
    expect(sync.calls[0]?.headers.authorization).toBe('Bearer sync-key-0001');
  });

  it('redacts every key it returned from errors', async () => {
    server.use(http.get(modelsURL, ({ request }) => HttpResponse.json({ error: { message: `bad ${request.headers.get('authorization')}` } }, { status: 400 })));
    const err = await make({ apiKey: () => 'returned-secret-key-42' }).models.list().catch((e: unknown) => e);
    expect(String(err)).toContain('[REDACTED]');
    expect(JSON.stringify(err) + String(err) + (err as Error).stack).not.toContain('returned-secret-key-42');
  });

  it('fails clearly when the function gives no key, and lets its own errors through', async () => {
    statuses(modelsURL, [200]);
    await expect(make({ apiKey: () => '' }).models.list()).rejects.toThrow(/'apiKey' function returned no key/);
    const own = new Error('vault unreachable');
    await expect(
      make({
        apiKey: () => {
          throw own;
        },
      }).models.list(),
    ).rejects.toBe(own);
  });
});

describe('retry pacing', () => {
  it('uses baseDelayMs, maxDelayMs and jitter as given', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const rec = statuses(modelsURL, [500, 500, 500, 200], {});
    const done = make({ maxRetries: 3, retry: { baseDelayMs: 100, maxDelayMs: 150, jitter: 0.5 } }).models.list();
    // Pauses: 100 * 0.5 = 50, then min(200, 150) * 0.5 = 75, then 75.
    await vi.advanceTimersByTimeAsync(49);
    expect(rec.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(rec.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(75);
    expect(rec.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(75);
    await done;
    expect(rec.calls).toHaveLength(4);
  });

  it('fails at once when Retry-After exceeds maxRetryAfterMs', async () => {
    const rec = statuses(modelsURL, [429, 200], { 'retry-after': '5' });
    const err = await make({ retry: { maxRetryAfterMs: 1_000 } }).models.list().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, retryAfterMs: 5_000 });
    expect(rec.calls).toHaveLength(1);
  });

  it.each([
    [{ jitter: 1.5 }, 'retry.jitter'],
    [{ baseDelayMs: -1 }, 'retry.baseDelayMs'],
    [{ maxRetryAfterMs: Number.NaN }, 'retry.maxRetryAfterMs'],
  ])('rejects %o at construction', (retry, field) => {
    expect(() => make({ retry })).toThrow(expect.objectContaining({ field }) as Error);
  });
});

describe('fetchOptions', () => {
  it('merges client and request fetchOptions into every fetch, the request winning key by key', async () => {
    const inits: RequestInit[] = [];
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      inits.push(init ?? {});
      return Response.json(list);
    };
    const dispatcher = { dispatch: () => true };
    const c = make({ fetch, fetchOptions: { cache: 'no-store', keepalive: true, dispatcher } });
    await c.models.list();
    await c.models.list({ fetchOptions: { keepalive: false, priority: 'high' } });
    expect(inits[0]).toMatchObject({ cache: 'no-store', keepalive: true, dispatcher });
    expect(inits[1]).toMatchObject({ cache: 'no-store', keepalive: false, priority: 'high', dispatcher });
  });

  it('never lets fetchOptions replace the method, body, signal or redirect policy', async () => {
    const inits: RequestInit[] = [];
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      inits.push(init ?? {});
      return Response.json(completionFixture);
    };
    const sneaky = { method: 'GET', body: 'x', redirect: 'follow', signal: null } as never;
    await make({ fetch, fetchOptions: sneaky }).chat.completions.create(chatParams);
    expect(inits[0]).toMatchObject({ method: 'POST', redirect: 'manual', body: JSON.stringify(chatParams) });
    expect(inits[0]?.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('totalTimeout', () => {
  it('bounds every attempt and pause of a call with APITimeoutError', async () => {
    vi.useFakeTimers();
    const rec = statuses(modelsURL, [503], {});
    const done = make({ maxRetries: 10, retry: { baseDelayMs: 1_000, maxDelayMs: 1_000, jitter: 0 } }).models.list({ totalTimeout: 2_500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_499);
    expect(rec.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    const err = await done;
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toMatch(/did not complete within totalTimeout \(2500 ms\)/);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(rec.calls).toHaveLength(3);
  });

  it('is told apart from the caller aborting', async () => {
    statuses(modelsURL, [503], { 'retry-after': '30' });
    const controller = new AbortController();
    let paused!: (info: RetryInfo) => void;
    const pausing = new Promise<RetryInfo>((resolve) => (paused = resolve));
    const done = make({ hooks: { onRetry: (info) => paused(info) } }).models.list({ totalTimeout: 60_000, signal: controller.signal }).catch((e: unknown) => e);
    // The caller aborts during the 30 s pause before the retry, inside the call's budget.
    expect((await pausing).delayMs).toBe(30_000);
    controller.abort();
    expect(await done).toBeInstanceOf(APIUserAbortError);
  });

  it('is validated like the other durations', async () => {
    await expect(make().models.list({ totalTimeout: 0 })).rejects.toMatchObject({ name: 'ValidationError', field: 'totalTimeout' });
  });
});

describe('withOptions', () => {
  it('derives a client with some options changed and the rest kept', async () => {
    const rec = statuses(modelsURL, [200]);
    const base = make({ defaultHeaders: { 'x-team': 'a' }, maxRetries: 4 });
    const derived = base.withOptions({ timeout: 1_234 });
    expect([derived.timeout, derived.maxRetries, derived.baseURL]).toEqual([1_234, 4, BASE]);
    await derived.models.list();
    expect(rec.calls[0]?.headers).toMatchObject({ 'x-team': 'a', authorization: 'Bearer static-key-0001' });
  });

  it('shares the failover health: a base found down by one client is avoided by the other', async () => {
    const main = createRecorder();
    server.use(http.all(modelsURL, async ({ request }) => (await main.record(request), HttpResponse.error())));
    const backup = statuses(`${BACKUP}/models`, [200]);
    const first = make({ backupBaseURL: BACKUP });
    const derived = first.withOptions({ maxRetries: 0 });
    // Two connection failures in a row, with no answer from the main between them: down (docs/fleet.md).
    await first.models.list();
    await first.models.list();
    expect([main.calls.length, backup.calls.length]).toEqual([2, 2]);
    await derived.models.list();
    expect([main.calls.length, backup.calls.length]).toEqual([2, 3]);
  });

  it('takes an option given as undefined as not given: withOptions({ store: undefined, cache: undefined }) keeps sharing', async () => {
    statuses(modelsURL, [200]);
    const parent = make({ store: memoryStore(), cache: {}, timeout: 1_234, limits: { requestsPerMinute: 60 }, retry: { maxRetryAfterMs: 0 } });
    await parent.models.list();
    // One request a second for both: the derived client's share is already spent, nothing is sent.
    const derived = parent.withOptions({ store: undefined, cache: undefined, timeout: undefined });
    await expect(derived.models.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(derived.timeout).toBe(1_234);
  });

  it('validates the new options', () => {
    expect(() => make().withOptions({ timeout: -1 })).toThrow(ValidationError);
    expect(() => make().withOptions({ logLevel: 'loud' as never })).toThrow(ValidationError);
  });
});

describe('totalTimeout and Retry-After', () => {
  it('refuses at once with RateLimitError and retryAfterMs when the server asks for a wait longer than the time left', async () => {
    vi.useFakeTimers();
    const rec = statuses(modelsURL, [429, 200], { 'retry-after': '5' });
    let settled: unknown;
    void make()
      .models.list({ totalTimeout: 2_000 })
      .catch((e: unknown) => (settled = e));
    // No time passes: the call does not wait 5 s only to time out at 2 s (API.md, "Client options").
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBeInstanceOf(RateLimitError);
    expect(settled).not.toBeInstanceOf(APITimeoutError);
    expect(settled).toMatchObject({ status: 429, retryAfterMs: 5_000 });
    expect(rec.calls).toHaveLength(1);
  });

  it('gives up on its own backoff past totalTimeout with APITimeoutError', async () => {
    vi.useFakeTimers();
    const rec = statuses(modelsURL, [503, 503, 200], {});
    let settled: unknown;
    void make({ retry: { baseDelayMs: 5_000, jitter: 0 } })
      .models.list({ totalTimeout: 2_000 })
      .catch((e: unknown) => (settled = e));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBeInstanceOf(APITimeoutError);
    expect((settled as Error).cause).toBeInstanceOf(InternalServerError);
    expect(rec.calls).toHaveLength(1);
  });

  it('says why it gave up in the log: the wait the server asked for is past totalTimeout', async () => {
    vi.useFakeTimers();
    statuses(modelsURL, [503, 200], { 'retry-after': '5' });
    const lines: string[] = [];
    const logger = { error: () => {}, warn: (l: string) => lines.push(l), info: () => {}, debug: () => {} };
    const client = make({ logger, logLevel: 'warn' });
    const settled = client.models.list({ totalTimeout: 2_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    // The server's own error (a 503 is not a rate limit), with the wait it asked for.
    expect(await settled).toMatchObject({ status: 503, retryAfterMs: 5_000 });
    // Written as the call gives up, before it rejects.
    expect(lines.join('\n')).toMatch(/past its totalTimeout/);
  });
});
