import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/index.js';
import { openTelemetry } from '../../src/otel/index.js';
import { createMockGateway } from '../../src/testing/index.js';

// Nothing is registered with @opentelemetry/api in this file (each test file runs alone).
describe('openTelemetry() without an SDK', () => {
  it('lets every call work and throws nothing: spans and metrics go to the API’s no-op providers', async () => {
    const mock = createMockGateway({ apiKey: 'test-key-0123456789' });
    const client = new Gateway({ apiKey: 'test-key-0123456789', baseURL: 'http://gateway.test/v1', fetch: mock.fetch, telemetry: openTelemetry({ captureContent: true }) });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.message.role).toBe('assistant');
    let chunks = 0;
    for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true })) chunks++;
    expect(chunks).toBeGreaterThan(1);
    await expect(client.withOptions({ apiKey: 'wrong-key-0123456' }).chat.completions.create({ model: 'gpt-4o-mini', messages: [] })).rejects.toThrow();
    // No propagator registered: nothing is injected.
    expect(mock.requests[0]?.headers).not.toHaveProperty('traceparent');
  });
});
