import type { RequestOptions } from '../../core/types.js';
import type { ModelId } from '../../core/model-catalog.js';

/** POST /embeddings parameters. */
export interface EmbeddingCreateParams {
  model: ModelId;
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

/** Parameters of `embeddings.createMany`: many texts, embedded in batches. */
export interface EmbeddingCreateManyParams {
  model: ModelId;
  /** The texts, in order; none may be empty. */
  input: readonly string[];
  /** As for `create`: `float` (numbers) or `base64` (raw strings, returned as sent). @default numbers, fetched as base64 */
  encoding_format?: 'float' | 'base64' | undefined;
  /** Output size, for models that support shortening. Integer >= 1. */
  dimensions?: number | undefined;
  user?: string | undefined;
}

/** How far `createMany` has come. */
export interface EmbeddingProgress {
  /** Inputs embedded so far. */
  done: number;
  total: number;
}

/** Options of `embeddings.createMany`, besides the usual request options (applied to every batch). */
export interface EmbeddingCreateManyOptions extends Omit<RequestOptions, 'fallbackModels'> {
  /** Inputs per request, at most 2048 (what the endpoint accepts). @default 100 */
  batchSize?: number | undefined;
  /** Requests in flight at most, retries included; halved on a rate limit, grown back one step after a run of successes. @default 4 */
  concurrency?: number | undefined;
  /** Called after every batch. */
  onProgress?: ((progress: EmbeddingProgress) => void) | undefined;
}
