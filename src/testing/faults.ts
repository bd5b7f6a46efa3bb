import { sleep } from '../internal/sleep.js';
import { connectionDropped, errorBody, json } from './wire.js';

/** Where and how often a scripted fault applies. */
export interface FaultScope {
  /** Only requests to this path (relative to /v1, e.g. `chat/completions`). @default every path */
  path?: string | undefined;
  /** How many matching requests it applies to. @default 1 */
  times?: number | undefined;
}

/**
 * A scripted fault. Queue it with `mock.inject(fault)`; each matching request consumes one
 * use, in the order injected.
 */
export type MockFault = FaultScope &
  (
    | {
        /** 429 too many requests, with `Retry-After` (seconds) and/or `retry-after-ms`. */
        type: 'rate_limit';
        retryAfter?: number | string | undefined;
        retryAfterMs?: number | undefined;
      }
    | { /** 429 with code `insufficient_quota`. */ type: 'insufficient_quota' }
    | { /** 500 `server_error`. */ type: 'server_error' }
    | { /** 503 unavailable, optionally with `Retry-After` (seconds). */ type: 'unavailable'; retryAfter?: number | undefined }
    | {
        /** Any status with any body shape (JSON value, raw text, or empty when omitted), e.g. a flat `{code,message}` or an error inside a 200. */
        type: 'status';
        status: number;
        body?: unknown;
        headers?: Record<string, string> | undefined;
      }
    | { /** The connection drops before any response (fetch rejects; a served socket is destroyed). */ type: 'disconnect' }
    | { /** The response is held back `ms` before it is sent (for timeouts). Aborting the request ends the wait. */ type: 'delay'; ms: number }
    | { /** A stream is cut after this many SSE frames. */ type: 'stream_cut'; afterFrames: number }
    | {
        /** A stream stops sending after this many frames and stays open (bounded by `stallTimeoutMs`), optionally sending `: PING` comments. */
        type: 'stall';
        afterFrames: number;
        pingEveryMs?: number | undefined;
      }
    | { /** Every SSE frame is delayed this many ms. */ type: 'slow_stream'; frameDelayMs: number }
    | { /** A stream closes normally but never sends `data: [DONE]`. */ type: 'no_done' }
  );

/** An injected fault with its remaining uses. */
export interface QueuedFault {
  fault: MockFault;
  remaining: number;
}

/** Takes one use of the first queued fault that matches `path`. */
export function takeFault(queue: QueuedFault[], path: string): MockFault | undefined {
  const index = queue.findIndex((q) => q.fault.path === undefined || q.fault.path === path);
  if (index < 0) return undefined;
  const entry = queue[index] as QueuedFault;
  entry.remaining -= 1;
  if (entry.remaining <= 0) queue.splice(index, 1);
  return entry.fault;
}

/** Plays a fault that replaces the response; returns undefined for faults that shape a stream instead. */
export async function applyFault(fault: MockFault, request: Request, id: number, stallTimeoutMs: number): Promise<Response | undefined> {
  switch (fault.type) {
    case 'rate_limit': {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      return json(429, errorBody('Too many requests. Please reduce your request rate.', 'rate_limit_error', 'rate_limit_exceeded'), id, headers);
    }
    case 'insufficient_quota':
      return json(429, errorBody('You exceeded your current quota.', 'insufficient_quota', 'insufficient_quota'), id);
    case 'server_error':
      return json(500, errorBody('The server had an error while processing your request.', 'server_error', 'server_error'), id);
    case 'unavailable':
      return json(503, errorBody('The service is temporarily unavailable.', 'server_error', null), id, fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {});
    case 'status': {
      const body = fault.body === undefined ? null : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body);
      const type = typeof fault.body === 'string' ? 'text/plain' : 'application/json';
      return new Response(body, { status: fault.status, headers: { 'content-type': type, ...fault.headers } });
    }
    case 'disconnect':
      throw connectionDropped();
    case 'delay':
      await sleep(Math.min(fault.ms, stallTimeoutMs), request.signal);
      return undefined;
    default:
      return undefined;
  }
}
