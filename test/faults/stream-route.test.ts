import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { describe, expect, it } from 'vitest';
import { chatStreamFromReadable, Gateway } from '../../src/index.js';
import { chatParams, KEY } from '../helpers/fixtures.js';
import { httpServer } from '../helpers/sockets.js';
import { chunk, sseText } from '../helpers/sse.js';

// A server route on 127.0.0.1 that streams a gateway reply to its own client, as
// docs/streaming.md shows it, in front of a gateway on 127.0.0.1 that writes slowly.

/**
 * A gateway that sends `frames` chunks, one per event-loop turn, then the end; with
 * `stallAfter` it sends that many and then nothing more, holding the response open as a slow
 * upstream does, until its request goes away. Notes whether that happened before the end;
 * `closed` resolves when it does.
 */
async function slowGateway(frames: number, { stallAfter = frames } = {}) {
  let written = 0;
  let closedEarly = false;
  let gone = () => {};
  const closed = new Promise<void>((resolve) => (gone = resolve));
  const server = await httpServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.on('close', () => {
      if (written < frames) closedEarly = true;
      gone();
    });
    void (async () => {
      while (written < stallAfter && !res.destroyed) {
        res.write(sseText([chunk(`w${written++} `)], { done: false }));
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (written === frames && !res.destroyed) res.end(sseText([]));
    })();
  });
  return { server, closed, closedEarly: () => closedEarly, written: () => written };
}

/** The route as docs/streaming.md shows it: read the NDJSON body, write it out, cancel it when the response closes (without that listener this test fails). */
function readerRoute(upstream: Gateway) {
  return httpServer(async (_req, res: ServerResponse) => {
    const stream = await upstream.chat.completions.create({ ...chatParams, stream: true });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const reader = stream.toReadableStream().getReader();
    res.on('close', () => void reader.cancel());
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
      res.end();
    } catch {
      res.destroy();
    }
  });
}

/** A route that iterates the stream itself: `stream.controller.abort()` on close (without it this test fails). */
function loopRoute(upstream: Gateway) {
  return httpServer(async (_req, res: ServerResponse) => {
    const stream = await upstream.chat.completions.create({ ...chatParams, stream: true });
    res.on('close', () => stream.controller.abort());
    res.writeHead(200, { 'content-type': 'text/plain' });
    try {
      for await (const c of stream) res.write(c.choices[0]?.delta.content ?? '');
      res.end();
    } catch {
      res.destroy();
    }
  });
}

/** pipeline() destroys the readable when the response closes early, which cancels the body: no listener needed. */
function pipedRoute(upstream: Gateway) {
  return httpServer(async (_req, res: ServerResponse) => {
    const stream = await upstream.chat.completions.create({ ...chatParams, stream: true });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    await pipeline(Readable.fromWeb(stream.toReadableStream() as NodeReadableStream<Uint8Array>), res).catch(() => res.destroy());
  });
}

describe('a node:http route streaming a gateway reply', () => {
  it.each([
    ['reading toReadableStream(), cancelled on close', readerRoute],
    ['for await, controller.abort() on close', loopRoute],
    ['pipeline(Readable.fromWeb(…))', pipedRoute],
  ])('aborts the upstream request when its client disconnects (%s)', async (_, route) => {
    const FRAMES = 500;
    // It stalls after 3 chunks: a route that did not cancel it on close would keep its request
    // open, and this test would fail on its timeout (it used to write all 500, 10 ms apart,
    // and a busy machine could take that long to see the close).
    const gateway = await slowGateway(FRAMES, { stallAfter: 3 });
    const server = await route(new Gateway({ apiKey: KEY, baseURL: gateway.server.url }));
    try {
      const response = await new Promise<IncomingMessage>((resolve, reject) => httpRequest(`${server.url}/chat`, resolve).on('error', reject).end());
      // One line reached the client, then it goes away.
      await new Promise((resolve) => response.once('data', resolve));
      response.destroy();
      await gateway.closed;
      expect(gateway.closedEarly()).toBe(true);
      expect(gateway.written()).toBeLessThan(FRAMES);
    } finally {
      await server.close();
      await gateway.server.close();
    }
  });

  it('delivers the whole reply to chatStreamFromReadable', async () => {
    const FRAMES = 20;
    const gateway = await slowGateway(FRAMES);
    const server = await readerRoute(new Gateway({ apiKey: KEY, baseURL: gateway.server.url }));
    try {
      const res = await fetch(`${server.url}/chat`);
      const completion = await chatStreamFromReadable(res.body as ReadableStream<Uint8Array>).finalChatCompletion();
      expect(completion.choices[0]?.message.content).toBe(Array.from({ length: FRAMES }, (_, i) => `w${i} `).join(''));
      expect(gateway.closedEarly()).toBe(false);
    } finally {
      await server.close();
      await gateway.server.close();
    }
  });
});
