import { generateText, streamText } from 'ai';
import { http, HttpResponse } from 'msw';
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createUnifiedGateway } from '../../src/ai-sdk/index.js';
import { APIError } from '../../src/index.js';
import { BASE, client, completionFixture } from '../helpers/fixtures.js';
import { useMswServer } from '../helpers/msw.js';
import { chunk, chunkedBody, sseResponse, sseText } from '../helpers/sse.js';

const server = useMswServer();
const gw = () => createUnifiedGateway({ client: client() });

describe('language model on the wire', () => {
  it.each(['reasoning_content', 'reasoning'])('reads reasoning from %s, in replies and in streams', async (field) => {
    server.use(
      http.post(`${BASE}/chat/completions`, async ({ request }) => {
        const body = (await request.json()) as { stream?: boolean };
        if (!body.stream) return HttpResponse.json({ ...completionFixture, choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there', [field]: 'thinking...' }, finish_reason: 'stop' }] });
        const frames = [
          { ...chunk(undefined), choices: [{ index: 0, delta: { [field]: 'think' }, finish_reason: null }] },
          { ...chunk(undefined), choices: [{ index: 0, delta: { [field]: 'ing' }, finish_reason: null }] },
          chunk('Hi'),
          { ...chunk(undefined), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        ];
        return sseResponse(sseText(frames));
      }),
    );
    const generated = await generateText({ model: gw()('gpt-4o-mini'), prompt: 'x' });
    expect(generated.reasoningText).toBe('thinking...');
    expect(generated.text).toBe('Hi there');
    const streamed = streamText({ model: gw()('gpt-4o-mini'), prompt: 'x' });
    const types: string[] = [];
    for await (const part of streamed.fullStream) types.push(part.type);
    expect(await streamed.reasoningText).toBe('thinking');
    expect(await streamed.text).toBe('Hi');
    expect(types.indexOf('reasoning-end')).toBeLessThan(types.indexOf('text-start'));
  });

  it('keeps multi-byte text whole when frames arrive byte by byte', async () => {
    const words = ['Grüße ', 'aus ', '東京 ', '🚀✨'];
    server.use(http.post(`${BASE}/chat/completions`, () => sseResponse(chunkedBody(sseText([...words.map((w) => chunk(w)), chunk(undefined, { choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })]), 1))));
    const result = streamText({ model: gw()('gpt-4o-mini'), prompt: 'x' });
    expect(await result.text).toBe(words.join(''));
    expect(await result.usage).toMatchObject({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
  });

  it('maps cached and reasoning tokens as the specification splits them', async () => {
    server.use(
      http.post(`${BASE}/chat/completions`, () =>
        HttpResponse.json({ ...completionFixture, usage: { prompt_tokens: 10, completion_tokens: 8, total_tokens: 18, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 5 } } }),
      ),
    );
    const { usage } = await generateText({ model: gw()('gpt-4o-mini'), prompt: 'x' });
    expect(usage).toMatchObject({ inputTokens: 10, outputTokens: 8, totalTokens: 18, inputTokenDetails: { cacheReadTokens: 4, noCacheTokens: 6 }, outputTokenDetails: { reasoningTokens: 5, textTokens: 3 } });
  });

  it('reports cached input tokens of a stream as cacheRead', async () => {
    const usage = { prompt_tokens: 10, completion_tokens: 8, total_tokens: 18, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 5 } };
    server.use(http.post(`${BASE}/chat/completions`, () => sseResponse(sseText([chunk('Hi'), chunk(undefined, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), chunk(undefined, { choices: [], usage })]))));
    const result = streamText({ model: gw()('gpt-4o-mini'), prompt: 'x' });
    expect(await result.usage).toMatchObject({ inputTokens: 10, inputTokenDetails: { cacheReadTokens: 4, noCacheTokens: 6 }, outputTokenDetails: { reasoningTokens: 5, textTokens: 3 } });
  });

  it('turns an error frame inside a 200 stream into an error part carrying the typed error', async () => {
    server.use(http.post(`${BASE}/chat/completions`, () => sseResponse(sseText([chunk('Hel'), { error: { message: 'upstream overloaded', type: 'server_error', code: 'overloaded' } }], { done: false }))));
    const errors: unknown[] = [];
    const result = streamText({ model: gw()('gpt-4o-mini'), prompt: 'x', onError: ({ error }) => void errors.push(error) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain('error');
    expect(errors).toHaveLength(1);
    const error = errors[0] as APICallError;
    expect(APICallError.isInstance(error)).toBe(true);
    expect(APIError.isInstance(error.cause)).toBe(true);
    expect(error.cause).toMatchObject({ code: 'overloaded' });
    expect(error.isRetryable).toBe(false);
  });

  it('says which features the gateway does not take', async () => {
    server.use(http.post(`${BASE}/chat/completions`, () => HttpResponse.json(completionFixture)));
    const { warnings } = await generateText({ model: gw()('gpt-4o-mini'), prompt: 'x', topK: 3 });
    expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'topK' })]);
  });
});
