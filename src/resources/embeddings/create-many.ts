import { APIUserAbortError, GatewayError, ValidationError } from '../../core/errors.js';
import type { CoreRequest, RequestOptions } from '../../core/types.js';
import { anySignal } from '../../internal/signals.js';
import { EmbeddingBatchError } from '../errors.js';
import type { CreateEmbeddingResponse, Embedding, EmbeddingCreateManyOptions, EmbeddingCreateManyParams } from './types.js';

// Loaded with the first createMany(): bulk embedding in batches, with concurrency that
// backs off on rate limits (halved) and recovers (one step after a run of successes).

/** A vector as the caller asked for it: numbers, or base64 as sent. */
type Vector = number[] | string;

/** One batch's request: the texts, the request options, and the hooks around its retries. */
export type BatchCall = (input: string[], options: RequestOptions, retries: Pick<CoreRequest, 'onRetry' | 'beforeRetry'>) => Promise<CreateEmbeddingResponse<Vector>>;

/** The most inputs one request to the embeddings endpoint accepts. */
export const MAX_BATCH = 2048;

/**
 * Concurrency that halves when a request meets a rate limit and grows back by one after as
 * many successes in a row as the current limit. Requests in flight when it halved do not
 * halve it again: one burst of 429s is one signal.
 */
class Limiter {
  limit: number;
  #max: number;
  #streak = 0;
  #epoch = 0;
  constructor(max: number) {
    this.limit = max;
    this.#max = max;
  }
  get epoch(): number {
    return this.#epoch;
  }
  rateLimited(epoch: number): void {
    if (epoch !== this.#epoch) return;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.#streak = 0;
    this.#epoch++;
  }
  succeeded(): void {
    if (++this.#streak < this.limit) return;
    this.limit = Math.min(this.#max, this.limit + 1);
    this.#streak = 0;
  }
}

/**
 * A batch's vectors in input order, checked as they arrive: an answer that is not one vector
 * per input (a proxy that dropped one, an index repeated or out of range) fails its batch
 * with a GatewayError, rather than leave a hole found only after every batch has run.
 */
function byIndex(received: unknown, size: number): Array<Embedding<Vector>> {
  if (!Array.isArray(received) || received.length !== size) {
    throw new GatewayError(`The gateway returned ${Array.isArray(received) ? received.length : 'no'} vectors for ${size} inputs.`);
  }
  const vectors = new Array<Embedding<Vector>>(size);
  for (const item of received as Array<Embedding<Vector> | null>) {
    const i = item?.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= size || vectors[i] !== undefined) {
      throw new GatewayError(`The gateway returned ${size} vectors whose indexes are not 0 to ${size - 1}, one each.`);
    }
    vectors[i] = item as Embedding<Vector>;
  }
  return vectors;
}

/** What createMany needs beyond create()'s schema (checked before this loads): an array of strings, and its own options. */
function check(body: EmbeddingCreateManyParams, batchSize: number, concurrency: number): void {
  if (!Array.isArray(body.input)) throw new ValidationError('input', 'must be a non-empty array of strings');
  const bad = body.input.findIndex((text) => typeof text !== 'string' || text.length === 0);
  if (bad >= 0) throw new ValidationError(`input[${bad}]`, 'must be a non-empty string');
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) throw new ValidationError('batchSize', `must be an integer from 1 to ${MAX_BATCH}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new ValidationError('concurrency', 'must be an integer >= 1');
}

/**
 * Embeds every input in batches and resolves to one response: `data` in input order with
 * `index` the position in the whole input, `usage` summed. A batch that fails after its
 * retries, or is answered without one vector per input, rejects the whole call at once with
 * EmbeddingBatchError (which inputs it held); the batches in flight are aborted and no more
 * are sent.
 *
 * The limit bounds two counts. Batches under way (a batch waiting out a retry pause
 * included): a new batch starts only below it, so a burst of failures cannot start every
 * batch, and memory follows the results, not the number of pending requests. Requests in
 * flight: a batch gives up its slot when it is retried and takes one again, under the limit
 * as it is then, before the retry is sent; retries waiting for a slot go before new batches.
 */
export async function createMany(call: BatchCall, body: EmbeddingCreateManyParams, options: EmbeddingCreateManyOptions): Promise<CreateEmbeddingResponse<Vector>> {
  const { batchSize = 100, concurrency = 4, onProgress, signal, ...requestOptions } = options;
  check(body, batchSize, concurrency);
  const { input } = body;
  const total = input.length;
  const batches = Math.ceil(total / batchSize);
  const data = new Array<Embedding<Vector>>(total);
  const usage = { prompt_tokens: 0, total_tokens: 0 };
  const limiter = new Limiter(Math.min(concurrency, batches));
  const stop = new AbortController();
  const callSignal = anySignal(signal, stop.signal) ?? stop.signal;
  const stopped = () => new APIUserAbortError(undefined, { cause: callSignal.reason });
  /** Retries waiting for a slot, first come first served; each takes its slot when called. */
  const waiting: Array<() => void> = [];
  let model = body.model;
  let next = 0;
  let started = 0;
  let running = 0;
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
      let epoch = limiter.epoch;
      let holding = true;
      started++;
      running++;
      const take = () => {
        running++;
        holding = true;
        // A retry sent under the lowered limit that meets a 429 again is a new signal.
        epoch = limiter.epoch;
      };
      const release = () => {
        if (!holding) return;
        holding = false;
        running--;
      };
      call(input.slice(from, to) as string[], { ...requestOptions, signal: callSignal }, {
        onRetry: (info) => {
          if (info.status === 429) limiter.rateLimited(epoch);
          release();
          pump();
        },
        beforeRetry: () => {
          if (callSignal.aborted) throw stopped();
          if (running < limiter.limit && waiting.length === 0) return take();
          return new Promise<void>((resolve, reject) => {
            const wake = () => {
              callSignal.removeEventListener('abort', onStop);
              take();
              resolve();
            };
            const onStop = () => {
              waiting.splice(waiting.indexOf(wake), 1);
              reject(stopped());
            };
            waiting.push(wake);
            callSignal.addEventListener('abort', onStop, { once: true });
          });
        },
      })
        .then((res) => {
          if (failed) return;
          const vectors = byIndex(res.data, to - from);
          model = res.model || model;
          usage.prompt_tokens += res.usage?.prompt_tokens ?? 0;
          usage.total_tokens += res.usage?.total_tokens ?? 0;
          vectors.forEach((item, i) => {
            item.index = from + i;
            data[from + i] = item;
          });
          done += to - from;
          limiter.succeeded();
          onProgress?.({ done, total });
          if (done === total) finish();
        })
        .catch((error: unknown) => {
          if (failed) return;
          if (signal?.aborted) return onAbort();
          fail(error instanceof GatewayError ? new EmbeddingBatchError(from, to, total, error) : error);
        })
        .finally(() => {
          release();
          started--;
          pump();
        });
    };
    const pump = () => {
      if (failed) return;
      while (running < limiter.limit) {
        const wake = waiting.shift();
        if (wake) wake();
        else if (started < limiter.limit && next < batches) start(next++);
        else break;
      }
    };
    const finish = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve({ object: 'list', data, model, usage });
    };
    pump();
  });
}
