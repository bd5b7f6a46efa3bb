import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APITimeoutError, APIUserAbortError, GatewayError, InternalServerError, RateLimitError, type ChatCompletionChunk, type RetryInfo } from '../../src/index.js';
import { BASE, chatParams, client, KEY } from '../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../helpers/msw.js';
import { chunk, chunkedBody, sseResponse, sseText } from '../helpers/sse.js';

const server = useMswServer();
const url = `${BASE}/chat/completions`;
const streamParams = { ...chatParams, stream: true as const };

afterEach(() => {
  vi.useRealTimers();
});

function serve(body: () => ReadableStream<Uint8Array> | string) {
  const rec = createRecorder();
  server.use(
    http.post(url, async ({ request }) => {
      await rec.record(request);
      return sseResponse(body());
    }),
  );
  return rec;
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<string> {
  let text = '';
  for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
  return text;
}

const words = ['Hello', ', ', 'wörld ', '🌍', ' — ', '你好'];
const frames = words.map((w) => chunk(w));

describe('SSE decoding', () => {
  it.each([
    ['whole', 1 << 20],
    ['7-byte pieces', 7],
    ['byte by byte', 1],
  ])('reassembles content delivered %s, multi-byte characters included', async (_, size) => {
    serve(() => chunkedBody(sseText(frames), size));
    const stream = await client().chat.completions.create(streamParams);
    expect(await collect(stream)).toBe(words.join(''));
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('accepts %s line ends', async (_, eol) => {
    serve(() => chunkedBody(sseText(frames, { eol }), 5));
    expect(await collect(await client().chat.completions.create(streamParams))).toBe(words.join(''));
  });

  it('ignores comments and unknown fields', async () => {
    const text = `: PING\n\nretry: 1000\n${sseText([chunk('a')], { done: false })}: keep-alive\n\n${sseText([chunk('b')])}`;
    serve(() => chunkedBody(text, 3));
    expect(await collect(await client().chat.completions.create(streamParams))).toBe('ab');
  });

  it('delivers a last event that has no trailing blank line', async () => {
    serve(() => `${sseText([chunk('x')], { done: false })}data: [DONE]`);
    expect(await collect(await client().chat.completions.create(streamParams))).toBe('x');
  });

  it('throws APIConnectionError when the stream ends without [DONE]', async () => {
    serve(() => sseText([chunk('partial')], { done: false }));
    const stream = await client().chat.completions.create(streamParams);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of stream) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['partial']);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('[DONE]');
  });

  it('throws a typed APIError for an error frame', async () => {
    const errorFrame = { error: { message: 'upstream overloaded', type: 'server_error', code: 'server_error' } };
    serve(() => sseText([chunk('a'), errorFrame]));
    const err = await collect(await client().chat.completions.create(streamParams)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err).toMatchObject({ code: 'server_error', message: expect.stringContaining('upstream overloaded') });
  });

  it('throws for an `event: error` frame, without the key even if echoed', async () => {
    serve(() => `data: ${JSON.stringify(chunk('a'))}\n\nevent: error\ndata: {"message":"rate limited ${KEY}","code":"rate_limit_exceeded"}\n\n`);
    const err = await collect(await client().chat.completions.create(streamParams)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(String(err)).not.toContain(KEY);
  });

  it('throws GatewayError for a frame that is not JSON', async () => {
    serve(() => 'data: {not json\n\n');
    // Before any content: create() rejects (a frame that is not JSON is not retried).
    const err = await client().chat.completions.create(streamParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toContain('Invalid JSON');
  });

  it('asks for text/event-stream', async () => {
    const rec = serve(() => sseText(frames));
    await collect(await client().chat.completions.create(streamParams));
    expect(rec.calls[0]?.headers.accept).toBe('text/event-stream');
    expect(rec.calls[0]?.body).toMatchObject({ stream: true });
  });

  it('turns a JSON error answered to a stream request into an APIError', async () => {
    server.use(http.post(url, () => HttpResponse.json({ error: { message: 'quota', code: 'insufficient_quota' } })));
    await expect(client().chat.completions.create(streamParams)).rejects.toMatchObject({ name: 'InsufficientQuotaError' });
  });
});

describe('stream lifecycle', () => {
  it('cancels the body when the consumer leaves the loop early', async () => {
    const cancel = vi.fn();
    let pulls = 0;
    // A custom fetch hands our own body to the client, so its cancel() is observable.
    const fetch = async () =>
      sseResponse(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulls++;
            controller.enqueue(new TextEncoder().encode(sseText([chunk(`c${pulls}`)], { done: false })));
          },
          cancel,
        }),
      );
    const stream = await client({ fetch }).chat.completions.create(streamParams);
    for await (const c of stream) {
      if (c.choices[0]?.delta.content === 'c2') break;
    }
    // Leaving the loop cancels the body without waiting for it: the cancel reaches our source
    // in promise jobs, all run within one event-loop turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(cancel).toHaveBeenCalled();
    expect(stream.controller.signal.aborted).toBe(true);
  });

  it('can be iterated only once', async () => {
    serve(() => sseText(frames));
    const stream = await client().chat.completions.create(streamParams);
    await collect(stream);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(GatewayError);
  });

  it('ends with APIUserAbortError when its controller aborts mid-stream', async () => {
    serve(
      () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(sseText([chunk('a')], { done: false })));
          },
        }),
    );
    const stream = await client().chat.completions.create(streamParams);
    const err = await (async () => {
      for await (const _ of stream) stream.controller.abort();
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
  });

  it('fails a silent stream with APITimeoutError after the idle timeout', async () => {
    serve(
      () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(sseText([chunk('a')], { done: false })));
          },
        }),
    );
    const stream = await client({ idleTimeout: 50 }).chat.completions.create(streamParams);
    const err = await collect(stream).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toContain('idle');
  });

  it('keeps a stream alive while `: PING` comments arrive, even past the idle timeout', async () => {
    // On the fake clock: a PING every 20 ms for 120 ms, against an idle timeout of 60 ms,
    // however late a busy machine would run the server's timers.
    vi.useFakeTimers();
    const enc = new TextEncoder();
    serve(
      () =>
        new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(enc.encode(sseText([chunk('a')], { done: false })));
            for (let i = 0; i < 6; i++) {
              await new Promise((r) => setTimeout(r, 20));
              controller.enqueue(enc.encode(': PING\n\n'));
            }
            controller.enqueue(enc.encode(sseText([chunk('b')])));
            controller.close();
          },
        }),
    );
    const stream = await client({ idleTimeout: 60 }).chat.completions.create(streamParams);
    const text = collect(stream);
    await vi.advanceTimersByTimeAsync(120);
    expect(await text).toBe('ab');
  });

  it('does not count time the consumer spends between reads as idle', async () => {
    // On the fake clock the consumer takes 60 ms per chunk, the reads none.
    vi.useFakeTimers();
    serve(() => sseText([chunk('a'), chunk('b')]));
    const stream = await client({ idleTimeout: 30 }).chat.completions.create(streamParams);
    let text = '';
    for await (const c of stream) {
      text += c.choices[0]?.delta.content ?? '';
      await vi.advanceTimersByTimeAsync(60);
    }
    expect(text).toBe('ab');
  });

  it('converts to a ReadableStream of JSON lines', async () => {
    serve(() => sseText([chunk('a'), chunk('b')]));
    const stream = await client().chat.completions.create(streamParams);
    const text = await new Response(stream.toReadableStream()).text();
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as ChatCompletionChunk);
    expect(lines.map((l) => l.choices[0]?.delta.content)).toEqual(['a', 'b']);
  });
});

