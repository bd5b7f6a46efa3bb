import { delay, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { BASE } from '../../helpers/fixtures.js';

// What the createMany and iterate tests share: texts whose vectors say which text they belong to.

export const texts = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
/** Each text's vector is [its number]: t7 → [7]. */
export const vectors = (input: string[]) => input.map((text, index) => ({ object: 'embedding', index, embedding: [Number(text.slice(1))] }));
/** The gateway's answer to `input`: its vectors, or the `data` given. */
export const answer = (input: string[], data: unknown[] = vectors(input)) => Response.json({ object: 'list', model: 'emb', data, usage: { prompt_tokens: input.length, total_tokens: input.length } });
export const rateLimited = (headers: Record<string, string> = { 'retry-after-ms': '1' }) =>
  Response.json({ error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }, { status: 429, headers });

/**
 * An msw gateway whose first four requests are answered 429 (`Retry-After: 0.2`) together,
 * once all four have arrived, so the burst is one; the rest take a while, so requests sent
 * together overlap. Records each request's first input and the requests in flight at the
 * server when it arrived.
 */
export function burstOf429s(server: SetupServer) {
  let inFlight = 0;
  const arrivals: Array<{ text: string; inFlight: number }> = [];
  let releaseBurst = () => {};
  const burstArrived = new Promise<void>((resolve) => (releaseBurst = resolve));
  server.use(
    http.post(`${BASE}/embeddings`, async ({ request }) => {
      inFlight++;
      try {
        const { input } = (await request.json()) as { input: string[] };
        const call = arrivals.push({ text: input[0] ?? '', inFlight });
        if (call <= 4) {
          if (call === 4) releaseBurst();
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
  return arrivals;
}
