import fc from 'fast-check';
import { http } from 'msw';
import { Stream as OpenAIStream } from 'openai/core/streaming';
import { describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  chatStreamFromReadable,
  GatewayError,
  RateLimitError,
  streamFromReadable,
  type ChatCompletionChunk,
} from '../../src/index.js';
import { isErrorPayload } from '../../src/core/errors.js';
import { BASE, chatParams, client, KEY, leaksKey } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { chunk, chunkedBody, chunkedBytes, sseResponse, sseText } from '../helpers/sse.js';

const server = useMswServer();
const url = `${BASE}/chat/completions`;
const completionsURL = `${BASE}/completions`;
const streamParams = { ...chatParams, stream: true as const };
const enc = new TextEncoder();

function serve(body: () => ReadableStream<Uint8Array> | string) {
  server.use(http.post(url, () => sseResponse(body())), http.post(completionsURL, () => sseResponse(body())));
}

/** What a server route would return: the client's stream as NDJSON bytes. */
async function routeBody(): Promise<ReadableStream<Uint8Array>> {
  const stream = await client().chat.completions.create(streamParams);
  return stream.toReadableStream();
}

async function bytesOf(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}


async function contents(stream: AsyncIterable<ChatCompletionChunk>): Promise<string[]> {
  const seen: string[] = [];
  for await (const c of stream) seen.push(c.choices[0]?.delta.content ?? '');
  return seen;
}

const words = ['Hello', ', ', 'wörld ', '🌍', ' — ', '你好'];

