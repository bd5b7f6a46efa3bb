import { APIConnectionError, APITimeoutError, APIUserAbortError, ValidationError } from '../errors.js';
import type { DownloadProgress, OpenBody } from '../types.js';

// Downloads (videos.download, images.download, the command line, the AI SDK's image model):
// where the URL points and whether it gets the key (call-state.ts), then the body as a
// Response that reports progress and never ends quietly.

/**
 * The absolute URL of a download: an absolute http(s) URL as it is, a relative one resolved
 * against the gateway that made the file. Anything else is refused before sending.
 */
export function downloadURL(given: unknown, base: string): string {
  if (typeof given !== 'string' || !given.trim()) throw new ValidationError('url', 'must be a URL (or a completed video task with video_url)');
  let url: URL;
  try {
    url = new URL(given.trim(), base);
  } catch {
    throw new ValidationError('url', 'must be an absolute http(s) URL or a path on the gateway');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('url', `must use http: or https: (got ${url.protocol})`);
  return url.href;
}

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
