import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toFile, type TranscriptionCreateParams } from '../../../src/index.js';
import { mockClient } from '../../helpers/mock-client.js';

const dir = mkdtempSync(join(tmpdir(), 'ug-audio-'));
const mp3Path = join(dir, 'talk.mp3');
const MP3 = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]);
writeFileSync(mp3Path, MP3);

describe('audio.transcriptions.create', () => {
  it('transcribes a file from an fs.ReadStream, named from its path', async () => {
    const { client, mock } = mockClient();
    const res = await client.audio.transcriptions.create({ model: 'whisper-1', file: createReadStream(mp3Path), language: 'en', prompt: 'names', temperature: 0.2 });
    expect(res).toEqual({ text: 'Mock transcript of talk.mp3 (10 bytes, en).' });
    expect(mock.requests[0]?.body).toEqual({
      model: 'whisper-1',
      language: 'en',
      prompt: 'names',
      temperature: '0.2',
      file: { name: 'talk.mp3', type: 'audio/mpeg', size: 10 },
    });
  });

  it('guesses the type and extension of nameless bytes', async () => {
    const { client, mock } = mockClient();
    await client.audio.transcriptions.create({ model: 'whisper-1', file: MP3 });
    expect(mock.requests[0]?.body).toMatchObject({ file: { name: 'upload.mp3', type: 'audio/mpeg' } });
  });

  it.each([
    ['text', 'Mock transcript of a.mp3 (10 bytes).'],
    ['srt', '1\n00:00:00,000 --> 00:00:01,500\nMock transcript of a.mp3 (10 bytes).\n'],
    ['vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nMock transcript of a.mp3 (10 bytes).\n'],
  ] as const)('returns a string for response_format %s', async (format, expected) => {
    const { client } = mockClient();
    const res = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(MP3, 'a.mp3'), response_format: format });
    expect(res).toBe(expected);
  });

  it('returns timing for verbose_json', async () => {
    const { client } = mockClient();
    const res = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(MP3, 'a.mp3'), response_format: 'verbose_json' });
    expect(res).toMatchObject({ language: 'en', duration: 1.5, segments: [{ id: 0 }] });
  });

  it.each([
    ['no file', { model: 'whisper-1' }, 'file'],
    ['a path string as file', { model: 'whisper-1', file: '/tmp/a.mp3' }, 'file'],
    ['temperature 2', { model: 'whisper-1', file: MP3, temperature: 2 }, 'temperature'],
    ['response_format xml', { model: 'whisper-1', file: MP3, response_format: 'xml' }, 'response_format'],
  ])('rejects %s before sending', async (_, body, field) => {
    const { client, mock } = mockClient();
    await expect(client.audio.transcriptions.create(body as TranscriptionCreateParams)).rejects.toMatchObject({ name: 'ValidationError', field });
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses a failed fetch Response (a 404 page) as the file, naming the field and the status, before sending', async () => {
    const { client, mock } = mockClient();
    const file = new Response('Not Found', { status: 404, statusText: 'Not Found' });
    const err = await client.audio.transcriptions.create({ model: 'whisper-1', file }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', field: 'file', rule: expect.stringContaining('status 404') });
    expect(mock.requests).toHaveLength(0);
  });

  it('replays the upload whole after a 503, and errors are typed', async () => {
    const { client, mock } = mockClient({ faults: [{ type: 'unavailable', retryAfter: 0 }] });
    await client.audio.transcriptions.create({ model: 'whisper-1', file: createReadStream(mp3Path) });
    expect(mock.requests.map((r) => r.body)).toEqual([mock.requests[1]?.body, mock.requests[1]?.body]);
    await expect(client.audio.transcriptions.create({ model: 'gpt-4o', file: MP3 })).rejects.toMatchObject({ status: 400, param: 'model' });
  });
});
