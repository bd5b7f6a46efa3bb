import { afterEach, describe, expect, it, vi } from 'vitest';
import { BudgetExceededError, Gateway, memoryStore, ValidationError, type CostEvent, type GatewayOptions, type Logger } from '../../src/index.js';
import { createMockGateway, type MockGateway, type MockGatewayOptions } from '../../src/testing/index.js';

// cost: true, budgets, onCost, tags, spend() and balance() against the mock gateway, which
// bills every call with new-api's formula (src/testing/billing.ts, written apart from
// src/core/cost/price.ts): what the client priced is compared with what the mock logged.

const KEY = 'sk-cost-secret-0123456789';

function silentLogger() {
  return { error: vi.fn<(line: string) => void>(), warn: vi.fn<(line: string) => void>(), info: vi.fn<(line: string) => void>(), debug: vi.fn<(line: string) => void>() } satisfies Logger;
}

function setup(options: GatewayOptions = {}, mockOptions: MockGatewayOptions = {}) {
  const mock = createMockGateway({ apiKey: KEY, logReadsPerSecond: 0, ...mockOptions });
  const logger = silentLogger();
  const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 0, logger, logLevel: 'warn', cost: true, ...options });
  return { mock, client, logger };
}

/** The quota the mock billed for the call that answered with `response`. */
async function billed(mock: MockGateway, response: Response): Promise<number> {
  const id = response.headers.get('x-oneapi-request-id');
  const res = await mock.fetch('http://mock.local/api/log/token', { headers: { authorization: `Bearer ${KEY}` } });
  const rows = ((await res.json()) as { data: Array<{ request_id: string; quota: number }> }).data;
  const row = rows.find((r) => r.request_id === id);
  if (!row) throw new Error(`no bill for ${id}`);
  return row.quota;
}

