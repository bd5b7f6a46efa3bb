import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/index.js';
import { openTelemetry } from '../../src/otel/index.js';
import { httpServer, type LoopbackServer } from '../helpers/sockets.js';
import { sseText } from '../helpers/sse.js';
import { otelSDK, type OtelSDK } from './harness.js';

// Node's fetch (undici) traced by the standard instrumentation, against a real server on
// 127.0.0.1 that records the trace headers it receives.

const KEY = 'test-key-0123456789';
const completion = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } };
const chunk = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: 'Hi.' }, finish_reason: 'stop' }] };

let server: LoopbackServer;
const received: string[][] = [];

beforeAll(async () => {
  server = await httpServer((req, res) => {
    // Every traceparent as sent: a repeated header is two entries.
    const values: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'traceparent') values.push(req.rawHeaders[i + 1]!);
    received.push(values);
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => {
      if ((JSON.parse(body) as { stream?: boolean }).stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sseText([chunk]));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completion));
      }
    });
  });
});
afterAll(() => server.close());
afterEach(() => {
  received.length = 0;
});

const client = (sdk: OtelSDK) => new Gateway({ apiKey: KEY, baseURL: server.url, maxRetries: 0, telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }) });

/** The spans of one call: ours (call and attempt) and the fetch instrumentation's HTTP span. */
function spansOf(sdk: OtelSDK) {
  const spans = sdk.spans();
  const scope = (s: ReadableSpan) => s.instrumentationScope.name;
  const call = spans.find((s) => scope(s) === 'unified-gateway' && s.name.startsWith('chat '))!;
  const attempt = spans.find((s) => scope(s) === 'unified-gateway' && s.name.startsWith('POST '))!;
  const http = spans.filter((s) => scope(s) === '@opentelemetry/instrumentation-undici');
  return { call, attempt, http };
}

describe('openTelemetry() with the fetch (undici) instrumentation on', () => {
  // Enabled from here on for the rest of this file (diagnostics_channel subscriptions).
  const undici = new UndiciInstrumentation();
  afterAll(() => undici.disable());

  it.each([
    ['a call', false],
    ['a stream', true],
  ])('%s: the gateway gets one traceparent, of the HTTP span, which is a child of the attempt span', async (_, stream) => {
    const sdk = otelSDK();
    undici.setTracerProvider(sdk.tracerProvider);
    if (stream) for await (const _c of await client(sdk).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true }));
    else await client(sdk).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    const { call, attempt, http } = spansOf(sdk);
    expect(received).toHaveLength(1);
    expect(received[0]).toHaveLength(1);
    expect(http).toHaveLength(1);
    const [httpSpan] = http;
    expect(httpSpan!.parentSpanContext?.spanId).toBe(attempt.spanContext().spanId);
    expect(attempt.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(new Set([call, attempt, httpSpan!].map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(received[0]![0]).toBe(`00-${call.spanContext().traceId}-${httpSpan!.spanContext().spanId}-01`);
  });
});

describe('openTelemetry() without a fetch instrumentation', () => {
  it('sends one traceparent: the attempt span’s own', async () => {
    const sdk = otelSDK();
    await client(sdk).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    const { call, attempt, http } = spansOf(sdk);
    expect(http).toEqual([]);
    expect(received).toEqual([[`00-${call.spanContext().traceId}-${attempt.spanContext().spanId}-01`]]);
  });
});
