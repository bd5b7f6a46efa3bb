import { BaseRedirect, GatewayError, MAX_REDIRECTS } from '../errors.js';
import { apiError, shownURL, type AttemptContext } from './transport.js';

/** Statuses that redirect when they carry a Location header. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A response that redirects: a 3xx with a Location, or a browser's opaque redirect. */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (REDIRECT_STATUSES.has(response.status) && response.headers.has('location'));
}

/** Where the next hop of a followed redirect goes, and what it sends. */
export interface Hop {
  url: string;
  method: string;
  body: string | Blob | null;
  headers: Record<string, string>;
  /** Redirects followed so far. */
  count: number;
}

/**
 * Decides a redirect: one to the client's other base URL is a failover (BaseRedirect), one
 * within the same origin is followed with the key (303 as a GET; other statuses keep their
 * method and body, which is what a moved API call wants), any other origin is refused with an
 * APIError naming the target, so the key never goes there. A download is the exception: it
 * follows a hand-off to another origin (a CDN), without the key.
 */
export function followRedirect(ctx: AttemptContext, response: Response, hop: Hop): Hop {
  // Browsers hide a manual redirect's target (an "opaque redirect", status 0).
  if (response.type === 'opaqueredirect') {
    throw new GatewayError(`The gateway answered with a redirect (${hop.method} ${shownURL(hop.url)}), which a browser does not let the SDK inspect or follow safely. Set baseURL to the address that serves the API.`);
  }
  void response.body?.cancel().catch(() => undefined);
  const refuse = (message: string) => apiError(ctx, response, undefined, { message });
  let target: string;
  try {
    target = new URL(response.headers.get('location') ?? '', hop.url).href;
  } catch {
    throw refuse('Redirected to a Location that is not a URL; not followed');
  }
  const shown = shownURL(target);
  // fetch would fail on another scheme (ftp:, file:) as a connection error, retried in vain.
  if (!/^https?:/.test(target)) throw refuse(`Redirected to ${shown}, which is not an http(s) URL; not followed`);
  if (hop.count >= MAX_REDIRECTS) throw refuse(`Too many redirects (last to ${shown})`);
  const { pool } = ctx.call.config;
  const next = { ...hop, url: target, count: hop.count + 1 };
  if (ctx.call.request.download) {
    // Nothing that could be a credential goes to another origin: only Accept is kept.
    if (!pool.isOwnOrigin(new URL(target).origin)) next.headers = { accept: hop.headers.accept ?? '*/*' };
    return { ...next, method: 'GET', body: null };
  }
  const otherBase = pool.baseOf(target);
  if (otherBase !== undefined && otherBase !== ctx.info.baseURL) throw new BaseRedirect(otherBase, refuse(`Redirected to the other base URL (${shown})`));
  if (new URL(target).origin !== new URL(hop.url).origin) {
    throw refuse(`Redirected to ${shown}; not followed: the API key is only sent to the configured base URLs. Set baseURL to the address that serves the API`);
  }
  if (response.status !== 303) return next;
  const { 'content-type': _dropped, ...headers } = hop.headers;
  return { ...next, method: 'GET', body: null, headers };
}
