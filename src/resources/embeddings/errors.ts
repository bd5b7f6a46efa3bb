import { GatewayError } from '../../core/errors.js';

/**
 * `embeddings.createMany` or `embeddings.iterate` stopped: one batch failed (after its
 * retries, when it was worth retrying), or its answer did not hold one vector per input.
 * Which inputs it held is on `start` and `end` (end exclusive); the batch's own error is the
 * `cause`. From `iterate`, every input before `start` has been yielded: resume from there.
 */
export class EmbeddingBatchError extends GatewayError {
  static override readonly kind = 'EmbeddingBatchError';
  /** Index of the first input of the failed batch, in the whole input. */
  declare readonly start: number;
  /** Index after its last input. */
  declare readonly end: number;
  /** @internal */
  constructor(message: string, start: number, end: number, options: { cause: GatewayError }) {
    super(message, options);
    this.start = start;
    this.end = end;
  }
}
