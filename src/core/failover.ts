/**
 * How long the main base URL is avoided after it fails, when a backup is configured.
 * Documented in docs/failover.md.
 */
export const FAILOVER_COOLDOWN_MS = 30_000;

/**
 * Health of the main and backup base URLs, shared by every request of one client, so a
 * burst of concurrent requests does not each rediscover that the main base is down.
 */
export class BaseURLPool {
  readonly main: string;
  readonly backup: string | undefined;
  readonly cooldownMs: number;
  #failedAt = new Map<string, number>();

  constructor(main: string, backup: string | undefined, cooldownMs = FAILOVER_COOLDOWN_MS) {
    this.main = main;
    this.backup = backup && backup !== main ? backup : undefined;
    this.cooldownMs = cooldownMs;
  }

  /** The base for a first attempt: the main one, unless it failed within the cooldown. */
  pick(now = Date.now()): string {
    return this.backup && !this.isHealthy(this.main, now) ? this.backup : this.main;
  }

  /** The base for the attempt after one on `current` failed: the other one when there is one. */
  next(current: string): string {
    if (!this.backup) return this.main;
    return current === this.main ? this.backup : this.main;
  }

  /** False while `base` is inside its cooldown after a failure. */
  isHealthy(base: string, now = Date.now()): boolean {
    const at = this.#failedAt.get(base);
    return at === undefined || now - at >= this.cooldownMs;
  }

  /** Uses `other`'s health record from now on, so clients derived with withOptions() see the same bases as down. */
  shareHealth(other: BaseURLPool): void {
    this.#failedAt = other.#failedAt;
  }

  /** The configured base that `url` lies under, if any (a redirect's target, a download URL). */
  baseOf(url: string): string | undefined {
    return [this.main, this.backup].find((base) => base !== undefined && (url === base || url.startsWith(`${base}/`)));
  }

  /** True when `origin` (scheme, host and port) is that of one of the bases: the only origins the key may go to. */
  isOwnOrigin(origin: string): boolean {
    return [this.main, this.backup].some((base) => base !== undefined && new URL(base).origin === origin);
  }

  markFailed(base: string, now = Date.now()): void {
    this.#failedAt.set(base, now);
  }

  markHealthy(base: string): void {
    this.#failedAt.delete(base);
  }
}
