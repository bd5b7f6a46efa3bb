// OpenTelemetry: traces and metrics of a call that retried, failed over and fell back, exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (or to a local receiver that prints them).
// Needs: npm install @opentelemetry/api @opentelemetry/sdk-trace-base @opentelemetry/sdk-metrics
//        @opentelemetry/exporter-trace-otlp-http @opentelemetry/exporter-metrics-otlp-http
// Runs against two local mock gateways (faults cannot be scripted on the real service).
import { createServer } from 'node:http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Gateway } from 'unified-gateway';
import { openTelemetry } from 'unified-gateway/otel';
import { createMockGateway } from 'unified-gateway/testing';

// Any OTLP/HTTP backend (a Collector, Jaeger, Grafana, Honeycomb, Langfuse...) at the standard
// variable; without it, a receiver on 127.0.0.1 stands in and prints what it got.
const given = process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
const receiver = given ? undefined : await startReceiver();
const endpoint = given || receiver!.url;
console.log(`exporting to ${endpoint}`);

const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] });
const reader = new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }), exportIntervalMillis: 60_000 });
const meterProvider = new MeterProvider({ readers: [reader] });

const main = createMockGateway({ apiKey: 'demo-key' });
const backup = createMockGateway({ apiKey: 'demo-key' });
const [mainServer, backupServer] = await Promise.all([main.listen(), backup.listen()]);
const client = new Gateway({
  apiKey: 'demo-key',
  baseURL: mainServer.url,
  backupBaseURL: backupServer.url,
  maxRetries: 1,
  fallbackModels: { 'gpt-4o': ['gpt-4o-mini'] },
  telemetry: openTelemetry({ tracerProvider, meterProvider }),
});

// The main base is down, and gpt-4o is unavailable on the backup: the call retries on the
// backup, falls back to gpt-4o-mini, and its trace shows every step.
main.inject({ type: 'disconnect' });
backup.inject({ type: 'unavailable', times: 1 });
const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }] });
console.log(`answered by ${completion.model}`);

// A stream: its span ends with the stream and records the time to the first chunk.
for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Stream this' }], stream: true }));

await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown(), mainServer.close(), backupServer.close()]);
if (receiver) {
  receiver.print();
  await receiver.close();
}

/** A minimal OTLP/HTTP (JSON) receiver on 127.0.0.1 that prints the trace as a tree, and the metric names. */
async function startReceiver() {
  type Attribute = { key: string; value: Record<string, unknown> };
  type Span = { name: string; spanId: string; parentSpanId?: string; attributes?: Attribute[] };
  const spans: Span[] = [];
  const metrics = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const data = JSON.parse(body || '{}') as { resourceSpans?: { scopeSpans: { spans: Span[] }[] }[]; resourceMetrics?: { scopeMetrics: { metrics: { name: string }[] }[] }[] };
      for (const r of data.resourceSpans ?? []) for (const s of r.scopeSpans) spans.push(...s.spans);
      for (const r of data.resourceMetrics ?? []) for (const s of r.scopeMetrics) for (const m of s.metrics) metrics.add(m.name);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const shown = ['gen_ai.response.model', 'server.port', 'http.response.status_code', 'http.request.resend_count', 'error.type', 'gen_ai.usage.output_tokens', 'gen_ai.response.time_to_first_chunk'];
  const describe = (span: Span) =>
    (span.attributes ?? [])
      .filter((a) => shown.includes(a.key))
      .map((a) => `${a.key}=${String(Object.values(a.value)[0])}`)
      .join(' ');
  return {
    url: `http://127.0.0.1:${port}`,
    print() {
      const print = (span: Span, depth: number) => {
        console.log(`${'  '.repeat(depth)}${span.name}  ${describe(span)}`);
        for (const child of spans.filter((s) => s.parentSpanId === span.spanId)) print(child, depth + 1);
      };
      for (const root of spans.filter((s) => !s.parentSpanId)) print(root, 0);
      console.log(`metrics: ${[...metrics].sort().join(', ')}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
