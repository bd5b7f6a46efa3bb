import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { AuthenticationError, Gateway, memoryStore, type GatewayOptions, type Logger, type Store } from '../../src/index.js';
import type { GatewayPricing, PricingEntry } from '../../src/core/gateway-info/gateway-info.js';
import { createMockGateway, type MockGateway, type Served } from '../../src/testing/index.js';
import { strictCatalog } from '../../src/testing/catalog.js';
import { fastRetries } from '../helpers/fixtures.js';
import { httpServer, type LoopbackServer } from '../helpers/sockets.js';

// readGatewayInfo against the mock over real HTTP on 127.0.0.1: new-api's /api/pricing and
// /api/status at the origin's root, shared per client and, through a store, per fleet.

const KEY = 'sk-pricing-secret-0123456789';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function served(catalog: 'default' | 'strict' = 'default'): Promise<{ mock: MockGateway; server: Served }> {
  const mock = createMockGateway({ apiKey: KEY, catalog });
  const server = await mock.listen();
  open.push(server);
  return { mock, server };
}

function silentLogger() {
  return { error: vi.fn<(line: string) => void>(), warn: vi.fn<(line: string) => void>(), info: vi.fn<(line: string) => void>(), debug: vi.fn<(line: string) => void>() } satisfies Logger;
}

function gateway(baseURL: string, options: GatewayOptions = {}): Gateway {
  return new Gateway(fastRetries({ apiKey: KEY, baseURL, maxRetries: 0, logger: silentLogger(), ...options }));
}

const read = (client: Gateway, signal?: AbortSignal) => client.models._gatewayInfo({ signal });
const pricingRequests = (mock: MockGateway) => mock.requests.filter((r) => r.path === '/api/pricing').length;

/** A store that records every key and value written, and can be told what its reads of the table answer. */
function recordingStore(inner: Store = memoryStore()) {
  const written: Array<{ key: string; value: string }> = [];
  const state: { tableRead?: string | null | undefined; lockTaken?: boolean } = {};
  const store: Store = {
    async get(keys) {
      const values = await inner.get(keys);
      return keys.map((key, i) => (state.tableRead !== undefined && key.endsWith(':pricing') ? state.tableRead : (values[i] ?? null)));
    },
    async set(key, value, options) {
      written.push({ key, value });
      if (state.lockTaken && options.ifAbsent) return false;
      return inner.set(key, value, options);
    },
    delete: (keys) => inner.delete(keys),
    take: (key, take) => inner.take(key, take),
  };
  return { store, written, state };
}

describe('readGatewayInfo', () => {
  it('reads the price table and quota unit from the origin root, typed, with the key', async () => {
    const { mock, server } = await served('strict');
    const info = await read(gateway(server.url));
    expectTypeOf(info).toEqualTypeOf<GatewayPricing | null>();
    expect(info).not.toBeNull();
    const table = info as GatewayPricing;
    expectTypeOf(table.models.get('x')).toEqualTypeOf<PricingEntry | undefined>();
    expect(table.models.get('gpt-4o')).toEqual({
      modelName: 'gpt-4o',
      quotaType: 0,
      modelRatio: 1.25,
      modelPrice: 0,
      completionRatio: 4,
      cacheRatio: 0.5,
      enableGroups: ['default'],
      supportedEndpointTypes: ['openai'],
    });
    expect(table.models.get('o3-pro')?.supportedEndpointTypes).toEqual(['openai-response']);
    expect(table.models.get('gpt-5-codex')?.supportedEndpointTypes).toEqual(['openai-response']);
    expect(table.models.get('text-embedding-3-small')?.supportedEndpointTypes).toEqual(['embeddings']);
    expect(table.models.get('dall-e-3')).toMatchObject({ quotaType: 1, modelPrice: 0.04, supportedEndpointTypes: ['image-generation'] });
    expect(table.models.get('vendor_video2')).toMatchObject({ quotaType: 1, modelPrice: 0.5, supportedEndpointTypes: ['openai-video'] });
    expect(table.models.size).toBe(strictCatalog().length);
    expect(table).toMatchObject({ groupRatio: { default: 1 }, usableGroups: { default: 'Default group' }, quotaPerUnit: 500_000, displayType: 'USD' });
    expect(Number.isFinite(table.fetchedAt)).toBe(true);
    expect(mock.requests.map((r) => [r.method, r.path, r.authorized]).sort()).toEqual([
      ['GET', '/api/pricing', true],
      ['GET', '/api/status', true],
    ]);
  });

  it('serves every model of the catalogue in the mock table', async () => {
    const { server } = await served();
    const info = (await read(gateway(server.url))) as GatewayPricing;
    const listed = await gateway(server.url).models.list();
    expect([...info.models.keys()].sort()).toEqual(listed.data.map((m) => m.id).sort());
  });

  it('makes one request for two calls at once', async () => {
    const { mock, server } = await served();
    const client = gateway(server.url);
    const [a, b] = await Promise.all([read(client), read(client)]);
    expect(a).toBe(b);
    expect(pricingRequests(mock)).toBe(1);
  });

  it('answers from memory for 60 s, then asks again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 });
    const { mock, server } = await served();
    const client = gateway(server.url);
    const first = await read(client);
    vi.setSystemTime(1_000_000 + 59_000);
    expect(await read(client)).toBe(first);
    expect(pricingRequests(mock)).toBe(1);
    vi.setSystemTime(1_000_000 + 60_001);
    const again = await read(client);
    expect(again).not.toBe(first);
    expect(pricingRequests(mock)).toBe(2);
  });

  it('a caller that aborts leaves; the others still get the table', async () => {
    const { server } = await served();
    const client = gateway(server.url);
    const controller = new AbortController();
    const leaving = read(client, controller.signal);
    const staying = read(client);
    controller.abort();
    await expect(leaving).rejects.toMatchObject({ name: 'APIUserAbortError' });
    expect(await staying).not.toBeNull();
  });
});

