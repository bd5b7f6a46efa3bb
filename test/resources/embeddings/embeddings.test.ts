import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { type EmbeddingCreateParams } from '../../../src/index.js';
import { client as mswClient, BASE } from '../../helpers/fixtures.js';
import { mockClient } from '../../helpers/mock-client.js';
import { useMswServer } from '../../helpers/msw.js';

const server = useMswServer();
const params = { model: 'text-embedding-3-small', input: ['alpha', 'beta'] };

describe('embeddings.create', () => {
  it('returns one vector per input, of the model size, as numbers', async () => {
    const { client } = mockClient();
    const res = await client.embeddings.create(params);
    expect(res.data).toHaveLength(2);
    expect(res.data[0]?.embedding).toHaveLength(1536);
    expect(typeof res.data[0]?.embedding[0]).toBe('number');
    expect(res.usage.total_tokens).toBe(2);
  });

  it('fetches base64 by default and decodes it to the same numbers as float', async () => {
    const { client, mock } = mockClient();
    const decoded = await client.embeddings.create({ ...params, dimensions: 8 });
    expect(mock.requests[0]?.body).toMatchObject({ encoding_format: 'base64' });
    const floats = await client.embeddings.create({ ...params, dimensions: 8, encoding_format: 'float' });
    expect(mock.requests[1]?.body).toMatchObject({ encoding_format: 'float' });
    expect(decoded.data[0]?.embedding).toEqual(floats.data[0]?.embedding);
  });

  it('returns the raw base64 string when asked for base64', async () => {
    const { client } = mockClient();
    const res = await client.embeddings.create({ ...params, dimensions: 4, encoding_format: 'base64' });
    expect(typeof res.data[0]?.embedding).toBe('string');
    expect(atob(res.data[0]?.embedding ?? '')).toHaveLength(16);
  });

  it('reads floats from a server that ignores encoding_format', async () => {
    server.use(http.post(`${BASE}/embeddings`, () => HttpResponse.json({ object: 'list', model: 'm', data: [{ object: 'embedding', index: 0, embedding: [0.5, -1] }], usage: { prompt_tokens: 1, total_tokens: 1 } })));
    const res = await mswClient().embeddings.create({ model: 'm', input: 'x' });
    expect(res.data[0]?.embedding).toEqual([0.5, -1]);
  });

  it('decodes little-endian float32', async () => {
    const bytes = new Uint8Array(new Float32Array([1.5, -2]).buffer); // this machine is little-endian
    const b64 = btoa(String.fromCharCode(...bytes));
    server.use(http.post(`${BASE}/embeddings`, () => HttpResponse.json({ object: 'list', model: 'm', data: [{ object: 'embedding', index: 0, embedding: b64 }], usage: { prompt_tokens: 1, total_tokens: 1 } })));
    const res = await mswClient().embeddings.create({ model: 'm', input: 'x' });
    expect(res.data[0]?.embedding).toEqual([1.5, -2]);
  });

  it.each([
    ['empty input', { model: 'm', input: '' }, 'input'],
    ['empty input array', { model: 'm', input: [] }, 'input'],
    ['an empty string in the array', { model: 'm', input: ['a', ''] }, 'input[1]'],
    ['dimensions 0', { ...params, dimensions: 0 }, 'dimensions'],
    ['unknown encoding', { ...params, encoding_format: 'hex' }, 'encoding_format'],
  ])('rejects %s before sending', async (_, body, field) => {
    const { client, mock } = mockClient();
    await expect(client.embeddings.create(body as EmbeddingCreateParams)).rejects.toMatchObject({ name: 'ValidationError', field });
    expect(mock.requests).toHaveLength(0);
  });

  it('retries a 503 and surfaces a 429 quota error at once', async () => {
    const { client, mock } = mockClient({ faults: [{ type: 'unavailable' }] });
    await expect(client.embeddings.create(params)).resolves.toMatchObject({ object: 'list', model: 'text-embedding-3-small', data: [{ index: 0 }, { index: 1 }] });
    mock.inject({ type: 'insufficient_quota' });
    await expect(client.embeddings.create(params)).rejects.toMatchObject({ name: 'InsufficientQuotaError' });
    expect(mock.requests).toHaveLength(3);
  });
});
