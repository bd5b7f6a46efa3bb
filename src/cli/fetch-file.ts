/** How many redirects {@link fetchFile} follows. */
const MAX_REDIRECTS = 5;

/** Options of {@link fetchFile}. */
export interface FetchFileOptions {
  /** The API key, sent only to these origins (the client's base URLs), redirects included. */
  apiKey: string | undefined;
  trustedOrigins: readonly string[];
  signal: AbortSignal;
}

/** A download that did not answer 2xx; the message names the URL without its query (signed URLs carry tokens there). */
export class FileDownloadError extends Error {
  override readonly name = 'FileDownloadError';
}

const safeURL = (url: URL): string => `${url.origin}${url.pathname}`;

/**
 * The bytes at `href`. Redirects are followed by hand so the bearer key goes only to the
 * trusted origins: a CDN an image URL points at never sees it.
 * @example const bytes = await fetchFile(image.url, { apiKey, trustedOrigins: [new URL(client.baseURL).origin], signal });
 */
export async function fetchFile(href: string, options: FetchFileOptions): Promise<Uint8Array> {
  let url = new URL(href);
  for (let hop = 0; ; hop++) {
    const trusted = options.apiKey !== undefined && options.trustedOrigins.includes(url.origin);
    const response = await fetch(url, {
      headers: trusted ? { Authorization: `Bearer ${options.apiKey}` } : {},
      redirect: 'manual',
      signal: options.signal,
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new FileDownloadError(`Too many redirects downloading ${safeURL(url)}`);
      url = new URL(location, url);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FileDownloadError(`Downloading ${safeURL(url)} failed: HTTP ${response.status}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }
}
