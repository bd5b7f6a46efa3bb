import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource } from '../../core/resource.js';
import { lazy } from '../../internal/lazy.js';
import type { CreateEmbeddingResponse, EmbeddingCreateManyOptions, EmbeddingCreateManyParams, EmbeddingCreateParams } from './types.js';

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
   * position in the whole input) with `usage` summed. `encoding_format` works as in `create`.
   * A batch that fails after its retries, or comes back without one vector per input,
   * rejects the whole call at once with `EmbeddingBatchError`, which says which inputs it
   * held; `signal` stops sending at once. There is no model fallback: vectors of different
   * models do not mix.
   * @example
   * const { data } = await client.embeddings.createMany(
   *   { model: 'text-embedding-3-small', input: chunks },
   *   { onProgress: ({ done, total }) => console.log(`${done}/${total}`) },
   * );
   */
  createMany(body: EmbeddingCreateManyParams & { encoding_format: 'base64' }, options?: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse<string>>;
  createMany(body: EmbeddingCreateManyParams & { encoding_format?: 'float' | undefined }, options?: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse>;
  createMany(body: EmbeddingCreateManyParams, options?: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse<number[] | string>>;
  async createMany(body: EmbeddingCreateManyParams, options: EmbeddingCreateManyOptions = {}): Promise<CreateEmbeddingResponse<number[] | string>> {
    return (await loadCalls()).createMany(this._pipeline(), body, options);
  }
}
