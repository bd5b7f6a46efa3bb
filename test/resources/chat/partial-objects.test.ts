import { http } from 'msw';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIUserAbortError, GatewayError, ParseError, responseFormat, type StandardSchemaV1 } from '../../../src/index.js';
import { BASE, chatParams, client } from '../../helpers/fixtures.js';
import { useMswServer } from '../../helpers/msw.js';
import { chunk, chunkedBody, sseResponse, sseText } from '../../helpers/sse.js';
import { mockClient } from '../../helpers/mock-client.js';

const server = useMswServer();
const url = `${BASE}/chat/completions`;

const Plan = z.object({ title: z.string(), steps: z.array(z.object({ text: z.string(), done: z.boolean() })) });
const params = { ...chatParams, response_format: responseFormat(Plan, 'plan'), stream: true as const };

/** SSE frames carrying `deltas` as content, the last with finish_reason `finish`. */
function frames(deltas: string[], finish = 'stop'): unknown[] {
  return [...deltas.map((d) => chunk(d)), chunk(undefined, { choices: [{ index: 0, delta: {}, finish_reason: finish }] })];
}

/** Answers with `deltas` as a stream; `bytes` delivers the body in pieces of that many bytes. */
function streams(deltas: string[], { finish = 'stop', done = true, bytes = 64 }: { finish?: string; done?: boolean; bytes?: number } = {}) {
  server.use(http.post(url, () => sseResponse(chunkedBody(sseText(frames(deltas, finish), { done }), bytes))));
}

/**
 * A client whose reply carries `deltas`, then holds the body open until it is cancelled;
 * `cancelled` resolves when the client cancels it (bounded by the test's timeout). A custom
 * fetch hands our own body to the client, so its cancel() is observable.
 */
function hangingClient(deltas: string[]) {
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const text = new TextEncoder().encode(sseText(deltas.map((d) => chunk(d)), { done: false }));
  const fetch = async () =>
    sseResponse(
      new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(text),
        cancel: () => onCancel(),
      }),
    );
  return { client: client({ fetch }), cancelled };
}

