import { http, HttpResponse, delay } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  Gateway,
  GatewayError,
  InsufficientQuotaError,
  InternalServerError,
  RateLimitError,
  type RetryInfo,
  ValidationError,
} from '../../src/index.js';
import { backoffMs as computeBackoff } from '../../src/core/policy/waits.js';
import { parseRetryAfter, retryDefaults } from '../../src/core/policy/waits.js';
import { BACKUP, BASE, chatParams, client, completionFixture, KEY } from '../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../helpers/msw.js';

const server = useMswServer();
const chatURL = `${BASE}/chat/completions`;
const modelsURL = `${BASE}/models`;
const list = { object: 'list', data: [] };

/** Answers with each response in turn, recording every request. */
function sequence(url: string, method: 'get' | 'post', responses: Array<() => Response>) {
  const rec = createRecorder();
  server.use(
    http[method](url, async ({ request }) => {
      await rec.record(request);
      const next = responses[Math.min(rec.calls.length - 1, responses.length - 1)] as () => Response;
      return next();
    }),
  );
  return rec;
}

const status = (s: number, headers: Record<string, string> = {}) => () => HttpResponse.json({ error: { message: `status ${s}`, type: 'x' } }, { status: s, headers });
const ok = (body: object = completionFixture) => () => HttpResponse.json(body as Record<string, unknown>);

// Retries are paced by Retry-After: 0 so the tests do not wait for real backoff.
const fast = { 'retry-after': '0' };

afterEach(() => {
  vi.useRealTimers();
});

describe('request basics', () => {
  it('sends the bearer key, JSON content type and the body as given', async () => {
    const rec = sequence(chatURL, 'post', [ok()]);
    await client().chat.completions.create({ ...chatParams, temperature: 0.5 });
    const call = rec.calls[0];
    expect(call?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual({ ...chatParams, temperature: 0.5 });
  });

  it('merges defaultHeaders and per-request headers, per-request winning', async () => {
    const rec = sequence(modelsURL, 'get', [ok(list)]);
    await client({ defaultHeaders: { 'x-team': 'a', 'x-env': 'prod' } }).models.list({ headers: { 'x-team': 'b' } });
    expect(rec.calls[0]?.headers).toMatchObject({ 'x-team': 'b', 'x-env': 'prod' });
  });

  it('does not send an Idempotency-Key on GET', async () => {
    const rec = sequence(modelsURL, 'get', [ok(list)]);
    await client().models.list();
    expect(rec.calls[0]?.headers['idempotency-key']).toBeUndefined();
  });
});

describe('retries', () => {
  it.each([408, 409, 429, 500, 502, 503, 504])('retries a POST after %i and succeeds', async (s) => {
    const rec = sequence(chatURL, 'post', [status(s, fast), ok()]);
    const res = await client().chat.completions.create(chatParams);
    expect(res.id).toBe('chatcmpl-1');
    expect(rec.calls).toHaveLength(2);
  });

  it('keeps one Idempotency-Key across every attempt of a POST', async () => {
    const rec = sequence(chatURL, 'post', [status(500, fast), status(503, fast), ok()]);
    await client().chat.completions.create(chatParams);
    const keys = rec.calls.map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^ug-[0-9a-f-]{36}$/);
  });

  it('uses a fresh Idempotency-Key for each logical request, or the caller’s own', async () => {
    const rec = sequence(chatURL, 'post', [ok()]);
    await client().chat.completions.create(chatParams);
    await client().chat.completions.create(chatParams);
    await client().chat.completions.create(chatParams, { headers: { 'Idempotency-Key': 'mine' } });
    expect(rec.calls[0]?.headers['idempotency-key']).not.toBe(rec.calls[1]?.headers['idempotency-key']);
    expect(rec.calls[2]?.headers['idempotency-key']).toBe('mine');
  });

  it('gives up after maxRetries retries with the last error', async () => {
    const rec = sequence(chatURL, 'post', [status(500, fast)]);
    const err = await client({ maxRetries: 3 }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(rec.calls).toHaveLength(4);
  });

  it('lets a request override maxRetries', async () => {
    const rec = sequence(chatURL, 'post', [status(500, fast)]);
    await client({ maxRetries: 5 }).chat.completions.create(chatParams, { maxRetries: 0 }).catch(() => undefined);
    expect(rec.calls).toHaveLength(1);
  });

  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
  ])('never retries %i', async (s, Class) => {
    const rec = sequence(chatURL, 'post', [status(s, fast), ok()]);
    await expect(client().chat.completions.create(chatParams)).rejects.toBeInstanceOf(Class);
    expect(rec.calls).toHaveLength(1);
  });

  it('never retries 429 insufficient_quota', async () => {
    const quota = () => HttpResponse.json({ error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } }, { status: 429, headers: fast });
    const rec = sequence(chatURL, 'post', [quota, ok()]);
    await expect(client().chat.completions.create(chatParams)).rejects.toBeInstanceOf(InsufficientQuotaError);
    expect(rec.calls).toHaveLength(1);
  });

  it('retries connection errors', async () => {
    const rec = sequence(chatURL, 'post', [() => HttpResponse.error(), ok()]);
    const hooks = { onRetry: vi.fn<(e: RetryInfo) => void>() };
    await client({ hooks }).chat.completions.create(chatParams);
    expect(rec.calls).toHaveLength(2);
    expect(hooks.onRetry.mock.calls[0]?.[0]).toMatchObject({ attempt: 1, status: null, error: expect.any(APIConnectionError) });
  });

  it('reports each retry to onRetry with attempt, base URL, status and delay', async () => {
    sequence(chatURL, 'post', [status(429, { 'retry-after-ms': '5' }), ok()]);
    const events: RetryInfo[] = [];
    await client({ hooks: { onRetry: (e) => events.push(e) } }).chat.completions.create(chatParams);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ attempt: 1, baseURL: BASE, status: 429, delayMs: 5, nextBaseURL: BASE, method: 'POST', url: chatURL });
    expect(events[0]?.error).toBeInstanceOf(RateLimitError);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it('calls onRequest and onResponse for every attempt', async () => {
    sequence(chatURL, 'post', [status(500, fast), ok()]);
    const onRequest = vi.fn();
    const onResponse = vi.fn();
    await client({ hooks: { onRequest, onResponse } }).chat.completions.create(chatParams);
    expect(onRequest.mock.calls.map((c) => (c[0] as { attempt: number }).attempt)).toEqual([1, 2]);
    expect(onResponse.mock.calls.map((c) => (c[0] as { status: number }).status)).toEqual([500, 200]);
  });

  it('surfaces an exception thrown by a hook instead of swallowing it', async () => {
    const onRequest = () => {
      throw new Error('hook bug');
    };
    const rec = sequence(chatURL, 'post', [ok()]);
    const err = await client({ hooks: { onRequest } }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('hook bug');
    expect(GatewayError.isInstance(err)).toBe(false);
    expect(rec.calls).toHaveLength(0);
  });
});

