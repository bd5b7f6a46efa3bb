import { delay, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { vi } from 'vitest';
import { BASE } from '../../helpers/fixtures.js';

// What the createMany and iterate tests share: texts whose vectors say which text they belong to.

export const texts = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
/** Each text's vector is [its number]: t7 → [7]. */
export const vectors = (input: string[]) => input.map((text, index) => ({ object: 'embedding', index, embedding: [Number(text.slice(1))] }));
/** The gateway's answer to `input`: its vectors, or the `data` given. */
export const answer = (input: string[], data: unknown[] = vectors(input)) => Response.json({ object: 'list', model: 'emb', data, usage: { prompt_tokens: input.length, total_tokens: input.length } });
export const rateLimited = (headers: Record<string, string> = { 'retry-after-ms': '1' }) =>
  Response.json({ error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }, { status: 429, headers });

/** setImmediate as it was before any test faked the timers. */
const realSetImmediate = globalThis.setImmediate;
/** One turn of the event loop, which runs every promise job queued before it (and those they queue). */
export const turn = () => new Promise<void>((resolve) => realSetImmediate(resolve));

/**
 * Runs a batch run on the fake clock (`vi.useFakeTimers()` first) until it has settled: once
 * its first request is sent (the bulk code loads lazily, for real), the timers fire one by
 * one in the order they are due (the gateway's delays, the retry pauses), each after every
 * promise job before it, with an event-loop turn whenever no timer is due (an input that
 * yields on the event loop). However busy the machine, the run sees the same order every
 * time. Timers still pending after that stay pending.
 */
export async function settle<T>(run: Promise<T>, firstRequest: Promise<unknown>): Promise<T> {
  let settled = false;
  void run.then(
    () => (settled = true),
    () => (settled = true),
  );
  await firstRequest;
  for (let step = 0; !settled; step++) {
    if (step === 10_000) throw new Error('not settled after 10,000 timers and turns: a hang');
    if (vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
    else await turn();
  }
  return run;
}

/**
 * An msw gateway whose first four requests are answered 429 (`Retry-After: 0.2`) together,
 * once all four have arrived, so the burst is one; the rest take a while (30 ms), so requests
 * sent together overlap. Records each request's first input and the requests in flight at the
 * server when it arrived; `first` resolves when the first request has arrived. Meant for the
 * fake clock (see `settle`).
 */
export function burstOf429s(server: SetupServer) {
  let inFlight = 0;
  const arrivals: Array<{ text: string; inFlight: number }> = [];
  let releaseBurst = () => {};
  const burstArrived = new Promise<void>((resolve) => (releaseBurst = resolve));
  let arrived = () => {};
  const first = new Promise<void>((resolve) => (arrived = resolve));
  server.use(
    http.post(`${BASE}/embeddings`, async ({ request }) => {
      inFlight++;
      arrived();
      try {
        const { input } = (await request.json()) as { input: string[] };
        const call = arrivals.push({ text: input[0] ?? '', inFlight });
        if (call <= 4) {
          if (call === 4) releaseBurst();
          // Should fewer than four come, the burst ends after 2 s (on the fake clock) instead of hanging.
          await Promise.race([burstArrived, delay(2_000)]);
          return rateLimited({ 'retry-after': '0.2' });
        }
        await delay(30);
        return answer(input);
      } finally {
        inFlight--;
      }
    }),
  );
  return { arrivals, first };
}
