import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { APIUserAbortError, type CreateEmbeddingResponse, EmbeddingBatchError, type Embedding, Gateway, InternalServerError, ValidationError } from '../../../src/index.js';
import type { EmbeddingIterateOptions, EmbeddingIterateProgress } from '../../../src/resources/embeddings/types.js';
import { fastRetries } from '../../helpers/fixtures.js';
import { client as mswClient } from '../../helpers/fixtures.js';
import { mockClient } from '../../helpers/mock-client.js';
import { useMswServer } from '../../helpers/msw.js';
import { answer, burstOf429s, settle, texts, turn } from './gateway.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});
const root = join(import.meta.dirname, '..', '..', '..');

/**
 * A fresh process: 50,000 lines in a temp file, read with readline through a generator that
 * skips the first 1,000 (as when resuming), embedded by a gateway that answers each line's
 * number; then the same file straight through readline, left after 3 vectors; then through
 * a generator that closes the file in its finally, left likewise. Bounded by the caller's timeout.
 */
const readlineScript = `
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Gateway } from './src/index.ts';
const dir = mkdtempSync(join(tmpdir(), 'ug-iterate-'));
const file = join(dir, 'lines.txt');
writeFileSync(file, Array.from({ length: 50000 }, (_, i) => 'line ' + i).join('\\n') + '\\n');
const fetch = async (_url, init) => {
  const { input } = JSON.parse(init.body);
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: [Number(text.slice(5))] }));
  return Response.json({ object: 'list', model: 'emb', data, usage: { prompt_tokens: 1, total_tokens: 1 } });
};
const client = new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch });
// Waits for the file's close event; the bound only ends a run whose file is never closed
// (false), far beyond the milliseconds a close takes, however busy the machine.
const closedWithin = (stream, ms) => new Promise((resolve) => {
  if (stream.closed) return resolve(true);
  stream.once('close', () => resolve(true));
  setTimeout(() => resolve(false), ms);
});
async function* skipping(lines, skip) {
  let i = 0;
  for await (const line of lines) if (i++ >= skip) yield line;
}
const numbers = [];
const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
for await (const e of client.embeddings.iterate({ model: 'emb', input: skipping(lines, 1000), encoding_format: 'float' }, { batchSize: 500 })) numbers.push(e.embedding[0]);

const stream = createReadStream(file);
let directCount = 0;
for await (const _ of client.embeddings.iterate({ model: 'emb', input: createInterface({ input: stream, crlfDelay: Infinity }), encoding_format: 'float' }, { batchSize: 500 })) if (++directCount === 3) break;
const fileClosed = await closedWithin(stream, 20000);

const own = createReadStream(file);
async function* closing() {
  try {
    yield* skipping(createInterface({ input: own, crlfDelay: Infinity }), 10);
  } finally {
    own.destroy();
  }
}
let n = 0;
for await (const _ of client.embeddings.iterate({ model: 'emb', input: closing(), encoding_format: 'float' }, { batchSize: 500 })) if (++n === 3) break;
const wrappedFileClosed = await closedWithin(own, 20000);
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ count: numbers.length, first: numbers[0], last: numbers.at(-1), inOrder: numbers.every((v, i) => v === 1000 + i), directCount, fileClosed, wrappedFileClosed }));
process.exit(0);
`;

interface Sent {
  input: string[];
  signal: AbortSignal | undefined;
  /** Lets the gateway answer this request (held requests wait for it). */
  release: () => void;
}

/**
 * A gateway as a fetch function: each text's vector is [its number]. With `hold`, a request
 * whose first text it names waits until the test releases it (or it is aborted); `script`
 * may answer a request its own way. A request is answered as soon as it is released, in
 * promise jobs, or `wait(input)` ms later: a test that gives `wait` runs on the fake clock
 * (see `settle`). `first` resolves when the first request is sent.
 */