describe('retries and streams', () => {
  it('retries a stream whose connection fails before any byte arrives', async () => {
    let calls = 0;
    server.use(
      http.post(url, () => {
        calls++;
        return calls === 1 ? HttpResponse.error() : sseResponse(sseText([chunk('ok')]));
      }),
    );
    expect(await collect(await client().chat.completions.create(streamParams))).toBe('ok');
    expect(calls).toBe(2);
  });

  it('retries a stream that closes before its first byte', async () => {
    let calls = 0;
    server.use(
      http.post(url, () => {
        calls++;
        return sseResponse(calls === 1 ? '' : sseText([chunk('ok')]));
      }),
    );
    const onRetry = vi.fn<(e: RetryInfo) => void>();
    expect(await collect(await client({ hooks: { onRetry } }).chat.completions.create(streamParams))).toBe('ok');
    expect(calls).toBe(2);
  });

  it('never retries once the first bytes reached the caller: the error surfaces', async () => {
    let calls = 0;
    let cut = () => {};
    server.use(
      http.post(url, () => {
        calls++;
        return sseResponse(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(sseText([chunk('a')], { done: false })));
              cut = () => controller.error(new TypeError('terminated'));
            },
          }),
        );
      }),
    );
    const stream = await client().chat.completions.create(streamParams);
    const seen: string[] = [];
    // The connection breaks once the caller has the first chunk, not 10 ms after it was sent
    // (a busy machine may not have read it by then, and a break before any byte is retried).
    const err = await (async () => {
      for await (const c of stream) {
        seen.push(c.choices[0]?.delta.content ?? '');
        cut();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('Stream interrupted');
    expect(calls).toBe(1);
  });
});

