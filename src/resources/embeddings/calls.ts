import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import type { CallPipeline } from '../../core/resource.js';
import { decodeFloat32 } from './decode.js';
import { check } from './schema.js';
import type { CreateEmbeddingResponse, EmbeddingCreateManyOptions, EmbeddingCreateManyParams, EmbeddingCreateParams } from './types.js';

// The embedding calls, loaded with the first one (with their schema and zod).

type Format = EmbeddingCreateParams['encoding_format'];

/** What goes on the wire: the caller's format, else base64 (a third of the bytes of JSON floats, decoded by `asAsked`). */
const wireFormat = (format: Format): 'float' | 'base64' => format ?? 'base64';

/** The answer as the caller asked for it: base64 strings as sent, otherwise numbers (a server that sent floats anyway is read as is). */
function asAsked(format: Format, data: unknown): CreateEmbeddingResponse<number[] | string> {
  const res = data as CreateEmbeddingResponse<number[] | string>;
  if (format === 'base64') return res;
  for (const item of res.data) if (typeof item.embedding === 'string') item.embedding = decodeFloat32(item.embedding);
  return res;
}

/** POST embeddings. */
export function create(api: CallPipeline, body: EmbeddingCreateParams, options: RequestOptions | undefined): APIPromise<CreateEmbeddingResponse<number[] | string>> {
  // Only a request's own fallbackModels apply: vectors of different models do not mix.
  return api.post(
    {
      path: 'embeddings',
      body,
      schema: { check },
      clientFallbacks: false,
      wire: (sent) => ({ ...sent, encoding_format: wireFormat(body.encoding_format) }),
      map: (data) => asAsked(body.encoding_format, data),
    },
    options,
  );
}

/** `embeddings.createMany`: batches sent through the same pipeline, the loop in create-many.ts. */
export async function createMany(api: CallPipeline, body: EmbeddingCreateManyParams, options: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse<number[] | string>> {
  // The same rules as create() for model, input, encoding_format and dimensions, before anything is sent.
  check(body);
  const { createMany: run } = await import('./create-many.js');
  const sent = { ...body, encoding_format: wireFormat(body.encoding_format) };
  return run(
    (input, requestOptions, retries) =>
      api.call(
        {
          request: () => ({ method: 'POST', path: 'embeddings', body: { ...sent, input }, ...retries }),
          map: (data) => asAsked(body.encoding_format, data),
        },
        requestOptions,
      ),
    body,
    options,
  );
}
