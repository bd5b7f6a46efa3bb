import type { APIPromise } from '../../core/api-promise.js';
import { checkRequestOptions } from '../../core/check.js';
import { ValidationError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource } from '../../core/resource.js';
import type { BatchCall } from './batches.js';
import { decodeAsAsked, wireFormat } from './decode.js';
import * as schema from './schema.js';
import type { CreateEmbeddingResponse, Embedding, EmbeddingCreateManyOptions, EmbeddingCreateManyParams, EmbeddingCreateParams, EmbeddingIterateOptions, EmbeddingIterateParams, Vector } from './types.js';

/** `float32: true`: vectors as Float32Array. */
type Float32Options = { float32: true };
/** Without `float32`. */
type NotFloat32 = { float32?: false | undefined };

/** The batching of createMany() and iterate(), loaded with the first of them. */
const loadBulk = () => import('./bulk.js');

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
    // Only a request's own fallbackModels apply: vectors of different models do not mix.
    const format = body?.encoding_format;
    const sent = typeof body === 'object' && body !== null ? { ...body, encoding_format: wireFormat(format) } : body;
    const map = (data: unknown) => decodeAsAsked(format, false, data) as CreateEmbeddingResponse<number[] | string>;
    return this._post('embeddings', { body: sent, schema, clientFallbacks: false, map, cache: 'per-input' }, options);
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
  async createMany(body: EmbeddingCreateManyParams, options: EmbeddingCreateManyOptions = {}): Promise<CreateEmbeddingResponse<number[] | string | Float32Array>> {
    // The same rules as create() for model, input, encoding_format and dimensions, before anything is sent.
    schema.check(body);
    const send = this.#batches(body, options);
    return (await loadBulk()).createMany(send, body, options);
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
    const { input: _input, ...rest } = body ?? {};
    // create()'s rules for model, encoding_format and dimensions (the texts are checked as they are read), before anything is read.
    const prepare = () => {
      schema.check({ ...rest, input: 'x' });
      return this.#batches(rest, options ?? {});
    };
    yield* (await loadBulk()).iterate(prepare, body, options ?? {}, opened && { iterator: opened, first });
  }

  /**
   * The request of one batch of createMany or iterate: the same body but for `input`, through
   * the same pipeline. Its options are checked here, before anything is sent: `float32`, and
   * the request options every batch gets (`signal` included, which each batch gets combined
   * with its own), which would otherwise fail only once a batch had been read.
   */
  #batches(body: Omit<EmbeddingCreateParams, 'input'>, options: EmbeddingCreateManyOptions | EmbeddingIterateOptions): BatchCall {
    const { batchSize: _batchSize, concurrency: _concurrency, float32, onProgress: _onProgress, ...requestOptions } = options;
    checkRequestOptions(requestOptions);
    if (float32 !== undefined && typeof float32 !== 'boolean') throw new ValidationError('float32', 'must be true or false');
    if (float32 && body.encoding_format === 'base64') throw new ValidationError('float32', "cannot be combined with encoding_format: 'base64' (raw strings)");
    const sent = { ...body, encoding_format: wireFormat(body.encoding_format) };
    const map = (data: unknown): CreateEmbeddingResponse<Vector> => decodeAsAsked(body.encoding_format, float32, data);
    return (input, requestOptions, retries) => this._request({ method: 'POST', path: 'embeddings', body: { ...sent, input }, map, cache: 'per-input', ...retries }, requestOptions);
  }
}