describe('the per-attempt timeout of a stream', () => {
  it('is an APITimeoutError when it runs out while the stream waits for its first content (a role chunk came, then silence)', async () => {
    vi.useFakeTimers();
    server.use(
      http.post(url, ({ request }) => {
        // Headers and a first frame without content, then nothing until the attempt is aborted.
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(sseText([{ ...chunk(''), choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }], { done: false })));
            request.signal.addEventListener('abort', () => controller.error(request.signal.reason), { once: true });
          },
        });
        return sseResponse(body);
      }),
    );
    const settled = client({ maxRetries: 0, timeout: 1_000 })
      .chat.completions.create(streamParams)
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await settled;
    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as Error).message).toMatch(/timed out after 1000 ms/);
    vi.useRealTimers();
  });
});

describe('the per-attempt timeout of a stream, with a custom fetch', () => {
  it('ends the wait for the first content even where the body does not end on abort', async () => {
    vi.useFakeTimers();
    // A custom fetch whose body sends a role chunk, then nothing, and ignores the abort.
    const fetch: typeof globalThis.fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(sseText([{ ...chunk(''), choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }], { done: false })));
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const settled = client({ maxRetries: 0, timeout: 1_000, fetch })
      .chat.completions.create(streamParams)
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await settled).toBeInstanceOf(APITimeoutError);
    vi.useRealTimers();
  });
});

describe('finalChatCompletion', () => {
  it('merges content, tool-call deltas, finish reason and usage', async () => {
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 7, model: 'm' };
    const f = (delta: object, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    serve(() =>
      sseText([
        f({ role: 'assistant', content: '' }),
        f({ content: 'Let me ' }),
        f({ content: 'check.' }),
        f({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
        f({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        f({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } }] }),
        f({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
        f({}, 'tool_calls'),
        { ...base, choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
      ]),
    );
    const stream = await client().chat.completions.create(streamParams);
    const completion = await stream.finalChatCompletion();
    expect(completion).toEqual({
      id: 'c1',
      object: 'chat.completion',
      created: 7,
      model: 'm',
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Let me check.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
            ],
          },
        },
      ],
    });
  });

  it('keeps every delta across thousands of chunks, per choice and field', async () => {
    const frames = Array.from({ length: 2_500 }, (_, i) => ({
      ...chunk(undefined),
      choices: [
        { index: 0, delta: { content: `${i},` }, finish_reason: null },
        { index: 1, delta: { reasoning_content: `r${i} ` }, finish_reason: null },
        { index: 2, delta: { refusal: i % 2 ? `n${i}` : null, content: null }, finish_reason: i === 2_499 ? 'stop' : null, ...(i === 0 ? { logprobs: { content: [] } } : {}) },
      ],
    }));
    serve(() => sseText(frames));
    const completion = await (await client().chat.completions.create(streamParams)).finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe(Array.from({ length: 2_500 }, (_, i) => `${i},`).join(''));
    expect(completion.choices[1]?.message.reasoning_content).toBe(Array.from({ length: 2_500 }, (_, i) => `r${i} `).join(''));
    expect(completion.choices[1]?.message.content).toBeNull();
    expect(completion.choices[2]).toMatchObject({ index: 2, finish_reason: 'stop', logprobs: { content: [] }, message: { content: null } });
    expect(completion.choices[2]?.message.refusal).toBe(Array.from({ length: 1_250 }, (_, i) => `n${2 * i + 1}`).join(''));
  });

  it('includes chunks already read with for await', async () => {
    serve(() => sseText([chunk('a'), chunk('b'), chunk('c')]));
    const stream = await client().chat.completions.create(streamParams);
    for await (const c of stream) {
      if (c.choices[0]?.delta.content === 'a') break;
    }
    // Breaking out ends the stream; the completion holds what was read.
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('a');
  });

  it('rejects with the stream error', async () => {
    serve(() => sseText([chunk('a')], { done: false }));
    const stream = await client().chat.completions.create(streamParams);
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(APIConnectionError);
  });
});

describe('abort with buffered frames', () => {
  it('stops at once even when the rest of the reply arrived in the same chunk', async () => {
    serve(() => sseText([chunk('a'), chunk('b'), chunk('c')]));
    const stream = await client().chat.completions.create(streamParams);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of stream) {
        seen.push(c.choices[0]?.delta.content ?? '');
        stream.controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(APIUserAbortError);
  });

  it('throws APIUserAbortError, and gives no chunk, when the stream was aborted before it was read', async () => {
    serve(() => sseText([chunk('a'), chunk('b')]));
    const stream = await client().chat.completions.create(streamParams);
    stream.controller.abort();
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of stream) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual([]);
    expect(err).toBeInstanceOf(APIUserAbortError);
  });
});

