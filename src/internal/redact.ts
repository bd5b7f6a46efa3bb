/** The placeholder that replaces a secret wherever it would otherwise be shown. */
export const REDACTED = '[REDACTED]';

/** How many distinct secrets one client remembers: a rotating key adds one per rotation. */
const MAX_SECRETS = 16;

/**
 * Removes a client's secrets (its API key, and every key a key function has returned) from
 * text before it can reach an error, a log line or a hook (error-factory.ts applies it to
 * whole bodies and causes). The secrets live in a private field, so no inspection of the
 * object shows them.
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
}
