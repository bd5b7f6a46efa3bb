import { APIUserAbortError, GatewayError, ValidationError } from '../../core/errors.js';
import type { CallRequest, RequestOptions } from '../../core/types.js';
import { EmbeddingBatchError } from '../errors.js';
import type { CreateEmbeddingResponse, Embedding, EmbeddingCreateManyOptions, Vector } from './types.js';

// What createMany and iterate share, loaded with the first of them (bulk.ts): the concurrency that
// backs off on rate limits (halved) and recovers (one step after a run of successes), and
// the checks of their options and of a batch's answer.

export type { Vector };

/** The hooks a batch's request takes around its retries. */
export type RetryHooks = Pick<CallRequest, 'onRetry' | 'beforeRetry'>;

/** One batch's request: the texts, the request options, and the hooks around its retries. */
export type BatchCall = (input: string[], options: RequestOptions, retries: RetryHooks) => Promise<CreateEmbeddingResponse<Vector>>;

/** The most inputs one request to the embeddings endpoint accepts. */
const MAX_BATCH = 2048;

/** A batch's hold on the slots: the hooks to pass with its request, and `end()` once it has settled. */
export interface SlotHold {
  retries: RetryHooks;
  end(succeeded: boolean): void;
}

/**
 * The concurrency of a run of batches. `limit` bounds two counts.
 *
 * Batches under way (a batch waiting out a retry pause included): a new batch starts only
 * below it, so a burst of failures cannot start every batch, and memory follows the results,
 * not the number of pending requests. Requests in flight: a batch gives up its slot when it
 * is retried and takes one again, under the limit as it is then, before the retry is sent;
 * retries waiting for a slot go before new batches.
 *
 * The limit halves when a request meets a rate limit and grows back by one after as many
 * successes in a row as the current limit. Requests in flight when it halved do not halve it
 * again: one burst of 429s is one signal.
 */
export class Slots {
  limit: number;
  readonly #max: number;
  readonly #startNext: () => boolean;
  #streak = 0;
  #epoch = 0;
  #running = 0;
  #underWay = 0;
  /** Retries waiting for a slot, first come first served; each takes its slot when called. */
  readonly #waiting: Array<() => void> = [];

  /** `startNext` starts the next batch (calling `enter()`), or returns false when there is none to start now. */
  constructor(max: number, startNext: () => boolean) {
    this.limit = max;
    this.#max = max;
    this.#startNext = startNext;
  }

  /** Fills the free slots: waiting retries first, then new batches. */
  pump(): void {
    while (this.#running < this.limit) {
      const wake = this.#waiting.shift();
      if (wake) wake();
      else if (this.#underWay >= this.limit || !this.#startNext()) break;
    }
  }

  /** Takes a slot for a batch about to be sent; `signal` (the batch's) ends a retry's wait for a slot. */
  enter(signal: AbortSignal): SlotHold {
    let epoch = this.#epoch;
    let holding = true;
    this.#underWay++;
    this.#running++;
    const take = () => {
      this.#running++;
      holding = true;
      // A retry sent under the lowered limit that meets a 429 again is a new signal.
      epoch = this.#epoch;
    };
    const release = () => {
      if (!holding) return;
      holding = false;
      this.#running--;
    };
    const stopped = () => new APIUserAbortError(undefined, { cause: signal.reason });
    return {
      retries: {
        onRetry: (info) => {
          if (info.status === 429) this.#rateLimited(epoch);
          release();
          this.pump();
        },
        beforeRetry: () => {
          if (signal.aborted) throw stopped();
          if (this.#running < this.limit && this.#waiting.length === 0) return take();
          return new Promise<void>((resolve, reject) => {
            const wake = () => {
              signal.removeEventListener('abort', onStop);
              take();
              resolve();
            };
            const onStop = () => {
              this.#waiting.splice(this.#waiting.indexOf(wake), 1);
              reject(stopped());
            };
            this.#waiting.push(wake);
            signal.addEventListener('abort', onStop, { once: true });
          });
        },
      },
      end: (succeeded) => {
        if (succeeded) this.#succeeded();
        release();
        this.#underWay--;
        this.pump();
      },
    };
  }

  #rateLimited(epoch: number): void {
    if (epoch !== this.#epoch) return;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.#streak = 0;
    this.#epoch++;
  }

  #succeeded(): void {
    if (++this.#streak < this.limit) return;
    this.limit = Math.min(this.#max, this.limit + 1);
    this.#streak = 0;
  }
}

/**
 * Checks the options of the batching that createMany and iterate share (the request options
 * every batch gets are checked with the request, `Embeddings.#batches`): a bad one would
 * otherwise throw a TypeError from the loop.
 */
export function checkBatchOptions(options: Omit<EmbeddingCreateManyOptions, 'onProgress'> & { onProgress?: unknown }): void {
  const { batchSize = 100, concurrency = 4, onProgress } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) throw new ValidationError('batchSize', `must be an integer from 1 to ${MAX_BATCH}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new ValidationError('concurrency', 'must be an integer >= 1');
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new ValidationError('onProgress', 'must be a function, called with { done, total }');
}

/**
 * A batch's vectors in input order, checked as they arrive, each `index` set to its position
 * in the whole input (`from` + its place in the batch). An answer that is not one vector per
 * input (a proxy that dropped one, an index repeated or out of range) fails its batch with a
 * GatewayError, rather than leave a hole found only after every batch has run.
 */
export function byIndex(received: unknown, from: number, size: number): Array<Embedding<Vector>> {
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
  for (let i = 0; i < size; i++) (vectors[i] as Embedding<Vector>).index = from + i;
  return vectors;
}

/** The error a failed batch ends the run with: a GatewayError names the batch's inputs; anything else (a bug, a throwing `onProgress`) passes as it is. */
export function batchError(error: unknown, from: number, to: number, total: number | undefined): unknown {
  if (!(error instanceof GatewayError)) return error;
  const of = total === undefined ? '' : ` (of ${total})`;
  return new EmbeddingBatchError(`Embedding inputs ${from} to ${to - 1}${of} failed: ${error.message}`, from, to, { cause: error });
}
