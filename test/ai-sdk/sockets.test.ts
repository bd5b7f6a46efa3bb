import type { ServerResponse } from 'node:http';
import { APICallError } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { StreamInterruptedError, type ChatCompletion } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { chunk } from '../helpers/sse.js';
import { httpServer, type LoopbackServer } from '../helpers/sockets.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('streams on a real socket', () => {
  it('closes the connection when the caller aborts mid-stream', async () => {
    const MAX_FRAMES = 200;
    let written = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    // Five frames, one per event-loop turn, then nothing: the connection stays open until the
    // client closes it (without that, this test fails on its timeout). Frames 5 ms apart up to
    // 200 raced the abort, and on a busy machine all 200 could go out first.
    const STALL_AFTER = 5;
    server = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.on('close', closed);
      void (async () => {
        while (written < STALL_AFTER && !res.destroyed) {
          written++;
          res.write(`data: ${JSON.stringify(chunk(`w${written} `))}\n\n`);
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
    });
    const gw = createUnifiedGateway({ apiKey: 'k', baseURL: server.url });
    const controller = new AbortController();
    const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'x', abortSignal: controller.signal });
    let deltas = 0;
    for await (const _ of result.textStream) {
      if (++deltas === 3) controller.abort();
    }
    await connectionClosed;
    expect(deltas).toBeGreaterThanOrEqual(3);
    expect(written).toBeLessThan(MAX_FRAMES);
  });

  it('keeps the transport code of a cut stream on the cause, out of the message users are shown', async () => {
    server = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk('Hel'))}\n\n`, () => res.socket?.destroy());
    });
    const gw = createUnifiedGateway({ apiKey: 'k', baseURL: server.url });
    const errors: unknown[] = [];
    const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'x', onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    const error = errors[0] as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/^Stream interrupted \(POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\): /);
    expect(error.message).not.toMatch(/UND_ERR/);
    expect(error.url).toBe(`${server.url}/chat/completions`);
    const codes: unknown[] = [];
    for (let cause: unknown = error.cause; cause instanceof Error && codes.length < 5; cause = cause.cause) codes.push((cause as { code?: unknown }).code);
    expect(codes).toContain('UND_ERR_SOCKET');
  });

  it('streams from the mock gateway served on 127.0.0.1', async () => {
    const served = await createMockGateway({ apiKey: 'k' }).listen();
    try {
      const gw = createUnifiedGateway({ apiKey: 'k', baseURL: served.url });
      const result = streamText({ model: gw('gpt-4o-mini'), prompt: 'over a socket' });
      expect(await result.text).toBe('You said: over a socket');
      expect((await result.usage).totalTokens).toBeGreaterThan(0);
    } finally {
      await served.close();
    }
  });
});

// The gateway writes some frames and then the connection breaks (written, then the socket
// destroyed once the bytes are flushed, as in test/faults/stream-cuts.test.ts).
describe('a stream the gateway cuts, on a real socket', () => {
  const roleOnly = { ...chunk(undefined), choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] };
  const finish = { ...chunk(undefined), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
  const usage = { ...chunk(undefined), choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } };
  const sse = (frames: unknown[]) => frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('');
  const cut = (res: ServerResponse, frames: unknown[]) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sse(frames), () => res.socket?.destroy());
  };

  async function stream(prompt: string) {
    const gw = createUnifiedGateway({ apiKey: 'k', baseURL: (server as LoopbackServer).url, retry: { baseDelayMs: 0 } });
    const errors: unknown[] = [];
    const result = streamText({ model: gw('gpt-4o-mini'), prompt, onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    return { text: await result.text, usage: await result.usage, finishReason: await result.finishReason, errors };
  }

  it('after text: the text that arrived, then the error (its cause the partial), one request', async () => {
    server = await httpServer((req, res) => (req.resume(), cut(res, [roleOnly, chunk('Hello'), chunk(', wor')])));
    const { text, usage: used, finishReason, errors } = await stream('x');
    expect(text).toBe('Hello, wor');
    expect(finishReason).toBe('error');
    expect(used.totalTokens).toBeUndefined();
    expect(server.connections()).toBe(1);
    expect(errors).toHaveLength(1);
    const error = errors[0] as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error.isRetryable).toBe(false);
    expect(StreamInterruptedError.isInstance(error.cause)).toBe(true);
    expect((error.cause as StreamInterruptedError<ChatCompletion>).partial?.choices[0]).toMatchObject({ message: { content: 'Hello, wor' }, finish_reason: null });
  });

  it('after the usage, before [DONE]: the text and the usage the gateway sent, then the error', async () => {
    server = await httpServer((req, res) => (req.resume(), cut(res, [roleOnly, chunk('Hi'), finish, usage])));
    const { text, usage: used, errors } = await stream('x');
    expect(text).toBe('Hi');
    expect(used).toMatchObject({ inputTokens: 5, outputTokens: 2, totalTokens: 7 });
    expect(errors).toHaveLength(1);
    expect(StreamInterruptedError.isInstance((errors[0] as APICallError).cause)).toBe(true);
  });

  it('before any content: retried by the client, the text once, no error', async () => {
    const whole = [roleOnly, chunk('Hello'), chunk(' again'), finish, usage];
    server = await httpServer((req, res) => {
      req.resume();
      if ((server as LoopbackServer).connections() === 1) return cut(res, [roleOnly]);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${sse(whole)}data: [DONE]\n\n`);
    });
    const { text, usage: used, finishReason, errors } = await stream('x');
    expect(errors).toEqual([]);
    expect(text).toBe('Hello again');
    expect(finishReason).toBe('stop');
    expect(used.totalTokens).toBe(7);
    expect(server.connections()).toBe(2);
  });
});