const sent = (mock: MockGateway, path: string) => mock.requests.filter((r) => r.path === path).length;
const ask = (model: string, content = 'Hello there, how are you?', extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user' as const, content }], ...extra });

afterEach(() => vi.useRealTimers());

describe('cost: true prices each call as the gateway bills it', () => {
  it('chat, a per-request model, a tiered model: the quota the mock logged, in USD at quota_per_unit', async () => {
    const { mock, client } = setup();
    for (const model of ['gpt-4o-mini', 'claude-3-5-sonnet-20241022', 'per-request-chat', 'tiered-chat']) {
      const { cost, response } = await client.chat.completions.create(ask(model)).withResponse();
      const quota = await billed(mock, response);
      expect(cost, model).toEqual({ quota, usd: quota / 500_000, source: 'priced' });
    }
  });

  it('embeddings, images by n, videos by duration', async () => {
    const { mock, client } = setup();
    const e = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] }).withResponse();
    expect(e.cost?.quota).toBe(await billed(mock, e.response));
    const i = await client.images.generate({ model: 'dall-e-3', prompt: 'a cat', n: 2 }).withResponse();
    expect(i.cost?.quota).toBe(await billed(mock, i.response));
    expect(i.cost?.usd).toBeCloseTo(0.08);
    const v = await client.videos.create({ model: 'vendor_video2', prompt: 'waves', duration: 10 }).withResponse();
    expect(v.cost?.quota).toBe(await billed(mock, v.response));
    expect(v.cost?.usd).toBeCloseTo(0.15);
  });

  it('a stream is priced at its end from the usage chunk it asked for, which the caller does not see', async () => {
    const { mock, client } = setup();
    const { data: stream, response, cost } = await client.chat.completions.create({ ...ask('gpt-4o-mini'), stream: true }).withResponse();
    expect(cost).toBeNull();
    const chunks: unknown[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => (c as { usage?: unknown }).usage)).toBe(false);
    expect(mock.requests.at(-1)?.body).toMatchObject({ stream_options: { include_usage: true } });
    const quota = await billed(mock, response);
    expect(await stream.cost()).toEqual({ quota, usd: quota / 500_000, source: 'priced' });
  });

  it('a cache hit and a caller joined to an identical call cost 0; the one sent is priced once', async () => {
    const events: CostEvent[] = [];
    const { client } = setup({ cache: { store: memoryStore() }, onCost: (e) => events.push(e) });
    const [a, b] = await Promise.all([client.chat.completions.create(ask('gpt-4o-mini')).withResponse(), client.chat.completions.create(ask('gpt-4o-mini')).withResponse()]);
    const c = await client.chat.completions.create(ask('gpt-4o-mini')).withResponse();
    const costs = [a.cost?.quota, b.cost?.quota, c.cost?.quota];
    expect(costs.filter((q) => q === 0)).toHaveLength(2);
    expect(events).toHaveLength(1);
  });

  it('without cost, nothing is priced and no usage is asked of a stream', async () => {
    const { mock, client } = setup({ cost: false });
    const { cost } = await client.chat.completions.create(ask('gpt-4o-mini')).withResponse();
    expect(cost).toBeNull();
    const stream = await client.chat.completions.create({ ...ask('gpt-4o-mini'), stream: true });
    for await (const _ of stream);
    expect(mock.requests.at(-1)?.body).not.toHaveProperty('stream_options');
    expect(await stream.cost()).toBeNull();
  });

  it('a gateway without the accounting endpoints: cost null, one warning, no failed call', async () => {
    const { client, logger } = setup({}, { accounting: false });
    for (let i = 0; i < 3; i++) expect((await client.chat.completions.create(ask('gpt-4o-mini')).withResponse()).cost).toBeNull();
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('a bill equal to the price is reconciled quietly: a debug line, no second onCost', async () => {
    const events: CostEvent[] = [];
    const { client, logger } = setup({ onCost: (e) => events.push(e), logLevel: 'debug' });
    const { response } = await client.chat.completions.create(ask('gpt-4o-mini')).withResponse();
    const id = response.headers.get('x-oneapi-request-id');
    await vi.waitFor(() => expect(logger.debug.mock.calls.some(([line]) => line.includes(`reconciled ${id}`))).toBe(true), { timeout: 8_000, interval: 100 });
    expect(events).toHaveLength(1);
  }, 15_000);

  it('onCost fires once priced and again with the difference when the log billed another figure; deltas sum to the bill', async () => {
    const events: CostEvent[] = [];
    const mock = createMockGateway({ apiKey: KEY, logReadsPerSecond: 0 });
    // A reply whose usage says fewer tokens than the gateway billed (a proxy rewrote it): priced and billed differ.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await mock.fetch(input, init);
      if (!String(input).endsWith('/chat/completions')) return response;
      const body = (await response.json()) as { usage: { completion_tokens: number } };
      body.usage.completion_tokens = 0;
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch, maxRetries: 0, logger: silentLogger(), cost: true, onCost: (e) => events.push(e) });
    const { cost, response } = await client.chat.completions.create(ask('gpt-4o-mini'), { tags: { tenant: 'acme' } }).withResponse();
    const quota = await billed(mock, response);
    expect(cost?.quota).toBeLessThan(quota);
    await vi.waitFor(() => expect(events).toHaveLength(2), { timeout: 8_000, interval: 100 });
    expect(events[1]?.cost).toMatchObject({ quota, source: 'billed' });
    expect(events.reduce((sum, e) => sum + e.delta.quota, 0)).toBe(quota);
    expect(events[1]?.tags).toEqual({ tenant: 'acme' });
    // Spend follows the bill.
    const spend = await client.spend({ by: 'tenant' });
    expect(spend.groups).toEqual([{ value: 'acme', quota, usd: quota / 500_000 }]);
  }, 15_000);
});

