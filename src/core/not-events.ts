// Loaded only when a stream's body is labelled as something other than text/event-stream.

/** How much of a body that should have been an event stream is read to quote it. */
const QUOTE_BYTES = 16_384;

/** How an event stream's first line starts: a field name and a colon, or a comment. */
const EVENT_STARTS = ['data:', 'event:', 'id:', 'retry:', ':'];

/** True when the first bytes start like server-sent events (a first chunk may hold only part of a field name). */
function looksLikeEvents(bytes: Uint8Array): boolean {
  const start = new TextDecoder().decode(bytes.subarray(0, 16)).trimStart();
  return EVENT_STARTS.some((field) => start.startsWith(field) || field.startsWith(start));
}

/**
 * For a stream whose body is labelled as something other than events: undefined when its
 * first bytes start like events (then it is read as a stream), else up to QUOTE_BYTES of it
 * to quote in an error (the rest is cancelled).
 */
export async function quoteUnlessEvents(first: Uint8Array, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string | undefined> {
  if (looksLikeEvents(first)) return undefined;
  const decoder = new TextDecoder();
  let text = decoder.decode(first, { stream: true });
  for (let read = first.length; read < QUOTE_BYTES; ) {
    const chunk = await reader.read().catch(() => ({ done: true, value: undefined }) as const);
    if (chunk.done || !chunk.value) break;
    read += chunk.value.length;
    text += decoder.decode(chunk.value, { stream: true });
  }
  void reader.cancel().catch(() => undefined);
  return text + decoder.decode();
}
