import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/index.js';
import { callSpans, otelSDK, tracedClient } from './harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('openTelemetry(): the response cache and the fleet on the call span', () => {
  it('marks a call the cache answered (nothing sent: no attempt span) and one it sent', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { client: { cache: { store: memoryStore() } } });
    await client.chat.completions.create(chat);
    await client.chat.completions.create(chat);
    const [miss, hit] = callSpans(sdk.spans());
    expect(miss?.call.attributes['unified_gateway.cache']).toBe('miss');
    expect(miss?.attempts).toHaveLength(1);
    expect(hit?.call.attributes['unified_gateway.cache']).toBe('hit');
    expect(hit?.call.attributes['gen_ai.request.model']).toBe('gpt-4o-mini');
    expect(hit?.attempts).toEqual([]);
  });

  it('records what the fleet did as an event', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { client: { limits: { requestsPerMinute: 60 } } });
    await client.chat.completions.create(chat);
    await client.chat.completions.create(chat, { fallbackModels: [] });
    const [, held] = callSpans(sdk.spans());
    expect(held?.call.events.map((e) => [e.name, e.attributes?.['unified_gateway.fleet.event']])).toContainEqual(['unified_gateway.fleet', 'held']);
  }, 10_000);
});