describe('readGatewayInfo with a store (a fleet)', () => {
  it('lets one process of two fetch; the other reads its copy', async () => {
    const { mock, server } = await served();
    const store = memoryStore();
    const [a, b] = await Promise.all([read(gateway(server.url, { store })), read(gateway(server.url, { store }))]);
    expect(pricingRequests(mock)).toBe(1);
    expect(a?.models.get('gpt-4o')).toEqual(b?.models.get('gpt-4o'));
    expect(b?.fetchedAt).toBe(a?.fetchedAt);
    // A third process, later: the store answers.
    expect((await read(gateway(server.url, { store })))?.quotaPerUnit).toBe(500_000);
    expect(pricingRequests(mock)).toBe(1);
  });

  it('does not share a table between two keys', async () => {
    const mock = createMockGateway({ apiKey: KEY });
    const server = await mock.listen();
    open.push(server);
    const store = memoryStore();
    await read(gateway(server.url, { store }));
    await read(gateway(server.url, { store, apiKey: `${KEY}-other` })).catch(() => undefined);
    expect(pricingRequests(mock)).toBe(2);
  });

  it('fetches itself after a bounded wait when the lock holder never writes', async () => {
    const { mock, server } = await served();
    const { store, state } = recordingStore();
    state.lockTaken = true;
    const started = Date.now();
    const info = await read(gateway(server.url, { store }));
    expect(info?.models.size).toBeGreaterThan(0);
    expect(pricingRequests(mock)).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('never writes the key or the base URL into the store', async () => {
    const { server } = await served();
    const { store, written } = recordingStore();
    await read(gateway(server.url, { store }));
    expect(written.length).toBeGreaterThan(0);
    for (const { key, value } of written) {
      for (const secret of [KEY, server.url, '127.0.0.1']) {
        expect(key).not.toContain(secret);
        expect(value).not.toContain(secret);
      }
    }
  });

  it('takes garbage in the store for a miss, never a crash', async () => {
    const { server } = await served();
    const { store, written } = recordingStore();
    await read(gateway(server.url, { store }));
    const good = JSON.parse(written.find((w) => w.key.endsWith(':pricing'))?.value ?? 'null') as { v: number; at: number; pricing: { data: Array<Record<string, unknown>> }; status: { data: Record<string, unknown> } };
    expect(good.v).toBe(1);
    const garbage: Array<string | null> = [
      null,
      '{}',
      'null',
      '[]',
      'not json {',
      '"a string"',
      JSON.stringify({ ...good, v: 2 }),
      JSON.stringify({ ...good, at: 1e308 }),
      JSON.stringify({ ...good, at: Date.now() - 3_600_000 }),
      JSON.stringify({ ...good, pricing: { success: true, data: 'no' } }),
      JSON.stringify({ ...good, status: { success: true, data: { quota_per_unit: 1e300 } } }),
      JSON.stringify({ ...good, status: { success: true, data: { quota_per_unit: -1 } } }),
      JSON.stringify({ ...good, pricing: null }),
    ];
    for (const text of garbage) {
      const mock = createMockGateway({ apiKey: KEY });
      const fresh = await mock.listen();
      open.push(fresh);
      const bad = recordingStore();
      bad.state.tableRead = text;
      const info = await read(gateway(fresh.url, { store: bad.store }));
      expect(info?.quotaPerUnit, String(text)).toBe(500_000);
      expect(info?.models.get('gpt-4o')?.modelRatio, String(text)).toBe(1.25);
      expect(pricingRequests(mock), String(text)).toBe(1);
    }
  });

  it('believes a stored copy, but drops its entries with numbers out of bounds', async () => {
    const { mock, server } = await served();
    const { store, written, state } = recordingStore();
    await read(gateway(server.url, { store }));
    const good = JSON.parse(written.find((w) => w.key.endsWith(':pricing'))?.value ?? 'null') as { pricing: { data: Array<Record<string, unknown>> } };
    good.pricing.data = good.pricing.data.map((e) => (e.model_name === 'gpt-4o' ? { ...e, model_ratio: 1e300 } : e.model_name === 'gpt-4o-mini' ? { ...e, completion_ratio: 7 } : e));
    state.tableRead = JSON.stringify(good);
    const info = await read(gateway(server.url, { store }));
    expect(pricingRequests(mock)).toBe(1);
    expect(info?.models.has('gpt-4o')).toBe(false);
    expect(info?.models.get('gpt-4o-mini')?.completionRatio).toBe(7);
  });
});

describe('readGatewayInfo on a gateway without the endpoints', () => {
  const answers: Record<string, (res: import('node:http').ServerResponse) => void> = {
    '404 JSON': (res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"Invalid URL (GET /api/pricing)","type":"invalid_request_error"}}'),
    '200 HTML (a web app for every path)': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>app</body></html>'),
    'success: false': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":false,"message":"disabled"}'),
    '403 success: false': (res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{"success":false,"message":"login required"}'),
  };
  for (const [name, answer] of Object.entries(answers)) {
    it(`gives null and warns once per client: ${name}`, async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: 5_000_000 });
      const server: LoopbackServer = await httpServer((_req, res) => answer(res));
      open.push(server);
      const logger = silentLogger();
      const client = gateway(server.url, { logger, logLevel: 'warn' });
      expect(await read(client)).toBeNull();
      expect(await read(client)).toBeNull();
      vi.setSystemTime(5_000_000 + 61_000);
      expect(await read(client)).toBeNull();
      const warnings = logger.warn.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('/api/pricing'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).not.toContain(KEY);
    });
  }

  it('keeps a table whose /api/status is missing, with the default unit', async () => {
    const { server: mockServer } = await served();
    const server = await httpServer((req, res) => {
      if (req.url === '/api/status') return res.writeHead(404).end();
      void fetch(`${mockServer.url.replace(/\/v1$/, '')}${req.url}`, { headers: { authorization: `Bearer ${KEY}` } }).then(async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text()));
    });
    open.push(server);
    const info = await read(gateway(server.url));
    expect(info).toMatchObject({ quotaPerUnit: 500_000, displayType: null });
    expect(info?.models.get('gpt-4o')?.modelRatio).toBe(1.25);
  });

  it('drops an entry that breaks a rule, not the table, and reads at most 10,000', async () => {
    const entry = (name: string, extra: Record<string, unknown> = {}) => ({ model_name: name, quota_type: 0, model_ratio: 1, model_price: 0, completion_ratio: 2, enable_groups: ['default'], supported_endpoint_types: null, ...extra });
    const data = [
      entry('fine', { unknown_field: { deep: true }, billing_mode: 'tiered_expr', billing_expr: 'p * 2' }),
      entry('string-ratio', { model_ratio: '1' }),
      entry('infinite', { completion_ratio: 1e400 }),
      entry('negative', { model_ratio: -1 }),
      entry('quota-type-2', { quota_type: 2 }),
      entry(''),
      'not an entry',
      ...Array.from({ length: 10_050 }, (_, i) => entry(`bulk-${i}`)),
    ];
    const body = JSON.stringify({ success: true, data, group_ratio: { default: 1, vip: 1e300, bad: 'x' }, usable_group: { default: 'd' } });
    const server = await httpServer((req, res) => {
      if (req.url === '/api/status') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"quota_per_unit":1000000,"display_in_currency":false}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    open.push(server);
    const info = (await read(gateway(server.url))) as GatewayPricing;
    expect(info.models.get('fine')).toEqual({ modelName: 'fine', quotaType: 0, modelRatio: 1, modelPrice: 0, completionRatio: 2, enableGroups: ['default'], supportedEndpointTypes: [], billingMode: 'tiered_expr', billingExpr: 'p * 2' });
    for (const dropped of ['string-ratio', 'infinite', 'negative', 'quota-type-2', '']) expect(info.models.has(dropped)).toBe(false);
    // The first 10,000 items of data: 7 before the bulk, 6 of them not entries or broken.
    expect(info.models.size).toBe(1 + 10_000 - 7);
    expect(info.groupRatio).toEqual({ default: 1 });
    expect(info).toMatchObject({ quotaPerUnit: 1_000_000, displayType: 'TOKENS' });
  });
});

describe('readGatewayInfo with a bad key', () => {
  it('rejects with AuthenticationError, the key out of it, and tries again only after 10 s', async () => {
    const { mock, server } = await served();
    const client = gateway(server.url, { apiKey: 'sk-wrong-key-9876543210' });
    const error = await read(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401 });
    expect(String(error)).not.toContain('sk-wrong-key-9876543210');
    expect(JSON.stringify(error)).not.toContain('sk-wrong-key-9876543210');
    // Within 10 s the failure is given at once, with nothing sent; a client withOptions() makes shares it.
    expect(await read(client).catch((e: unknown) => e)).toBe(error);
    expect(await read(client.withOptions({ timeout: 5_000 })).catch((e: unknown) => e)).toBe(error);
    expect(pricingRequests(mock)).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 10_001);
      await read(client).catch(() => undefined);
    } finally {
      vi.useRealTimers();
    }
    expect(pricingRequests(mock)).toBe(2);
  });
});
