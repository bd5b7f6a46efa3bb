import { APICallError } from '@ai-sdk/provider';
import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { APIError, Gateway } from '../../src/index.js';
import { BASE, fastRetries, KEY } from '../helpers/fixtures.js';
import { chunk, sseResponse, sseText } from '../helpers/sse.js';
import { mockProvider } from './helpers.js';

// Hostile servers and odd ids through the AI SDK entry (issue 21, item 14): whatever the
// error body says, the AI SDK gets its own APICallError, never a TypeError.

const INHERITED = ['valueOf', 'toString', 'hasOwnProperty', '__proto__', 'constructor'] as const;

function provider(answer: () => Response) {
  const fetch = (async () => answer()) as typeof globalThis.fetch;
  return createUnifiedGateway({ client: new Gateway(fastRetries({ apiKey: KEY, baseURL: BASE, fetch, maxRetries: 0 })) });
}

describe('an error body whose code is an inherited property name', () => {
  it.each(INHERITED)('generateText: a 200 answer carrying code %s rejects with an APICallError', async (name) => {
    const gw = provider(() => Response.json({ error: { message: 'no', code: name, type: name } }));
    const error = await generateText({ model: gw('m'), prompt: 'x', maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).cause).toBeInstanceOf(APIError);
    expect((error as APICallError).cause).toMatchObject({ code: name });
  });

  it.each(INHERITED)('streamText: an SSE error frame with code %s reaches onError as an APICallError', async (name) => {
    const gw = provider(() => sseResponse(sseText([chunk('a'), { error: { message: 'upstream', code: name, type: name } }], { done: false })));
    const errors: unknown[] = [];
    const result = streamText({ model: gw('m'), prompt: 'x', maxRetries: 0, onError: ({ error }) => void errors.push(error) });
    await result.consumeStream();
    expect(errors).toHaveLength(1);
    expect(APICallError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as APICallError).cause).toMatchObject({ code: name });
  });
});

describe('model ids and media types named like Object methods', () => {
  it.each(INHERITED)('an image model %s has the default maxImagesPerCall', (name) => {
    const { gw } = mockProvider();
    expect(gw.imageModel(name).maxImagesPerCall).toBe(10);
  });

  // Lower-cased before the lookup: only names that are lower case already can hit Object's.
  it.each(['__proto__', 'constructor'])('a transcription of media type %s is uploaded as audio.bin', async (name) => {
    const { gw } = mockProvider();
    const result = await gw.transcriptionModel('whisper-1').doGenerate({ audio: new Uint8Array([1, 2]), mediaType: name });
    expect(result.text).toMatch(/^Mock transcript of audio\.bin /);
  });
});
