/** SSE text for frames: each JSON value as `data: ...` followed by a blank line, then `[DONE]` unless `done: false`. */
export function sseText(frames: unknown[], { done = true, eol = '\n' }: { done?: boolean; eol?: string } = {}): string {
  const lines = frames.map((f) => `data: ${typeof f === 'string' ? f : JSON.stringify(f)}${eol}${eol}`);
  if (done) lines.push(`data: [DONE]${eol}${eol}`);
  return lines.join('');
}

/** A body that delivers `text` as UTF-8 in pieces of `size` bytes (1 = byte by byte), splitting multi-byte characters. */
export function chunkedBody(text: string, size: number): ReadableStream<Uint8Array> {
  return chunkedBytes(new TextEncoder().encode(text), size);
}

/** A body that delivers `pieces` one by one, as given (empty pieces included), then ends. */
export function piecesBody(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  const queue = [...pieces];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = queue.shift();
      if (piece) controller.enqueue(piece);
      else controller.close();
    },
  });
}

/** A body that delivers `bytes` in pieces of `size` bytes. */
export function chunkedBytes(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

/** An SSE Response from a chunked body. */
export function sseResponse(body: ReadableStream<Uint8Array> | string, init: ResponseInit = {}): Response {
  return new Response(body, { status: 200, ...init, headers: { 'content-type': 'text/event-stream', ...init.headers } });
}

/** A chat chunk fixture in the OpenAI shape. */
export function chunk(content: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: null }],
    ...extra,
  };
}
