import type { Meter, MeterProvider, Tracer, TracerProvider } from '@opentelemetry/api';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Gateway } from '../../src/index.js';
import { openTelemetry, type OpenTelemetryOptions } from '../../src/otel/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { otelSDK } from './harness.js';

const KEY = 'test-key-0123456789';
const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Say something' }] };

/** A span processor that throws where it is told to. */
function throwingProcessor(where: 'onStart' | 'onEnd'): SpanProcessor {
  const boom = () => {
    throw new Error(`processor ${where} failed (${KEY})`);
  };
  return {
    onStart: where === 'onStart' ? boom : () => undefined,
    onEnd: where === 'onEnd' ? boom : () => undefined,
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

const throwingTracer: TracerProvider = {
  getTracer: () =>
    ({
      startSpan: () => {
        throw new Error('tracer failed');
      },
    }) as unknown as Tracer,
};

const throwingMeter: MeterProvider = {
  getMeter: () =>
    ({
      createHistogram: () => ({
        record: () => {
          throw new Error('histogram failed');
        },
      }),
    }) as unknown as Meter,
};

afterEach(() => {
  vi.restoreAllMocks();
});

const cases: Array<[string, () => OpenTelemetryOptions]> = [
  ['a span processor that throws in onStart', () => ({ tracerProvider: new BasicTracerProvider({ spanProcessors: [throwingProcessor('onStart')] }) })],
  ['a span processor that throws in onEnd (after the server answered)', () => ({ tracerProvider: new BasicTracerProvider({ spanProcessors: [throwingProcessor('onEnd')] }) })],
  ['a tracer whose startSpan throws', () => ({ tracerProvider: throwingTracer })],
  ['a meter whose histograms throw', () => ({ tracerProvider: otelSDK().tracerProvider, meterProvider: throwingMeter })],
];

describe('openTelemetry(): telemetry that throws never breaks a call', () => {
  it.each(cases)('%s: calls and streams answer as without telemetry, and it is said once on console.warn', async (_, options) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const mock = createMockGateway({ apiKey: KEY });
    const client = new Gateway({ apiKey: KEY, baseURL: 'http://gateway.test/v1', fetch: mock.fetch, telemetry: openTelemetry(options()) });
    const plain = new Gateway({ apiKey: KEY, baseURL: 'http://gateway.test/v1', fetch: mock.fetch });

    for (let i = 0; i < 3; i++) {
      const completion = await client.chat.completions.create(chat);
      expect(completion.choices[0]?.message.content).toBe((await plain.chat.completions.create(chat)).choices[0]?.message.content);
      let text = '';
      for await (const chunk of await client.chat.completions.create({ ...chat, stream: true })) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(completion.choices[0]?.message.content);
      const failed = await client.withOptions({ apiKey: 'wrong-key-0123456' }).chat.completions.create(chat).catch((e: unknown) => e);
      expect((failed as Error).name).toBe('AuthenticationError');
    }
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]?.[0]);
    expect(line).toMatch(/^\[unified-gateway\] telemetry failed/);
    expect(line).not.toContain(KEY);
  });
});
