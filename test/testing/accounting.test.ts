import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/core/errors.js';
import { priceQuota, ratioQuota, tieredQuota, videoQuota } from '../../src/testing/billing.js';
import { createMockGateway, type MockGatewayOptions } from '../../src/testing/index.js';

// The mock bills every answered call as new-api does (src/testing/billing.ts names the Go
// source), logs the bill under the key with the call's X-Oneapi-Request-Id, and serves
// new-api's accounting endpoints. Every expected quota below is worked out by hand from the
// Go formula, not by calling the mock's own code.

const AUTH = { authorization: 'Bearer test-key' };

function setup(options: MockGatewayOptions = {}) {
  // Reads of /api/log/token are rate-limited by default; these tests read it freely.
  const mock = createMockGateway({ apiKey: 'test-key', logReadsPerSecond: 0, ...options });
  const post = (path: string, body: unknown) =>
    mock.fetch(`http://mock.local/v1/${path}`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = async (path: string, headers: Record<string, string> = AUTH) => {
    const res = await mock.fetch(`http://mock.local${path}`, { headers });
    return { res, body: (await res.json()) as Record<string, unknown> };
  };
  interface Row {
    quota: number;
    prompt_tokens: number;
    completion_tokens: number;
    model_name: string;
    request_id: string;
    created_at: number;
    is_stream: boolean;
    other: string;
    id: number;
  }
  const logs = async () => ((await get('/api/log/token')).body.data ?? []) as Row[];
  /** The log row of the call that answered `res`. */
  const billOf = async (res: Response) => {
    const requestId = res.headers.get('x-oneapi-request-id');
    expect(requestId).toBeTruthy();
    const row = (await logs()).find((r) => r.request_id === requestId);
    expect(row, `no log row for ${requestId}`).toBeDefined();
    return row as Row;
  };
  return { mock, post, get, logs, billOf };
}

const chat = (model: string, content: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content }], ...extra });

describe('the Go formula, by hand', () => {
  it('ratio-priced: cached and cache-write tokens at their ratios, rounded half away from zero', () => {
    // base 1000 − 400 − 100 = 500; + 400 × 0.1 + 100 × 1.25 = 665; + 200 × 5 = 1665; × 1.5 × 1 = 2497.5 → 2498
    expect(ratioQuota({ prompt: 1000, completion: 200, cached: 400, cacheCreation: 100 }, { model: 1.5, completion: 5, cache: 0.1, createCache: 1.25 })).toBe(2498);
    // (10 + 3 × 4) × 1.25 = 27.5 → 28
    expect(ratioQuota({ prompt: 10, completion: 3 }, { model: 1.25, completion: 4 })).toBe(28);
  });

  it('ratio-priced: a call with tokens costs at least 1, a call without none', () => {
    // 1 × 0.135 = 0.135 → rounds to 0 → the minimum, 1
    expect(ratioQuota({ prompt: 1, completion: 0 }, { model: 0.135, completion: 4 })).toBe(1);
    expect(ratioQuota({ prompt: 0, completion: 0 }, { model: 1.25, completion: 4 })).toBe(0);
    // A free model (ratio 0) stays free.
    expect(ratioQuota({ prompt: 100, completion: 100 }, { model: 0, completion: 1 })).toBe(0);
  });

  it('per request: model_price × 500,000 × group ratio × n', () => {
    expect(priceQuota(0.04, 3)).toBe(60_000);
    expect(priceQuota(0.01)).toBe(5_000);
  });

  it('videos by duration × 500,000', () => {
    expect([5, 10, 15, 20].map((s) => videoQuota(s))).toEqual([40_000, 75_000, 150_000, 250_000]);
  });

  it('tiered: the expression in $/1M tokens, / 1e6 × 500,000, the tier chosen by len', () => {
    const expr = 'len <= 1000 ? tier("standard", p * 2 + c * 8 + cr * 0.2) : tier("long_context", p * 4 + c * 16 + cr * 0.4)';
    // p = 100 − 40 (cr is priced apart) = 60: 60 × 2 + 50 × 8 + 40 × 0.2 = 528 → 528 / 1e6 × 500,000 = 264
    expect(tieredQuota(expr, { prompt: 100, completion: 50, cached: 40 })).toEqual({ quota: 264, tier: 'standard' });
    // 2000 × 4 + 10 × 16 = 8160 → 4080
    expect(tieredQuota(expr, { prompt: 2000, completion: 10 })).toEqual({ quota: 4080, tier: 'long_context' });
    // p = 0, cr 5 × 0.2 = 1 → 0.5 → math.Round → 1
    expect(tieredQuota(expr, { prompt: 5, completion: 0, cached: 5 })).toEqual({ quota: 1, tier: 'standard' });
  });
});

