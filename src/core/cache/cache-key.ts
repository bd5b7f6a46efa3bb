import { hashKey } from '../store/hash-key.js';
import type { CacheCall } from '../types.js';
import { CREDENTIAL_HEADERS } from '../../internal/credential-headers.js';

// What names a cached answer (docs/cache.md, "The key"): whose it is, where it was asked,
// and a canonical form of everything that changes the answer.


/**
 * JSON with every object's keys in order, so `{a, b}` and `{b, a}` are one request; `undefined`
 * fields are left out as JSON.stringify leaves them.
 */
export function canonicalJSON(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Every credential the call carries, as one string to hash: the client's key (a key
 * function's current one) and any credential header the client or the call sets. Two
 * callers with different credentials never share an answer (a server that forwards each
 * end user's token on one client serves each their own).
 */
export async function credentialsOf(call: CacheCall): Promise<string> {
  const { config, options } = call;
  const parts: string[] = [];
  for (const headers of [config.defaultHeaders, options.headers]) {
    for (const name in headers) if (Object.hasOwn(headers, name) && CREDENTIAL_HEADERS.has(name.toLowerCase())) parts.push(`${name.toLowerCase()}: ${headers[name]}`);
  }
  // A call that carries its own authorization sends it instead of the client's key (attempt.ts).
  if (!parts.some((part) => part.startsWith('authorization:'))) parts.push(`key: ${await config.apiKey()}`);
  return parts.sort().join('\n');
}

/**
 * The key of an answer: a SHA-256 of whose it is (unless `shared`), the base URL, the method
 * and path, the model that answers, and every body field in a canonical form. Prefixed with
 * the entries' format, so processes of two versions never read each other's entries.
 */
export async function cacheKey(call: CacheCall, at: { body: unknown; model: string | undefined; shared: boolean; format: number }): Promise<string> {
  const whose = at.shared ? '' : await credentialsOf(call);
  const body = at.model !== undefined && typeof at.body === 'object' && at.body !== null ? { ...at.body, model: at.model } : at.body;
  // The base URL as URL parses it (scheme and host in lower case): HTTP://A and http://a are one gateway.
  const base = new URL(call.config.pool.main).href;
  return `cache:${at.format}:${await hashKey(`${whose}\n${base}\n${call.request.method} ${call.path}\n${canonicalJSON(body)}`)}`;
}
