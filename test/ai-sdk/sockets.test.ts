import { APICallError } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
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
    server = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.on('close', closed);
      const timer = setInterval(() => {
        if (res.destroyed || written >= MAX_FRAMES) {
          clearInterval(timer);
          res.end();
          return;
        }
        written++;
        res.write(`data: ${JSON.stringify(chunk(`w${written} `))}\n\n`);
      }, 5);
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
