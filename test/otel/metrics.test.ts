import type { Meter, MeterProvider } from '@opentelemetry/api';
import type { HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { DURATION_BUCKETS, TOKEN_BUCKETS } from '../../src/otel/names.js';
import { otelSDK, tracedClient } from './harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello' }] };

describe('openTelemetry(): metrics', () => {
  it('records the conventions’ client metrics after several calls, with their bucket boundaries', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { client: { apiKey: 'test-key-0123456789' } });
    const answers = [await client.chat.completions.create(chat), await client.chat.completions.create(chat), await client.chat.completions.create({ ...chat, model: 'gpt-4o' })];
    const stream = await client.chat.completions.create({ ...chat, stream: true });
    let chunks = 0;
    for await (const _ of stream) chunks++;
    const failing = tracedClient(sdk, { client: { apiKey: 'wrong-key-0123456' } });
    await failing.client.chat.completions.create(chat).catch(() => undefined);

    const byName = new Map((await sdk.metrics()).map((m) => [m.descriptor.name, m as HistogramMetricData]));
    const duration = byName.get('gen_ai.client.operation.duration')!;
    expect(duration.descriptor.unit).toBe('s');
    const points = duration.dataPoints.map((p) => ({ attributes: p.attributes, count: p.value.count, boundaries: p.value.buckets.boundaries }));
    expect(points).toEqual(
      expect.arrayContaining([
        { attributes: expect.objectContaining({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-mini', 'server.address': 'gateway.test' }), count: 3, boundaries: DURATION_BUCKETS },
        { attributes: expect.objectContaining({ 'gen_ai.request.model': 'gpt-4o', 'gen_ai.response.model': 'gpt-4o' }), count: 1, boundaries: DURATION_BUCKETS },
        { attributes: expect.objectContaining({ 'gen_ai.request.model': 'gpt-4o-mini', 'error.type': 'AuthenticationError' }), count: 1, boundaries: DURATION_BUCKETS },
      ]),
    );
    expect(points.reduce((n, p) => n + p.count, 0)).toBe(5);

    const tokens = byName.get('gen_ai.client.token.usage')!;
    expect(tokens.descriptor.unit).toBe('{token}');
    const input = tokens.dataPoints.filter((p) => p.attributes['gen_ai.token.type'] === 'input');
    const output = tokens.dataPoints.filter((p) => p.attributes['gen_ai.token.type'] === 'output');
    expect(input.reduce((n, p) => n + p.value.count, 0)).toBe(4);
    expect(output.reduce((n, p) => n + p.value.count, 0)).toBe(4);
    const nonStreamed = answers.reduce((n, a) => n + (a.usage?.prompt_tokens ?? 0), 0);
    expect(input.reduce((n, p) => n + (p.value.sum ?? 0), 0)).toBeGreaterThan(nonStreamed);
    expect(tokens.dataPoints.every((p) => JSON.stringify(p.value.buckets.boundaries) === JSON.stringify(TOKEN_BUCKETS))).toBe(true);

    const first = byName.get('gen_ai.client.operation.time_to_first_chunk')!;
    expect(first.dataPoints.map((p) => p.value.count)).toEqual([1]);
    expect(first.dataPoints[0]!.value.buckets.boundaries).toEqual(DURATION_BUCKETS);
    const perChunk = byName.get('gen_ai.client.operation.time_per_output_chunk')!;
    expect(perChunk.dataPoints.map((p) => p.value.count)).toEqual([chunks - 1]);
  });
});

describe('openTelemetry(): per stream frame', () => {
  it('records each chunk with one attributes object made for the whole stream, not new ones per frame (bench: npm run bench:otel)', async () => {
    const seen: Array<{ name: string; attributes: unknown }> = [];
    const meterProvider: MeterProvider = {
      getMeter: () =>
        ({
          createHistogram: (name: string) => ({ record: (_value: number, attributes: unknown) => seen.push({ name, attributes }) }),
        }) as unknown as Meter,
    };
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { otel: { meterProvider } });
    let chunks = 0;
    for await (const _ of await client.chat.completions.create({ ...chat, stream: true })) chunks++;
    const perChunk = seen.filter((s) => s.name === 'gen_ai.client.operation.time_per_output_chunk');
    expect(perChunk).toHaveLength(chunks - 1);
    expect(new Set(perChunk.map((s) => s.attributes)).size).toBe(1);
    const first = seen.find((s) => s.name === 'gen_ai.client.operation.time_to_first_chunk');
    expect(first?.attributes).toBe(perChunk[0]?.attributes);
    expect(first?.attributes).toMatchObject({ 'gen_ai.response.model': 'gpt-4o-mini', 'server.address': 'gateway.test' });
  });
});
