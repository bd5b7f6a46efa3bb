import { APIConnectionError, APITimeoutError, APIUserAbortError, ValidationError } from '../../core/errors.js';
import type { BaseURLPool } from '../../core/failover.js';
import { isOwnOrigin } from '../../core/redirects.js';
import type { CoreRequest, OpenStream } from '../../core/types.js';
import type { DownloadProgress, VideoTask } from './types.js';

/**
 * The request for a download: a task's `video_url` or a URL, a relative one resolved against
 * the gateway that made the task. The key goes only to an origin that is one of the client's
 * base URLs (gateways proxy downloads through themselves); any other origin never gets it.
 */
export function downloadRequest(taskOrURL: VideoTask | string, taskBase: string | undefined, pool: BaseURLPool): CoreRequest {
  const given = typeof taskOrURL === 'string' ? taskOrURL : taskOrURL?.video_url;
  if (typeof given !== 'string' || !given.trim()) throw new ValidationError('taskOrURL', 'must be a completed video task (with video_url) or a URL');
  const url = parseURL(given.trim(), taskBase ?? pool.main);
  // fetch fails on another scheme (ftp:, file:) as a connection error, retried in vain; data: and blob: are not downloads.
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new ValidationError('taskOrURL', 'must be an http(s) URL (or a completed task whose video_url is one)');
  return { method: 'GET', path: '', url: url.href, auth: isOwnOrigin(pool, url.origin), download: true };
}

/** The URL, or undefined where `new URL` throws (URL.canParse is missing from older browsers). */
function parseURL(text: string, base: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
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
export function withProgress(open: OpenStream, response: Response, idleTimeoutMs: number, onProgress?: (progress: DownloadProgress) => void): Response {
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