describe('toReadableStream → chatStreamFromReadable', () => {
  it.each([
    ['whole', 1 << 20],
    ['3-byte pieces', 3],
    ['byte by byte', 1],
  ])('gives back the same chunks and final completion, delivered %s', async (_, size) => {
    serve(() => sseText([...words.map((w) => chunk(w)), chunk(undefined, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })]));
    const direct = await (await client().chat.completions.create(streamParams)).finalChatCompletion();
    const bytes = await bytesOf(await routeBody());

    expect(await contents(chatStreamFromReadable(chunkedBytes(bytes, size)))).toEqual([...words, '']);
    expect(await chatStreamFromReadable(chunkedBytes(bytes, size)).finalChatCompletion()).toEqual(direct);
  });

  it('ends the body with an empty line after the last chunk, and reads CRLF lines too', async () => {
    serve(() => sseText([chunk('a')]));
    const text = new TextDecoder().decode(await bytesOf(await routeBody()));
    expect(text).toBe(`${JSON.stringify(chunk('a'))}\n\n`);
    expect(await contents(chatStreamFromReadable(chunkedBody(text.replaceAll('\n', '\r\n'), 2)))).toEqual(['a']);
  });

  it('passes an error frame on as the same error class, without the key', async () => {
    const errorFrame = { error: { message: `slow down ${KEY}`, type: 'rate_limit_error', code: 'rate_limit_exceeded' } };
    serve(() => sseText([chunk('a'), errorFrame]));
    const bytes = await bytesOf(await routeBody());
    expect(new TextDecoder().decode(bytes)).not.toContain(KEY);

    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of chatStreamFromReadable(chunkedBytes(bytes, 5))) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ code: 'rate_limit_exceeded', message: expect.stringContaining('slow down [REDACTED]') });
    expect(leaksKey(err)).toBe(false);
  });

  it('passes on the plain text of an `event: error` frame', async () => {
    serve(() => `${sseText([chunk('a')], { done: false })}event: error\ndata: upstream channel closed\n\n`);
    const err = await chatStreamFromReadable(await routeBody())
      .finalChatCompletion()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toContain('upstream channel closed');
  });

  it('errors the body when the upstream is cut, and the reader throws APIConnectionError', async () => {
    let cut = () => {};
    serve(
      () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(enc.encode(sseText([chunk('a')], { done: false })));
            cut = () => controller.error(new TypeError('terminated'));
          },
        }),
    );
    // The upstream breaks once the reader at the far end has the first chunk, not 5 ms after it
    // was sent: on a busy machine that could be before any byte, which the client retries.
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of chatStreamFromReadable(await routeBody())) {
        seen.push(c.choices[0]?.delta.content ?? '');
        cut();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('Stream interrupted');
  });

  it('throws for a body that closes without its end marker (a proxy turned a cut into a clean end)', async () => {
    const text = `${JSON.stringify(chunk('a'))}\n`;
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of chatStreamFromReadable(chunkedBody(text, 4))) seen.push(c.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('end marker');
  });

  it('throws for a body cut mid-line', async () => {
    const text = `${JSON.stringify(chunk('a'))}\n${JSON.stringify(chunk('b')).slice(0, 20)}`;
    const err = await contents(chatStreamFromReadable(chunkedBody(text, 7))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toContain('cut mid-line');
  });

  it('throws GatewayError for a line that is not JSON', async () => {
    const err = await contents(chatStreamFromReadable(chunkedBody('<html>oops</html>\n\n', 64))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toContain('Invalid JSON in stream line');
  });

  it('throws GatewayError for a body already being read', async () => {
    const body = chunkedBody('\n', 1);
    body.getReader();
    await expect(contents(chatStreamFromReadable(body))).rejects.toBeInstanceOf(GatewayError);
  });

  it('cancels the body and aborts its controller when the loop is left early', async () => {
    const cancel = vi.fn();
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(enc.encode(`${JSON.stringify(chunk(`c${pulls}`))}\n`));
      },
      cancel,
    });
    const stream = chatStreamFromReadable(body);
    for await (const c of stream) if (c.choices[0]?.delta.content === 'c2') break;
    expect(cancel).toHaveBeenCalled();
    expect(stream.controller.signal.aborted).toBe(true);
  });

  it('ends with APIUserAbortError when the given controller aborts, and cancels the body', async () => {
    const cancel = vi.fn();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(enc.encode(`${JSON.stringify(chunk('a'))}\n${JSON.stringify(chunk('b'))}\n`));
      },
      cancel,
    });
    const controller = new AbortController();
    const stream = chatStreamFromReadable(body, { controller });
    expect(stream.controller).toBe(controller);
    const seen: string[] = [];
    const err = await (async () => {
      for await (const c of stream) {
        seen.push(c.choices[0]?.delta.content ?? '');
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(cancel).toHaveBeenCalled();
  });

  it('ends with APIUserAbortError while waiting for bytes', async () => {
    // A body that is asked for bytes (highWaterMark 0: only when read) and never sends any.
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    const body = new ReadableStream<Uint8Array>({ pull: () => (asked(), new Promise<void>(() => undefined)) }, { highWaterMark: 0 });
    const stream = chatStreamFromReadable(body);
    const read = contents(stream);
    await waiting;
    stream.controller.abort();
    await expect(read).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('reads any stream generically with streamFromReadable', async () => {
    const text = '{"type":"a"}\n{"type":"b"}\n\n';
    const types: string[] = [];
    for await (const e of streamFromReadable<{ type: string }>(chunkedBody(text, 3))) types.push(e.type);
    expect(types).toEqual(['a', 'b']);
  });

  it("can be read by openai-node's Stream.fromReadableStream (it skips the end marker)", async () => {
    serve(() => sseText(words.map((w) => chunk(w))));
    const theirs = OpenAIStream.fromReadableStream<ChatCompletionChunk>(await routeBody(), new AbortController());
    expect(await contents(theirs)).toEqual(words);
  });
});

describe('streamFromReadable properties', () => {
  /** Frames and error of a read, the error as name, message and whether it is typed. */
  async function outcome(pieces: Uint8Array[]) {
    const frames: string[] = [];
    try {
      for await (const f of streamFromReadable<unknown>(rechunkPieces(pieces))) frames.push(JSON.stringify(f));
      return { frames };
    } catch (error) {
      return { frames, error: { name: (error as Error).name, message: (error as Error).message, typed: GatewayError.isInstance(error) } };
    }
  }

  function rechunkPieces(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
    let next = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (next >= pieces.length) return controller.close();
        controller.enqueue(pieces[next++] as Uint8Array);
      },
    });
  }

  function split(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let offset = 0, i = 0; offset < bytes.length; i++) {
      const size = sizes[i % sizes.length] as number;
      out.push(bytes.slice(offset, offset + size));
      offset += size;
    }
    return out;
  }

  const sizesArb = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 });

  it('reads back what toReadableStream wrote however the bytes are split', async () => {
    // No key that is one quote: V8's JSON.parse on Node 24 and 26 reads it as a backslash once a
    // backslash key was parsed in the process (nodejs/node#63785), a platform bug, not the reader's.
    const frameArb = fc.jsonValue({ maxDepth: 2 }).filter((v) => !isErrorPayload(v) && !JSON.stringify(v).includes('"\\"":'));
    await fc.assert(
      fc.asyncProperty(fc.array(frameArb, { maxLength: 8 }), sizesArb, async (frames, sizes) => {
        const source = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(enc.encode(sseText(frames.map((f) => JSON.stringify(f)))));
            controller.close();
          },
        });
        serve(() => source);
        const bytes = await bytesOf((await client().completions.create({ model: 'm', prompt: 'p', stream: true })).toReadableStream());
        expect(await outcome(split(bytes, sizes))).toEqual({ frames: frames.map((f) => JSON.stringify(f)) });
      }),
      { numRuns: 60 },
    );
  });

  it('ends any bytes at all in frames or a GatewayError, the same however split', async () => {
    const soup = fc
      .array(fc.oneof(fc.constantFrom('\n', '\r\n', '{"a":1}', '{"error":{"code":"x"}}', '{', '"', 'é', '🌍', 'null', '[1]').map((t) => enc.encode(t)), fc.uint8Array({ maxLength: 4 })), { maxLength: 30 })
      .map((parts) => Uint8Array.from(parts.flatMap((p) => [...p])));
    await fc.assert(
      fc.asyncProperty(soup, sizesArb, async (bytes, sizes) => {
        const whole = await outcome([bytes]);
        if (whole.error) expect(whole.error.typed, `${whole.error.name}: ${whole.error.message}`).toBe(true);
        expect(await outcome(split(bytes, sizes))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});
