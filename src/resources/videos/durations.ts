import type { VideoDuration } from './types.js';

/**
 * The video lengths the gateway offers, in seconds, each with its price (USD per video, from
 * the gateway's price list) and the poll interval the gateway advises while it renders (ms,
 * a range to pick from). The one list of durations: the parameter check, `estimateCost` and
 * the wait all read it, and the `Record<VideoDuration, …>` type keeps it and
 * {@link VideoDuration} equal.
 */
export const videoDurations: Readonly<Record<VideoDuration, { priceUSD: number; pollMs: readonly [number, number] }>> = {
  5: { priceUSD: 0.08, pollMs: [5_000, 10_000] },
  10: { priceUSD: 0.15, pollMs: [5_000, 10_000] },
  15: { priceUSD: 0.3, pollMs: [15_000, 30_000] },
  20: { priceUSD: 0.5, pollMs: [15_000, 30_000] },
};

/** True for a duration the gateway offers (a number: `'5'` is not one). */
export const isVideoDuration = (value: unknown): value is VideoDuration => typeof value === 'number' && value in videoDurations;

/** The rule for `duration`, as ValidationErrors word it: `must be 5, 10, 15 or 20 (seconds)`. */
export const DURATION_RULE = `must be ${Object.keys(videoDurations).join(', ').replace(/, (\d+)$/, ' or $1')} (seconds)`;
