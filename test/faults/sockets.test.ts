import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APITimeoutError, Gateway, type RetryInfo } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { chunk, sseText } from '../helpers/sse.js';
import { httpServer, rawServer, refusedURL, writeByteByByte, type LoopbackServer } from '../helpers/sockets.js';

const KEY = 'test-key';
const open: LoopbackServer[] = [];
const keep = <T extends LoopbackServer>(s: T): T => (open.push(s), s);
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const messages = [{ role: 'user' as const, content: 'one two three' }];
const sseHeaders = { 'content-type': 'text/event-stream' };

describe('real sockets on 127.0.0.1', () => {
  it('fails over from a refused port to the backup', async () => {
    const mock = createMockGateway({ apiKey: KEY });
    const backup = await mock.listen();
    open.push({ url: backup.url, connections: () => 0, close: backup.close });
    const onFailover = vi.fn();
    const client = new Gateway({ apiKey: KEY, baseURL: await refusedURL(), backupBaseURL: backup.url, hooks: { onFailover } });
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(res.choices[0]?.message.content).toBe('You said: one two three');
    expect(onFailover).toHaveBeenCalledTimes(1);
  });

  it('reports a refused port as APIConnectionError after its retries', async () => {
    const onRetry = vi.fn<(e: RetryInfo) => void>();
    const client = new Gateway({ apiKey: KEY, baseURL: await refusedURL(), maxRetries: 1, retry: { baseDelayMs: 0 }, hooks: { onRetry } });
    const err = await client.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/ECONNREFUSED/);
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('retries a connection reset by the server', async () => {
    const server = keep(await rawServer((socket) => socket.destroy()));
    const err = await new Gateway({ apiKey: KEY, baseURL: server.url, maxRetries: 2, retry: { baseDelayMs: 0 } }).models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(server.connections()).toBe(3);
  });

  it('times out a server that accepts and never answers, once per attempt', async () => {
    const server = keep(await rawServer(() => undefined));
    const onRetry = vi.fn<(e: RetryInfo) => void>();
    const client = new Gateway({ apiKey: KEY, baseURL: server.url, timeout: 100, maxRetries: 1, retry: { baseDelayMs: 0 }, hooks: { onRetry } });
    const err = await client.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(onRetry.mock.calls[0]?.[0].error).toBeInstanceOf(APITimeoutError);
    // Node 24's undici may open a spare connection; what counts is that both attempts reached the server.
    expect(server.connections()).toBeGreaterThanOrEqual(2);
  });

  it('reads a stream written one byte at a time', async () => {
    const text = sseText(['Grüße ', '— ', '你好', ' 🌍'].map((w) => chunk(w)));
    const server = keep(
      await httpServer((_req, res) => {
        res.writeHead(200, sseHeaders);
        void writeByteByByte(res, text);
      }),
    );
    const stream = await new Gateway({ apiKey: KEY, baseURL: server.url }).chat.completions.create({ model: 'm', messages, stream: true });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('Grüße — 你好 🌍');
  });

  it('retries a stream whose headers arrived but whose first byte never did', async () => {
    // The client's timers on the fake clock (the sockets stay real): the first attempt's 150 ms
    // run out only once its headers are in, and the second attempt's never do, so it cannot
    // time out too on a busy machine (a third request).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let calls = 0;
    const server = keep(
      await httpServer((_req, res) => {
        calls++;
        res.writeHead(200, sseHeaders);
        res.flushHeaders();
        if (calls > 1) res.end(sseText([chunk('late')]));
      }),
    );
    let headers = () => {};
    const headersIn = new Promise<void>((resolve) => (headers = resolve));
    let retrying = () => {};
    const retried = new Promise<void>((resolve) => (retrying = resolve));
    const onRetry = vi.fn<(e: RetryInfo) => void>(() => retrying());
    const client = new Gateway({ apiKey: KEY, baseURL: server.url, timeout: 150, retry: { baseDelayMs: 0 }, hooks: { onResponse: () => headers(), onRetry } });
    const created = client.chat.completions.create({ model: 'm', messages, stream: true });
    await headersIn;
    await vi.advanceTimersByTimeAsync(150);
    await retried;
    // The retry's pause: 0 ms, which a timer runs after 1.
    await vi.advanceTimersByTimeAsync(1);
    const stream = await created;
    expect((await stream.finalChatCompletion()).choices[0]?.message.content).toBe('late');
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(calls).toBe(2);
  });

  it('never retries a stream reset after its first bytes: the error surfaces', async () => {
    let calls = 0;
    let reset = () => {};
    const server = keep(
      await httpServer((_req, res) => {
        calls++;
        res.writeHead(200, sseHeaders);
        res.write(sseText([chunk('a')], { done: false }));
        reset = () => res.socket?.destroy();
      }),
    );
    // create() resolves once the first bytes are in; the server resets the connection only
    // then, not 30 ms after writing (on a busy machine that could be before them: retried).
    const stream = await new Gateway({ apiKey: KEY, baseURL: server.url }).chat.completions.create({ model: 'm', messages, stream: true });
    reset();
    const err = await stream.finalChatCompletion().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(calls).toBe(1);
  });

  it('ends a stream that stalls mid-way with the idle timeout', async () => {
    const server = keep(
      await httpServer((_req, res) => {
        res.writeHead(200, sseHeaders);
        res.write(sseText([chunk('a')], { done: false }));
      }),
    );
    const stream = await new Gateway({ apiKey: KEY, baseURL: server.url, idleTimeout: 100 }).chat.completions.create({ model: 'm', messages, stream: true });
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(APITimeoutError);
  });
});

describe('a busy event loop', () => {
  it('is not an attempt timeout: an answer that came during a long synchronous task is read first, and nothing is sent again', async () => {
    // A real socket on loopback: its answer waits in the socket while the loop is busy, and is
    // read only after the timers that came due meanwhile have run.
    let sent = 0;
    const server = await httpServer((_req, res) => {
      sent++;
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [] })), 10);
    });
    try {
      const c = new Gateway({ apiKey: 'sk-busy-loop-0123456789', baseURL: server.url, timeout: 250, maxRetries: 2 });
      for (let i = 0; i < 3; i++) {
        const call = c.models.list();
        await vi.waitFor(() => expect(sent).toBe(i + 1), { interval: 1 });
        const until = Date.now() + 300;
        while (Date.now() < until) {
          // A long synchronous task: the answer and the attempt's timer both come due meanwhile.
        }
        await expect(call).resolves.toMatchObject({ object: 'list' });
      }
      expect(sent).toBe(3);
    } finally {
      await server.close();
    }
  });
});