describe('every answered call is billed to the key', () => {
  it('a chat completion: (prompt + completion × 4) × 1.25 for gpt-4o-mini', async () => {
    const { post, billOf } = setup();
    const res = await post('chat/completions', chat('gpt-4o-mini', 'one two three four five six seven eight nine ten'));
    const usage = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    expect(usage).toMatchObject({ prompt_tokens: 13, completion_tokens: 12 });
    const row = await billOf(res);
    // (13 + 12 × 4) × 1.25 = 76.25 → 76
    expect(row).toMatchObject({ quota: 76, prompt_tokens: 13, completion_tokens: 12, model_name: 'gpt-4o-mini', is_stream: false });
    expect(JSON.parse(row.other)).toMatchObject({ model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, cache_tokens: 0, model_price: -1 });
  });

  it('a stream that did not ask for usage is billed all the same', async () => {
    const { post, billOf } = setup();
    const res = await post('chat/completions', chat('claude-3-5-sonnet-20241022', 'one two three four five six seven eight nine ten', { stream: true }));
    const text = await res.text();
    expect(text).not.toContain('"usage"');
    // (13 + 12 × 5) × 1.5 = 109.5 → 110 (half away from zero)
    expect(await billOf(res)).toMatchObject({ quota: 110, prompt_tokens: 13, completion_tokens: 12, is_stream: true });
  });

  it('a prompt-cache hit: reported as cached_tokens and billed at the cache ratio', async () => {
    const { post, billOf } = setup();
    const system = { role: 'system', content: [{ type: 'text', text: 'manual '.repeat(40), cache_control: { type: 'ephemeral' } }] };
    const body = (q: string) => ({ model: 'gpt-4o-mini', messages: [system, { role: 'user', content: q }] });
    await post('chat/completions', body('first question here'));
    const res = await post('chat/completions', body('second question here'));
    const usage = ((await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } } }).usage;
    expect(usage).toMatchObject({ prompt_tokens: 49, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 43 } });
    // (49 − 43 + 43 × 0.5 + 5 × 4) × 1.25 = (6 + 21.5 + 20) × 1.25 = 59.375 → 59
    const row = await billOf(res);
    expect(row.quota).toBe(59);
    expect(JSON.parse(row.other)).toMatchObject({ cache_tokens: 43, cache_ratio: 0.5 });
  });

  it('the per-request chat model: 0.01 USD × 500,000 whatever the tokens', async () => {
    const { post, billOf } = setup();
    const res = await post('chat/completions', chat('per-request-chat', 'a rather long question with many words in it'));
    expect(res.status).toBe(200);
    const row = await billOf(res);
    expect(row.quota).toBe(5_000);
    expect(JSON.parse(row.other)).toMatchObject({ model_price: 0.01, group_ratio: 1 });
  });

  it('the tiered chat model: its expression, each tier', async () => {
    const { post, billOf, get } = setup();
    const pricing = (await get('/api/pricing')).body.data as Array<Record<string, unknown>>;
    expect(pricing.find((m) => m.model_name === 'tiered-chat')).toMatchObject({ billing_mode: 'tiered_expr', billing_expr: expect.stringContaining('tier("standard"') });
    expect(pricing.find((m) => m.model_name === 'per-request-chat')).toMatchObject({ quota_type: 1, model_price: 0.01 });

    const short = await post('chat/completions', chat('tiered-chat', 'one two three four five six seven eight nine ten'));
    // standard (13 prompt, 12 completion tokens): 13 × 2 + 12 × 8 = 122 → 122 / 1e6 × 500,000 = 61
    const row = await billOf(short);
    expect(row).toMatchObject({ quota: 61, prompt_tokens: 13, completion_tokens: 12 });
    expect(JSON.parse(row.other)).toMatchObject({ billing_mode: 'tiered_expr', matched_tier: 'standard' });

    const long = await post('chat/completions', chat('tiered-chat', 'word '.repeat(1200).trim()));
    const usage = ((await long.json()) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    expect(usage.prompt_tokens).toBe(1203);
    // long_context (len 1203 > 1000): (1203 × 4 + completion × 16) / 1e6 × 500,000 = 2406 + completion × 8
    const longRow = await billOf(long);
    expect(longRow.quota).toBe(2406 + usage.completion_tokens * 8);
    expect(JSON.parse(longRow.other)).toMatchObject({ matched_tier: 'long_context' });
  });

  it('embeddings, images (× n) and videos (by duration)', async () => {
    const { post, billOf } = setup();
    // 3 tokens × 0.01 = 0.03 → 0 → the minimum, 1
    expect((await billOf(await post('embeddings', { model: 'text-embedding-3-small', input: 'one two three' }))).quota).toBe(1);
    // 0.04 × 500,000 × 2 = 40,000
    expect((await billOf(await post('images/generations', { model: 'dall-e-3', prompt: 'a cat', n: 2 }))).quota).toBe(40_000);
    // 10 s: 0.15 × 500,000 = 75,000
    const video = await post('videos/generations', { model: 'vendor_video2', prompt: 'a cat', duration: 10 });
    expect(video.status).toBe(200);
    expect((await billOf(video)).quota).toBe(75_000);
  });

  it('a refused call is not billed', async () => {
    const { post, logs } = setup();
    const res = await post('chat/completions', chat('gpt-4o-mini', 'hi', { temperature: 5 }));
    expect(res.status).toBe(400);
    expect(res.headers.get('x-oneapi-request-id')).toBeTruthy();
    expect(await logs()).toEqual([]);
  });
});

