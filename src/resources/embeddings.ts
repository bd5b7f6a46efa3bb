import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import { lazy } from '../internal/lazy.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./embeddings.schema.js'));
/** The base64 decoder loads with the first base64 answer. */
const loadDecoder = lazy(() => import('./embeddings.decode.js'));

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
  create(body: EmbeddingCreateParams & { encoding_format: 'base64' }, options?: RequestOptions): Promise<CreateEmbeddingResponse<string>>;
  create(body: EmbeddingCreateParams & { encoding_format?: 'float' }, options?: RequestOptions): Promise<CreateEmbeddingResponse>;
  create(body: EmbeddingCreateParams, options?: RequestOptions): Promise<CreateEmbeddingResponse<number[] | string>>;
  async create(body: EmbeddingCreateParams, options?: RequestOptions): Promise<CreateEmbeddingResponse<number[] | string>> {
    await this._check(loadSchema, body);
    const wantsRaw = body.encoding_format === 'base64';
    const res = await this._post<CreateEmbeddingResponse<number[] | string>>('embeddings', { ...body, encoding_format: body.encoding_format ?? 'base64' }, options);
    if (wantsRaw || !res.data.some((item) => typeof item.embedding === 'string')) return res;
    const { decodeFloat32 } = await loadDecoder();
    for (const item of res.data) if (typeof item.embedding === 'string') item.embedding = decodeFloat32(item.embedding);
    return res;
  }
}

/** POST /embeddings parameters. */
export interface EmbeddingCreateParams {
  model: string;
  /** A text, texts, or token arrays. Empty strings are rejected. */
  input: string | string[] | number[] | number[][];
  /** `float` (numbers) or `base64` (raw strings, returned as sent). @default numbers, fetched as base64 */
  encoding_format?: 'float' | 'base64' | undefined;
  /** Output size, for models that support shortening. Integer >= 1. */
  dimensions?: number | undefined;
  user?: string | undefined;
}

/** One vector. */
export interface Embedding<E = number[]> {
  object: 'embedding';
  index: number;
  embedding: E;
}

/** POST /embeddings result. `E` is `string` when `encoding_format: 'base64'` was asked for. */
export interface CreateEmbeddingResponse<E = number[]> {
  object: 'list';
  data: Array<Embedding<E>>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}