describe('budgets', () => {
  it('refuses, before sending, a call whose worst case would break the budget; the error says which and when it resets', async () => {
    // gpt-4o-mini at worst: (the body's 60 characters + 100 × 4) × 1.25 = 575 quota; a $0.0013 budget (650 quota) holds a few 20-quota calls.
    const { mock, client } = setup({ budgets: [{ name: 'acme-daily', usd: 0.0013, per: 'day', where: { tenant: 'acme' } }] });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 100 });
    await client.chat.completions.create(body, { tags: { tenant: 'acme' } });
    const before = sent(mock, '/v1/chat/completions');
    let refused: unknown;
    for (let i = 0; i < 20 && !refused; i++) await client.chat.completions.create(body, { tags: { tenant: 'acme' } }).catch((e: unknown) => (refused = e));
    expect(refused).toBeInstanceOf(BudgetExceededError);
    const error = refused as BudgetExceededError;
    expect(error.budget).toBe('acme-daily');
    expect(error.limitUsd).toBe(0.0013);
    expect(error.spentUsd).toBeGreaterThan(0);
    expect(error.resetsAt?.getTime()).toBe(new Date(new Date().toISOString().slice(0, 10)).getTime() + 86_400_000);
    expect(sent(mock, '/v1/chat/completions') - before).toBeLessThan(20);
    // Another tenant is not held by it.
    await expect(client.chat.completions.create(body, { tags: { tenant: 'globex' } })).resolves.toBeDefined();
  });

  it('holds across two clients on one store: what one spent, the other cannot', async () => {
    const store = memoryStore();
    const budgets = [{ name: 'shared', usd: 0.003, per: 'hour' as const }];
    const a = setup({ store, budgets });
    const b = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: a.mock.fetch, maxRetries: 0, logger: silentLogger(), store, budgets });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 200 });
    await a.client.chat.completions.create(body);
    let refusedB: unknown;
    for (let i = 0; i < 40 && !refusedB; i++) await b.chat.completions.create(body).catch((e: unknown) => (refusedB = e));
    expect(refusedB).toBeInstanceOf(BudgetExceededError);
    await expect(a.client.chat.completions.create(body)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('a budgeted chat call without max_tokens (and no maxOutputTokens rule) is a ValidationError, nothing sent', async () => {
    const { mock, client } = setup({ budgets: [{ name: 'all', usd: 5, per: 'month' }] });
    await expect(client.chat.completions.create(ask('gpt-4o-mini'))).rejects.toThrow(ValidationError);
    expect(sent(mock, '/v1/chat/completions')).toBe(0);
    const ruled = setup({ budgets: [{ name: 'all', usd: 5, per: 'month' }], modelRules: { 'gpt-4o*': { maxOutputTokens: 4096 } } });
    await expect(ruled.client.chat.completions.create(ask('gpt-4o-mini'))).resolves.toBeDefined();
  });

  it('a refused or failed call gives its reservation back', async () => {
    const { client } = setup({ budgets: [{ name: 'b', usd: 0.002, per: 'day' }] }, { faults: [{ type: 'server_error', times: 1, path: 'chat/completions' }] });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 100 });
    await expect(client.chat.completions.create(body)).rejects.toThrow();
    // The failed call's reservation was given back: the budget still holds a call.
    await expect(client.chat.completions.create(body)).resolves.toBeDefined();
  });

  it('bad budgets and tags are ValidationErrors before anything is sent', async () => {
    const make = (options: Record<string, unknown>) => () => new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', ...options } as GatewayOptions);
    expect(make({ budgets: [{ name: 'x', usd: -1, per: 'day' }] })).toThrow(/budgets\[0\]\.usd/);
    expect(make({ budgets: [{ name: 'x', usd: 1, per: 'week' }] })).toThrow(/budgets\[0\]\.per/);
    expect(make({ budgets: [{ name: 'x', usd: 1, per: 'day', where: { tenant: 1 } }] })).toThrow(/where\.tenant/);
    expect(make({ budgets: [{ name: 'x', usd: 1, per: 'day', limit: 2 }] })).toThrow(/budgets\[0\]\.limit/);
    expect(make({ budgets: {} })).toThrow(/budgets/);
    expect(make({ cost: 'yes' })).toThrow(/cost/);
    expect(make({ onCost: () => undefined })).toThrow(/onCost/);
    const { mock, client } = setup();
    await expect(client.chat.completions.create(ask('gpt-4o-mini'), { tags: { tenant: 7 } as never })).rejects.toThrow(/tags\.tenant/);
    await expect(client.chat.completions.create(ask('gpt-4o-mini'), { tags: 'acme' as never })).rejects.toThrow(/tags/);
    expect(mock.requests).toHaveLength(0);
  });
});

