import type { APIPromise } from '../../core/api-promise.js';
import { ValidationError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/types.js';
import type { CallPipeline } from '../../core/resource.js';
import type { BatchCall, Vector } from './batches.js';
import { decodeFloat32, decodeFloat32Array } from './decode.js';
import { check } from './schema.js';
import type { CreateEmbeddingResponse, Embedding, EmbeddingCreateManyOptions, EmbeddingCreateManyParams, EmbeddingCreateParams, EmbeddingIterateOptions, EmbeddingIterateParams } from './types.js';

// The embedding calls, loaded with the first one (with their schema and zod).

type Format = EmbeddingCreateParams['encoding_format'];

/** What goes on the wire: the caller's format, else base64 (a third of the bytes of JSON floats, decoded by `asAsked`). */
const wireFormat = (format: Format): 'float' | 'base64' => format ?? 'base64';

/**
 * The answer as the caller asked for it: base64 strings as sent; with `float32`, Float32Arrays
 * (from base64 directly, or from the numbers of a server that sent floats); otherwise numbers.
 */
function asAsked(format: Format, float32: boolean | undefined, data: unknown): CreateEmbeddingResponse<Vector> {
  const res = data as CreateEmbeddingResponse<Vector>;
  if (format === 'base64') return res;
  for (const item of res.data) {
    const vector = item.embedding;
    if (float32) item.embedding = typeof vector === 'string' ? decodeFloat32Array(vector) : Float32Array.from(vector as number[]);
    else if (typeof vector === 'string') item.embedding = decodeFloat32(vector);
  }
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
      map: (data) => asAsked(body.encoding_format, false, data) as CreateEmbeddingResponse<number[] | string>,
    },
    options,
  );
}

/** The request of one batch of createMany or iterate: the same body but for `input`, through the same pipeline. */
function batchCall(api: CallPipeline, body: Omit<EmbeddingCreateParams, 'input'>, float32: boolean | undefined): BatchCall {
  if (float32 && body.encoding_format === 'base64') throw new ValidationError('float32', "cannot be combined with encoding_format: 'base64' (raw strings)");
  const sent = { ...body, encoding_format: wireFormat(body.encoding_format) };
  return (input, requestOptions, retries) =>
    api.call(
      {
        request: () => ({ method: 'POST', path: 'embeddings', body: { ...sent, input }, ...retries }),
        map: (data) => asAsked(body.encoding_format, float32, data),
      },
      requestOptions,
    );
}

/** `embeddings.createMany`: batches sent through the same pipeline, the loop in create-many.ts. */
export async function createMany(api: CallPipeline, body: EmbeddingCreateManyParams, options: EmbeddingCreateManyOptions = {}): Promise<CreateEmbeddingResponse<Vector>> {
  // The same rules as create() for model, input, encoding_format and dimensions, before anything is sent.
  check(body);
  const call = batchCall(api, body, options.float32);
  const { createMany: run } = await import('./create-many.js');
  return run(call, body, options);
}

/** `embeddings.iterate`: the same batches, read from the input and yielded as they come, by iterate.ts. */
export async function iterate(
  api: CallPipeline,
  body: EmbeddingIterateParams,
  options: EmbeddingIterateOptions = {},
  opened: AsyncIterator<unknown> | undefined,
  first: Promise<IteratorResult<unknown>> | undefined,
): Promise<AsyncIterable<Embedding<Vector>>> {
  const { input: _input, ...rest } = body ?? {};
  const { iterate: run } = await import('./iterate.js');
  // create()'s rules for model, encoding_format and dimensions (the texts are checked as they are read), run by iterate.ts before anything is read.
  const prepare = () => {
    check({ ...rest, input: 'x' });
    return batchCall(api, rest, options.float32);
  };
  return run(prepare, body, options, opened && { iterator: opened, first });
}
