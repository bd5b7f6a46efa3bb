import type { AdaptInfo } from './adapt/adapt.js';
import type { AttemptInfo, CacheInfo, FailoverInfo, FleetInfo, GiveUpInfo, ModelFallbackInfo, ResponseInfo, RetryInfo } from './hooks.js';

/** The wording of each log line, by event (see logger.ts for the levels). */
const lines = {
  onRequest: (e: AttemptInfo) => `→ ${e.method} ${e.url} (attempt ${e.attempt})`,
  onResponse: (e: ResponseInfo) => `← ${e.status} ${e.method} ${e.url} in ${e.durationMs} ms${e.requestID ? ` (request id ${e.requestID})` : ''}`,
  onRetry: (e: RetryInfo) => `retry ${e.attempt} of ${e.method} ${e.url} in ${e.delayMs} ms after ${e.status ?? e.error.name}${e.nextBaseURL === e.baseURL ? '' : ` (next on ${e.nextBaseURL})`}`,
  onFailover: (e: FailoverInfo) => `failover ${e.from} -> ${e.to} after ${e.status ?? e.error.name}`,
  onModelFallback: (e: ModelFallbackInfo) => `model fallback ${e.from} -> ${e.to} after ${e.error.message}`,
  onAdapt: (e: AdaptInfo) => `adapted the request: ${e.reason}`,
  onCache: (e: CacheInfo) => `cache ${e.outcome}: ${e.method} ${e.path}${e.model ? ` (${e.model})` : ''}`,
  onFleet: (e: FleetInfo) =>
    e.event === 'base-skipped'
      ? `skipped ${e.skipped} (down for the fleet), sent to ${e.baseURL}`
      : e.event === 'paused'
        ? `waited ${e.waitMs} ms: a 429 paused ${e.model ?? 'calls'} on ${e.baseURL} for the fleet`
        : e.event === 'held'
          ? `held ${e.waitMs} ms for the fleet's rate budget (limits)`
          : `refused ${e.model ?? 'a call'} at once: the quota is exhausted for the fleet (nothing sent)`,
  onGiveUp: (e: GiveUpInfo) =>
    e.reason === 'retry-after'
      ? `not retrying ${e.method} ${e.url}: the server asked for a wait longer than this call may wait, beyond maxRetryAfterMs or past its totalTimeout (${e.error.message})`
      : e.reason === 'budget'
        ? `not retrying ${e.method} ${e.url}: the next pause would outlast totalTimeout (${e.error.message})`
        : `${e.method} ${e.url} failed after ${e.attempt} attempts: ${e.error.message}`,
};

/** One event as a log line. */
export function formatLine<N extends keyof typeof lines>(name: N, info: Parameters<(typeof lines)[N]>[0]): string {
  return (lines[name] as (info: unknown) => string)(info);
}
