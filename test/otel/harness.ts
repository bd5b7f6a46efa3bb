import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Gateway, type GatewayOptions } from '../../src/index.js';
import { openTelemetry, type OpenTelemetryOptions } from '../../src/otel/index.js';
import { createMockGateway, type MockGatewayOptions } from '../../src/testing/index.js';
import { fastRetries } from '../helpers/fixtures.js';

/** A reader the test collects from when it wants, rather than on a timer. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

let contextReady = false;

/** The real SDK: spans into memory, metrics on demand; context through AsyncLocalStorage and W3C propagation, registered once. */
export function otelSDK() {
  if (!contextReady) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    contextReady = true;
  }
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    async metrics(): Promise<MetricData[]> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    },
  };
}

export type OtelSDK = ReturnType<typeof otelSDK>;

/** A client on the mock gateway with telemetry into `sdk`. */
export function tracedClient(sdk: OtelSDK, options: { mock?: MockGatewayOptions; client?: GatewayOptions; otel?: OpenTelemetryOptions } = {}) {
  const mock = createMockGateway({ apiKey: 'test-key-0123456789', ...options.mock });
  const telemetry = openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, ...options.otel });
  const client = new Gateway(fastRetries({ apiKey: 'test-key-0123456789', baseURL: 'http://gateway.test/v1', fetch: mock.fetch, telemetry, ...options.client }));
  return { mock, client };
}

/** The call span (the one without a parent among the exported) and its attempts, in order. */
export function callSpans(spans: ReadableSpan[]) {
  const calls = spans.filter((s) => !spans.some((p) => p.spanContext().spanId === s.parentSpanContext?.spanId));
  return calls.map((call) => ({
    call,
    attempts: spans.filter((s) => s.parentSpanContext?.spanId === call.spanContext().spanId).sort((a, b) => Number(a.attributes['http.request.resend_count'] ?? 0) - Number(b.attributes['http.request.resend_count'] ?? 0)),
  }));
}

/** Everything an exporter would send, as one string: span names, attributes, events, status, links, and metric points. */
export function exported(spans: ReadableSpan[], metrics: MetricData[] = []): string {
  return JSON.stringify({
    spans: spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links, resource: s.resource.attributes })),
    metrics: metrics.map((m) => ({ name: m.descriptor.name, points: m.dataPoints })),
  });
}
