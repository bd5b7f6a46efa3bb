import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/request.js';
import type { CallPipeline } from '../../core/resource.js';
import { decodeFloat32 } from './decode.js';
import { check } from './schema.js';
import type { CreateEmbeddingResponse, EmbeddingCreateManyOptions, EmbeddingCreateManyParams, EmbeddingCreateParams } from './types.js';

// The embedding calls, loaded with the first one (with their schema and zod).

/** Base64 vectors decoded to numbers, in place. */
function decode(res: CreateEmbeddingResponse<number[] | string>): CreateEmbeddingResponse {
  for (const item of res.data) if (typeof item.embedding === 'string') item.embedding = decodeFloat32(item.embedding);
  return res as CreateEmbeddingResponse;
}

/** POST embeddings, fetched as base64 (a third of the bytes) and decoded unless base64 was asked for. */
export function create(api: CallPipeline, body: EmbeddingCreateParams, options: RequestOptions | undefined): APIPromise<CreateEmbeddingResponse<number[] | string>> {
  // Only a request's own fallbackModels apply: vectors of different models do not mix.
  return api.post(
    {
      path: 'embeddings',
      body,
      schema: { check },
      clientFallbacks: false,
      wire: (sent) => ({ ...sent, encoding_format: body.encoding_format ?? 'base64' }),
      map: (data) => (body.encoding_format === 'base64' ? (data as CreateEmbeddingResponse<string>) : decode(data as CreateEmbeddingResponse<number[] | string>)),
    },
    options,
  );
}

/** `embeddings.createMany`: batches sent through the same pipeline, the loop in create-many.ts. */
export async function createMany(api: CallPipeline, body: EmbeddingCreateManyParams, options: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse> {
  // The same rules as create() for model, input and dimensions, before anything is sent.
  check(body);
  const { createMany: run } = await import('./create-many.js');
  return run(
    (input, requestOptions, onRetry) =>
      api.call<CreateEmbeddingResponse>(
        {
          request: () => ({ method: 'POST', path: 'embeddings', body: { ...body, input, encoding_format: 'base64' }, onRetry }),
          map: (data) => decode(data as CreateEmbeddingResponse<number[] | string>),
        },
        requestOptions,
      ),
    body,
    options,
  );
}
