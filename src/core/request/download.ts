import { APIConnectionError, APITimeoutError, APIUserAbortError } from '../errors.js';
import type { DownloadProgress, OpenBody } from '../types.js';

// A download's body (videos.download, images.download, the command line, the AI SDK's image
// model) as a Response that reports progress and never ends quietly; where its URL points
// and whether it gets the key is call-state.ts's. Loaded with the first download (call.ts
// `shape`): a chat app never carries it.

/** The size the body will have once read, when the server says so truthfully. */
function totalOf(response: Response): number | null {
  const encoding = response.headers.get('content-encoding');
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  // fetch decompresses: a compressed body's Content-Length is not what will be read.
  return Number.isFinite(length) && length >= 0 && (!encoding || encoding === 'identity') ? length : null;
}

/**
 * The download as a Response whose body reports progress as it is read. A body that ends
 * short of its Content-Length, breaks, or stays silent past `idleTimeoutMs` errors the
 * stream (APIConnectionError / APITimeoutError) rather than ending quietly; it is never
 * retried from here: the first bytes have already reached the caller.
 */
export function withProgress(open: OpenBody, response: Response, idleTimeoutMs: number, onProgress?: (progress: DownloadProgress) => void): Response {
  const totalBytes = totalOf(response);
  let loadedBytes = 0;
  let first: Uint8Array | undefined = open.first.byteLength > 0 ? open.first : undefined;
  const where = `${open.method} ${open.url}`;
  const report = (chunk: Uint8Array) => {
    loadedBytes += chunk.byteLength;
    onProgress?.({ loadedBytes, totalBytes });
  };
  const cut = (cause?: unknown) => new APIConnectionError(`Download cut after ${loadedBytes} of ${totalBytes ?? 'an unknown number of'} bytes (${where}).`, { cause });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        report(first);
        controller.enqueue(first);
        first = undefined;
        return;
      }
      let idle = false;
      const timer = setTimeout(() => {
        idle = true;
        void open.reader.cancel().catch(() => undefined);
      }, idleTimeoutMs);
      try {
        const { done, value } = await open.reader.read();
        if (idle) return controller.error(new APITimeoutError(`Download idle for ${idleTimeoutMs} ms after ${loadedBytes} bytes (${where}).`));
        if (done) return totalBytes !== null && loadedBytes < totalBytes ? controller.error(cut()) : controller.close();
        report(value);
        controller.enqueue(value);
      } catch (error) {
        controller.error(open.signal.aborted ? new APIUserAbortError(undefined, { cause: open.signal.reason }) : idle ? new APITimeoutError(`Download idle for ${idleTimeoutMs} ms (${where}).`) : cut(error));
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      return open.reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
