/**
 * A random id for Idempotency-Key: a v4 UUID, or 128 random bits in hex where randomUUID is
 * missing (insecure browser contexts have getRandomValues only).
 */
export function uuid(): string {
  const c = globalThis.crypto;
  return c.randomUUID?.() ?? Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
