/** The placeholder that replaces a secret wherever it would otherwise be shown. */
export const REDACTED = '[REDACTED]';

/** How many distinct secrets one client remembers: a rotating key adds one per rotation. */
const MAX_SECRETS = 16;

/**
 * Removes a client's secrets (its API key, and every key a key function has returned) from
 * text and data before they can reach an error, a log line or a hook. The secrets live in a
 * private field, so no inspection of the object shows them.
 */
export class Redactor {
  #secrets: string[] = [];

  /** Remembers a secret. Very short ones are ignored: replacing them would mangle ordinary text. */
  add(secret: string): void {
    if (secret.length < 4 || this.#secrets.includes(secret)) return;
    this.#secrets.push(secret);
    if (this.#secrets.length > MAX_SECRETS) this.#secrets.shift();
  }

  /** The text with every secret replaced by {@link REDACTED}. */
  string(text: string): string {
    for (const secret of this.#secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    return text;
  }

  /** A deep copy of JSON-like data with secrets replaced in every string (keys included); servers echo headers back in error bodies. */
  deep<T>(value: T): T {
    return this.#secrets.length ? (this.#walk(value, 0) as T) : value;
  }

  /**
   * An error safe to keep as `cause`: the same object when it mentions no secret, otherwise
   * a plain Error with them removed from its message and stack.
   */
  cause(cause: unknown): unknown {
    if (!(cause instanceof Error)) return cause;
    const text = `${cause.message}\n${cause.stack ?? ''}`;
    if (this.string(text) === text) return cause;
    const safe = new Error(this.string(cause.message));
    safe.name = cause.name;
    safe.stack = this.string(cause.stack ?? '');
    return safe;
  }

  #walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.string(value);
    if (value === null || typeof value !== 'object' || depth > 32) return value;
    if (Array.isArray(value)) return value.map((v) => this.#walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[this.string(k)] = this.#walk(v, depth + 1);
    return out;
  }
}
