import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { ValidationError, type Cost } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { mockProvider } from './helpers.js';

// providerMetadata.unifiedGateway.cost: what a call cost as the gateway bills it, with the
// client's `cost` option (docs/cost.md); for a stream, on its finish part once it has ended.

const prompt: LanguageModelV3CallOptions['prompt'] = [{ role: 'user', content: [{ type: 'text', text: 'Say something long enough to stream' }] }];

async function readAll(stream: ReadableStream<LanguageModelV3StreamPart>): Promise<LanguageModelV3StreamPart[]> {
  const out: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

const priced = { quota: expect.any(Number), usd: expect.any(Number), source: 'priced' };

describe('providerMetadata.unifiedGateway.cost', () => {
  it('generateText: the call cost, as withResponse() gives it', async () => {
    const { gw, client } = mockProvider({}, { cost: true });
    const result = await generateText({ model: gw('gpt-4o-mini'), prompt: 'hello there', maxOutputTokens: 50 });
    const cost = result.providerMetadata?.unifiedGateway?.cost as unknown as Cost;
    expect(cost).toEqual(priced);
    expect(cost.quota).toBeGreaterThan(0);
    // The same request through the client directly costs the same.
    const direct = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello there' }], max_tokens: 50 }).withResponse();
    expect(direct.cost).toEqual(cost);
  });

  it('streamText: on the finish part, once the stream has ended', async () => {
    const { gw } = mockProvider({}, { cost: true });
    const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'stream me some words' });
    const text = await result.text;
    expect(text.length).toBeGreaterThan(0);
    const metadata = await result.providerMetadata;
    expect(metadata?.unifiedGateway?.cost).toEqual(priced);
  });

  it('doStream: the finish part is last and carries the cost; doGenerate the same figure', async () => {
    const { gw } = mockProvider({}, { cost: true });
    const model = gw('gpt-4o-mini');
    const { stream } = await model.doStream({ prompt });
    const parts = await readAll(stream);
    const finish = parts.at(-1);
    expect(finish).toMatchObject({ type: 'finish', providerMetadata: { unifiedGateway: { cost: priced } } });
    const generated = await model.doGenerate({ prompt });
    expect(generated.providerMetadata?.unifiedGateway?.cost).toEqual(priced);
  });

  it('leaves it out without the client’s cost option, as before', async () => {
    const { gw } = mockProvider();
    const generated = await gw('gpt-4o-mini').doGenerate({ prompt });
    expect(generated.providerMetadata).toBeUndefined();
    const parts = await readAll((await gw('gpt-4o-mini').doStream({ prompt })).stream);
    expect(parts.at(-1)).toMatchObject({ type: 'finish' });
    expect(parts.at(-1)).not.toHaveProperty('providerMetadata');
  });

  it('leaves it out where the gateway publishes no prices; the call succeeds', async () => {
    const { gw } = mockProvider({ accounting: false }, { cost: true });
    const generated = await gw('gpt-4o-mini').doGenerate({ prompt });
    expect(generated.content).toEqual([expect.objectContaining({ type: 'text' })]);
    expect(generated.providerMetadata).toBeUndefined();
    const parts = await readAll((await gw('gpt-4o-mini').doStream({ prompt })).stream);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
    expect(parts.at(-1)).not.toHaveProperty('providerMetadata');
  });

  it('a stream cut mid-reply still finishes (no wait past its end), its cost estimated', async () => {
    const mock = createMockGateway({ apiKey: 'test-key' });
    // The reply's first events, then the connection breaks, as undici reports a socket closed mid-body.
    const fetch: typeof mock.fetch = async (input, init) => {
      const response = await mock.fetch(input, init);
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
      const events = (await response.text()).split('\n\n').filter((e) => e.trim());
      const bytes = new TextEncoder().encode(events.slice(0, 3).map((e) => `${e}\n\n`).join(''));
      let sent = false;
      const body = new ReadableStream<Uint8Array>({ pull: (c) => (sent ? c.error(new TypeError('terminated')) : ((sent = true), c.enqueue(bytes))) }, { highWaterMark: 0 });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const costOf = (part: LanguageModelV3StreamPart | undefined) => (part as { providerMetadata?: { unifiedGateway?: { cost?: unknown } } }).providerMetadata?.unifiedGateway?.cost;
    const gw = createUnifiedGateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch, cost: true, maxRetries: 0 });
    const parts = await readAll((await gw('gpt-4o-mini').doStream({ prompt, maxOutputTokens: 50 })).stream);
    expect(parts.map((p) => p.type)).toContain('error');
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'error' } });
    // Cut before its usage, the call is unpriced (the client's stream.cost() is null)…
    expect(costOf(parts.at(-1))).toBeUndefined();
    // …unless a budget reserved its worst case: it counts at that, estimated.
    const budgeted = createUnifiedGateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch, cost: true, maxRetries: 0, budgets: [{ name: 'all', usd: 100, per: 'day' }] });
    const cut = await readAll((await budgeted('gpt-4o-mini').doStream({ prompt, maxOutputTokens: 50 })).stream);
    expect(cut.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'error' } });
    expect(costOf(cut.at(-1))).toMatchObject({ source: 'estimated' });
  });

  it('a stream the caller leaves ends without waiting for its cost', async () => {
    const { gw } = mockProvider({}, { cost: true });
    const { stream } = await gw('gpt-4o-mini').doStream({ prompt });
    const reader = stream.getReader();
    expect((await reader.read()).value).toMatchObject({ type: 'stream-start' });
    await reader.cancel();
    expect(await reader.closed).toBeUndefined();
  });

  it('the provider made from settings takes `cost` with the other client options, checked as the client checks it', async () => {
    const mock = createMockGateway({ apiKey: 'test-key' });
    const gw = createUnifiedGateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, cost: true });
    const generated = await gw('gpt-4o-mini').doGenerate({ prompt });
    expect(generated.providerMetadata?.unifiedGateway?.cost).toEqual(priced);
    expect(() => createUnifiedGateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', cost: 'yes' as unknown as boolean })).toThrow(ValidationError);
  });
});
