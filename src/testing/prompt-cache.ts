import { promptTokens } from './chat-reply.js';
import { isObject } from './context.js';

type Json = Record<string, unknown>;

/**
 * What the mock does with `cache_control` hints: `'honor'` caches the prompt up to each
 * marked message, as Anthropic-style vendors do; `'drop'` ignores them, as a gateway that
 * strips them on the way (cached tokens then stay 0 turn after turn).
 */
export type MockCacheHints = 'honor' | 'drop';

/** Entries kept; the oldest go first. Far above what a test writes. */
const MAX_ENTRIES = 1_000;

/** The mock's prompt cache: prefixes written by hinted requests, read by later ones. */
export interface PromptCache {
  /**
   * For a request with at least one hint: the tokens of the longest prefix of its messages
   * written before (0 when none), after writing the prefixes it marks. Undefined without
   * hints, so the usage of an unhinted request reads as before.
   */
  cachedTokens(body: Json): number | undefined;
  clear(): void;
}

const hinted = (m: Json) => m.cache_control !== undefined || (Array.isArray(m.content) && m.content.some((p) => isObject(p) && p.cache_control !== undefined));

/** A message as the cache compares it: hints left out, a string content as the one text part it is. */
function keyOf(m: Json): string {
  const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  return JSON.stringify([m.role, parts, m.tool_calls ?? null, m.tool_call_id ?? null, m.name ?? null], (key, value: unknown) => (key === 'cache_control' ? undefined : value));
}

export function createPromptCache(mode: MockCacheHints): PromptCache {
  const written = new Map<string, number>();
  return {
    cachedTokens(body) {
      const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
      if (!messages.some(hinted)) return undefined;
      if (mode === 'drop') return 0;
      // The key of the prefix ending at message i; the model and tools come first, as a vendor's cache is per model and tools.
      const keys: string[] = [];
      let key = JSON.stringify([body.model, body.tools ?? null]);
      for (const m of messages) keys.push((key += `\n${keyOf(m)}`));
      let cached = 0;
      for (let i = keys.length - 1; i >= 0; i--) {
        const tokens = written.get(keys[i] as string);
        if (tokens !== undefined) {
          cached = tokens;
          break;
        }
      }
      messages.forEach((m, i) => {
        if (!hinted(m)) return;
        written.delete(keys[i] as string);
        written.set(keys[i] as string, promptTokens(messages.slice(0, i + 1)));
        if (written.size > MAX_ENTRIES) written.delete(written.keys().next().value as string);
      });
      return cached;
    },
    clear: () => written.clear(),
  };
}