function gateway(options: { hold?: (first: string) => boolean; script?: (input: string[]) => Response | undefined; wait?: (input: string[]) => number } = {}) {
  const sent: Sent[] = [];
  let arrived = () => {};
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    arrived();
    const { input } = JSON.parse(String(init?.body)) as { input: string[] };
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    sent.push({ input, signal: init?.signal ?? undefined, release });
    if (!options.hold?.(input[0] ?? '')) release();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(init?.signal?.reason);
      if (init?.signal?.aborted) return onAbort();
      init?.signal?.addEventListener('abort', onAbort, { once: true });
      void released.then(() => (options.wait ? setTimeout(resolve, options.wait(input)) : resolve()));
    });
    return options.script?.(input) ?? answer(input);
  };
  const client = new Gateway(fastRetries({ apiKey: 'k', baseURL: 'http://x/v1', fetch, maxRetries: 0 }));
  /**
   * Resolves once `n` requests have been sent. Without `wait` the batches go out in promise
   * jobs, so within one event-loop turn of what led to them: bounded at 100 turns, not in ms.
   */
  const sentAtLeast = async (n: number) => {
    for (let i = 0; i < 100 && sent.length < n; i++) await turn();
    if (sent.length < n) throw new Error(`only ${sent.length} of ${n} requests were sent`);
  };
  const request = (first: string) => sent.find((s) => s.input[0] === first);
  return { client, sent, first, sentAtLeast, request };
}

/** A sync generator of t0, t1, … (endless without `n`), counting what was pulled and whether it was closed. */
function counted(n = Infinity) {
  const state = { pulled: 0, closed: false };
  function* generate() {
    try {
      for (let i = 0; i < n; i++) {
        state.pulled++;
        yield `t${i}`;
      }
    } finally {
      state.closed = true;
    }
  }
  return { input: generate(), state };
}

/** t0, t1, … each after an event-loop turn, as lines read from a file come (no clock involved). */
async function* asyncTexts(n: number) {
  for (let i = 0; i < n; i++) {
    await turn();
    yield `t${i}`;
  }
}

/** Runs the loop to its end or its error: what was yielded (vector values) and how it ended. */
async function drain<E>(iterable: AsyncIterable<Embedding<E>>): Promise<{ got: Array<Embedding<E>>; error: unknown }> {
  const got: Array<Embedding<E>> = [];
  try {
    for await (const e of iterable) got.push(e);
    return { got, error: undefined };
  } catch (error) {
    return { got, error };
  }
}
const values = (got: Array<Embedding<number[]>>) => got.map((e) => [e.index, e.embedding[0]]);
const inOrder = (n: number) => texts(n).map((_, i) => [i, i]);

