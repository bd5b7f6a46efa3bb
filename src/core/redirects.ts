import type { APIError } from './errors.js';
import { BaseRedirect, GatewayError, MAX_REDIRECTS } from './errors.js';
import type { BaseURLPool } from './failover.js';
import type { AttemptInfo } from './hooks.js';
import type { CoreConfig } from './types.js';

/** Where the next hop of a followed redirect goes. */
export interface NextHop {
  url: string;
  method: string;
  sent: string | Blob | null;
}

type MakeError = (response: Response, payload: unknown, extra: { message: string }) => Promise<APIError>;

/**
 * Decides a redirect: one to the client's other base URL is a failover (BaseRedirect),
 * one within the same origin is followed with the key (303 as a GET; other statuses keep
 * their method and body, which is what a moved API call wants), any other origin is refused
 * with an APIError naming the target, so the key never goes there. A download is the
 * exception: it follows a hand-off to another origin (a CDN), without the key.
 */
export async function followRedirect(
  response: Response,
  at: AttemptInfo & { hop: number; method: string; sent: string | Blob | null; headers: Record<string, string>; download: boolean },
  config: CoreConfig,
  apiError: MakeError,
): Promise<NextHop> {
  // Browsers hide a manual redirect's target (an "opaque redirect", status 0).
  if (response.type === 'opaqueredirect') {
    throw new GatewayError(`The gateway answered with a redirect (${at.method} ${at.url}), which a browser does not let the SDK inspect or follow safely. Set baseURL to the address that serves the API.`);
  }
  void response.body?.cancel().catch(() => undefined);
  let target: string;
  try {
    target = new URL(response.headers.get('location') ?? '', at.url).href;
  } catch {
    throw await apiError(response, undefined, { message: 'Redirected to a Location that is not a URL; not followed' });
  }
  // Named in messages without its query: a hand-off to a CDN often carries a signed token there.
  const shown = target.replace(/[?#].*$/s, '');
  // fetch would fail on another scheme (ftp:, file:) as a connection error, retried in vain.
  if (!/^https?:/.test(target)) throw await apiError(response, undefined, { message: `Redirected to ${shown}, which is not an http(s) URL; not followed` });
  if (at.download) {
    // A download may hand off to a CDN: follow it, the key only to the client's base origins.
    if (at.hop >= MAX_REDIRECTS) throw await apiError(response, undefined, { message: `Too many redirects (last to ${shown})` });
    // Nothing that could be a credential goes to another origin: only Accept is kept.
    if (!isOwnOrigin(config.pool, new URL(target).origin)) {
      for (const name of Object.keys(at.headers)) if (name !== 'accept') delete at.headers[name];
    }
    return { url: target, method: 'GET', sent: null };
  }
  const otherBase = config.pool.baseOf(target);
  if (otherBase !== undefined && otherBase !== at.baseURL) throw new BaseRedirect(otherBase, await apiError(response, undefined, { message: `Redirected to the other base URL (${shown})` }));
  if (new URL(target).origin !== new URL(at.url).origin) {
    throw await apiError(response, undefined, {
      message: `Redirected to ${shown}; not followed: the API key is only sent to the configured base URLs. Set baseURL to the address that serves the API`,
    });
  }
  if (at.hop >= MAX_REDIRECTS) throw await apiError(response, undefined, { message: `Too many redirects (last to ${shown})` });
  if (response.status !== 303) return { url: target, method: at.method, sent: at.sent };
  delete at.headers['content-type'];
  return { url: target, method: 'GET', sent: null };
}

/**
 * True when `origin` (scheme, host and port) is that of one of the client's base URLs: the
 * only origins the key may go to. Here rather than on BaseURLPool: only downloads and
 * redirects, both loaded on first use, need it.
 */
export function isOwnOrigin(pool: BaseURLPool, origin: string): boolean {
  return [pool.main, pool.backup].some((base) => base !== undefined && new URL(base).origin === origin);
}
