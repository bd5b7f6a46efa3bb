/**
 * How long the main base URL is avoided after it fails, when a backup is configured.
 * Documented in docs/failover.md.
 */
export const FAILOVER_COOLDOWN_MS = 30_000;

/**
 * A client's base URLs: the main one, the backup, and which origins may get the key. Their
 * health is the fleet's (core/fleet.ts), shared by every request of the client and, through
 * a shared store, by every client on it.
 */
export class BaseURLPool {
  readonly main: string;
  readonly backup: string | undefined;

  constructor(main: string, backup: string | undefined) {
    this.main = main;
    this.backup = backup && backup !== main ? backup : undefined;
  }

  /** The base for the attempt after one on `current` failed: the other one when there is one. */
  next(current: string): string {
    if (!this.backup) return this.main;
    return current === this.main ? this.backup : this.main;
  }

  /** The configured base that `url` lies under, if any (a redirect's target, a download URL). */
  baseOf(url: string): string | undefined {
    return [this.main, this.backup].find((base) => base !== undefined && (url === base || url.startsWith(`${base}/`)));
  }

  /** True when `origin` (scheme, host and port) is that of one of the bases: the only origins the key may go to. */
  isOwnOrigin(origin: string): boolean {
    return [this.main, this.backup].some((base) => base !== undefined && new URL(base).origin === origin);
  }
}
