import { sleep } from '../internal/sleep.js';
import type { MockFault } from './faults.js';
import { connectionDropped } from './wire.js';

/** How an SSE body is paced and ended. */
export interface SseOptions {
  done: boolean;
  fault: MockFault | undefined;
  signal: AbortSignal;
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
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
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
