/** The placeholder that replaces a secret wherever it would otherwise be shown. */
export const REDACTED = '[REDACTED]';

/** Replaces every occurrence of `secret` in a string. Empty or very short secrets are left alone to avoid mangling text. */
export function redactString(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4 || !text.includes(secret)) return text;
  return text.split(secret).join(REDACTED);
}

/**
 * Deep-copies JSON-like data, replacing the secret in every string (keys included).
 * Servers sometimes echo the Authorization header back in an error body.
 */
export function redactDeep<T>(value: T, secret: string | undefined): T {
  if (!secret) return value;
  return walk(value, secret, 0) as T;
}

function walk(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return redactString(value, secret);
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => walk(v, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactString(k, secret)] = walk(v, secret, depth + 1);
  return out;
}

/**
 * Returns an error safe to keep as `cause`: the same object when it does not mention the
 * secret, otherwise a plain Error with the secret removed from its message and stack.
 */
export function redactCause(cause: unknown, secret: string | undefined): unknown {
  if (!secret || !(cause instanceof Error)) return cause;
  const text = `${cause.message}\n${cause.stack ?? ''}`;
  if (!text.includes(secret)) return cause;
  const safe = new Error(redactString(cause.message, secret));
  safe.name = cause.name;
  safe.stack = redactString(cause.stack ?? '', secret);
  return safe;
}
