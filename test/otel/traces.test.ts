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

  it('reports cached input tokens as gen_ai.usage.cache_read.input_tokens, from chat completions, responses and DeepSeek’s own field', async () => {
    const sdk = otelSDK();
    const usages: Record<string, unknown>[] = [
      { prompt_tokens: 1200, completion_tokens: 5, total_tokens: 1205, prompt_tokens_details: { cached_tokens: 1024 } },
      { prompt_tokens: 900, completion_tokens: 5, total_tokens: 905, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 260 },
    ];
    const fetch = async (url: RequestInfo | URL) => {
      if (String(url).endsWith('/responses')) {
        return Response.json({ id: 'resp_1', object: 'response', model: 'gpt-4o-mini', status: 'completed', output: [], usage: { input_tokens: 2048, output_tokens: 3, total_tokens: 2051, input_tokens_details: { cached_tokens: 1536 } } });
      }
      return Response.json({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: usages.shift() });
    };
    const { client } = tracedClient(sdk, { client: { fetch } });
    await client.chat.completions.create(chat);
    await client.chat.completions.create(chat);
    await client.responses.create({ model: 'gpt-4o-mini', input: 'Hello' });
    expect(callSpans(sdk.spans()).map(({ call }) => [call.attributes['gen_ai.usage.input_tokens'], call.attributes['gen_ai.usage.cache_read.input_tokens']])).toEqual([
      [1200, 1024],
      [900, 640],
      [2048, 1536],
    ]);
  });

  it('names the provider as configured, and adds the deprecated gen_ai.system only with legacyAttributes: true', async () => {
    const sdk = otelSDK();
    await tracedClient(sdk, { otel: { providerName: 'openai' } }).client.chat.completions.create(chat);
    await tracedClient(sdk, { otel: { legacyAttributes: true } }).client.chat.completions.create(chat);
    const [latest, legacy] = callSpans(sdk.spans()).map((c) => c.call);
    expect(latest!.attributes['gen_ai.provider.name']).toBe('openai');
    expect(latest!.attributes).not.toHaveProperty('gen_ai.system');
    expect(legacy!.attributes).toMatchObject({ 'gen_ai.provider.name': 'unified_gateway', 'gen_ai.system': 'unified_gateway' });
    const metrics = await sdk.metrics();
    expect(JSON.stringify(metrics.map((m) => m.dataPoints.filter((p) => p.attributes['gen_ai.provider.name'] === 'openai').map((p) => p.attributes)))).not.toContain('gen_ai.system');
  });

  it('names every operation with a value the GenAI conventions define (images, transcriptions and videos are generate_content)', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await client.chat.completions.create(chat);
    await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Hello' });
    await client.embeddings.create({ model: 'text-embedding-3-small', input: 'Hello' });
    await client.responses.create({ model: 'gpt-4o-mini', input: 'Hello' });
    await client.images.generate({ model: 'dall-e-3', prompt: 'a cat' });
    await client.images.edit({ model: 'dall-e-2', image: new Blob([png], { type: 'image/png' }), prompt: 'add a hat' });
    await client.audio.transcriptions.create({ model: 'whisper-1', file: new File([new Uint8Array([0xff, 0xfb, 0x90, 0x00])], 'a.mp3', { type: 'audio/mpeg' }) });
    await client.videos.create({ model: 'vendor_video2', prompt: 'a paper boat', duration: 5 });
    const calls = callSpans(sdk.spans()).map(({ call }) => [call.name, call.attributes['gen_ai.operation.name'], call.attributes['gen_ai.output.type']]);
    expect(calls).toEqual([
      ['chat gpt-4o-mini', 'chat', undefined],
      ['text_completion gpt-3.5-turbo-instruct', 'text_completion', undefined],
      ['embeddings text-embedding-3-small', 'embeddings', undefined],
      ['chat gpt-4o-mini', 'chat', undefined],
      ['generate_content dall-e-3', 'generate_content', 'image'],
      // Multipart requests: the observer sees no JSON body, so no model (yet).
      ['generate_content', 'generate_content', 'image'],
      ['generate_content', 'generate_content', 'text'],
      ['generate_content vendor_video2', 'generate_content', undefined],
    ]);
    // The values of the conventions' gen_ai.operation.name (semantic-conventions-genai, model/gen-ai/registry.yaml).
    const defined = ['chat', 'generate_content', 'text_completion', 'embeddings', 'retrieval', 'create_agent', 'invoke_agent', 'execute_tool', 'invoke_workflow', 'plan'];
    expect(calls.every(([, operation]) => defined.includes(operation as string))).toBe(true);
  });

  it('names the server a failed call last tried, on its span and its duration metric', async () => {
    const sdk = otelSDK();
    await tracedClient(sdk, { client: { apiKey: 'wrong-key-123456' } }).client.chat.completions.create(chat).catch(() => undefined);
    await tracedClient(sdk, { mock: { faults: [{ type: 'disconnect', times: 5 }] }, client: { maxRetries: 1, backupBaseURL: 'http://backup.test:8080/v1' } }).client.chat.completions.create(chat).catch(() => undefined);
    const [unauthorized, cut] = callSpans(sdk.spans()).map((c) => c.call);
    expect(unauthorized!.attributes).toMatchObject({ 'error.type': 'AuthenticationError', 'server.address': 'gateway.test', 'server.port': 80 });
    expect(cut!.attributes).toMatchObject({ 'error.type': 'APIConnectionError', 'server.address': 'backup.test', 'server.port': 8080 });
    const duration = (await sdk.metrics()).find((m) => m.descriptor.name === 'gen_ai.client.operation.duration')!;
    expect(duration.dataPoints.map((p) => [p.attributes['error.type'], p.attributes['server.address'], p.attributes['server.port']])).toEqual([
      ['AuthenticationError', 'gateway.test', 80],
      ['APIConnectionError', 'backup.test', 8080],
    ]);
  });
});