describe('backoff timing (fake timers)', () => {
  it('waits with exponential backoff between retries', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter
    const rec = sequence(chatURL, 'post', [status(500), status(500), ok()]);
    // The default pacing, not the helper's 0 ms.
    const done = new Gateway({ apiKey: KEY, baseURL: BASE }).chat.completions.create(chatParams);
    await vi.advanceTimersByTimeAsync(0);
    expect(rec.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(rec.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(rec.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(rec.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toMatchObject({ id: 'chatcmpl-1' });
    expect(rec.calls).toHaveLength(3);
  });

  it('honours Retry-After in seconds', async () => {
    vi.useFakeTimers();
    const rec = sequence(chatURL, 'post', [status(429, { 'retry-after': '2' }), ok()]);
    const done = client().chat.completions.create(chatParams);
    await vi.advanceTimersByTimeAsync(1999);
    expect(rec.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(rec.calls).toHaveLength(2);
  });

  it('aborts during a backoff pause at once, with no further attempt', async () => {
    vi.useFakeTimers();
    const rec = sequence(chatURL, 'post', [status(503, { 'retry-after': '30' }), ok()]);
    const controller = new AbortController();
    const done = client().chat.completions.create(chatParams, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    const err = await done;
    expect(err).toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rec.calls).toHaveLength(1);
  });
});

describe('retry policy helpers', () => {
  it('reads retry-after-ms before Retry-After, and Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }))).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeNull();
    expect(parseRetryAfter(new Headers())).toBeNull();
  });

  it('doubles the backoff per retry, caps it, and shortens it by up to the jitter', () => {
    expect(computeBackoff(1, retryDefaults, () => 0)).toBe(500);
    expect(computeBackoff(3, retryDefaults, () => 0)).toBe(2000);
    expect(computeBackoff(10, retryDefaults, () => 0)).toBe(retryDefaults.maxDelayMs);
    expect(computeBackoff(1, retryDefaults, () => 1)).toBe(375);
  });
});

describe('timeouts and abort', () => {
  it('fails an attempt that exceeds timeout with APITimeoutError, then retries it', async () => {
    // On the fake clock: the first attempt never answers and runs out of its 50 ms; the retry
    // answers while the clock stands still, so it cannot time out however slow the machine.
    vi.useFakeTimers();
    let calls = 0;
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    server.use(
      http.get(modelsURL, async () => {
        calls++;
        if (calls === 1) {
          arrived();
          await new Promise<never>(() => undefined);
        }
        return HttpResponse.json(list);
      }),
    );
    let retrying!: () => void;
    const retried = new Promise<void>((resolve) => (retrying = resolve));
    const onRetry = vi.fn<(e: RetryInfo) => void>(() => retrying());
    const done = client({ timeout: 50, hooks: { onRetry } }).models.list();
    await firstArrived;
    await vi.advanceTimersByTimeAsync(49);
    expect(onRetry).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await retried;
    // The retry's pause: 0 ms, which a timer (as Node's) runs after 1.
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toEqual(list);
    expect(onRetry.mock.calls[0]?.[0].error).toBeInstanceOf(APITimeoutError);
    expect(calls).toBe(2);
  });

  it('throws APITimeoutError when every attempt times out', async () => {
    server.use(http.get(modelsURL, () => delay('infinite')));
    const err = await client({ timeout: 30, maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(err).toBeInstanceOf(APIConnectionError);
  });

  it('aborts an in-flight request with APIUserAbortError and does not retry', async () => {
    let calls = 0;
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    server.use(
      http.get(modelsURL, async () => {
        calls++;
        arrived();
        await delay('infinite');
        return HttpResponse.json(list);
      }),
    );
    const controller = new AbortController();
    const done = client().models.list({ signal: controller.signal });
    // Aborted once the gateway holds the request, not after 20 ms (which could come before it was sent).
    await inFlight;
    controller.abort();
    await expect(done).rejects.toBeInstanceOf(APIUserAbortError);
    expect(calls).toBe(1);
  });

  it('rejects at once for an already aborted signal without sending', async () => {
    const rec = sequence(modelsURL, 'get', [ok(list)]);
    await expect(client().models.list({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(rec.calls).toHaveLength(0);
  });
});

describe('failover', () => {
  function twoBases(main: Array<() => Response>, backup: Array<() => Response>) {
    return { main: sequence(`${BASE}/models`, 'get', main), backup: sequence(`${BACKUP}/models`, 'get', backup) };
  }

  it('sends the retry of a failed main request to the backup at once', async () => {
    const { main, backup } = twoBases([() => HttpResponse.error()], [ok(list)]);
    const onFailover = vi.fn();
    const onRetry = vi.fn<(e: RetryInfo) => void>();
    await expect(client({ backupBaseURL: BACKUP, hooks: { onFailover, onRetry } }).models.list()).resolves.toEqual(list);
    expect(main.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(1);
    expect(onFailover).toHaveBeenCalledWith(expect.objectContaining({ from: BASE, to: BACKUP, attempt: 1 }));
    expect(onRetry.mock.calls[0]?.[0].delayMs).toBe(0);
  });

  it.each([500, 503, 429])('fails over on retryable status %i', async (s) => {
    const { backup } = twoBases([status(s)], [ok(list)]);
    await client({ backupBaseURL: BACKUP }).models.list();
    expect(backup.calls).toHaveLength(1);
  });

  it('does not fail over on a non-retryable status', async () => {
    const { backup } = twoBases([status(400)], [ok(list)]);
    await expect(client({ backupBaseURL: BACKUP }).models.list()).rejects.toBeInstanceOf(BadRequestError);
    expect(backup.calls).toHaveLength(0);
  });

  it('prefers the backup for later and concurrent requests during the cooldown, then tries the main again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { main, backup } = twoBases([() => HttpResponse.error(), () => HttpResponse.error(), ok(list)], [ok(list)]);
    const c = client({ backupBaseURL: BACKUP, failoverCooldown: 30_000 });
    // One failure says little (docs/fleet.md): the next call tries the main again.
    await c.models.list();
    expect([main.calls.length, backup.calls.length]).toEqual([1, 1]);
    // The second with no answer between them: the main is down for the cooldown.
    await c.models.list();
    expect([main.calls.length, backup.calls.length]).toEqual([2, 2]);
    await Promise.all([c.models.list(), c.models.list(), c.models.list()]);
    expect([main.calls.length, backup.calls.length]).toEqual([2, 5]);
    vi.setSystemTime(Date.now() + 30_001);
    // One call probes the main back; its answer ends the cooldown for every call.
    await Promise.all([c.models.list(), c.models.list()]);
    expect([main.calls.length, backup.calls.length]).toEqual([3, 6]);
    await c.models.list();
    expect([main.calls.length, backup.calls.length]).toEqual([4, 6]);
  });

  it('uses one Idempotency-Key on both bases', async () => {
    const main = sequence(chatURL, 'post', [status(503)]);
    const backup = sequence(`${BACKUP}/chat/completions`, 'post', [ok()]);
    await client({ backupBaseURL: BACKUP }).chat.completions.create(chatParams);
    expect(main.calls[0]?.headers['idempotency-key']).toBe(backup.calls[0]?.headers['idempotency-key']);
  });

  it('moves to the other base at once, but goes back to a base that failed for this request only after the backoff', async () => {
    vi.useFakeTimers();
    const { main, backup } = twoBases([status(500), status(500)], [status(502), ok(list)]);
    const delays: number[] = [];
    const settled = client({ backupBaseURL: BACKUP, maxRetries: 3, retry: { baseDelayMs: 1_000, jitter: 0 }, hooks: { onRetry: (e) => delays.push(e.delayMs) } })
      .models.list()
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    // main failed, the backup at once; the backup failed, and both have failed now: the backoff.
    expect([main.calls.length, backup.calls.length]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.advanceTimersByTimeAsync(4_000);
    await settled;
    expect(delays).toEqual([0, 2_000, 4_000]);
  });

  it('goes back to the main when the backup fails too, then surfaces the last error', async () => {
    const { main, backup } = twoBases([status(500, fast)], [status(502, fast)]);
    const err = await client({ backupBaseURL: BACKUP, maxRetries: 2 }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(main.calls).toHaveLength(2);
    expect(backup.calls).toHaveLength(1);
  });
});

describe('what no retry can fix (REALITIES.md)', () => {
  it('never retries 503 model_not_found (new-api: no channel serves the model), nor fails over', async () => {
    const body = () => HttpResponse.json({ error: { message: 'No available channel for model x', type: 'new_api_error', code: 'model_not_found' } }, { status: 503, headers: fast });
    const rec = sequence(chatURL, 'post', [body, ok()]);
    const backup = sequence(`${BACKUP}/chat/completions`, 'post', [ok()]);
    const err = await client({ backupBaseURL: BACKUP, maxRetries: 3 }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, code: 'model_not_found' });
    expect(rec.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(0);
  });

  it('fails at once with the wait on retryAfterMs when Retry-After exceeds the cap and no other base can serve', async () => {
    const rec = sequence(chatURL, 'post', [status(429, { 'retry-after': '198300' }), ok()]);
    const onRetry = vi.fn();
    const err = await client({ hooks: { onRetry } }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    // 55 hours asked; a wait from the network is read as an hour at most (policy/waits.ts).
    expect(err).toMatchObject({ retryAfterMs: 3_600_000 });
    expect(rec.calls).toHaveLength(1);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('fails over at once to a healthy backup when the main asks for a wait beyond the cap', async () => {
    const rec = sequence(chatURL, 'post', [status(503, { 'retry-after': '7200' })]);
    const backup = sequence(`${BACKUP}/chat/completions`, 'post', [ok()]);
    const res = await client({ backupBaseURL: BACKUP }).chat.completions.create(chatParams);
    expect(res.id).toBe('chatcmpl-1');
    expect([rec.calls.length, backup.calls.length]).toEqual([1, 1]);
  });
});

describe('bodies that are not what the endpoint sends', () => {
  it('retries a 200 with an empty body like a connection error, then names it', async () => {
    const rec = sequence(modelsURL, 'get', [() => new HttpResponse(null, { status: 200 }), ok(list)]);
    await expect(client().models.list({ maxRetries: 1 })).resolves.toEqual(list);
    expect(rec.calls).toHaveLength(2);
    sequence(modelsURL, 'get', [() => new HttpResponse('', { status: 200, headers: { 'content-type': 'application/json' } })]);
    const err = await client({ maxRetries: 0 }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/Empty response body \(200\) from GET .*models: the request may not have been served/);
  });

  it('quotes an HTML page answered with 200 and points at /v1 when the base lacks it', async () => {
    server.use(http.get('http://gateway.test/models', () => new HttpResponse('<html><title>Gateway console</title><body>Sign in</body></html>', { headers: { 'content-type': 'text/html' } })));
    const err = await client({ baseURL: 'http://gateway.test' }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toMatch(/Expected JSON but got text\/html: "Gateway console Sign in"/);
    expect((err as Error).message).toMatch(/does not end in \/v1.*http:\/\/gateway\.test\/v1/);
  });

  it('says a 404 may come from a base URL without /v1', async () => {
    server.use(http.post('http://gateway.test/api/chat/completions', () => HttpResponse.json({ error: { message: 'Invalid URL (POST /api/chat/completions)', type: 'invalid_request_error' } }, { status: 404 })));
    const err = await client({ baseURL: 'http://gateway.test/api' }).chat.completions.create(chatParams).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404 });
    expect((err as Error).message).toMatch(/Invalid URL.*does not end in \/v1/);
  });
});

describe('per-request options', () => {
  it.each([
    [{ timeout: 0 }, 'timeout'],
    [{ timeout: -5 }, 'timeout'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ idleTimeout: Number.NaN }, 'idleTimeout'],
    [{ timeout: '100' as unknown as number }, 'timeout'],
  ])('rejects %o like the constructor does, before sending', async (options, field) => {
    const rec = sequence(modelsURL, 'get', [ok(list)]);
    const err = await client().models.list(options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field });
    expect(rec.calls).toHaveLength(0);
  });
});
