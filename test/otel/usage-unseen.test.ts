import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/index.js';
import { openTelemetry } from '../../src/otel/index.js';
import { sseResponse, sseText } from '../helpers/sse.js';
import { callSpans, otelSDK } from './harness.js';

const KEY = 'test-key-0123456789';
const USAGE = { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 1 } };

/**
 * A server that streams as OpenAI does: with `stream_options.include_usage`, every chunk
 * carries `usage: null` and one more chunk with empty `choices` carries the usage.
 */
function openAILike(sent: unknown[]): typeof fetch {
  return async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as { model: string; prompt?: string; stream_options?: { include_usage?: boolean } };
    sent.push(body);
    const withUsage = body.stream_options?.include_usage === true;
    const extra = withUsage ? { usage: null } : {};
    const chat = body.prompt === undefined;
    const head = chat ? { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, system_fingerprint: 'fp_1' } : { id: 'cmpl-1', object: 'text_completion', created: 1, model: body.model };
    const choice = (text: string, finish: string | null) =>
      chat ? { index: 0, delta: text === '' ? { role: 'assistant', content: '' } : finish ? {} : { content: text }, logprobs: null, finish_reason: finish } : { index: 0, text, logprobs: null, finish_reason: finish };
    const frames: unknown[] = [choice('', null), choice('Hello', null), choice(' there', null), choice('.', 'stop')].map((c) => ({ ...head, choices: [c], ...extra }));
    if (withUsage) frames.push({ ...head, choices: [], usage: USAGE });
    return sseResponse(sseText(frames));
  };
}

function clients() {
  const sdk = otelSDK();
  const sent: unknown[] = [];
  const options = { apiKey: KEY, baseURL: 'http://gateway.test/v1', fetch: openAILike(sent) };
  return { sdk, sent, traced: new Gateway({ ...options, telemetry: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }) }), plain: new Gateway(options) };
}

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }], stream: true as const };

describe('openTelemetry(): the usage it asks a stream for stays out of the caller’s stream', () => {
  it('gives the same chat chunks and the same final completion with telemetry on as off, and still records the usage', async () => {
    const { sdk, sent, traced, plain } = clients();
    const read = async (client: Gateway) => {
      const chunks: unknown[] = [];
      const stream = await client.chat.completions.create(chat);
      for await (const c of stream) chunks.push(structuredClone(c));
      return chunks;
    };
    const off = await read(plain);
    const on = await read(traced);
    expect(sent.map((b) => (b as { stream_options?: unknown }).stream_options)).toEqual([undefined, { include_usage: true }]);
    expect(on).toEqual(off);
    expect(on.every((c) => (c as { choices: unknown[] }).choices.length === 1 && !('usage' in (c as object)))).toBe(true);

    const finalOff = await (await plain.chat.completions.create(chat)).finalChatCompletion();
    const finalOn = await (await traced.chat.completions.create(chat)).finalChatCompletion();
    expect(finalOn).toEqual(finalOff);
    expect(finalOn).not.toHaveProperty('usage');

    const [first] = callSpans(sdk.spans());
    expect(first!.call.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 9, 'gen_ai.usage.output_tokens': 2, 'gen_ai.usage.cache_read.input_tokens': 4, 'gen_ai.usage.reasoning.output_tokens': 1 });
  });

  it('gives the same text-completion chunks with telemetry on as off', async () => {
    const { sdk, traced, plain } = clients();
    const read = async (client: Gateway) => {
      const chunks: unknown[] = [];
      for await (const c of await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Hi', stream: true })) chunks.push(structuredClone(c));
      return chunks;
    };
    expect(await read(traced)).toEqual(await read(plain));
    expect(callSpans(sdk.spans())[0]!.call.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 9, 'gen_ai.usage.output_tokens': 2 });
  });

  it('leaves usage the caller asked for where it is', async () => {
    const { traced } = clients();
    const chunks: unknown[] = [];
    for await (const c of await traced.chat.completions.create({ ...chat, stream_options: { include_usage: true } })) chunks.push(c);
    expect(chunks).toHaveLength(5);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: USAGE });
    expect(chunks[0]).toHaveProperty('usage', null);
  });
});
