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
