import type { ChatCompletion } from './types.js';

/** A message or a stream delta, as far as its reasoning goes. */
interface HasReasoning {
  reasoning_content?: string | null | undefined;
  reasoning?: string | null | undefined;
}

/**
 * Gives a message or a delta `reasoning_content` when its vendor wrote the reasoning in
 * `reasoning` (vLLM, Together, OpenRouter), so callers read one field; `reasoning` stays, as
 * the vendor sent it. In place: it runs on every chunk of every stream, and on JSON just parsed.
 */
export function normalizeReasoning(message: HasReasoning | null | undefined): void {
  if (message && !message.reasoning_content && typeof message.reasoning === 'string' && message.reasoning) message.reasoning_content = message.reasoning;
}

/** {@link normalizeReasoning} on every choice's message of a completion. */
export function normalizeCompletion(data: unknown): ChatCompletion {
  const choices = (data as Partial<ChatCompletion> | null)?.choices;
  // Only what this reads is checked: anything else is the caller's to see as it came.
  if (Array.isArray(choices)) for (const choice of choices) normalizeReasoning((choice as Partial<ChatCompletion['choices'][number]> | null)?.message);
  return data as ChatCompletion;
}