describe('embeddings.iterate', () => {
  it.each([
    ['an array', () => texts(57)],
    ['a sync generator', () => counted(57).input],
    ['an async generator', () => asyncTexts(57)],
  ])('yields every vector of %s in input order, index = position in the input, whatever order the batches finish in', async (_, input) => {
    // Later batches answer sooner: t0's batch is the slowest (on the fake clock, so always).
    vi.useFakeTimers();
    const { client, sent, first } = gateway({ wait: (batch) => 10 - (Number(batch[0]?.slice(1)) % 50) / 5 });
    const { got, error } = await settle(drain(client.embeddings.iterate({ model: 'emb', input: input() }, { batchSize: 5, concurrency: 3 })), first);
    expect(error).toBeUndefined();
    expect(values(got)).toEqual(inOrder(57));
    expect(sent.map((s) => s.input.length)).toEqual([...Array.from({ length: 11 }, () => 5), 2]);
  });

  it('opens an async input at the first next(), before its code loads: a readline interface loses no line', async () => {
    let openedAtFirstNext = false;
    const input = { [Symbol.asyncIterator]: () => ((openedAtFirstNext = true), asyncTexts(3)) };
    const { client } = gateway();
    const it = client.embeddings.iterate({ model: 'emb', input }, { batchSize: 2 })[Symbol.asyncIterator]();
    const first = it.next();
    expect(openedAtFirstNext).toBe(true);
    expect((await first).value).toMatchObject({ index: 0 });
    await it.return?.();

    const { client: fresh } = gateway();
    const lines = createInterface({ input: Readable.from(['t0\nt1\n', 't2\nt3\nt4\n']), crlfDelay: Infinity });
    const { got, error } = await drain(fresh.embeddings.iterate({ model: 'emb', input: lines }, { batchSize: 2 }));
    expect(error).toBeUndefined();
    expect(values(got)).toEqual(inOrder(5));
  });

  it('pulls the first text of an async input at the first next(), before its code loads: a generator over a readline interface listens at once', async () => {
    const rl = createInterface({ input: Readable.from(['t0\nt1\n', 't2\nt3\nt4\n']), crlfDelay: Infinity });
    let listening = false;
    const lines = { [Symbol.asyncIterator]: () => ((listening = true), rl[Symbol.asyncIterator]()) };
    async function* skipping(skip: number) {
      let i = 0;
      for await (const line of lines) if (i++ >= skip) yield line;
    }
    const { client } = gateway();
    const it = client.embeddings.iterate({ model: 'emb', input: skipping(2) }, { batchSize: 2 })[Symbol.asyncIterator]();
    const first = it.next();
    // Before any await: the generator has run to its for await, so readline has a listener.
    expect(listening).toBe(true);
    const got = [(await first).value];
    for (let r = await it.next(); !r.done; r = await it.next()) got.push(r.value);
    expect(got.map((e) => e?.embedding)).toEqual([[2], [3], [4]]);
  });

  it('an async input whose first read fails ends the loop with its error; pulled before the arguments were refused, it is no unhandled rejection', async () => {
    async function* failing(): AsyncGenerator<string> {
      await Promise.resolve();
      throw new Error('disk unplugged');
    }
    const { client, sent } = gateway();
    const read = await drain(client.embeddings.iterate({ model: 'emb', input: failing() }));
    expect(read.error).toMatchObject({ message: 'disk unplugged' });
    // Refused after the input's first next() rejected: vitest fails the run on an unhandled rejection.
    const refused = await drain(client.embeddings.iterate({ model: '', input: failing() }));
    expect(refused.error).toMatchObject({ name: 'ValidationError', field: 'model' });
    // A turn: any promise job either call left behind has run (a request, a rejection nobody handled).
    await turn();
    expect(sent).toHaveLength(0);
  });

  it('loses no line of a 50,000-line file read by readline through a generator that skips lines, on the first call in a process; leaving the loop closes the file', async () => {
    // The first iterate() of a process loads its code (and zod) before anything else: a fresh
    // process, as a user's program is. Lines readline emits while nobody listens are gone.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', readlineScript], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const out = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(out).toEqual({ count: 49_000, first: 1000, last: 49_999, inOrder: true, directCount: 3, fileClosed: true, wrappedFileClosed: true });
  }, 70_000);

  it('yields a batch as soon as it and every batch before it have arrived, without waiting for later ones', async () => {
    const { client, sentAtLeast, request } = gateway({ hold: () => true });
    const events: string[] = [];
    const it = client.embeddings.iterate({ model: 'emb', input: texts(6) }, { batchSize: 2, concurrency: 3 })[Symbol.asyncIterator]();
    const first = it.next().then((r) => {
      events.push(`yielded ${r.value?.index}`);
      return r;
    });
    await sentAtLeast(3);
    request('t2')?.release();
    // A turn: t2's answer has arrived and been handled, and 0 was not yielded for it.
    await turn();
    events.push('released t0');
    request('t0')?.release();
    expect((await first).value).toMatchObject({ index: 0, embedding: [0] });
    const next = [await it.next(), await it.next(), await it.next()].map((r) => r.value?.index);
    expect(next).toEqual([1, 2, 3]);
    // Batch t4 has not been answered: 0 to 3 came without it, and 0 not before its own batch.
    expect(events).toEqual(['released t0', 'yielded 0']);
    request('t4')?.release();
    expect([(await it.next()).value?.index, (await it.next()).value?.index, (await it.next()).done]).toEqual([4, 5, true]);
  });

  it('reads the input lazily: never more than 2 × concurrency + 1 batches ahead of what was yielded, however slow the consumer', async () => {
    const { input, state } = counted(600);
    const { client, sent } = gateway();
    const batchSize = 5;
    const bound = (2 * 2 + 1) * batchSize;
    let received = 0;
    let mostAhead = 0;
    let mostUnyielded = 0;
    for await (const e of client.embeddings.iterate({ model: 'emb', input }, { batchSize, concurrency: 2 })) {
      expect(e.index).toBe(received++);
      mostAhead = Math.max(mostAhead, state.pulled - received);
      mostUnyielded = Math.max(mostUnyielded, sent.length * batchSize - received);
      // A consumer slower than the gateway: at every tenth vector it gives the event loop a
      // turn, and the gateway (answering in promise jobs) runs as far ahead as it is allowed.
      if (received % 10 === 0) await turn();
    }
    expect(received).toBe(600);
    expect(mostAhead).toBeLessThanOrEqual(bound);
    expect(mostUnyielded).toBeLessThanOrEqual(bound);
  });

  it('holds at most 2 × concurrency batches while the consumer takes nothing: no more requests, no more input read', async () => {
    const { input, state } = counted();
    const { client, sent } = gateway();
    const it = client.embeddings.iterate({ model: 'emb', input }, { batchSize: 10, concurrency: 3 })[Symbol.asyncIterator]();
    expect((await it.next()).value).toMatchObject({ index: 0 });
    // However long the consumer waits, the endless input is not read on: after a turn, every
    // request the first next() led to has been sent and answered (in promise jobs), and nothing more.
    await turn();
    expect(sent.length).toBeLessThanOrEqual(2 * 3 + 1);
    expect(state.pulled).toBeLessThanOrEqual((2 * 3 + 1) * 10);
    await it.return?.();
    expect(state.closed).toBe(true);
  });

  it('leaving the loop early aborts the batches in flight, sends nothing more, and closes the input', async () => {
    const { input, state } = counted();
    const { client, sent, sentAtLeast } = gateway({ hold: (first) => first !== 't0' });
    let taken = 0;
    for await (const e of client.embeddings.iterate({ model: 'emb', input }, { batchSize: 10, concurrency: 4 })) {
      expect(e.index).toBe(taken++);
      await sentAtLeast(4);
      break;
    }
    const count = sent.length;
    expect(count).toBeGreaterThanOrEqual(4);
    expect(sent.slice(1).every((s) => s.signal?.aborted)).toBe(true);
    expect(state.closed).toBe(true);
    await turn();
    expect(sent.length).toBe(count);
  });

  it('signal rejects the loop at once with APIUserAbortError and aborts the batches in flight', async () => {
    const { client, sent, sentAtLeast } = gateway({ hold: () => true });
    const controller = new AbortController();
    const it = client.embeddings.iterate({ model: 'emb', input: texts(100) }, { batchSize: 10, concurrency: 2, signal: controller.signal })[Symbol.asyncIterator]();
    const next = it.next();
    await sentAtLeast(2);
    controller.abort();
    await expect(next).rejects.toBeInstanceOf(APIUserAbortError);
    expect(sent.every((s) => s.signal?.aborted)).toBe(true);
    expect(sent).toHaveLength(2);
  });

  it.each([
    ['a generator', () => counted(100).input, /^Embedding inputs 30 to 39 failed/],
    ['an array', () => texts(100), /^Embedding inputs 30 to 39 \(of 100\) failed/],
  ])('a failed batch of %s ends the loop with EmbeddingBatchError naming its range, after every vector before it was yielded', async (_, input, message) => {
    // Batch t30 fails at once; t20 is still in flight then and answers 30 ms later (on the fake clock).
    vi.useFakeTimers();
    const { client, sent, first } = gateway({
      script: (batch) => (batch[0] === 't30' ? Response.json({ error: { message: 'boom' } }, { status: 500 }) : undefined),
      wait: (batch) => (batch[0] === 't20' ? 30 : 0),
    });
    const { got, error } = await settle(drain(client.embeddings.iterate({ model: 'emb', input: input() }, { batchSize: 10, concurrency: 3 })), first);
    expect(values(got)).toEqual(inOrder(30));
    expect(error).toBeInstanceOf(EmbeddingBatchError);
    expect(error).toMatchObject({ start: 30, end: 40, message: expect.stringMatching(message) });
    expect((error as Error).cause).toBeInstanceOf(InternalServerError);
    // Nothing is sent after the failure, and what was sent after it was aborted or answered.
    const count = sent.length;
    await vi.advanceTimersByTimeAsync(30);
    expect(sent.length).toBe(count);
  });

  it('a failed batch aborts the batches after it that are in flight and sends none of those read, while the ones before it finish', async () => {
    const { client, sent, sentAtLeast, request } = gateway({
      hold: (first) => first === 't0' || first === 't20',
      script: (batch) => (batch[0] === 't10' ? Response.json({ error: { message: 'bad request' } }, { status: 400 }) : undefined),
    });
    const done = drain(client.embeddings.iterate({ model: 'emb', input: texts(100) }, { batchSize: 10, concurrency: 3 }));
    await sentAtLeast(3);
    // A turn: t10's answer (a 400, in promise jobs) has failed its batch.
    await turn();
    expect(request('t20')?.signal?.aborted).toBe(true);
    expect(request('t0')?.signal?.aborted).toBe(false);
    request('t0')?.release();
    const { got, error } = await done;
    expect(values(got)).toEqual(inOrder(10));
    expect(error).toMatchObject({ name: 'EmbeddingBatchError', start: 10, end: 20 });
    expect(sent.map((s) => s.input[0])).toEqual(['t0', 't10', 't20']);
  });

  it('sends nothing read after a failure, not even a batch whose reading had begun before it', async () => {
    let releaseRead = () => {};
    const slowRead = new Promise<void>((resolve) => (releaseRead = resolve));
    async function* input() {
      yield* texts(20);
      await slowRead;
      yield* texts(30).slice(20);
    }
    const { client, sent, sentAtLeast, request } = gateway({
      hold: (first) => first === 't0',
      script: (batch) => (batch[0] === 't10' ? Response.json({ error: { message: 'bad request' } }, { status: 400 }) : undefined),
    });
    const done = drain(client.embeddings.iterate({ model: 'emb', input: input() }, { batchSize: 10, concurrency: 2 }));
    await sentAtLeast(2);
    // t10's batch has failed (t0's is still held) by the time the third batch's texts arrive:
    // a turn runs its answer's promise jobs; another lets a third batch go out, were it sent.
    await turn();
    releaseRead();
    await turn();
    request('t0')?.release();
    const { got, error } = await done;
    expect(values(got)).toEqual(inOrder(10));
    expect(error).toMatchObject({ name: 'EmbeddingBatchError', start: 10, end: 20 });
    expect(sent.map((s) => s.input[0])).toEqual(['t0', 't10']);
  });

  it.each([
    ['an empty string', ''],
    ['a number', 7],
    ['null', null],
  ])('an input that is %s ends the loop with ValidationError naming it, after the batches before it, its own batch never sent', async (_, bad) => {
    const { client, sent } = gateway();
    const input = [...texts(25), bad, ...texts(40).slice(26)] as string[];
    const { got, error } = await drain(client.embeddings.iterate({ model: 'emb', input }, { batchSize: 10, concurrency: 2 }));
    expect(values(got)).toEqual(inOrder(20));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'input[25]' });
    expect(sent.map((s) => s.input[0])).toEqual(['t0', 't10']);
  });

  it.each([
    ['a bad text in the first batch', { input: ['a', 'b', ''] }, {}, 'input[2]'],
    ['a string as input', { input: 'one text' }, {}, 'input'],
    ['no input', { input: undefined }, {}, 'input'],
    ['no model', { model: '', input: ['a'] }, {}, 'model'],
    ['dimensions 0', { input: ['a'], dimensions: 0 }, {}, 'dimensions'],
    ['batchSize 2049', { input: ['a'] }, { batchSize: 2049 }, 'batchSize'],
    ['concurrency 0', { input: ['a'] }, { concurrency: 0 }, 'concurrency'],
    ['float32 with base64', { input: ['a'], encoding_format: 'base64' }, { float32: true }, 'float32'],
    ['onProgress not a function', { input: ['a'] }, { onProgress: 'yes' }, 'onProgress'],
    ['signal not an AbortSignal', { input: ['a'] }, { signal: {} }, 'signal'],
    ['signal a string', { input: ['a'] }, { signal: 'stop' }, 'signal'],
    ['timeout not a number', { input: ['a'] }, { timeout: '5s' }, 'timeout'],
  ])('rejects %s with ValidationError before sending anything', async (_, body, options, field) => {
    const { client, sent } = gateway();
    const { got, error } = await drain(client.embeddings.iterate({ model: 'emb', ...(body as { input: string[] }) }, options as EmbeddingIterateOptions));
    expect(got).toEqual([]);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field });
    expect(sent).toHaveLength(0);
  });

  it('closes an async input it had opened when an argument is refused', async () => {
    let closed = false;
    const input = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ done: false as const, value: 'a' }),
        return: () => ((closed = true), Promise.resolve({ done: true as const, value: undefined })),
      }),
    };
    const { client, sent } = gateway();
    const { error } = await drain(client.embeddings.iterate({ model: '', input }));
    expect(error).toMatchObject({ name: 'ValidationError', field: 'model' });
    expect(closed).toBe(true);
    expect(sent).toHaveLength(0);
  });

  it('reports progress after every batch: done so far, total when the input is an array', async () => {
    const progress: EmbeddingIterateProgress[] = [];
    const { client } = gateway();
    await drain(client.embeddings.iterate({ model: 'emb', input: counted(25).input }, { batchSize: 10, concurrency: 1, onProgress: (p) => progress.push(p) }));
    await drain(client.embeddings.iterate({ model: 'emb', input: texts(15) }, { batchSize: 10, concurrency: 1, onProgress: (p) => progress.push(p) }));
    expect(progress).toEqual([
      { done: 10, total: undefined },
      { done: 20, total: undefined },
      { done: 25, total: undefined },
      { done: 10, total: 15 },
      { done: 15, total: 15 },
    ]);
  });

  it('bounds requests in flight as createMany does: after four 429s at concurrency 4, at most 2 are in flight at the server', async () => {
    vi.useFakeTimers();
    const { arrivals, first } = burstOf429s(server);
    const { got, error } = await settle(drain(mswClient().embeddings.iterate({ model: 'emb', input: texts(4), encoding_format: 'float' }, { batchSize: 1, concurrency: 4 })), first);
    expect(error).toBeUndefined();
    expect(values(got)).toEqual(inOrder(4));
    expect(arrivals).toHaveLength(8);
    expect(Math.max(...arrivals.slice(0, 4).map((a) => a.inFlight))).toBe(4);
    expect(Math.max(...arrivals.slice(4).map((a) => a.inFlight))).toBeLessThanOrEqual(2);
  });

  it('works against the mock gateway, vectors decoded from base64, typed by encoding_format', async () => {
    const { client, mock } = mockClient();
    const body = { model: 'text-embedding-3-small', input: ['a cat', 'a dog', 'a car'], dimensions: 8 };
    const numbers = client.embeddings.iterate(body, { batchSize: 2 });
    const raw = client.embeddings.iterate({ ...body, encoding_format: 'base64' }, { batchSize: 2 });
    expectTypeOf(numbers).toEqualTypeOf<AsyncIterable<Embedding>>();
    expectTypeOf(raw).toEqualTypeOf<AsyncIterable<Embedding<string>>>();
    const { got } = await drain(numbers);
    expect(got.map((e) => [e.index, e.embedding.length, typeof e.embedding[0]])).toEqual([
      [0, 8, 'number'],
      [1, 8, 'number'],
      [2, 8, 'number'],
    ]);
    expect(mock.requests.map((r) => r.body)).toMatchObject([
      { input: ['a cat', 'a dog'], encoding_format: 'base64' },
      { input: ['a car'], encoding_format: 'base64' },
    ]);
    expect((await drain(raw)).got.map((e) => typeof e.embedding)).toEqual(['string', 'string', 'string']);
  });
});

