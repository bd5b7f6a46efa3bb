import type { MockFault } from './faults.js';
import { sleep } from '../internal/sleep.js';

/** Headers on every answer, so the mock also serves browser tests across origins. */
export const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-expose-headers': 'x-request-id, retry-after, retry-after-ms, x-ratelimit-limit-requests, x-ratelimit-remaining-requests',
};

/**
 * The OpenAI-compatible error body the gateway sends.
 * @example
 * errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
 * // { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }
 */
export function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** A JSON response with the mock's standard headers. */
export function json(status: number, payload: unknown, id: number, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(payload), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': `req_mock_${id}`, ...rateLimitHeaders(id), ...CORS, ...extra },
  });
}

/** The requests a mock serves in its (never resetting) window, for the x-ratelimit-* headers. */
const REQUEST_LIMIT = 10_000;

/** OpenAI-style rate-limit headers, so code that reads them (withResponse()) has something to read. */
function rateLimitHeaders(id: number): Record<string, string> {
  return { 'x-ratelimit-limit-requests': String(REQUEST_LIMIT), 'x-ratelimit-remaining-requests': String(Math.max(0, REQUEST_LIMIT - id)) };
}

/** The error fetch raises when a socket drops, so the SDK sees what it sees on the wire. */
export function connectionDropped(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
}

/** How an SSE body is paced and ended. */
export interface SseOptions {
  done: boolean;
  fault: MockFault | undefined;
  signal: AbortSignal;
  id: number;
  frameDelayMs: number;
  stallTimeoutMs: number;
}

/** An SSE body of `data: <json>` frames (ending with `data: [DONE]` when `done`), shaped by a stream fault. */
export function sse(chunks: Array<{ event?: string; data: unknown }>, options: SseOptions): Response {
  const { fault, signal } = options;
  const encoder = new TextEncoder();
  const frames = chunks.map((c) => `${c.event ? `event: ${c.event}\n` : ''}data: ${JSON.stringify(c.data)}\n\n`);
  if (options.done && fault?.type !== 'no_done') frames.push('data: [DONE]\n\n');
  const delay = fault?.type === 'slow_stream' ? fault.frameDelayMs : options.frameDelayMs;
  let sent = 0;
  let stop: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (fault?.type === 'stream_cut' && sent >= fault.afterFrames) {
          // Let frames already written reach the client before the cut, as on a real socket.
          await sleep(25, signal);
          return controller.error(connectionDropped());
        }
        if (fault?.type === 'stall' && sent >= fault.afterFrames) {
          await stall(controller, encoder, fault.pingEveryMs, options.stallTimeoutMs, signal, (s) => (stop = s));
          return controller.close();
        }
        if (sent >= frames.length) return controller.close();
        if (delay > 0) await sleep(delay, signal);
        controller.enqueue(encoder.encode(frames[sent++]));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel() {
      stop?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': `req_mock_${options.id}`, ...CORS },
  });
}

/** Keeps a stream open without data (optionally pinging) until aborted, cancelled or `limitMs` passes. */
function stall(
  controller: ReadableStreamDefaultController<Uint8Array>,
  encoder: TextEncoder,
  pingEveryMs: number | undefined,
  limitMs: number,
  signal: AbortSignal,
  onStop: (stop: () => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const sendPing = () => {
      try {
        controller.enqueue(encoder.encode(': PING\n\n'));
      } catch {
        // The reader went away between two pings; the abort or cancel path ends the stall.
      }
    };
    const ping = pingEveryMs ? setInterval(sendPing, pingEveryMs) : undefined;
    const done = (error?: unknown) => {
      clearInterval(ping);
      clearTimeout(limit);
      if (error) reject(error);
      else resolve();
    };
    const limit = setTimeout(() => done(), limitMs);
    signal.addEventListener('abort', () => done(signal.reason), { once: true });
    onStop(() => done());
  });
}
