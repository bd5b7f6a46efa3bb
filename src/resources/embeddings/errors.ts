import { GatewayError } from '../../core/errors.js';

/**
 * `embeddings.createMany` stopped: one batch failed (after its retries, when it was worth
 * retrying), or its answer did not hold one vector per input. Which inputs it held is on
 * `start` and `end` (end exclusive); the batch's own error is the `cause`.
 */
export class EmbeddingBatchError extends GatewayError {
  static override readonly kind = 'EmbeddingBatchError';
  /** Index of the first input of the failed batch, in the whole input. */
  readonly start: number;
  /** Index after its last input. */
  readonly end: number;
  /** @internal */
  constructor(start: number, end: number, total: number, cause: GatewayError) {
    super(`Embedding inputs ${start} to ${end - 1} (of ${total}) failed: ${cause.message}`, { cause });
    this.start = start;
    this.end = end;
  }
}
