import { ValidationError } from './errors.js';

/** The longest delay setTimeout can hold (2^31 - 1 ms, about 24.8 days). */
const MAX_MS = 2_147_483_647;

/**
 * Checks a numeric option, for the client's options and a request's alike:
 * `count` a whole number >= 0 (retries), `ms` a delay >= 1 ms, `ms0` a delay >= 0 ms.
 * `undefined` passes (the default applies).
 */
export function checkNumber(name: string, value: unknown, kind: 'count' | 'ms' | 'ms0'): void {
  if (value === undefined) return;
  const min = kind === 'ms' ? 1 : 0;
  const ok = typeof value === 'number' && value >= min && value <= MAX_MS && (kind !== 'count' || Number.isInteger(value));
  if (!ok) throw new ValidationError(name, kind === 'count' ? 'must be an integer >= 0' : `must be a number of ms between ${min} and ${MAX_MS}`);
}

/**
 * A base URL as given, trimmed and without trailing slashes. It must be an absolute http(s)
 * URL. A path that does not end in /v1 is accepted (some gateways mount the API elsewhere);
 * errors it leads to say so (see `baseURLHint` in error-factory.ts).
 */
export function checkBaseURL(name: string, value: string): string {
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ValidationError(name, `must be an absolute http(s) URL ending in /v1, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(name, 'must use http: or https:');
  return trimmed.replace(/\/+$/, '');
}
