/** The placeholder that replaces a secret wherever it would otherwise be shown. */
export const REDACTED = '[REDACTED]';

/** Header names whose values are credentials. */
const CREDENTIAL_HEADERS = /^(?:authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token)$/i;

/** True for a header whose value is a credential (the recorder of `unified-gateway/testing` never writes one). */
export const isCredentialHeader = (name: string): boolean => CREDENTIAL_HEADERS.test(name);

/** Secrets shorter than this are not removed: replacing them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Secrets at least this long are also removed in base64. The stable part of a shorter one's
 * base64 is too short to tell from ordinary base64 text.
 */
const MIN_BASE64_SECRET_LENGTH = 12;

/** How many distinct secrets one client remembers: a rotating key adds one per rotation. */
const MAX_SECRETS = 16;

/**
 * Removes a client's secrets (its API key, and every key a key function has returned) from
 * text before it can reach an error, a log line or a hook, and from whole bodies and errors
 * (`deep`, `error`). Each secret is removed as it is and in the forms a server or a proxy
 * echoes it in: URL-encoded, JSON-escaped, and base64 (see {@link encodedForms}). The
 * secrets live in a private field, so no inspection of the object shows them.
 */
export class Redactor {
  #secrets: Array<{ secret: string; forms: readonly string[] }> = [];
  /** Every form of every secret, longest first: a longer form is replaced whole before a shorter one inside it could split it. */
  #forms: string[] = [];

  /** Remembers a secret. Very short ones are ignored: replacing them would mangle ordinary text. */
  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.#secrets.some((s) => s.secret === secret)) return;
    this.#secrets.push({ secret, forms: encodedForms(secret) });
    if (this.#secrets.length > MAX_SECRETS) this.#secrets.shift();
    this.#forms = [...new Set(this.#secrets.flatMap((s) => s.forms))].sort((a, b) => b.length - a.length);
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

  /**
   * Where secrets occur in `text`, in any of their forms: `[start, end)` ranges in order,
   * overlapping ones merged (for text that must be masked in place, such as a stream's fields
   * joined: core/streams/redact-frames.ts).
   */
  find(text: string): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    for (const form of this.#forms) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) found.push([at, at + form.length]);
    }
    found.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const range of found) {
      const last = merged[merged.length - 1];
      if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
      else merged.push([range[0], range[1]]);
    }
    return merged;
  }

  /** The text with every secret, in each of its forms, replaced by {@link REDACTED}. */
  string(text: string): string {
    for (const form of this.#forms) if (text.includes(form)) text = text.split(form).join(REDACTED);
    return text;
  }

  /** A deep copy of JSON-like data with the secrets replaced in every string (keys included): servers echo headers back in error bodies. */
  deep<T>(value: T): T {
    const walk = (node: unknown, depth: number): unknown => {
      if (typeof node === 'string') return this.string(node);
      if (node === null || typeof node !== 'object' || depth > 32) return node;
      if (Array.isArray(node)) return node.map((v) => walk(v, depth + 1));
      // fromEntries defines each key as data: an assignment of a `__proto__` key (which JSON.parse keeps as an own key) would set the copy's prototype instead.
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [this.string(k), walk(v, depth + 1)]));
    };
    return walk(value, 0) as T;
  }

  /**
   * Removes the secrets from an error's message, stack and string fields (a ParseError's
   * `content` quoting the reply, a message quoting a custom fetch's text), in place.
   */
  error<E extends Error>(error: E): E {
    const fields = error as unknown as Record<string, unknown>;
    for (const key of ['message', 'stack', ...Object.keys(error)]) {
      const value = fields[key];
      if (typeof value !== 'string') continue;
      const safe = this.string(value);
      if (safe !== value) Object.defineProperty(error, key, { value: safe, writable: true, configurable: true, enumerable: key !== 'message' && key !== 'stack' });
    }
    return error;
  }
}

/**
 * A secret and the forms it is echoed in: URL-encoded (`encodeURIComponent`, a key in a query
 * string), JSON-escaped (a key with `"` or `\` inside a JSON string), and base64 (inside
 * `Authorization: Basic base64(user:key)`, or any encoded blob). A secret's base64 depends on
 * where it starts within a 3-byte group, so each of the three alignments is kept, and of
 * each only the characters made of the secret's bits alone (the stable middle), as secret
 * scanners do: the one or two characters at each end mix in the bytes around it.
 */
function encodedForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  // URL encoders differ: upper- or lower-case hex, and some leave `/` as it is (Python's quote()).
  const urlForms = [encoded, encoded.replace(/%2F/g, '/')].flatMap((form) => [form, form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())]);
  const forms = new Set([secret, ...urlForms, JSON.stringify(secret).slice(1, -1)]);
  if (secret.length >= MIN_BASE64_SECRET_LENGTH) for (const middle of base64Middles(new TextEncoder().encode(secret))) forms.add(middle);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/** The stable middle of `bytes`' base64 when it starts 0, 1 or 2 bytes into a 3-byte group. */
function base64Middles(bytes: Uint8Array): string[] {
  const middles: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    let binary = '\0'.repeat(offset);
    for (const byte of bytes) binary += String.fromCharCode(byte);
    // Character i holds bits 6i to 6i+5: it is the secret's alone when they all fall within its bytes.
    const start = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    middles.push(btoa(binary).slice(start, end));
  }
  return middles;
}
