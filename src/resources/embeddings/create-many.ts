import { APIUserAbortError, ValidationError } from '../../core/errors.js';
import { anySignal } from '../../internal/signals.js';
import { batchError, byIndex, checkBatchOptions, Slots, type BatchCall, type Vector } from './batches.js';
import type { CreateEmbeddingResponse, Embedding, EmbeddingCreateManyOptions, EmbeddingCreateManyParams } from './types.js';

// Loaded with the first createMany(): every input in batches, gathered into one response.

/**
 * Embeds every input in batches and resolves to one response: `data` in input order with
 * `index` the position in the whole input, `usage` summed. A batch that fails after its
 * retries, or is answered without one vector per input, rejects the whole call at once with
 * EmbeddingBatchError (which inputs it held); the batches in flight are aborted and no more
 * are sent. Concurrency: see `Slots` in batches.ts.
 */
export async function createMany(call: BatchCall, body: EmbeddingCreateManyParams, options: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse<Vector>> {
  const { batchSize = 100, concurrency = 4, float32: _float32, onProgress, signal, ...requestOptions } = options;
  // What createMany needs beyond create()'s schema (checked before this loads): an array of strings, and its own options.
  if (!Array.isArray(body.input)) throw new ValidationError('input', 'must be a non-empty array of strings');
  const bad = body.input.findIndex((text) => typeof text !== 'string' || text.length === 0);
  if (bad >= 0) throw new ValidationError(`input[${bad}]`, 'must be a non-empty string');
  checkBatchOptions(options);
  const { input } = body;
  const total = input.length;
  const batches = Math.ceil(total / batchSize);
  const data = new Array<Embedding<Vector>>(total);
  const usage = { prompt_tokens: 0, total_tokens: 0 };
  const stop = new AbortController();
  const callSignal = anySignal(signal, stop.signal) ?? stop.signal;
  let model = body.model;
  let next = 0;
  let done = 0;

  return new Promise<CreateEmbeddingResponse<Vector>>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      signal?.removeEventListener('abort', onAbort);
      stop.abort();
      reject(error);
    };
    const onAbort = () => fail(new APIUserAbortError(undefined, { cause: signal?.reason }));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });

    const start = (batch: number) => {
      const from = batch * batchSize;
      const to = Math.min(total, from + batchSize);
      const hold = slots.enter(callSignal);
      let succeeded = false;
      call(input.slice(from, to) as string[], { ...requestOptions, signal: callSignal }, hold.retries)
        .then((res) => {
          if (failed) return;
          const vectors = byIndex(res.data, from, to - from);
          model = res.model || model;
          usage.prompt_tokens += res.usage?.prompt_tokens ?? 0;
          usage.total_tokens += res.usage?.total_tokens ?? 0;
          for (let i = 0; i < vectors.length; i++) data[from + i] = vectors[i] as Embedding<Vector>;
          done += to - from;
          succeeded = true;
          onProgress?.({ done, total });
          if (done === total) finish();
        })
        .catch((error: unknown) => {
          if (failed) return;
          if (signal?.aborted) return onAbort();
          fail(batchError(error, from, to, total));
        })
        .finally(() => hold.end(succeeded));
    };
    const slots = new Slots(Math.min(concurrency, batches), () => {
      if (failed || next >= batches) return false;
      start(next++);
      return true;
    });
    const finish = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve({ object: 'list', data, model, usage });
    };
    slots.pump();
  });
}
