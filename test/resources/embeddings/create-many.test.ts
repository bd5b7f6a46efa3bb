import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { APIUserAbortError, EmbeddingBatchError, type CreateEmbeddingResponse, Gateway, GatewayError, InternalServerError, ValidationError, type EmbeddingCreateManyOptions, type EmbeddingProgress } from '../../../src/index.js';
import type { BatchCall } from '../../../src/resources/embeddings/batches.js';
import { BASE, client as mswClient } from '../../helpers/fixtures.js';
import { mockClient } from '../../helpers/mock-client.js';
import { answer, burstOf429s, rateLimited, settle, texts, vectors } from './gateway.js';
import { useMswServer } from '../../helpers/msw.js';

const server = useMswServer();

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A gateway as a fetch function: each text's vector is [its number], after `delayMs` (on the
 * fake clock where a test runs on it: see `settle`); answers can be scripted per request.
 * `first` resolves when the first request is sent.
 */
function gateway(script: (call: number, input: string[]) => Response | undefined = () => undefined, delayMs = 2) {
  let arrived = () => {};
  const first = new Promise<void>((resolve) => (arrived = resolve));
  let calls = 0;
  let inFlight = 0;
  let most = 0;
  // Batches the SDK has started and not yet had answered: a batch waiting to retry after a
  // 429 still counts, so this is the SDK's concurrency, not just the sockets open right now.
  const pending = new Set<string>();
  const concurrency: number[] = [];
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    arrived();
    const call = ++calls;
    inFlight++;
    most = Math.max(most, inFlight);
    const { input } = JSON.parse(String(init?.body)) as { input: string[] };
    pending.add(input[0] ?? '');
    concurrency.push(pending.size);
    try {
      await new Promise((r) => setTimeout(r, delayMs));
      if (init?.signal?.aborted) throw init.signal.reason;
      const scripted = script(call, input);
      if (scripted) return scripted;
      pending.delete(input[0] ?? '');
      return answer(input);
    } finally {
      inFlight--;
    }
  };
  return { fetch, first, stats: () => ({ calls, most, concurrency }) };
}
describe('embeddings.createMany', () => {
  it('returns every vector in input order, index = position in the whole input, usage summed', async () => {
    vi.useFakeTimers();
    const { fetch, first, stats } = gateway();
    const progress: EmbeddingProgress[] = [];
    const res = await settle(
      new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch }).embeddings.createMany({ model: 'emb', input: texts(10) }, { batchSize: 3, concurrency: 2, onProgress: (p) => progress.push(p) }),
      first,
    );
    expect(res.data.map((d) => [d.index, d.embedding[0]])).toEqual(texts(10).map((_, i) => [i, i]));
    expect(res.usage).toEqual({ prompt_tokens: 10, total_tokens: 10 });
    expect(res.model).toBe('emb');
    expect(stats()).toMatchObject({ calls: 4, most: 2 });
    expect(progress.at(-1)).toEqual({ done: 10, total: 10 });
    expect(progress.map((p) => p.done).every((d, i, all) => i === 0 || d > (all[i - 1] ?? 0))).toBe(true);
  });

  it('works against the mock gateway, vectors decoded from base64', async () => {
    const { client, mock } = mockClient();
    const res = await client.embeddings.createMany({ model: 'text-embedding-3-small', input: ['a cat', 'a dog', 'a car'], dimensions: 8 }, { batchSize: 2 });
    expect(res.data.map((d) => [d.index, d.embedding.length])).toEqual([
      [0, 8],
      [1, 8],
      [2, 8],
    ]);
    expect(mock.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([['a cat', 'a dog'], ['a car']]);
  });

  it.each([
    ['float', 'float', 'numbers'],
    ['base64', 'base64', 'a string'],
    [undefined, 'base64', 'numbers'],
  ] as const)('keeps create()\'s encoding_format contract: asked %s, sends %s, returns %s', async (asked, sent, type) => {
    const { client, mock } = mockClient();
    const res = await client.embeddings.createMany({ model: 'text-embedding-3-small', input: ['a cat', 'a dog', 'a car'], dimensions: 4, encoding_format: asked }, { batchSize: 2 });
    expect(mock.requests.map((r) => (r.body as { encoding_format?: unknown }).encoding_format)).toEqual([sent, sent]);
    expect(res.data.map((d) => (typeof d.embedding === 'string' ? 'a string' : d.embedding.every((x) => typeof x === 'number') ? 'numbers' : 'other'))).toEqual([type, type, type]);
  });

  it('returns the same vectors for float, base64 decoded, and the default', async () => {
    const { client } = mockClient();
    const body = { model: 'text-embedding-3-small', input: ['a cat', 'a dog', 'a car'], dimensions: 4 };
    const floats = await client.embeddings.createMany({ ...body, encoding_format: 'float' }, { batchSize: 2 });
    const raw = await client.embeddings.createMany({ ...body, encoding_format: 'base64' }, { batchSize: 2 });
    const decoded = await client.embeddings.createMany(body, { batchSize: 2 });
    expectTypeOf(floats).toEqualTypeOf<CreateEmbeddingResponse>();
    expectTypeOf(raw).toEqualTypeOf<CreateEmbeddingResponse<string>>();
    expectTypeOf(decoded).toEqualTypeOf<CreateEmbeddingResponse>();
    expect(decoded.data.map((d) => d.embedding)).toEqual(floats.data.map((d) => d.embedding));
    expect(raw.data.map((d) => [d.index, atob(d.embedding).length])).toEqual([
      [0, 16],
      [1, 16],
      [2, 16],
    ]);
  });

  it('halves concurrency on a rate limit and grows it back after a run of successes, losing nothing', async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const { fetch, first, stats } = gateway((call) => (call >= 5 && call <= 8 ? rateLimited() : undefined), 5);
    const res = await settle(new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch, maxRetries: 5 }).embeddings.createMany({ model: 'emb', input: texts(400) }, { batchSize: 5, concurrency: 8 }), first);
    expect(res.data.map((d) => d.embedding[0])).toEqual(texts(400).map((_, i) => i));
    expect(res.usage.total_tokens).toBe(400);
    const { concurrency, most } = stats();
    expect(most).toBe(8);
    // After the burst of 429s (requests 5-8) the batches under way stay at half for a while,
    // then climb back one step at a time to the full 8. Where the halved stretch starts depends
    // on how the answers and the retry pauses interleave, so look for eight requests in a row
    // with at most 6 batches under way anywhere after the burst (were it never halved, it
    // would stay at 8).
    const stretches = Array.from({ length: concurrency.length - 16 }, (_, i) => Math.max(...concurrency.slice(8 + i, 16 + i)));
    expect(Math.min(...stretches)).toBeLessThanOrEqual(6);
    expect(Math.max(...concurrency.slice(-10))).toBe(8);
  });

  it('bounds requests in flight, retries included: after four 429s at concurrency 4, at most 2 are in flight at the server', async () => {
    vi.useFakeTimers();
    const { arrivals, first } = burstOf429s(server);
    const res = await settle(mswClient().embeddings.createMany({ model: 'emb', input: texts(4), encoding_format: 'float' }, { batchSize: 1, concurrency: 4 }), first);
    expect(res.data.map((d) => d.embedding[0])).toEqual([0, 1, 2, 3]);
    expect(arrivals).toHaveLength(8);
    expect(Math.max(...arrivals.slice(0, 4).map((a) => a.inFlight))).toBe(4);
    expect(Math.max(...arrivals.slice(4).map((a) => a.inFlight))).toBeLessThanOrEqual(2);
  });

  it('starts no new batch while rate-limited ones wait to be retried: the retries go first', async () => {
    vi.useFakeTimers();
    const { arrivals, first } = burstOf429s(server);
    const res = await settle(mswClient().embeddings.createMany({ model: 'emb', input: texts(8), encoding_format: 'float' }, { batchSize: 1, concurrency: 4 }), first);
    expect(res.data.map((d) => d.embedding[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(arrivals).toHaveLength(12);
    // Under the halved limit of 2, the first two requests after the burst are retries.
    expect(arrivals.slice(4, 6).map((a) => a.text).every((text) => ['t0', 't1', 't2', 't3'].includes(text))).toBe(true);
  });

  it('a retry waiting for a slot gives up when the call is aborted', async () => {
    const { createMany } = await import('../../../src/resources/embeddings/create-many.js');
    const controller = new AbortController();
    let waited: unknown = 'still waiting';
    const info = { method: 'POST', url: 'http://x/v1/embeddings', baseURL: 'http://x/v1', attempt: 1, idempotencyKey: undefined, error: new GatewayError('slow down'), status: 429, delayMs: 0, nextBaseURL: 'http://x/v1' };
    let retried = () => {};
    let t1Sent = () => {};
    const t1InFlight = new Promise<void>((resolve) => (t1Sent = resolve));
    const call: BatchCall = async (input, options, { onRetry, beforeRetry }) => {
      if (input[0] === 't1') t1Sent();
      // Batch t0 meets a 429 (the limit halves to 1) while t1 holds the only slot, so t0's retry waits.
      if (input[0] === 't0') {
        await t1InFlight;
        onRetry?.(info);
        void Promise.resolve(beforeRetry?.(info)).then(
          () => (waited = 'sent'),
          (e: unknown) => (waited = e),
        );
        retried();
      }
      return new Promise((_, reject) => options.signal?.addEventListener('abort', () => reject(new APIUserAbortError())));
    };
    const waiting = new Promise<void>((resolve) => (retried = resolve));
    const done = createMany(call, { model: 'emb', input: texts(2) }, { batchSize: 1, concurrency: 2, signal: controller.signal }).catch((e: unknown) => e);
    await waiting;
    controller.abort();
    expect(await done).toBeInstanceOf(APIUserAbortError);
    // One event-loop turn: every promise job the abort queued has run by then (no timer is involved).
    await new Promise((resolve) => setImmediate(resolve));
    expect(waited).toBeInstanceOf(APIUserAbortError);
  });

  it('rejects with EmbeddingBatchError naming the input range of a batch that failed after its retries, sending nothing more', async () => {
    vi.useFakeTimers();
    const { fetch, first, stats } = gateway((call) => (call === 3 ? Response.json({ error: { message: 'boom' } }, { status: 500 }) : undefined));
    const err = await settle(
      new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch, maxRetries: 0 }).embeddings.createMany({ model: 'emb', input: texts(100) }, { batchSize: 10, concurrency: 1 }).catch((e: unknown) => e),
      first,
    );
    await vi.runAllTimersAsync();
    expect(err).toBeInstanceOf(EmbeddingBatchError);
    expect(err).toMatchObject({ start: 20, end: 30, message: expect.stringMatching(/inputs 20 to 29 \(of 100\)/) });
    expect((err as Error).cause).toBeInstanceOf(InternalServerError);
    expect(stats().calls).toBe(3);
  });

  it.each([
    ['99 vectors for 100 inputs', (data: Array<{ index?: number }>) => data.slice(0, 99), /99 vectors for 100 inputs/],
    ['an index twice', (data: Array<{ index?: number }>) => data.map((d, i) => (i === 99 ? { ...d, index: 0 } : d)), /indexes/],
    ['an index past the batch', (data: Array<{ index?: number }>) => data.map((d, i) => (i === 99 ? { ...d, index: 100 } : d)), /indexes/],
    ['a vector without an index', (data: Array<{ index?: number }>) => data.map((d, i) => (i === 99 ? { ...d, index: undefined } : d)), /indexes/],
  ])('rejects at once with EmbeddingBatchError naming the range of a batch answered with %s, aborting the batches in flight', async (_, mangle, message) => {
    vi.useFakeTimers();
    let calls = 0;
    let firstAborted = false;
    let arrived = () => {};
    const first = new Promise<void>((resolve) => (arrived = resolve));
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      arrived();
      calls++;
      const { input } = JSON.parse(String(init?.body)) as { input: string[] };
      if (input[0] === 't0') {
        // The first batch is answered only once aborted (or, were it never aborted, after 2 s
        // on the fake clock: when nothing else is left to happen).
        await new Promise<void>((resolve) => {
          init?.signal?.addEventListener('abort', () => resolve(), { once: true });
          setTimeout(resolve, 2_000);
        });
        firstAborted = init?.signal?.aborted === true;
        if (firstAborted) throw init?.signal?.reason;
      }
      return answer(input, input[0] === 't100' ? mangle(vectors(input)) : undefined);
    };
    const err = await settle(
      new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch }).embeddings.createMany({ model: 'emb', input: texts(500), encoding_format: 'float' }, { batchSize: 100, concurrency: 2 }).catch((e: unknown) => e),
      first,
    );
    await vi.runAllTimersAsync();
    expect(err).toBeInstanceOf(EmbeddingBatchError);
    expect(err).toMatchObject({ start: 100, end: 200, message: expect.stringMatching(/inputs 100 to 199 \(of 500\)/) });
    expect((err as Error).cause).toBeInstanceOf(GatewayError);
    expect((err as Error).message).toMatch(message);
    expect(firstAborted).toBe(true);
    expect(calls).toBe(2);
  });

  it('stops sending at once when aborted', async () => {
    vi.useFakeTimers();
    const { fetch, first, stats } = gateway(undefined, 20);
    const controller = new AbortController();
    const done = new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch }).embeddings
      .createMany({ model: 'emb', input: texts(1_000) }, { batchSize: 10, concurrency: 2, signal: controller.signal, onProgress: ({ done: n }) => n >= 20 && controller.abort() })
      .catch((e: unknown) => e);
    expect(await settle(done, first)).toBeInstanceOf(APIUserAbortError);
    const sent = stats().calls;
    // Everything still pending (the gateway's delays, any pause) runs out: nothing more is sent.
    await vi.runAllTimersAsync();
    expect(stats().calls).toBe(sent);
    expect(sent).toBeLessThan(6);
  });

  it('runs 100,000 inputs with only `concurrency` requests, never one promise per input', async () => {
    vi.useFakeTimers();
    const { fetch, first, stats } = gateway(undefined, 0);
    const res = await settle(new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch }).embeddings.createMany({ model: 'emb', input: texts(100_000) }, { batchSize: 500, concurrency: 4 }), first);
    expect(res.data).toHaveLength(100_000);
    expect(res.data[99_999]).toMatchObject({ index: 99_999, embedding: [99_999] });
    expect(stats()).toMatchObject({ calls: 200, most: 4 });
  });

  it.each([
    [{ input: [] }, {}, 'input'],
    [{ input: ['ok', ''] }, {}, 'input[1]'],
    [{ input: 'one text' }, {}, 'input'],
    [{ input: ['x'] }, { batchSize: 2049 }, 'batchSize'],
    [{ input: ['x'] }, { concurrency: 0 }, 'concurrency'],
    [{ input: ['x'], dimensions: 0 }, {}, 'dimensions'],
    [{ input: ['x'] }, { onProgress: 'yes' }, 'onProgress'],
    [{ input: ['x'] }, { signal: 'stop' }, 'signal'],
  ])('rejects %o %o before sending', async (body, options, field) => {
    const { fetch, stats } = gateway();
    const err = await new Gateway({ apiKey: 'k', baseURL: 'http://x/v1', fetch }).embeddings.createMany({ model: 'emb', ...(body as { input: string[] }) }, options as EmbeddingCreateManyOptions).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field });
    expect(stats().calls).toBe(0);
  });
});
