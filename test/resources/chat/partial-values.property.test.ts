import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partialValues } from '../../../src/resources/chat/completions/partial-objects.js';

// Properties of the partial values under partialObjects(): however JSON text is cut into
// deltas, the last partial is JSON.parse of the whole, nothing yielded changes afterwards,
// a value keeps its type, and what is deep-equal between two consecutive partials is the
// same object.

async function* from(deltas: string[]): AsyncGenerator<string> {
  yield* deltas;
}

/** Cuts `text` at the given fractions of its length. */
function cut(text: string, at: number[]): string[] {
  const points = [...new Set(at.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const p of [...points, text.length]) {
    if (p > start) out.push(text.slice(start, p));
    start = Math.max(start, p);
  }
  return out;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Checks that `later` grew from `earlier`: same types on every path; shared when deep-equal. */
function grewFrom(earlier: unknown, later: unknown): void {
  expect(kind(later)).toBe(kind(earlier));
  if (typeof earlier === 'string') expect((later as string).startsWith(earlier)).toBe(true);
  if (typeof earlier !== 'object' || earlier === null) return;
  if (JSON.stringify(earlier) === JSON.stringify(later)) expect(later).toBe(earlier);
  for (const [key, value] of Object.entries(earlier)) grewFrom(value, (later as Record<string, unknown>)[key]);
}

describe('partialValues', () => {
  it('ends with JSON.parse of the whole text, never mutates, keeps types, shares what did not change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), fc.boolean(), async (value, at, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const seen: Array<{ value: unknown; json: string }> = [];
        for await (const partial of partialValues(from(cut(text, at)))) seen.push({ value: partial, json: JSON.stringify(partial) });
        expect(seen.at(-1)?.value).toEqual(JSON.parse(text));
        for (const s of seen) expect(JSON.stringify(s.value)).toBe(s.json);
        for (let i = 1; i < seen.length; i++) {
          expect(seen[i]?.json).not.toBe(seen[i - 1]?.json);
          grewFrom(seen[i - 1]?.value, seen[i]?.value);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives no number or literal before it is complete', async () => {
    const partials: unknown[] = [];
    for await (const p of partialValues(from(['[1', '2, tr', 'ue, -', '0.5e', '1, nul', 'l, fals', 'e]']))) partials.push(p);
    expect(partials).toEqual([[], [12], [12, true], [12, true, -5], [12, true, -5, null], [12, true, -5, null, false]]);
  });
});
