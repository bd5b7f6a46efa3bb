// Reading values of untrusted JSON (requests, answers, chunks) for attributes.

export { isRecord } from '../internal/is-record.js';

/** The value when it is a string. */
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The value when it is a finite number. */
export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