describe('spend() and balance()', () => {
  it('spend by tag sums what was priced, with the untagged calls as null', async () => {
    const { client } = setup();
    let total = 0;
    for (const tenant of ['acme', 'acme', 'globex', undefined]) {
      const { cost } = await client.chat.completions.create(ask('gpt-4o-mini'), tenant ? { tags: { tenant } } : {}).withResponse();
      total += cost?.quota ?? 0;
    }
    const report = await client.spend({ by: 'tenant', since: new Date() });
    expect(report.total.quota).toBe(total);
    expect(report.groups.map((g) => g.value).sort()).toEqual(['acme', 'globex', null].sort());
    expect(report.groups.reduce((sum, g) => sum + g.quota, 0)).toBe(total);
    await expect(client.spend({ by: '' })).rejects.toThrow(ValidationError);
    await expect(setup({ cost: false }).client.spend({ by: 'tenant' })).rejects.toThrow(/cost: true/);
  });

  it('balance() reads /api/usage/token, and follows what the key spent', async () => {
    const { client } = setup({}, { quota: 5_000_000 });
    const before = await client.balance();
    expect(before).toMatchObject({ granted: { quota: 5_000_000, usd: 10 }, used: { quota: 0 }, unlimited: false, expiresAt: null, source: 'usage-token' });
    // Kept 30 s: the gateway rate-limits the query.
    await client.chat.completions.create(ask('gpt-4o-mini'));
    expect(await client.balance()).toEqual(before);
  });

  it('balance() falls back to the dashboard billing endpoints (USD, usage in cents)', async () => {
    const mock = createMockGateway({ apiKey: KEY, quota: 5_000_000 });
    const fetch: typeof globalThis.fetch = async (input, init) => (String(input).includes('/api/usage/token') ? new Response('not found', { status: 404 }) : mock.fetch(input, init));
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch, maxRetries: 0, logger: silentLogger() });
    expect(await client.balance()).toMatchObject({ granted: { usd: 10, quota: 5_000_000 }, available: { usd: 10 }, source: 'dashboard' });
  });
});

