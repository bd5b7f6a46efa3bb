import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/request.js';
import { APIResource } from '../../core/resource.js';
import { lazy } from '../../internal/lazy.js';
import type { EmbeddingCreateParams, CreateEmbeddingResponse } from './types.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./schema.js'));
/** The base64 decoder loads with the first base64 answer. */
const loadDecoder = lazy(() => import('./decode.js'));

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
    return this._call(
      {
        request: async () => {
          await this._check(loadSchema, body);
          return { method: 'POST', path: 'embeddings', body: { ...body, encoding_format: body.encoding_format ?? 'base64' } };
        },
        map: async (data) => {
          const res = data as CreateEmbeddingResponse<number[] | string>;
          if (body.encoding_format === 'base64' || !res.data.some((item) => typeof item.embedding === 'string')) return res;
          const { decodeFloat32 } = await loadDecoder();
          for (const item of res.data) if (typeof item.embedding === 'string') item.embedding = decodeFloat32(item.embedding);
          return res;
        },
      },
      options,
    );
  }
}
