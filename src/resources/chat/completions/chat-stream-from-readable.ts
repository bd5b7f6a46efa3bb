import { openReadable, type StreamFromReadableOptions } from '../../../core/streams/stream-from-readable.js';
import { ChatCompletionStream } from './stream.js';
import type { ChatCompletion } from './types.js';

/**
 * Reads the body of a server route that returned `new Response(stream.toReadableStream())`
 * for a chat stream back into a {@link ChatCompletionStream}: iterate its chunks, or await
 * `finalChatCompletion()`. Errors and cancellation as in `streamFromReadable`.
 *
 * @example
 * const res = await fetch('/api/chat', { method: 'POST', body: JSON.stringify({ prompt }) });
 * if (!res.ok || !res.body) throw new Error(`chat failed: ${res.status}`);
 * const stream = chatStreamFromReadable(res.body);
 * for await (const chunk of stream) output.textContent += chunk.choices[0]?.delta.content ?? '';
 */
export function chatStreamFromReadable(body: ReadableStream<Uint8Array>, options?: StreamFromReadableOptions): ChatCompletionStream {
  return openReadable(body, ChatCompletionStream<ChatCompletion>, options);
}
