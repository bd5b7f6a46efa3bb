/** The placeholder that replaces a secret wherever it would otherwise be shown. */
export const REDACTED = '[REDACTED]';

/** Header names whose values are credentials. */
const CREDENTIAL_HEADERS = /^(?:authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token)$/i;

/** True for a header whose value is a credential (the recorder of `unified-gateway/testing` never writes one). */
export const isCredentialHeader = (name: string): boolean => CREDENTIAL_HEADERS.test(name);

/** Secrets shorter than this are not removed: replacing them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 4;

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
    if (secret.length < MIN_SECRET_LENGTH || this.#secrets.includes(secret)) return;
    this.#secrets.push(secret);
    if (this.#secrets.length > MAX_SECRETS) this.#secrets.shift();
  }

  /**
   * Remembers the credentials among headers the caller set (`authorization`, `cookie`,
   * `x-api-key`, …): they are kept out of errors and logs like the key.
   */
  addHeaders(headers: Record<string, string>): void {
    for (const name in headers) {
      const value = headers[name];
      if (typeof value !== 'string' || !CREDENTIAL_HEADERS.test(name)) continue;
      this.add(value);
      const token = /^\s*(?:bearer|basic|token)\s+(\S+)/i.exec(value)?.[1];
      if (token) this.add(token);
    }
  }

  /** The text with every secret replaced by {@link REDACTED}. */
  string(text: string): string {
    for (const secret of this.#secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    return text;
  }
}
