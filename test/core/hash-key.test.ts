import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../src/index.js';
import { hashKey } from '../../src/core/store/hash-key.js';

describe('hashKey', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ])('is the SHA-256 of %j in lowercase hex', async (text, digest) => {
    expect(await hashKey(text)).toBe(digest);
  });

  it('hashes the UTF-8 bytes of any text', async () => {
    const text = 'sk-ünïcødé-🚀\u0000https://gw.example/v1';
    expect(await hashKey(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });

  it('rejects with a GatewayError that says why where crypto.subtle is missing (insecure browser pages)', async () => {
    vi.stubGlobal('crypto', { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    const error = await hashKey('sk-secret-key').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(String(error)).toMatch(/crypto\.subtle is unavailable.*secure contexts/);
    expect(String(error)).not.toContain('sk-secret-key');
  });
});