describe('what real gateways stream (REALITIES.md)', () => {
  it('keeps the plain text of an `event: error` frame in the thrown error', async () => {
    serve(() => `${sseText([chunk('Hi')], { done: false })}event: error\ndata: upstream channel closed: quota of channel 7 exhausted\n\n`);
    const stream = await client().chat.completions.create(streamParams);
    const err = await collect(stream).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toContain('upstream channel closed: quota of channel 7 exhausted');
    expect((err as { error?: unknown }).error).toBe('upstream channel closed: quota of channel 7 exhausted');
  });

  it('says so when a stream is answered with an HTML page, instead of reporting a cut', async () => {
    server.use(http.post('http://gateway.test/chat/completions', () => new HttpResponse('<html><title>Welcome</title><body>console</body></html>', { headers: { 'content-type': 'text/html' } })));
    const err = await client({ baseURL: 'http://gateway.test' }).chat.completions.create(streamParams).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).not.toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/Expected an event stream but got text\/html: "Welcome console".*does not end in \/v1/);
  });

  // Found by test/core/streaming.property.test.ts: valid JSON that is not a chunk failed with a TypeError from the accumulator.
  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['a null choice', JSON.stringify(chunk(undefined, { choices: [null] }))],
    ['a null tool-call fragment', JSON.stringify(chunk(undefined, { choices: [{ index: 0, delta: { tool_calls: [null] } }] }))],
  ])('throws GatewayError, not a TypeError, for a chat frame that is %s', async (_, data) => {
    serve(() => `${sseText([chunk('a')], { done: false })}data: ${data}\n\n${sseText([])}`);
    const err = await collect(await client().chat.completions.create(streamParams)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toContain('Invalid chat completion chunk');
  });

  it('refuses a choice or tool-call index that is not a small whole number: nothing written to Array.prototype, no array of billions of slots', async () => {
    const choice = (index: unknown) => chunk('x', { choices: [{ index, delta: { content: 'x' }, finish_reason: 'stop' }] });
    const toolCall = (index: unknown) => chunk(undefined, { choices: [{ index: 0, delta: { tool_calls: [{ index, id: 'polluted' }] } }] });
    for (const bad of [choice('__proto__'), toolCall('__proto__'), choice(2 ** 31 - 2), toolCall(2 ** 31 - 2), choice(-1), choice(0.5)]) {
      serve(() => sseText([bad]));
      const err = await collect(await client().chat.completions.create(streamParams)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect(Object.prototype.hasOwnProperty.call(Array.prototype, 'finish_reason')).toBe(false);
      expect(Object.prototype.hasOwnProperty.call(Array.prototype, 'id')).toBe(false);
    }
  });

  it.each([
    ['null', 'null'],
    ['a number', '7'],
  ])('throws GatewayError, not a TypeError, for a responses event that is %s', async (_, data) => {
    const delta = '{"type":"response.output_text.delta","delta":"a"}';
    server.use(http.post(`${BASE}/responses`, () => sseResponse(`data: {"type":"response.created","response":{"id":"r"}}\n\ndata: ${delta}\n\ndata: ${data}\n\n`)));
    const stream = await client().responses.create({ model: 'm', input: 'hi', stream: true });
    const err = await stream.finalResponse().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toContain('Invalid event in responses stream');
  });

  it('reads output_text past output items that are not objects', async () => {
    const response = { id: 'r', status: 'completed', output: [null, 5, { type: 'message', content: [null, { type: 'output_text', text: 'ok' }] }] };
    server.use(http.post(`${BASE}/responses`, () => sseResponse(`data: ${JSON.stringify({ type: 'response.completed', response })}\n\n`)));
    const stream = await client().responses.create({ model: 'm', input: 'hi', stream: true });
    expect((await stream.finalResponse()).output_text).toBe('ok');
  });

  it('takes a tool name repeated in every delta once', async () => {
    const call = (args: string, extra: Record<string, unknown> = {}) => ({
      ...chunk(undefined),
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'get_weather', arguments: args }, ...extra }] }, finish_reason: null }],
    });
    serve(() => sseText([call('{"city":', { id: 'call_1', type: 'function' }), call('"Paris"}'), chunk(undefined, { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })]));
    const stream = await client().chat.completions.create(streamParams);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
  });
});