describe('a budget that refused', () => {
  it('calls at once wait for the room the calls in flight hold, rather than being refused', async () => {
    // Three at once reserve 3 × 575 of 650: two wait until the first settles at 20, and so on.
    const { client } = setup({ budgets: [{ name: 'waiting', usd: 0.0013, per: 'day' }] });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 100 });
    const results = await Promise.allSettled([1, 2, 3].map(() => client.chat.completions.create(body)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
  });

  it('refuses once what was spent leaves no room: no call of that size is sent after the first refusal, a smaller one that fits is', async () => {
    const { mock, client } = setup({ budgets: [{ name: 'closing', usd: 0.0013, per: 'day' }] });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 100 });
    let refused: unknown;
    for (let i = 0; i < 20 && !refused; i++) await client.chat.completions.create(body).catch((e: unknown) => (refused = e));
    expect(refused).toBeInstanceOf(BudgetExceededError);
    const before = sent(mock, '/v1/chat/completions');
    for (let i = 0; i < 3; i++) await expect(client.chat.completions.create(body)).rejects.toBeInstanceOf(BudgetExceededError);
    expect(sent(mock, '/v1/chat/completions')).toBe(before);
    await expect(client.chat.completions.create(ask('gpt-4o-mini', 'Hi', { max_tokens: 1 }))).resolves.toBeDefined();
  });

  it('one call too large for the whole budget is refused alone: the budget stays open for calls that fit', async () => {
    const { client } = setup({ budgets: [{ name: 'team', usd: 1, per: 'month' }] });
    const small = ask('gpt-4o-mini', 'Hi', { max_tokens: 50 });
    await client.chat.completions.create(small);
    await expect(client.chat.completions.create({ ...small, max_tokens: 10_000_000 })).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(client.chat.completions.create(small)).resolves.toBeDefined();
  });

  it('a reservation a dead process left behind is gone within two reservation slots (20 minutes)', async () => {
    const { chargeBudgets } = await import('../../src/core/cost/ledger.js');
    const { configOf } = await import('../../src/core/resource.js');
    const { MemoryStore } = await import('../../src/core/store/store.js');
    const { client } = setup({ budgets: [{ name: 'x', usd: 0.002, per: 'month' }] });
    const ledger = { store: new MemoryStore(), guarded: false, config: configOf(client) };
    const budget = { name: 'x', usd: 0.002, per: 'month' as const };
    const wait = { signal: AbortSignal.timeout(200) };
    // A process reserves 900 of 1,000 and dies without settling.
    expect(await chargeBudgets(ledger, [budget], 900, 500_000, wait)).toHaveProperty('charge');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    // While it lasts, a call that needs the room waits, then is refused.
    expect(await chargeBudgets(ledger, [budget], 500, 500_000, { signal: AbortSignal.timeout(100) })).toHaveProperty('refused');
    vi.setSystemTime(Date.now() + 21 * 60_000);
    expect(await chargeBudgets(ledger, [budget], 500, 500_000, wait)).toHaveProperty('charge');
  });

  it('a call aborted while it waits for room ends with its abort, not a refusal', async () => {
    const { client } = setup({ budgets: [{ name: 'waiting', usd: 0.0013, per: 'day' }] }, { faults: [{ type: 'delay', ms: 500, times: 1 }] });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 100 });
    const slow = client.chat.completions.create(body);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waiting = client.chat.completions.create(body, { signal: AbortSignal.timeout(100) });
    await expect(waiting).rejects.toMatchObject({ name: 'APIUserAbortError' });
    await slow;
  });
});

