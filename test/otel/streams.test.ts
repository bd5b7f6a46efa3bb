import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, Gateway } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { callSpans, otelSDK, tracedClient } from './harness.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Say something long enough to stream' }], stream: true as const };

const callSpan = (sdk: ReturnType<typeof otelSDK>) => callSpans(sdk.spans()).map((c) => c.call);

describe('openTelemetry(): a stream', () => {
  it('keeps its span open while it is read and ends it at [DONE], with usage it asked for and the time to the first chunk', async () => {
    const sdk = otelSDK();
    const { client, mock } = tracedClient(sdk);
    const stream = await client.chat.completions.create(chat);
    // Only the attempt has ended: its first bytes arrived.
    expect(sdk.spans().map((s) => s.name)).toEqual(['POST /v1/chat/completions']);
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]!.delta.content ?? '';
    expect(mock.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // The usage the mock computes for this reply, as a call that asks for it itself sees it.
    let usage: unknown;
    for await (const chunk of await client.chat.completions.create({ ...chat, stream_options: { include_usage: true } })) usage ??= chunk.usage ?? undefined;
    const [call] = callSpan(sdk);
    expect(call!.status.code).toBe(SpanStatusCode.UNSET);
    expect(call!.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': (usage as { prompt_tokens: number }).prompt_tokens,
      'gen_ai.usage.output_tokens': (usage as { completion_tokens: number }).completion_tokens,
    });
    expect(call!.attributes['gen_ai.response.id']).toMatch(/^chatcmpl-/);
    expect(call!.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThanOrEqual(0);
    expect(call!.attributes).not.toHaveProperty('unified_gateway.stream.left');
    expect(text.length).toBeGreaterThan(0);
  });

  it('asks for nothing more without telemetry', async () => {
    const mock = createMockGateway({ apiKey: 'test-key-0123456789' });
    const client = new Gateway({ apiKey: 'test-key-0123456789', baseURL: 'http://gateway.test/v1', fetch: mock.fetch });
    for await (const _ of await client.chat.completions.create(chat));
    expect(mock.requests.at(-1)!.body).not.toHaveProperty('stream_options');
    expect(mock.requests.at(-1)!.headers).not.toHaveProperty('traceparent');
  });

  it("keeps the caller's stream_options as they are", async () => {
    const sdk = otelSDK();
    const { client, mock } = tracedClient(sdk);
    const stream = await client.chat.completions.create({ ...chat, stream_options: { include_usage: false } });
    for await (const _ of stream);
    expect(mock.requests.at(-1)!.body).toMatchObject({ stream_options: { include_usage: false } });
    expect(callSpan(sdk)[0]!.attributes).not.toHaveProperty('gen_ai.usage.input_tokens');
  });

  it('ends the span when the caller leaves with break, without an error', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const stream = await client.chat.completions.create(chat);
    for await (const _ of stream) break;
    const [call] = callSpan(sdk);
    expect(call!.status.code).toBe(SpanStatusCode.UNSET);
    expect(call!.attributes['unified_gateway.stream.left']).toBe(true);
    expect(call!.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThanOrEqual(0);
  });

  it('ends the span when the caller calls return() on the iterator', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const stream = await client.chat.completions.create(chat);
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.return?.();
    expect(callSpan(sdk)[0]!.attributes['unified_gateway.stream.left']).toBe(true);
  });

  it('ends the span with an ERROR status when the stream is cut', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { mock: { faults: [{ type: 'stream_cut', afterFrames: 2 }] } });
    const stream = await client.chat.completions.create(chat);
    const error = await (async () => {
      for await (const _ of stream);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const [call] = callSpan(sdk);
    expect(call!.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(call!.attributes['error.type']).toBe('StreamInterruptedError');
  });

  it('ends the span when the stream is aborted', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const stream = await client.chat.completions.create(chat);
    const error = await (async () => {
      for await (const _ of stream) stream.controller.abort();
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(callSpan(sdk)[0]!.attributes['error.type']).toBe('APIUserAbortError');
  });

  it('ends the span when a stream not yet read is aborted, and reading it then throws APIUserAbortError', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const streams = [];
    for (let i = 0; i < 50; i++) {
      const stream = await client.chat.completions.create(chat);
      stream.controller.abort();
      streams.push(stream);
    }
    const calls = callSpan(sdk);
    expect(calls).toHaveLength(50);
    expect(calls.every((c) => c.attributes['error.type'] === 'APIUserAbortError' && c.status.code === SpanStatusCode.ERROR)).toBe(true);
    const chunks: unknown[] = [];
    const error = await (async () => {
      for await (const c of streams[0]!) chunks.push(c);
    })().catch((e: unknown) => e);
    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(callSpan(sdk)).toHaveLength(50);
  });

  it('ends the span at once for a raw streamed response (asResponse())', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const response = await client.chat.completions.create(chat).asResponse();
    await response.body?.cancel();
    expect(callSpan(sdk)).toHaveLength(1);
  });

  it('reads the responses endpoint stream: usage and the answering model from its final event', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk);
    const stream = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hello', stream: true });
    for await (const _ of stream);
    const [call] = callSpan(sdk);
    expect(call!.name).toBe('chat gpt-4o-mini');
    expect(call!.attributes).toMatchObject({ 'gen_ai.response.model': 'gpt-4o-mini', 'gen_ai.response.finish_reasons': ['stop'] });
    expect(call!.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
  });
});
