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

/** How far `iterate` has come. */
export interface EmbeddingIterateProgress {
  /** Inputs embedded so far (some may not have been yielded yet: they wait for the batches before them). */
  done: number;
  /** The input's length when it is an array; undefined for any other iterable, whose length is not known in advance. */
  total: number | undefined;
}

/** Options of `embeddings.createMany`, besides the usual request options (applied to every batch). */
export interface EmbeddingCreateManyOptions extends Omit<RequestOptions, 'fallbackModels'> {
  /** Inputs per request, at most 2048 (what the endpoint accepts). @default 100 */
  batchSize?: number | undefined;
  /** Requests in flight at most, retries included; halved on a rate limit, grown back one step after a run of successes. @default 4 */
  concurrency?: number | undefined;
  /** Called after every batch. */
  onProgress?: ((progress: EmbeddingProgress) => void) | undefined;
  /**
   * Vectors as `Float32Array` (4 bytes a dimension, where a `number[]` takes 8 and more),
   * decoded straight from the base64 the gateway sends; with `encoding_format: 'float'` the
   * numbers are converted. Not with `encoding_format: 'base64'`. @default false
   */
  float32?: boolean | undefined;
}

/** Parameters of `embeddings.iterate`: texts from any iterable, read as they are needed. */
export interface EmbeddingIterateParams {
  model: ModelId;
  /** The texts, in order: an array, a generator, lines of a file (`readline`), a stream. None may be empty. */
  input: Iterable<string> | AsyncIterable<string>;
  /** As for `create`: `float` (numbers) or `base64` (raw strings, returned as sent). @default numbers, fetched as base64 */
  encoding_format?: 'float' | 'base64' | undefined;
  /** Output size, for models that support shortening. Integer >= 1. */
  dimensions?: number | undefined;
  user?: string | undefined;
}

/** Options of `embeddings.iterate`: those of `createMany`, with progress for an input of unknown length. */
export interface EmbeddingIterateOptions extends Omit<EmbeddingCreateManyOptions, 'onProgress'> {
  /** Called after every batch is received. */
  onProgress?: ((progress: EmbeddingIterateProgress) => void) | undefined;
}

/** A vector as the caller asked for it: numbers, base64 as sent, or a Float32Array. */
export type Vector = number[] | string | Float32Array;