describe('what a hostile trial found', () => {
  it('a call sent and never answered (a timeout) keeps its reservation as spent, estimated: retries cannot slip past a budget', async () => {
    const events: CostEvent[] = [];
    const { client } = setup({ budgets: [{ name: 'b', usd: 0.002, per: 'day' }], onCost: (e) => events.push(e), timeout: 100 }, { faults: [{ type: 'delay', ms: 400, times: 10, path: 'chat/completions' }] });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 100 });
    await expect(client.chat.completions.create(body)).rejects.toMatchObject({ name: 'APITimeoutError' });
    expect(events).toHaveLength(1);
    expect(events[0]?.cost.source).toBe('estimated');
    expect(events[0]?.cost.quota).toBeGreaterThan(500);
    await expect(client.chat.completions.create(body)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('a price table that cannot be read (a timeout) fails no call: it goes unpriced', async () => {
    const { client } = setup({ budgets: [{ name: 'b', usd: 5, per: 'day' }], timeout: 100 }, { faults: [{ type: 'delay', ms: 400, times: 6, path: '/api/pricing' }] });
    const { cost } = await client.chat.completions.create(ask('gpt-4o-mini', 'Hi', { max_tokens: 100 })).withResponse();
    expect(cost).toBeNull();
  });

  it('an answer whose usage says 0 tokens is a usage not reported: estimated at the reservation', async () => {
    const mock = createMockGateway({ apiKey: KEY, logReadsPerSecond: 0 });
    const edit = (b: Record<string, unknown>) => (b.usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: rewriting(mock, edit), maxRetries: 0, logger: silentLogger(), budgets: [{ name: 'b', usd: 5, per: 'day' }] });
    const { cost } = await client.chat.completions.create(ask('gpt-4o-mini', 'Hi', { max_tokens: 100 })).withResponse();
    expect(cost).toMatchObject({ source: 'estimated' });
    expect(cost?.quota).toBeGreaterThan(500);
  });

  it('log rows that disagree about one request, or bill a tenth of its price, are not believed', async () => {
    const events: CostEvent[] = [];
    const mock = createMockGateway({ apiKey: KEY, logReadsPerSecond: 0 });
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await mock.fetch(input, init);
      if (!String(input).endsWith('/api/log/token')) return response;
      const body = (await response.json()) as { data: Array<{ quota: number }> };
      // Every row doubled, the newer copy billing 0.
      body.data = body.data.flatMap((row) => [{ ...row, quota: 0 }, row]);
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    };
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch, maxRetries: 0, logger: silentLogger(), cost: true, onCost: (e) => events.push(e) });
    await client.chat.completions.create(ask('gpt-4o-mini'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(events.map((e) => e.cost.source)).toEqual(['priced']);
  });

  /** A fetch over the mock that rewrites each chat answer's body with `edit`. */
  const rewriting = (mock: MockGateway, edit: (body: Record<string, unknown>) => void): typeof globalThis.fetch => async (input, init) => {
    const response = await mock.fetch(input, init);
    if (!String(input).endsWith('/chat/completions') || init?.body === undefined || String(init.body).includes('"stream":true')) return response;
    const body = (await response.json()) as Record<string, unknown>;
    edit(body);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };

  it('an answer without usage counts at its reservation, estimated: a budget still holds', async () => {
    const mock = createMockGateway({ apiKey: KEY, logReadsPerSecond: 0 });
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: rewriting(mock, (b) => delete b.usage), maxRetries: 0, logger: silentLogger(), budgets: [{ name: 'b', usd: 0.002, per: 'day' }] });
    const body = ask('gpt-4o-mini', 'Hi', { max_tokens: 100 });
    const first = await client.chat.completions.create(body).withResponse();
    expect(first.cost).toMatchObject({ source: 'estimated' });
    expect(first.cost?.quota).toBeGreaterThan(500);
    await expect(client.chat.completions.create(body)).rejects.toBeInstanceOf(BudgetExceededError);
  });

  it('cached tokens beyond the prompt are not believed: cut to the prompt, estimated', async () => {
    const mock = createMockGateway({ apiKey: KEY, logReadsPerSecond: 0 });
    const edit = (b: Record<string, unknown>) => Object.assign(b.usage as object, { prompt_tokens_details: { cached_tokens: 1e9 } });
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://mock.local/v1', fetch: rewriting(mock, edit), maxRetries: 0, logger: silentLogger(), cost: true });
    const { cost } = await client.chat.completions.create(ask('gpt-4o-mini')).withResponse();
    expect(cost?.source).toBe('estimated');
    expect(cost?.quota).toBeLessThan(1_000);
  });

  it('a stream left unread is priced at its reservation after its idle timeout: cost() does not wait for ever', async () => {
    const { client } = setup({ budgets: [{ name: 'b', usd: 5, per: 'day' }] });
    const stream = await client.chat.completions.create({ ...ask('gpt-4o-mini', 'Hi', { max_tokens: 100 }), stream: true }, { idleTimeout: 200 });
    const cost = await stream.cost();
    expect(cost).toMatchObject({ source: 'estimated' });
    expect(cost?.quota).toBeGreaterThan(500);
    stream.controller.abort();
  });

  it('a call with a credential of its own is priced, not reconciled with the client key\'s log', async () => {
    const events: CostEvent[] = [];
    const { mock, client } = setup({ onCost: (e) => events.push(e) });
    await client.chat.completions.create(ask('gpt-4o-mini'), { headers: { authorization: `Bearer ${KEY}` } });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(events).toHaveLength(1);
    expect(mock.requests.filter((r) => r.path === '/api/log/token')).toHaveLength(0);
  });
});
