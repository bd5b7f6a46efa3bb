import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Gateway, ValidationError, toFile, type ImageGenerateParams, type Uploadable } from '../../../src/index.js';
import { createMockGateway, type Served } from '../../../src/testing/index.js';
import { mockClient, PNG } from '../../helpers/mock-client.js';

describe('images.generate', () => {
  it('returns urls by default, n of them', async () => {
    const { client, mock } = mockClient();
    const res = await client.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', n: 2, size: '1792x1024', quality: 'hd' });
    expect(res.data).toHaveLength(2);
    expect(res.data[0]?.url).toMatch(/\.png$/);
    expect(mock.requests[0]?.body).toEqual({ model: 'dall-e-3', prompt: 'a lighthouse', n: 2, size: '1792x1024', quality: 'hd' });
  });

  it('returns base64 images for response_format b64_json', async () => {
    const { client } = mockClient();
    const res = await client.images.generate({ model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json', size: '1536x1024' });
    expect(res.data[0]?.b64_json).toMatch(/^iVBOR/);
  });

  it.each([
    ['dall-e-3', '512x512', '1024x1024, 1792x1024, 1024x1792'],
    ['dall-e-2', '1792x1024', '256x256, 512x512, 1024x1024'],
    ['gpt-image-1', '1792x1024', '1024x1024, 1536x1024, 1024x1536'],
  ])('rejects a size %s does not support, naming the allowed ones', async (model, size, allowed) => {
    const { client, mock } = mockClient();
    const err = await client.images.generate({ model, prompt: 'x', size: size as ImageGenerateParams['size'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'size', rule: `must be one of ${allowed} for ${model}` });
    expect(mock.requests).toHaveLength(0);
  });

  it('passes sizes of unknown models through unchecked', async () => {
    const { client, mock } = mockClient({ models: [{ id: 'flux-pro', owned_by: 'x', kind: 'image' }] });
    const res = await client.images.generate({ model: 'flux-pro', prompt: 'x', size: '1344x768' });
    expect(res.data).toEqual([expect.objectContaining({ url: expect.stringMatching(/\.png$/) })]);
    expect(mock.requests[0]?.body).toMatchObject({ model: 'flux-pro', size: '1344x768' });
  });

  it.each([
    ['no prompt', { model: 'dall-e-3' }, 'prompt'],
    ['n of 0', { model: 'dall-e-3', prompt: 'x', n: 0 }, 'n'],
    ['a malformed size', { model: 'flux', prompt: 'x', size: 'big' }, 'size'],
    ['quality ultra', { model: 'dall-e-3', prompt: 'x', quality: 'ultra' }, 'quality'],
    ['response_format png', { model: 'dall-e-3', prompt: 'x', response_format: 'png' }, 'response_format'],
  ])('rejects %s before sending', async (_, body, field) => {
    const { client, mock } = mockClient();
    await expect(client.images.generate(body as ImageGenerateParams)).rejects.toMatchObject({ name: 'ValidationError', field });
    expect(mock.requests).toHaveLength(0);
  });

  it('surfaces a 500 from the gateway after its retries', async () => {
    const { client, mock } = mockClient({ faults: [{ type: 'server_error', times: 2 }] }, { maxRetries: 1 });
    await expect(client.images.generate({ model: 'dall-e-3', prompt: 'x' })).rejects.toMatchObject({ name: 'InternalServerError', code: 'server_error' });
    expect(mock.requests).toHaveLength(2);
  });
});

describe('images.edit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ug-images-'));
  const pngPath = join(dir, 'cat.png');
  writeFileSync(pngPath, PNG);

  const inputs: Array<[string, () => Uploadable | Promise<Uploadable>, string]> = [
    ['a File', () => new File([PNG], 'cat.png', { type: 'image/png' }), 'cat.png'],
    ['a nameless Blob', () => new Blob([PNG], { type: 'image/png' }), 'upload.png'],
    ['a Uint8Array', () => PNG, 'upload.png'],
    ['an ArrayBuffer', () => PNG.slice().buffer, 'upload.png'],
    ['a Node Buffer', () => Buffer.from(PNG), 'upload.png'],
    ['a fetch Response', () => new Response(PNG, { headers: { 'content-type': 'image/png' } }), 'upload.png'],
    ['an fs.ReadStream', () => createReadStream(pngPath), 'cat.png'],
    ['toFile()', () => toFile(PNG, 'named.png', { type: 'image/png' }), 'named.png'],
  ];
  it.each(inputs)('uploads %s as multipart', async (_, make, name) => {
    const { client, mock } = mockClient();
    const res = await client.images.edit({ model: 'dall-e-2', image: await make(), prompt: 'add a hat', size: '256x256', n: 1 });
    expect(res.data[0]?.url).toMatch(/^http:\/\/mock\.local\/mock-files\/image-.+\.png$/);
    expect(mock.requests[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(mock.requests[0]?.body).toEqual({
      model: 'dall-e-2',
      prompt: 'add a hat',
      size: '256x256',
      n: '1',
      image: { name, type: 'image/png', size: PNG.length },
    });
  });

  it('sends the optional mask', async () => {
    const { client, mock } = mockClient();
    await client.images.edit({ model: 'dall-e-2', image: PNG, mask: await toFile(PNG, 'mask.png'), prompt: 'x' });
    expect(mock.requests[0]?.body).toMatchObject({ mask: { name: 'mask.png', size: PNG.length } });
  });

  it('rejects a missing image, a wrong file kind, and an unsupported size before sending', async () => {
    const { client, mock } = mockClient();
    await expect(client.images.edit({ model: 'dall-e-2', prompt: 'x' } as never)).rejects.toMatchObject({ field: 'image' });
    await expect(client.images.edit({ model: 'dall-e-2', prompt: 'x', image: 'cat.png' as never })).rejects.toMatchObject({ field: 'image' });
    await expect(client.images.edit({ model: 'dall-e-2', prompt: 'x', image: PNG, size: '1792x1024' as never })).rejects.toMatchObject({ field: 'size' });
    expect(mock.requests).toHaveLength(0);
  });

  it.each([404, 500])('refuses a fetch Response with status %i (its error page is no image) before sending', async (status) => {
    const { client, mock } = mockClient();
    const image = new Response('<h1>Not Found</h1>', { status, headers: { 'content-type': 'text/html' } });
    const err = await client.images.edit({ model: 'dall-e-2', prompt: 'x', image }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'image', rule: expect.stringContaining(`status ${status}`) });
    const mask = new Response('gone', { status });
    await expect(client.images.edit({ model: 'dall-e-2', prompt: 'x', image: PNG, mask })).rejects.toMatchObject({ name: 'ValidationError', field: 'mask' });
    await expect(toFile(new Response('gone', { status }))).rejects.toMatchObject({ name: 'ValidationError', field: 'file' });
    expect(mock.requests).toHaveLength(0);
  });

  it('replays the whole multipart body on a retry', async () => {
    const { client, mock } = mockClient({ faults: [{ type: 'server_error', path: 'images/edits' }] });
    const image = new Response(PNG); // a body that can be read only once
    await client.images.edit({ model: 'dall-e-2', image, prompt: 'x' });
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[1]?.body).toEqual(mock.requests[0]?.body);
    expect(mock.requests[1]?.body).toMatchObject({ image: { size: PNG.length } });
    expect(mock.requests[1]?.headers['idempotency-key']).toBe(mock.requests[0]?.headers['idempotency-key']);
  });

  describe('failover over real sockets', () => {
    let servers: Served[] = [];
    afterEach(async () => {
      await Promise.all(servers.map((s) => s.close()));
      servers = [];
    });

    it('sends the same multipart body to the backup after the main drops the connection', async () => {
      const main = createMockGateway({ apiKey: 'k', faults: [{ type: 'disconnect' }] });
      const backup = createMockGateway({ apiKey: 'k' });
      servers = await Promise.all([main.listen(), backup.listen()]);
      const client = new Gateway({ apiKey: 'k', baseURL: servers[0]!.url, backupBaseURL: servers[1]!.url });
      const res = await client.images.edit({ model: 'dall-e-2', image: createReadStream(pngPath), prompt: 'failover' });
      expect(res.data).toHaveLength(1);
      expect(main.requests).toHaveLength(1);
      expect(backup.requests[0]?.body).toMatchObject({ prompt: 'failover', image: { name: 'cat.png', size: PNG.length } });
    });
  });
});
