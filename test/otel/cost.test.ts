import { describe, expect, it, vi } from 'vitest';
import { callSpans, otelSDK, tracedClient } from './harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Say something long enough to stream' }], max_tokens: 50 };

const callSpan = (sdk: ReturnType<typeof otelSDK>) => callSpans(sdk.spans()).map((c) => c.call);

describe('openTelemetry(): the cost of a call (cost: true)', () => {
  it("puts a plain call's cost on its span, as withResponse() gives it", async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { client: { cost: true } });
    const { cost } = await client.chat.completions.create(chat).withResponse();
    expect(cost).toMatchObject({ source: 'priced' });
    expect(cost!.quota).toBeGreaterThan(0);
    const [call] = callSpan(sdk);
    expect(call!.attributes).toMatchObject({ 'unified_gateway.cost.quota': cost!.quota, 'unified_gateway.cost.usd': cost!.usd!, 'unified_gateway.cost.source': 'priced' });
  });

  it("puts a stream's cost on its span once the stream has ended", async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { client: { cost: true } });
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    for await (const _ of stream);
    const cost = await stream.cost();
    expect(cost).toMatchObject({ source: 'priced' });
    // The span ends once the stream's call is priced, which its cost() also waits for.
    await vi.waitFor(() => expect(callSpan(sdk)).toHaveLength(1));
    const [call] = callSpan(sdk);
    expect(call!.attributes).toMatchObject({ 'unified_gateway.cost.quota': cost!.quota, 'unified_gateway.cost.usd': cost!.usd!, 'unified_gateway.cost.source': 'priced' });
  });

  it('leaves usd out where the gateway counts in tokens', async () => {
    const sdk = otelSDK();
    const { client, mock } = tracedClient(sdk, { client: { cost: true } });
    // The gateway's /api/status as new-api says it when it shows quota in tokens, not money.
    const fetch: typeof mock.fetch = async (input, init) => {
      const response = await mock.fetch(input, init);
      if (!String(input instanceof Request ? input.url : input).endsWith('/api/status')) return response;
      const body = (await response.json()) as { data: Record<string, unknown> };
      return Response.json({ ...body, data: { ...body.data, quota_display_type: 'TOKENS', display_in_currency: false } });
    };
    const tokensClient = client.withOptions({ fetch });
    const { cost } = await tokensClient.chat.completions.create(chat).withResponse();
    expect(cost).toMatchObject({ usd: null, source: 'priced' });
    const [call] = callSpan(sdk);
    expect(call!.attributes['unified_gateway.cost.quota']).toBe(cost!.quota);
    expect(call!.attributes).not.toHaveProperty('unified_gateway.cost.usd');
  });

  it('adds no cost attribute without cost, or on a gateway that cannot price', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    await client.chat.completions.create(chat);
    const { client: unpriced } = tracedClient(sdk, { client: { cost: true }, mock: { accounting: false } });
    const { cost } = await unpriced.chat.completions.create(chat).withResponse();
    expect(cost).toBeNull();
    for (const call of callSpan(sdk)) expect(Object.keys(call.attributes).filter((k) => k.startsWith('unified_gateway.cost'))).toEqual([]);
  });
});