describe('X-Oneapi-Request-Id', () => {
  it('is on every answer, and unique', async () => {
    const { mock, post } = setup();
    const answers = [
      await post('chat/completions', chat('gpt-4o-mini', 'hi')),
      await post('chat/completions', chat('gpt-4o-mini', 'hi', { stream: true })),
      await mock.fetch('http://mock.local/v1/models', { headers: AUTH }),
      await mock.fetch('http://mock.local/v1/models', { headers: { authorization: 'Bearer wrong' } }),
      await mock.fetch('http://mock.local/v1/nowhere', { headers: AUTH }),
    ];
    const ids = answers.map((r) => r.headers.get('x-oneapi-request-id'));
    for (const id of ids) expect(id).toMatch(/^\d{17}\d{6}[a-z0-9]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('GET /api/log/token', () => {
  it("the key's rows, newest first, numbered from 1, in new-api's envelope", async () => {
    const { post, get } = setup();
    const first = await post('chat/completions', chat('gpt-4o-mini', 'one'));
    const second = await post('embeddings', { model: 'text-embedding-3-small', input: 'one two' });
    const { res, body } = await get('/api/log/token');
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, message: '' });
    const rows = body.data as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.request_id)).toEqual([second.headers.get('x-oneapi-request-id'), first.headers.get('x-oneapi-request-id')]);
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
    for (const row of rows) {
      expect(row).toMatchObject({ type: 2, token_name: 'mock-token', group: 'default' });
      expect(typeof row.other).toBe('string');
      expect(Math.abs((row.created_at as number) - Date.now() / 1000)).toBeLessThan(60);
    }
  });

  it('is rate-limited: a second read within a second is a 429 with Retry-After', async () => {
    const { get } = setup({ logReadsPerSecond: 1 });
    expect((await get('/api/log/token')).res.status).toBe(200);
    const { res } = await get('/api/log/token');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /api/usage/token', () => {
  it('granted, used and available after calls, with the quota option', async () => {
    const { post, get } = setup({ quota: 1_000_000 });
    await post('images/generations', { model: 'dall-e-3', prompt: 'a cat' }); // 20,000
    await post('chat/completions', chat('per-request-chat', 'hi')); // 5,000
    const { res, body } = await get('/api/usage/token');
    expect(res.status).toBe(200);
    expect(body).toEqual({
      code: true,
      message: 'ok',
      data: {
        object: 'token_usage',
        name: 'mock-token',
        total_granted: 1_000_000,
        total_used: 25_000,
        total_available: 975_000,
        unlimited_quota: false,
        model_limits: {},
        model_limits_enabled: false,
        expires_at: 0,
      },
    });
  });

  it('grants 5,000,000 by default', async () => {
    const { get } = setup();
    expect((await get('/api/usage/token')).body).toMatchObject({ data: { total_granted: 5_000_000, total_used: 0, total_available: 5_000_000 } });
  });
});

describe('the OpenAI dashboard routes, in USD', () => {
  it('subscription: the grant as limits; usage: cents used; also under /v1', async () => {
    const { post, get } = setup({ quota: 2_500_000 });
    await post('images/generations', { model: 'dall-e-3', prompt: 'a cat' }); // 20,000 = 0.04 USD
    const subscription = { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: 5, hard_limit_usd: 5, system_hard_limit_usd: 5, access_until: 0 };
    expect((await get('/dashboard/billing/subscription')).body).toEqual(subscription);
    expect((await get('/v1/dashboard/billing/subscription')).body).toEqual(subscription);
    // 20,000 / 500,000 × 100 = 4 cents
    expect((await get('/dashboard/billing/usage')).body).toEqual({ object: 'list', total_usage: 4 });
    expect((await get('/v1/dashboard/billing/usage')).body).toEqual({ object: 'list', total_usage: 4 });
  });
});

describe('keys and switches', () => {
  const paths = ['/api/pricing', '/api/status', '/api/log/token', '/api/usage/token', '/dashboard/billing/subscription', '/dashboard/billing/usage'];

  it('a bad key is a 401 on every accounting endpoint', async () => {
    const { get } = setup();
    for (const path of paths) {
      const { res, body } = await get(path, { authorization: 'Bearer wrong' });
      expect(res.status, path).toBe(401);
      expect(body).toMatchObject({ error: { code: 'invalid_api_key' } });
    }
  });

  it('accounting: false answers them 404, and still bills', async () => {
    const { get, post, mock } = setup({ accounting: false });
    for (const path of paths) expect((await get(path)).res.status, path).toBe(404);
    expect((await post('chat/completions', chat('gpt-4o-mini', 'hi'))).status).toBe(200);
    expect(mock.requests).toHaveLength(paths.length + 1);
  });

  it('reset() clears the bills', async () => {
    const { post, logs, mock } = setup();
    await post('chat/completions', chat('gpt-4o-mini', 'hi'));
    expect(await logs()).toHaveLength(1);
    mock.reset();
    expect(await logs()).toEqual([]);
  });

  it('checks the new options', () => {
    expect(() => createMockGateway({ quota: -1 })).toThrow(ValidationError);
    expect(() => createMockGateway({ quota: 1.5 })).toThrow(/quota/);
    expect(() => createMockGateway({ accounting: 'no' as unknown as boolean })).toThrow(/accounting/);
    expect(() => createMockGateway({ logReadsPerSecond: -1 })).toThrow(/logReadsPerSecond/);
  });
});
