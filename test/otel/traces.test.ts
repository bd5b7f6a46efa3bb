import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { callSpans, otelSDK, tracedClient } from './harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hello there' }] };

describe('openTelemetry(): a call', () => {
  it('is one CLIENT span named `{operation} {model}` with the GenAI attributes, and one child span per HTTP attempt', async () => {
    const sdk = otelSDK();
    const { client, mock } = tracedClient(sdk);
    const completion = await client.chat.completions.create({ ...chat, temperature: 0.2, top_p: 0.9, max_tokens: 50, stop: 'END', seed: 7, frequency_penalty: 0.1, presence_penalty: 0.3 });
    const [only, ...others] = callSpans(sdk.spans());
    expect(others).toEqual([]);
    const { call, attempts } = only!;
    expect(call.name).toBe('chat gpt-4o-mini');
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'unified_gateway',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.request.max_tokens': 50,
      'gen_ai.request.stop_sequences': ['END'],
      'gen_ai.request.seed': 7,
      'gen_ai.request.frequency_penalty': 0.1,
      'gen_ai.request.presence_penalty': 0.3,
      'gen_ai.response.id': completion.id,
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': completion.usage?.prompt_tokens,
      'gen_ai.usage.output_tokens': completion.usage?.completion_tokens,
      'server.address': 'gateway.test',
      'server.port': 80,
    });
    expect(call.attributes).not.toHaveProperty('gen_ai.request.stream');
    expect(call.attributes).not.toHaveProperty('gen_ai.input.messages');
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    expect(attempt!.name).toBe('POST /v1/chat/completions');
    expect(attempt!.kind).toBe(SpanKind.CLIENT);
    expect(attempt!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.full': 'http://gateway.test/v1/chat/completions',
      'http.response.status_code': 200,
      'server.address': 'gateway.test',
      'server.port': 80,
    });
    expect(attempt!.attributes).not.toHaveProperty('http.request.resend_count');
    // W3C trace context on the attempt: this attempt's span as the parent of whatever the server does.
    const sent = mock.requests.at(-1)!;
    expect(sent.headers.traceparent).toBe(`00-${attempt!.spanContext().traceId}-${attempt!.spanContext().spanId}-01`);
  });

  it('is a child of the span active where the call was made', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const outer = sdk.tracerProvider.getTracer('app').startSpan('handler');
    await context.with(trace.setSpan(context.active(), outer), () => client.chat.completions.create(chat));
    outer.end();
    const call = sdk.spans().find((s) => s.name === 'chat gpt-4o-mini')!;
    expect(call.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(outer.spanContext().traceId);
  });

  it('shows each retry as an attempt with its status and resend count', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { mock: { faults: [{ type: 'server_error' }, { type: 'rate_limit', retryAfterMs: 0 }] } });
    await client.chat.completions.create(chat);
    const [{ call, attempts }] = callSpans(sdk.spans()) as [ReturnType<typeof callSpans>[number]];
    expect(attempts.map((a) => [a.attributes['http.request.resend_count'], a.attributes['http.response.status_code'], a.attributes['error.type'], a.status.code])).toEqual([
      [undefined, 500, '500', SpanStatusCode.ERROR],
      [1, 429, '429', SpanStatusCode.ERROR],
      [2, 200, undefined, SpanStatusCode.UNSET],
    ]);
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(new Set(attempts.map((a) => a.spanContext().traceId))).toEqual(new Set([call.spanContext().traceId]));
  });

  it('shows the failover to the backup base: the attempt that failed, the one that served, and the serving base on the call', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { mock: { faults: [{ type: 'disconnect' }] }, client: { backupBaseURL: 'http://backup.test:8080/v1' } });
    await client.chat.completions.create(chat);
    const [{ call, attempts }] = callSpans(sdk.spans()) as [ReturnType<typeof callSpans>[number]];
    expect(attempts.map((a) => [a.attributes['server.address'], a.attributes['error.type'] ?? a.attributes['http.response.status_code']])).toEqual([
      ['gateway.test', 'APIConnectionError'],
      ['backup.test', 200],
    ]);
    expect(attempts[1]!.attributes['url.full']).toBe('http://backup.test:8080/v1/chat/completions');
    expect(call.attributes).toMatchObject({ 'server.address': 'backup.test', 'server.port': 8080 });
  });

  it('shows a model fallback: an event on the call span, each attempt with its model, and the answering model as gen_ai.response.model', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { mock: { faults: [{ type: 'unavailable', times: 2 }] }, client: { maxRetries: 1, fallbackModels: { 'gpt-4o-mini': ['gpt-4o'] } } });
    const completion = await client.chat.completions.create(chat);
    expect(completion.model).toBe('gpt-4o');
    const [{ call, attempts }] = callSpans(sdk.spans()) as [ReturnType<typeof callSpans>[number]];
    expect(call.name).toBe('chat gpt-4o-mini');
    expect(call.attributes).toMatchObject({ 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o' });
    expect(call.events.map((e) => [e.name, e.attributes])).toEqual([['unified_gateway.model_fallback', { 'unified_gateway.fallback.from': 'gpt-4o-mini', 'unified_gateway.fallback.to': 'gpt-4o' }]]);
    expect(attempts.map((a) => [a.attributes['gen_ai.request.model'], a.attributes['http.response.status_code']])).toEqual([
      ['gpt-4o-mini', 503],
      ['gpt-4o-mini', 503],
      ['gpt-4o', 200],
    ]);
  });

  it('ends with an ERROR status and error.type on a 401', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { client: { apiKey: 'wrong-key-123456' } });
    const error = await client.chat.completions.create(chat).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const [{ call, attempts }] = callSpans(sdk.spans()) as [ReturnType<typeof callSpans>[number]];
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(call.attributes['error.type']).toBe('AuthenticationError');
    expect(attempts.map((a) => [a.attributes['http.response.status_code'], a.attributes['error.type']])).toEqual([[401, '401']]);
  });

  it('traces embeddings, with input tokens and no content even when content is captured', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { otel: { captureContent: true } });
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a secret sentence'], dimensions: 8, encoding_format: 'float' });
    const [{ call }] = callSpans(sdk.spans()) as [ReturnType<typeof callSpans>[number]];
    expect(call.name).toBe('embeddings text-embedding-3-small');
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.embeddings.dimension.count': 8,
      'gen_ai.request.encoding_formats': ['float'],
      'gen_ai.usage.input_tokens': result.usage.prompt_tokens,
      'gen_ai.response.model': 'text-embedding-3-small',
    });
    expect(JSON.stringify(call.attributes)).not.toContain('a secret sentence');
  });

  it('carries over to a client made with withOptions()', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    await client.withOptions({ maxRetries: 0 }).chat.completions.create(chat);
    expect(callSpans(sdk.spans()).map(({ call }) => call.name)).toEqual(['chat gpt-4o-mini']);
  });

  it('leaves calls that are not model operations (the catalogue) untraced', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    await client.models.list();
    expect(sdk.spans()).toEqual([]);
  });

  it('names the provider as configured, and adds gen_ai.system unless OTEL_SEMCONV_STABILITY_OPT_IN asks for the latest conventions only', async ({ expect }) => {
    const sdk = otelSDK();
    await tracedClient(sdk, { otel: { providerName: 'openai' } }).client.chat.completions.create(chat);
    const first = callSpans(sdk.spans())[0]!.call;
    expect(first.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.system': 'openai' });

    const latest = otelSDK();
    process.env.OTEL_SEMCONV_STABILITY_OPT_IN = 'http, gen_ai_latest_experimental';
    try {
      await tracedClient(latest).client.chat.completions.create(chat);
    } finally {
      delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
    }
    const call = callSpans(latest.spans())[0]!.call;
    expect(call.attributes['gen_ai.provider.name']).toBe('unified_gateway');
    expect(call.attributes).not.toHaveProperty('gen_ai.system');
  });
});
