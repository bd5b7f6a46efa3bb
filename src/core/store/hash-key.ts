import { GatewayError } from '../errors.js';

/**
 * SHA-256 of `text` (UTF-8) in lowercase hex: how store keys are derived from the API key and
 * base URLs, so a shared store never holds them. Uses `crypto.subtle`, which Node 20+, Deno,
 * Bun, workers and browsers in secure contexts have. Where it is missing (a page served over
 * plain http from another host than localhost), it rejects with a `GatewayError`: a weaker
 * hash of the API key would be a secret's fingerprint, so the caller keeps such a process's
 * state in its own memory, where keys need no hashing.
 */
export async function hashKey(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new GatewayError('Cannot derive a store key: crypto.subtle is unavailable here (browsers have it only in secure contexts: https or localhost).');
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
