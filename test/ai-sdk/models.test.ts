import { embed, embedMany, experimental_generateVideo as generateVideo, experimental_transcribe as transcribe, generateImage } from 'ai';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { memoryStore, VideoTaskFailedError } from '../../src/index.js';
import { BASE, client } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { PNG } from '../helpers/mock-client.js';
import { mockProvider } from './helpers.js';

const server = useMswServer();

describe('embedding model', () => {
  it('embeds one value through the client', async () => {
    const { gw, mock } = mockProvider();
    const { embedding, usage } = await embed({ model: gw.embeddingModel('text-embedding-3-small'), value: 'hello' });
    expect(embedding.length).toBeGreaterThan(0);
    expect(usage.tokens).toBeGreaterThan(0);
    expect(mock.requests[0]?.body).toMatchObject({ model: 'text-embedding-3-small', input: ['hello'] });
  });

  it('keeps the order of the values across batches and across a reply out of order', async () => {
    const sizes: number[] = [];
    server.use(
      http.post(`${BASE}/embeddings`, async ({ request }) => {
        const { input } = (await request.json()) as { input: string[] };
        sizes.push(input.length);
        const data = input.map((text, index) => ({ object: 'embedding', index, embedding: [Number(text)] })).reverse();
        return HttpResponse.json({ object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: input.length, total_tokens: input.length } });
      }),
    );
    const gw = createUnifiedGateway({ client: client() });
    const values = Array.from({ length: 2050 }, (_, i) => String(i));
    const { embeddings, usage } = await embedMany({ model: gw.embeddingModel('text-embedding-3-small'), values });
    expect(sizes.sort((a, b) => b - a)).toEqual([2048, 2]);
    expect(embeddings.map((e) => e[0])).toEqual(values.map(Number));
    expect(usage.tokens).toBe(2050);
  });
});

describe('embedding model and the cache', () => {
  it("bypasses the client's cache per call with providerOptions.unifiedGateway.cache, never as a body field", async () => {
    const { gw, mock } = mockProvider({}, { cache: { store: memoryStore() } });
    const model = gw.embeddingModel('text-embedding-3-small');
    await embed({ model, value: 'hello' });
    await embed({ model, value: 'hello' });
    expect(mock.requests).toHaveLength(1);
    await embed({ model, value: 'hello', providerOptions: { unifiedGateway: { cache: 'bypass' } } });
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[1]?.body).not.toHaveProperty('cache');
  });
});

describe('image model', () => {
  it('generates images as base64, passing n and size', async () => {
    const { gw, mock } = mockProvider();
    const { images } = await generateImage({ model: gw.imageModel('dall-e-2'), prompt: 'a lighthouse', n: 2, size: '256x256' });
    expect(images).toHaveLength(2);
    expect(images[0]?.mediaType).toBe('image/png');
    expect(mock.requests[0]?.body).toMatchObject({ model: 'dall-e-2', prompt: 'a lighthouse', n: 2, size: '256x256', response_format: 'b64_json' });
  });

  it('sends one request per image for dall-e-3, which makes one at a time', async () => {
    const { gw, mock } = mockProvider();
    const { images } = await generateImage({ model: gw.imageModel('dall-e-3'), prompt: 'a lighthouse', n: 2 });
    expect(images).toHaveLength(2);
    expect(mock.requests.map((r) => (r.body as { n: number }).n)).toEqual([1, 1]);
  });

  it('refuses a size the model does not make, before sending', async () => {
    const { gw, mock } = mockProvider();
    const error = await generateImage({ model: gw.imageModel('dall-e-3'), prompt: 'a lighthouse', size: '512x512' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError', field: 'size' });
    expect(mock.requests).toHaveLength(0);
  });

  it('edits when the prompt comes with an image', async () => {
    const { gw, mock } = mockProvider();
    const { images } = await generateImage({ model: gw.imageModel('dall-e-2'), prompt: { text: 'add a hat', images: [PNG] } });
    expect(images).toHaveLength(1);
    expect(mock.requests[0]?.path).toBe('images/edits');
  });
});

describe('transcription model', () => {
  it('uploads the audio as multipart and returns the text', async () => {
    const { gw, mock } = mockProvider();
    const result = await transcribe({ model: gw.transcriptionModel('whisper-1'), audio: new Uint8Array([1, 2, 3, 4]) });
    expect(result.text).toMatch(/^Mock transcript of audio\.\w+ \(4 bytes\)/);
    expect(mock.requests[0]?.body).toMatchObject({ model: 'whisper-1', file: { size: 4 } });
  });

  it('fills segments, language and duration with verbose_json', async () => {
    const { gw } = mockProvider();
    const result = await transcribe({ model: gw.transcriptionModel('whisper-1'), audio: new Uint8Array([1, 2, 3]), providerOptions: { unifiedGateway: { response_format: 'verbose_json', language: 'de' } } });
    expect(result.language).toBe('de');
    expect(result.durationInSeconds).toBe(1.5);
    expect(result.segments).toEqual([{ text: result.text, startSecond: 0, endSecond: 1.5 }]);
  });

  it.each(['srt', 'vtt'])('returns %s subtitles as the text', async (format) => {
    const { gw } = mockProvider();
    const result = await transcribe({ model: gw.transcriptionModel('whisper-1'), audio: new Uint8Array([1]), providerOptions: { unifiedGateway: { response_format: format } } });
    expect(result.text).toContain('00:00:00');
  });
});

describe('video model', () => {
  it('submits one task and polls it to the video', async () => {
    const { gw, mock } = mockProvider({ videoStepMs: 5 });
    const { videos } = await generateVideo({ model: gw.videoModel('vendor_video2'), prompt: 'a paper boat', duration: 5, providerOptions: { unifiedGateway: { pollIntervalMs: 5 } } });
    expect(videos).toHaveLength(1);
    expect(videos[0]?.mediaType).toBe('video/mp4');
    expect(videos[0]?.uint8Array).toHaveLength(8);
    expect(mock.requests.filter((r) => r.method === 'POST' && r.path === 'videos/generations')).toHaveLength(1);
  });

  it('never submits a failed paid task again', async () => {
    const { gw, mock } = mockProvider({ videoStepMs: 5 });
    const error = (await generateVideo({ model: gw.videoModel('vendor_video2'), prompt: 'please fail', duration: 5, maxRetries: 2, providerOptions: { unifiedGateway: { pollIntervalMs: 5 } } }).catch((e: unknown) => e)) as { cause?: unknown };
    expect(error.cause).toBeInstanceOf(VideoTaskFailedError);
    expect(mock.requests.filter((r) => r.method === 'POST' && r.path === 'videos/generations')).toHaveLength(1);
  });
});

describe('image model, image URLs', () => {
  it('downloads URL answers through the client (its fetch, no key for a CDN), never the global fetch', async () => {
    const global = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('the global fetch was used'));
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      seen.push({ url, authorization: new Headers(init?.headers).get('authorization') });
      if (url.endsWith('/images/generations')) return Response.json({ created: 1, data: [{ url: 'https://cdn.example/img.png' }] });
      return new Response(PNG, { headers: { 'content-type': 'image/png' } });
    };
    const gw = createUnifiedGateway({ apiKey: 'sk-ai-sdk-image-key', baseURL: 'https://gateway.test/v1', fetch, maxRetries: 0 });
    const { images } = await generateImage({ model: gw.imageModel('dall-e-2'), prompt: 'a lighthouse' });
    expect(images[0]?.uint8Array.subarray(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect(seen[1]).toEqual({ url: 'https://cdn.example/img.png', authorization: null });
    expect(global).not.toHaveBeenCalled();
  });
});
