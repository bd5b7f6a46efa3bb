/**
 * Text read back from a store as JSON, for a reader that checks it next: undefined for what is
 * not a string, is longer than `maxChars`, or is not JSON. Never throws.
 */
export function readJSON(text: unknown, maxChars: number): unknown {
  if (typeof text !== 'string' || text.length > maxChars) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
