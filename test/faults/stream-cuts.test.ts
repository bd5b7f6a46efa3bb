import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway, StreamInterruptedError, type ChatCompletion, type ChatCompletionChunk } from '../../src/index.js';
import { httpServer, type LoopbackServer } from '../helpers/sockets.js';

// A seeded fault matrix over real sockets on 127.0.0.1: the gateway cuts a chat stream after
// frame k (and, half the time, a few bytes into frame k + 1), for every k. A cut before the
// first content is retried once and the caller gets byte-identical text, as if nothing
// happened; a cut after it throws StreamInterruptedError whose partial is exactly what the
// caller received. What the caller sees is never a chunk twice.

interface Scenario {
  frames: ChatCompletionChunk[];
  /** Frames written before the cut on the first request; the second request gets them all. */
  cutAfter: number;
  /** Bytes of the next frame written before the cut. */
  partialBytes: number;
}

let scenario: Scenario | undefined;
let requests = 0;
let server: LoopbackServer;

const frameText = (frame: ChatCompletionChunk) => `data: ${JSON.stringify(frame)}\n\n`;

function serve(res: ServerResponse, cut: boolean): void {
  const { frames, cutAfter, partialBytes } = scenario as Scenario;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (!cut) {
    res.end(`${frames.map(frameText).join('')}data: [DONE]\n\n`);
    return;
  }
  const next = frames[cutAfter] ? Buffer.from(frameText(frames[cutAfter] as ChatCompletionChunk)).subarray(0, partialBytes) : Buffer.alloc(0);
  const head = Buffer.concat([Buffer.from(frames.slice(0, cutAfter).map(frameText).join('')), next]);
  // Destroyed once the bytes are flushed: the client reads them, then the connection breaks.
  if (head.length === 0) res.socket?.destroy();
  else res.write(head, () => res.socket?.destroy());
}

beforeAll(async () => {
  server = await httpServer((req, res) => {
    req.resume();
    requests++;
    serve(res, requests === 1);
  });
});
afterAll(() => server.close());

const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk => ({
  id: 'chatcmpl-cut',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: null }],
  ...extra,
});

/** A reply as gateways stream it: a role-only first chunk (sometimes an empty one too), text in pieces, a finish, sometimes usage. */
const replyArb = fc
  .record({
    emptyFirst: fc.boolean(),
    pieces: fc.array(fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('a', 'b', ' ', 'é', '🌍', '你', '"', '\\') }), { minLength: 1, maxLength: 5 }),
    usage: fc.boolean(),
  })
  .map(({ emptyFirst, pieces, usage }) => {
    const frames = [chunk({ role: 'assistant', content: '' }), ...(emptyFirst ? [chunk({})] : []), ...pieces.map((content) => chunk({ content }))];
    frames.push({ ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    if (usage) frames.push({ ...chunk({}), choices: [], usage: { prompt_tokens: 3, completion_tokens: pieces.length, total_tokens: 3 + pieces.length } });
    return { frames, text: pieces.join(''), firstContent: emptyFirst ? 2 : 1 };
  });

const matrixArb = replyArb.chain((reply) => fc.record({ reply: fc.constant(reply), cutAfter: fc.nat({ max: reply.frames.length }), partialBytes: fc.nat({ max: 40 }) }));

const client = () => new Gateway({ apiKey: 'sk-cut-test', baseURL: server.url, maxRetries: 2, retry: { baseDelayMs: 0, jitter: 0 } });

describe('a stream cut after frame k, for every k (seeded)', () => {
  it('is retried once with byte-identical text before content, and throws the exact partial after it', async () => {
    let before = 0;
    let after = 0;
    await fc.assert(
      fc.asyncProperty(matrixArb, async ({ reply, cutAfter, partialBytes }) => {
        scenario = { frames: reply.frames, cutAfter, partialBytes };
        requests = 0;
        // A cut after every frame is no cut: the body just lacks [DONE] (also a cut, with the same rule).
        const received: string[] = [];
        const seen: string[] = [];
        let error: unknown;
        let final: ChatCompletion | undefined;
        try {
          const stream = await client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
          for await (const c of stream) {
            seen.push(JSON.stringify(c));
            received.push(c.choices[0]?.delta.content ?? '');
          }
          final = await stream.finalChatCompletion();
        } catch (e) {
          error = e;
        }
        // Never a chunk twice: what the caller saw is a prefix of the reply's frames.
        expect(seen).toEqual(reply.frames.slice(0, seen.length).map((f) => JSON.stringify(f)));
        if (cutAfter <= reply.firstContent) {
          before++;
          expect(error).toBeUndefined();
          expect(requests).toBe(2);
          expect(received.join('')).toBe(reply.text);
          expect(final?.choices[0]?.message.content).toBe(reply.text);
        } else {
          after++;
          expect(error).toBeInstanceOf(StreamInterruptedError);
          expect(requests).toBe(1);
          const partial = (error as StreamInterruptedError<ChatCompletion>).partial;
          expect(partial?.choices[0]?.message.content).toBe(received.join(''));
          // A finish reason that had arrived is kept (a cut before the usage chunk); none before it.
          const finishAt = reply.frames.findIndex((f) => f.choices[0]?.finish_reason);
          expect(partial?.choices[0]?.finish_reason).toBe(seen.length > finishAt ? 'stop' : null);
          expect(reply.text.startsWith(received.join(''))).toBe(true);
        }
      }),
      { seed: 20261125, numRuns: 300 },
    );
    // Both sides of the rule were exercised, many times.
    expect(before).toBeGreaterThan(30);
    expect(after).toBeGreaterThan(100);
  }, 120_000);
});
