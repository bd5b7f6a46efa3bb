import { describe, expect, it, vi } from 'vitest';
import { Gateway, ValidationError } from '../../../src/index.js';
import { mockClient, PNG } from '../../helpers/mock-client.js';

const KEY = 'sk-images-download-key';

/** A gateway at gateway.test that answers generations with `url`, and a CDN that serves the bytes; every request recorded. */
function gatewayWithCDN(imageURL: string) {
  const seen: Array<{ url: string; authorization: string | null }> = [];
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    seen.push({ url, authorization: new Headers(init?.headers).get('authorization') });
    if (url.endsWith('/images/generations')) return Response.json({ created: 1, data: [{ url: imageURL }] });
    return new Response(PNG, { headers: { 'content-type': 'image/png', 'content-length': String(PNG.byteLength) } });
  });
  return { client: new Gateway({ apiKey: KEY, baseURL: 'https://gateway.test/v1', fetch, maxRetries: 0 }), seen, fetch };
}

describe('images.download', () => {
  it('downloads an image the gateway answered with a URL, through the client, with progress', async () => {
    const { client } = mockClient();
    const { data } = await client.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse' });
    const progress: number[] = [];
    const response = await client.images.download(data[0]!, { onProgress: (p) => progress.push(p.loadedBytes) });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.subarray(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect(progress.at(-1)).toBe(bytes.byteLength);
  });

  it('sends the key to the gateway’s own origin and never to a CDN, using the client’s fetch (not the global one)', async () => {
    const global = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('the global fetch was used'));
    const own = gatewayWithCDN('https://gateway.test/v1/files/a.png');
    await own.client.images.download((await own.client.images.generate({ model: 'dall-e-3', prompt: 'x' })).data[0]!);
    expect(own.seen[1]).toEqual({ url: 'https://gateway.test/v1/files/a.png', authorization: `Bearer ${KEY}` });
    const cdn = gatewayWithCDN('https://cdn.example/a.png?sig=secret');
    await cdn.client.images.download('https://cdn.example/a.png?sig=secret');
    expect(cdn.seen[0]).toEqual({ url: 'https://cdn.example/a.png?sig=secret', authorization: null });
    expect(global).not.toHaveBeenCalled();
  });

  it('refuses an image without a URL, or a URL that is not http(s), before sending', async () => {
    const { client, fetch } = gatewayWithCDN('https://cdn.example/a.png');
    await expect(client.images.download({ b64_json: 'iVBOR' })).rejects.toBeInstanceOf(ValidationError);
    await expect(client.images.download('file:///etc/passwd')).rejects.toMatchObject({ field: 'url' });
    expect(fetch).not.toHaveBeenCalled();
  });
});