describe('float32', () => {
  const body = { model: 'text-embedding-3-small', input: ['a cat', 'a dog', 'a car'], dimensions: 16 };

  it('iterate: Float32Array vectors from base64, equal to the float path', async () => {
    const { client, mock } = mockClient();
    const stream = client.embeddings.iterate(body, { float32: true, batchSize: 2 });
    expectTypeOf(stream).toEqualTypeOf<AsyncIterable<Embedding<Float32Array>>>();
    const { got } = await drain(stream);
    expect(mock.requests.map((r) => (r.body as { encoding_format?: string }).encoding_format)).toEqual(['base64', 'base64']);
    const floats = await client.embeddings.create({ ...body, encoding_format: 'float' });
    expect(got.every((e) => e.embedding instanceof Float32Array)).toBe(true);
    expect(got.map((e) => Array.from(e.embedding))).toEqual(floats.data.map((d) => d.embedding));
  });

  it('with encoding_format float: the numbers sent converted to Float32Array', async () => {
    const { client, mock } = mockClient();
    const { got } = await drain(client.embeddings.iterate({ ...body, encoding_format: 'float' }, { float32: true }));
    expect(mock.requests[0]?.body).toMatchObject({ encoding_format: 'float' });
    const decoded = await client.embeddings.create(body);
    expect(got.every((e) => e.embedding instanceof Float32Array)).toBe(true);
    expect(got.map((e) => Array.from(e.embedding))).toEqual(decoded.data.map((d) => d.embedding));
  });

  it('createMany: the same Float32Array vectors, typed so', async () => {
    const { client } = mockClient();
    const res = await client.embeddings.createMany(body, { float32: true, batchSize: 2 });
    expectTypeOf(res).toEqualTypeOf<CreateEmbeddingResponse<Float32Array>>();
    const floats = await client.embeddings.createMany({ ...body, encoding_format: 'float' });
    expect(res.data.every((d) => d.embedding instanceof Float32Array && d.embedding.length === 16)).toBe(true);
    expect(res.data.map((d) => Array.from(d.embedding))).toEqual(floats.data.map((d) => d.embedding));
    await expect(client.embeddings.createMany({ ...body, encoding_format: 'base64' }, { float32: true } as { float32: boolean })).rejects.toMatchObject({ name: 'ValidationError', field: 'float32' });
  });

  it('decodes little-endian float32 bytes exactly, each vector with a buffer of its own', async () => {
    const { decodeFloat32Array } = await import('../../../src/resources/embeddings/decode.js');
    const values = [1.5, -2, 0, 3.4028234663852886e38, -1.401298464324817e-45];
    const b64 = btoa(String.fromCharCode(...new Uint8Array(new Float32Array(values).buffer)));
    const out = decodeFloat32Array(b64);
    expect(Array.from(out)).toEqual(values);
    expect(out.buffer.byteLength).toBe(values.length * 4);
  });
});
