import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource } from '../../core/resource.js';
import { lazy } from '../../internal/lazy.js';
import type { CreateEmbeddingResponse, Embedding, EmbeddingCreateManyOptions, EmbeddingCreateManyParams, EmbeddingCreateParams, EmbeddingIterateOptions, EmbeddingIterateParams } from './types.js';

/** `float32: true`: vectors as Float32Array. */
type Float32Options = { float32: true };
/** Without `float32`. */
type NotFloat32 = { float32?: false | undefined };

/** The calls (with their schema and zod) load with the first one; see core/resource.ts. */
const loadCalls = lazy(() => import('./calls.js'));

/** `client.embeddings`: text to vectors. */
export class Embeddings extends APIResource {
  /**
   * Creates embeddings for one text or many. Unless you ask for `encoding_format: 'base64'`,
   * vectors are fetched base64-encoded (about a third of the bytes of JSON floats) and
   * decoded to `number[]` for you; a server that answers with floats is read as is.
   * @example
   * const { data } = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
   * console.log(data[0]?.embedding.length);
   */
  create(body: EmbeddingCreateParams & { encoding_format: 'base64' }, options?: RequestOptions): APIPromise<CreateEmbeddingResponse<string>>;
  create(body: EmbeddingCreateParams & { encoding_format?: 'float' | undefined }, options?: RequestOptions): APIPromise<CreateEmbeddingResponse>;
  create(body: EmbeddingCreateParams, options?: RequestOptions): APIPromise<CreateEmbeddingResponse<number[] | string>>;
  create(body: EmbeddingCreateParams, options?: RequestOptions): APIPromise<CreateEmbeddingResponse<number[] | string>> {
    return this._callWhenLoaded(loadCalls, (m) => m.create(this._pipeline(), body, options));
  }

  /**
   * Embeds many texts: splits them into batches (100 by default, at most 2048), sends up to
   * `concurrency` (4) at once, halving that on a rate limit and growing it back after a run
   * of successes, and resolves to one response whose `data` is in input order (`index` = the
   * position in the whole input) with `usage` summed. `encoding_format` works as in `create`;
   * `float32: true` gives `Float32Array` vectors (half the memory of `number[]`).
   * A batch that fails after its retries, or comes back without one vector per input,
   * rejects the whole call at once with `EmbeddingBatchError`, which says which inputs it
   * held; `signal` stops sending at once. There is no model fallback: vectors of different
   * models do not mix. For more texts than fit in memory, use {@link Embeddings.iterate}.
   * @example
   * const { data } = await client.embeddings.createMany(
   *   { model: 'text-embedding-3-small', input: chunks },
   *   { onProgress: ({ done, total }) => console.log(`${done}/${total}`) },
   * );
   */
  createMany(body: EmbeddingCreateManyParams & { encoding_format?: 'float' | undefined }, options: EmbeddingCreateManyOptions & Float32Options): Promise<CreateEmbeddingResponse<Float32Array>>;
  createMany(body: EmbeddingCreateManyParams & { encoding_format: 'base64' }, options?: EmbeddingCreateManyOptions & NotFloat32): Promise<CreateEmbeddingResponse<string>>;
  createMany(body: EmbeddingCreateManyParams & { encoding_format?: 'float' | undefined }, options?: EmbeddingCreateManyOptions & NotFloat32): Promise<CreateEmbeddingResponse>;
  createMany(body: EmbeddingCreateManyParams, options?: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse<number[] | string | Float32Array>>;
  createMany(body: EmbeddingCreateManyParams, options?: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse<number[] | string | Float32Array>> {
    return loadCalls().then((m) => m.createMany(this._pipeline(), body, options));
  }

  /**
   * Embeds texts from any iterable or async iterable (a generator, the lines of a file) and
   * yields each `Embedding` in input order (`index` = its position in the input) as soon as
   * it and every one before it have arrived. The input is read as it is needed and at most
   * `2 × concurrency` batches are held at once, so memory does not grow with the input;
   * batches, concurrency, rate limits, `encoding_format` and `float32` work as in
   * `createMany`. A failed batch ends the loop with `EmbeddingBatchError` after every input
   * before it was yielded (`start` is where to resume); leaving the loop early aborts the
   * batches in flight.
   * @example
   * for await (const e of client.embeddings.iterate({ model: 'text-embedding-3-small', input: lines }, { float32: true })) {
   *   await store.put(e.index, e.embedding);
   * }
   */
  iterate(body: EmbeddingIterateParams & { encoding_format?: 'float' | undefined }, options: EmbeddingIterateOptions & Float32Options): AsyncIterable<Embedding<Float32Array>>;
  iterate(body: EmbeddingIterateParams & { encoding_format: 'base64' }, options?: EmbeddingIterateOptions & NotFloat32): AsyncIterable<Embedding<string>>;
  iterate(body: EmbeddingIterateParams & { encoding_format?: 'float' | undefined }, options?: EmbeddingIterateOptions & NotFloat32): AsyncIterable<Embedding>;
  iterate(body: EmbeddingIterateParams, options?: EmbeddingIterateOptions): AsyncIterable<Embedding<number[] | string | Float32Array>>;
  async *iterate(body: EmbeddingIterateParams, options?: EmbeddingIterateOptions): AsyncIterable<Embedding<number[] | string | Float32Array>> {
    // Opened and pulled before the code loads (tens of ms on a process's first call): a
    // readline interface, or a generator over one, emits lines to whoever listens by then.
    const opened = (body?.input as Partial<AsyncIterable<string>> | undefined)?.[Symbol.asyncIterator]?.();
    const first = opened && Promise.resolve(opened.next());
    first?.catch(() => {});
    yield* await (await loadCalls()).iterate(this._pipeline(), body, options, opened, first);
  }
}
