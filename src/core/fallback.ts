import { APIConnectionError, APIError, APITimeoutError, InternalServerError, isQuotaError, RateLimitError } from './errors.js';
import type { CoreEvents } from './logger.js';

// Loaded with the first call that has fallback models.

/**
 * True when the model looks unavailable, so another model may serve (API.md, model
 * fallback): 404 or 503 (or an error in a 200) with `model_not_found`; other 5xx; a 429
 * that is not a quota error; a timeout or a connection failure, each after the model's own
 * retries and failover. Never a 400, 401 or 403, a quota error, or an abort: another model
 * would meet the same fate.
 */
export function isModelUnavailable(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof APIError) || isQuotaError(error)) return false;
  if (error.status === 400 || error.status === 401 || error.status === 403) return false;
  if (error.code === 'model_not_found') return true;
  // An error inside a 200 counts by its class, as the retry rule (retry.ts) reads it. Not
  // imported from there: this chunk loads lazily, and sharing retry.ts with it would split
  // that module out of the chat app's main chunk.
  const status = error.status === 200 ? (error instanceof RateLimitError ? 429 : error instanceof InternalServerError ? 500 : 200) : error.status;
  return status >= 500 || status === 429;
}

/**
 * Sends the call for `model`, then for each of `next` while the one before was
 * unavailable. Each model is a different request (its own Idempotency-Key); `totalTimeout`,
 * when set, bounds them all together.
 */
export async function tryModels<R>(
  attempt: (model: string | undefined, totalTimeout: number | undefined) => Promise<R>,
  model: string,
  next: readonly string[],
  events: CoreEvents,
  totalTimeout: number | undefined,
): Promise<R> {
  const deadline = totalTimeout === undefined ? undefined : Date.now() + totalTimeout;
  const models = [model, ...next];
  for (let i = 0; ; i++) {
    const remaining = deadline === undefined ? undefined : deadline - Date.now();
    if (remaining !== undefined && remaining <= 0) throw new APITimeoutError(`Request did not complete within totalTimeout (${totalTimeout} ms), model fallback included.`);
    try {
      return await attempt(i === 0 ? undefined : models[i], remaining);
    } catch (error) {
      const to = models[i + 1];
      if (to === undefined || !isModelUnavailable(error)) throw error;
      // A call out of time does not move on, and does not announce a model it will not try.
      if (deadline !== undefined && Date.now() >= deadline) throw error;
      events.onModelFallback?.({ from: models[i] as string, to, error: error as APIError | APIConnectionError });
    }
  }
}