/** `text` in deltas of `size` characters. */
function inDeltas(text: string, size: number): string[] {
  return Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, i * size + size));
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('stream.partialObjects', () => {
  it('yields a new top-level object each time the reply grew, sharing what did not change', async () => {
    streams(['{"title":"Mo', 've","steps":[{"text":"Pack","done":true},', '{"text":"Dri', 've"', ',"done":false}]}']);
    const stream = await client().chat.completions.parse(params);
    const seen: Array<{ value: unknown; json: string }> = [];
    for await (const partial of stream.partialObjects()) seen.push({ value: partial, json: JSON.stringify(partial) });
    expect(seen.map((s) => s.value)).toEqual([
      { title: 'Mo' },
      { title: 'Move', steps: [{ text: 'Pack', done: true }] },
      { title: 'Move', steps: [{ text: 'Pack', done: true }, { text: 'Dri' }] },
      { title: 'Move', steps: [{ text: 'Pack', done: true }, { text: 'Drive' }] },
      { title: 'Move', steps: [{ text: 'Pack', done: true }, { text: 'Drive', done: false }] },
    ]);
    // Nothing yielded is changed afterwards; each partial is a new object.
    for (const s of seen) expect(JSON.stringify(s.value)).toBe(s.json);
    const values = seen.map((s) => s.value as { steps: Array<object> });
    expect(new Set(values).size).toBe(values.length);
    // The first step was complete in the second partial: every later partial has that same object.
    const first = values[1]?.steps[0];
    for (const v of values.slice(2)) expect(v.steps[0]).toBe(first);
    expect(values[3]?.steps).not.toBe(values[2]?.steps);
  });

  it('gives strings cut short, and numbers and literals only once complete, never changing type', async () => {
    server.use(http.post(url, () => sseResponse(sseText(frames(['{"n":12', '3,"ok":tr', 'ue,"s":"ab', 'c","z":nu', 'll,"f":-1.', '5e2}'])))));
    const stream = await client().chat.completions.parse({ ...chatParams, response_format: { type: 'json_object' as const }, stream: true });
    expect(await collect(stream.partialObjects())).toEqual([{}, { n: 123 }, { n: 123, ok: true, s: 'ab' }, { n: 123, ok: true, s: 'abc' }, { n: 123, ok: true, s: 'abc', z: null }, { n: 123, ok: true, s: 'abc', z: null, f: -150 }]);
  });

  it('keeps multi-byte text whole however it is split: bytes, \\u escapes, surrogate pairs', async () => {
    // A body delivered byte by byte; one character's \u escape and one emoji's two halves across deltas
    // (the delta holding only the first half changes nothing: no partial for it).
    const deltas = ['{"title":"caf\\u00', 'e9 ', '\ud83d', '\ude80 日本', '語","steps":[]}'];
    streams(deltas, { bytes: 1 });
    const stream = await client().chat.completions.parse(params);
    const partials = await collect(stream.partialObjects());
    for (const p of partials) expect(p.title).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(partials.map((p) => p.title)).toEqual(['caf', 'café ', 'café 🚀 日本', 'café 🚀 日本語']);
    expect((await stream.finalChatCompletion()).choices[0]?.message.parsed).toEqual({ title: 'café 🚀 日本語', steps: [] });
  });

  it('then gives finalChatCompletion(), validated by the schema (any Standard Schema)', async () => {
    const schema: StandardSchemaV1<unknown, { n: number }> = {
      '~standard': { version: 1, vendor: 'hand', validate: (v) => (typeof (v as { n?: unknown }).n === 'number' ? { value: { n: (v as { n: number }).n * 2 } } : { issues: [{ message: 'n must be a number', path: ['n'] }] }) },
    };
    streams(['{"n"', ':21}']);
    const stream = await client().chat.completions.parse({ ...chatParams, response_format: responseFormat(schema, 'n', { jsonSchema: { type: 'object' } }), stream: true });
    expect(await collect(stream.partialObjects())).toEqual([{}, { n: 21 }]);
    expect((await stream.finalChatCompletion()).choices[0]?.message.parsed).toEqual({ n: 42 });
  });

  it('rejects with ParseError, raw content kept, when the whole reply breaks its schema; finalChatCompletion() too', async () => {
    streams(['{"title":"x",', '"steps":"none"}']);
    const stream = await client().chat.completions.parse(params);
    const partials: unknown[] = [];
    const err = await (async () => {
      for await (const p of stream.partialObjects()) partials.push(p);
    })().catch((e: unknown) => e);
    expect(partials.at(-1)).toEqual({ title: 'x', steps: 'none' });
    expect(err).toBeInstanceOf(ParseError);
    expect(err).toMatchObject({ content: '{"title":"x","steps":"none"}', message: expect.stringMatching(/does not match its schema: steps:/) });
    await expect(stream.finalChatCompletion()).rejects.toBe(err);
  });

  it('rejects with ParseError when the reply was cut at max_tokens', async () => {
    streams(['{"title":"Mo', 've","ste'], { finish: 'length' });
    const stream = await client().chat.completions.parse(params);
    const err = await collect(stream.partialObjects()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect(err).toMatchObject({ content: '{"title":"Move","ste', message: expect.stringMatching(/cut at max_tokens/) });
  });

  it('rejects a cut stream with APIConnectionError, and finalChatCompletion() with the same error', async () => {
    streams(['{"title":"Mo', 've"'], { done: false });
    const stream = await client().chat.completions.parse(params);
    const partials: unknown[] = [];
    const err = await (async () => {
      for await (const p of stream.partialObjects()) partials.push(p);
    })().catch((e: unknown) => e);
    expect(partials).toEqual([{ title: 'Mo' }, { title: 'Move' }]);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect(String(err)).toMatch(/before \[DONE\]/);
    await expect(stream.finalChatCompletion()).rejects.toBe(err);
  });

  it('stops the request at once on content that cannot be JSON, with ParseError', async () => {
    const { client, cancelled } = hangingClient(['Sure! Here', ' is the plan: {']);
    const stream = await client.chat.completions.parse(params);
    const err = await collect(stream.partialObjects()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    // Not the whole reply: the request was stopped, and `content` is what was read until then, as the message says.
    expect(err).toMatchObject({
      content: 'Sure! Here',
      issues: [],
      message: 'The reply is not valid JSON; partialObjects() stopped the request after its first 10 characters, which were: Sure! Here',
    });
    await cancelled;
    expect(stream.controller.signal.aborted).toBe(true);
    await expect(stream.finalChatCompletion()).rejects.toBe(err);
  });

  it('cancels the request when the loop is left early; finalChatCompletion() then rejects with APIUserAbortError', async () => {
    const { client, cancelled } = hangingClient(['{"title":"Mo', 've"']);
    const stream = await client.chat.completions.parse(params);
    for await (const partial of stream.partialObjects()) {
      expect(partial).toEqual({ title: 'Mo' });
      break;
    }
    await cancelled;
    await expect(stream.finalChatCompletion()).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('ends with APIUserAbortError when the stream is aborted', async () => {
    const { client, cancelled } = hangingClient(['{"title":"Mo']);
    const stream = await client.chat.completions.parse(params);
    const err = await (async () => {
      for await (const _ of stream.partialObjects()) stream.controller.abort();
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    await cancelled;
  });

  it('gives no partials on a refusal; finalChatCompletion() keeps it', async () => {
    server.use(http.post(url, () => sseResponse(sseText([chunk(undefined, { choices: [{ index: 0, delta: { refusal: 'I cannot.' }, finish_reason: 'stop' }] })]))));
    const stream = await client().chat.completions.parse(params);
    expect(await collect(stream.partialObjects())).toEqual([]);
    expect((await stream.finalChatCompletion()).choices[0]?.message).toMatchObject({ parsed: null, refusal: 'I cannot.' });
  });

  it('is the stream\'s one reader: iterating the stream as well, or calling it after a read, throws GatewayError', async () => {
    streams(['{"title":"a","steps":[]}']);
    const first = await client().chat.completions.parse(params);
    first.partialObjects();
    expect(() => first[Symbol.asyncIterator]()).toThrow(GatewayError);
    expect(() => first.partialObjects()).toThrow(GatewayError);

    const second = await client().chat.completions.parse(params);
    void second.finalChatCompletion();
    expect(() => second.partialObjects()).toThrow(/call it before the stream is read/);
    await second.finalChatCompletion();
  });

  it('works with finalChatCompletion() awaited before the loop: the partials are replayed', async () => {
    streams(['{"title":"Mo', 've","steps":[]}']);
    const stream = await client().chat.completions.parse(params);
    const partials = stream.partialObjects();
    expect((await stream.finalChatCompletion()).choices[0]?.message.parsed).toEqual({ title: 'Move', steps: [] });
    expect(await collect(partials)).toEqual([{ title: 'Mo' }, { title: 'Move', steps: [] }]);
  });

  it('gives a partial after every delta that changed the object, for a reply of 150 steps in 8-character deltas', async () => {
    const plan = { title: 'A long plan', steps: Array.from({ length: 150 }, (_, i) => ({ text: `Step ${i}: ${'do the thing '.repeat(3)}`, done: i % 3 === 0 })) };
    const deltas = inDeltas(JSON.stringify(plan), 8);
    server.use(http.post(url, () => sseResponse(sseText(frames(deltas)))));
    const stream = await client().chat.completions.parse(params);
    const partials = await collect(stream.partialObjects());
    // A delta changes nothing visible only when it ends inside a key, a number or a literal,
    // or is punctuation between values.
    const distinct = new Set(partials.map((p) => JSON.stringify(p)));
    expect(distinct.size).toBe(partials.length);
    expect(partials.length).toBeGreaterThan(deltas.length * 0.75);
    expect(partials.at(-1)).toEqual(plan);
    expect((await stream.finalChatCompletion()).choices[0]?.message.parsed).toEqual(plan);
  });

  it('gives a partial every few deltas once the open array is long (5,000 steps), and the whole value at the end', async () => {
    const plan = { title: 'A very long plan', steps: Array.from({ length: 5000 }, (_, i) => ({ text: `Step ${i}: do it`, done: i % 3 === 0 })) };
    const text = JSON.stringify(plan);
    const deltas = inDeltas(text, 8);
    server.use(http.post(url, () => sseResponse(sseText(frames(deltas)))));
    const stream = await client().chat.completions.parse(params);
    const partials = await collect(stream.partialObjects());
    // Each copy of the steps costs their number: one copy per delta would cost the square of
    // the reply's length. On average a partial at least every 200 characters, fewer than one per delta.
    expect(partials.length).toBeGreaterThan(text.length / 200);
    expect(partials.length).toBeLessThan(deltas.length / 2);
    expect(partials.at(-1)).toEqual(plan);
    const lengths = partials.map((p) => p.steps?.length ?? 0);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });
});

describe('a streamed parse that fails keeps the key out of its ParseError', () => {
  it('redacts what finalChatCompletion() and partialObjects() quote of the reply', async () => {
    const key = 'sk-streamed-parse-key-000';
    const Shape = z.object({ a: z.string() });
    const reply = `{"a": "${key}", not json`;
    for (const read of ['final', 'partials'] as const) {
      const { client } = mockClient({ apiKey: key, script: [{ content: reply }] }, { apiKey: key });
      const stream = await client.chat.completions.parse({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], response_format: responseFormat(Shape, 'shape'), stream: true });
      const err = await (read === 'final'
        ? stream.finalChatCompletion()
        : (async () => {
            for await (const _ of stream.partialObjects());
          })()
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParseError);
      expect(JSON.stringify(err) + String(err) + (err as ParseError).content).not.toContain(key);
    }
  });
});
