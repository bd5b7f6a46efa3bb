import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/index.js';
import { openTelemetry } from '../../src/otel/index.js';
import { callSpans, exported, otelSDK, tracedClient } from './harness.js';

const messages = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'What is the weather in Paris?' },
];
const script = [{ toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] }];

describe('openTelemetry(): content', () => {
  it('records no prompt, reply or tool arguments by default', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { mock: { script } });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const text = exported(sdk.spans(), await sdk.metrics());
    expect(text).not.toContain('Paris');
    expect(text).not.toContain('terse');
    expect(text).not.toContain('gen_ai.input.messages');
    expect(text).not.toContain('gen_ai.output.messages');
  });

  it('records the conventions’ input and output messages with captureContent: true', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { mock: { script }, otel: { captureContent: true } });
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    const [{ call }] = callSpans(sdk.spans()) as [ReturnType<typeof callSpans>[number]];
    expect(JSON.parse(call.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'You are terse.' }] },
      { role: 'user', parts: [{ type: 'text', content: 'What is the weather in Paris?' }] },
    ]);
    expect(JSON.parse(call.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], finish_reason: 'tool_calls' },
    ]);
  });

  it('records a streamed reply, text and tool calls assembled from the chunks', async () => {
    const sdk = otelSDK();
    const { client } = tracedClient(sdk, { mock: { script: [{ content: 'Sunny and mild today.' }, ...script] }, otel: { captureContent: true } });
    for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }));
    for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }));
    const [text, tools] = callSpans(sdk.spans()).map(({ call }) => JSON.parse(call.attributes['gen_ai.output.messages'] as string) as unknown);
    expect(text).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Sunny and mild today.' }], finish_reason: 'stop' }]);
    expect(tools).toEqual([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], finish_reason: 'tool_calls' }]);
  });
});

const KEY = 'sk-live-SECRET-0123456789abcdef';

/** A gateway that echoes the Authorization header into everything it sends back. */
const echoing: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const auth = new Headers(init?.headers).get('authorization') ?? '';
  const body = JSON.parse(String(init?.body ?? '{}')) as { stream?: boolean };
  if (url.pathname.endsWith('/embeddings')) return new Response(JSON.stringify({ error: { message: `bad key ${auth}`, type: auth, code: auth } }), { status: 401, headers: { 'content-type': 'application/json' } });
  if (url.pathname.endsWith('/completions') && !url.pathname.includes('chat')) return new Response(`upstream says ${auth}`, { status: 500 });
  const head = { id: `id-${auth}`, object: 'chat.completion', created: 1, model: `model-${auth}` };
  if (body.stream) {
    const frames = [
      { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: `echo ${auth}` }, finish_reason: null }] },
      { ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: auth }] },
      { ...head, object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    ];
    const sse = `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('')}data: [DONE]\n\n`;
    return new Response(sse, { headers: { 'content-type': 'text/event-stream', 'x-echo': auth } });
  }
  const choice = { index: 0, message: { role: 'assistant', content: `echo ${auth}`, tool_calls: [{ id: auth, type: 'function', function: { name: auth, arguments: JSON.stringify({ key: auth }) } }] }, finish_reason: auth };
  return new Response(JSON.stringify({ ...head, choices: [choice], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), { headers: { 'content-type': 'application/json', 'x-echo': auth } });
};

describe('openTelemetry(): the API key', () => {
  it('appears nowhere in what is exported, whatever the server echoes, content captured or not', async () => {
    for (const captureContent of [false, true]) {
      const sdk = otelSDK();
      const telemetry = openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, captureContent });
      const client = new Gateway({ apiKey: KEY, baseURL: 'https://gateway.test/v1', fetch: echoing, telemetry, maxRetries: 1, retry: { baseDelayMs: 0 } });
      const messages = [{ role: 'user' as const, content: 'hi' }];
      const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
      expect(completion.id).toContain(KEY);
      for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }));
      await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toThrow();
      await expect(client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'x' })).rejects.toThrow();
      const spans = sdk.spans();
      expect(spans.length).toBeGreaterThanOrEqual(8);
      const text = exported(spans, await sdk.metrics());
      expect(text).toContain('[REDACTED]');
      expect(text).not.toContain(KEY);
    }
  });
});
