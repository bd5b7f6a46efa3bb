import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ValidationError, type ChatCompletionCreateParams } from '../../../src/index.js';
import { ChatCompletionStream } from '../../../src/resources/chat/completions/stream.js';
import { BASE, chatParams, client, completionFixture } from '../../helpers/fixtures.js';
import { createRecorder, useMswServer } from '../../helpers/msw.js';

const server = useMswServer();
const url = `${BASE}/chat/completions`;

function answer() {
  const rec = createRecorder();
  server.use(
    http.post(url, async ({ request }) => {
      await rec.record(request);
      return HttpResponse.json(completionFixture);
    }),
  );
  return rec;
}

describe('chat.completions.create', () => {
  it('returns the completion', async () => {
    answer();
    const completion = await client().chat.completions.create(chatParams);
    expect(completion).toEqual(completionFixture);
  });

  it('sends every documented field as given, and vendor extras untouched', async () => {
    const rec = answer();
    const params = {
      ...chatParams,
      messages: [
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'What is this?' }, { type: 'image_url' as const, image_url: { url: 'https://example.com/cat.png', detail: 'low' as const } }] },
        { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'look', arguments: '{}' } }] },
        { role: 'tool' as const, tool_call_id: 'call_1', content: 'a cat' },
      ],
      temperature: 0,
      top_p: 1,
      max_tokens: 100,
      n: 2,
      stop: ['\n\n'],
      seed: 7,
      presence_penalty: -2,
      frequency_penalty: 2,
      user: 'u-1',
      tools: [{ type: 'function' as const, function: { name: 'look', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'auto' as const,
      response_format: { type: 'json_object' as const },
    };
    const extras = { top_k: 40, provider: { order: ['a', 'b'] } };
    await client().chat.completions.create({ ...params, ...extras });
    expect(rec.calls[0]?.body).toEqual({ ...params, ...extras });
  });

  it('returns a ChatCompletionStream for stream: true', async () => {
    server.use(http.post(url, () => new HttpResponse('data: [DONE]\n\n', { headers: { 'content-type': 'text/event-stream' } })));
    const stream = await client().chat.completions.create({ ...chatParams, stream: true });
    expect(stream).toBeInstanceOf(ChatCompletionStream);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['no model', { messages: chatParams.messages }, 'model'],
    ['no messages', { model: 'm', messages: [] }, 'messages'],
    ['messages not an array', { model: 'm', messages: 'hi' }, 'messages'],
    ['unknown role', { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
    ['content of the wrong type', { model: 'm', messages: [{ role: 'user', content: 42 }] }, 'messages[0].content'],
    ['image part without url', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url'],
    ['unknown part type', { model: 'm', messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] }, 'messages[0].content[0].type'],
    ['tool message without tool_call_id', { model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    ['temperature above 2', { ...chatParams, temperature: 2.01 }, 'temperature'],
    ['temperature below 0', { ...chatParams, temperature: -0.1 }, 'temperature'],
    ['temperature NaN', { ...chatParams, temperature: Number.NaN }, 'temperature'],
    ['top_p above 1', { ...chatParams, top_p: 1.5 }, 'top_p'],
    ['fractional max_tokens', { ...chatParams, max_tokens: 10.5 }, 'max_tokens'],
    ['zero max_tokens', { ...chatParams, max_tokens: 0 }, 'max_tokens'],
    ['n of 0', { ...chatParams, n: 0 }, 'n'],
    ['five stop sequences', { ...chatParams, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    ['tool without a name', { ...chatParams, tools: [{ type: 'function', function: {} }] }, 'tools[0].function.name'],
    ['unknown tool_choice', { ...chatParams, tool_choice: 'sometimes' }, 'tool_choice'],
    ['unknown response_format', { ...chatParams, response_format: { type: 'yaml' } }, 'response_format.type'],
  ];
  it.each(invalid)('rejects %s with a ValidationError naming the field, before any request', async (_, params, field) => {
    const rec = answer();
    const err = await client()
      .chat.completions.create(params as ChatCompletionCreateParams)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field });
    expect((err as ValidationError).rule).toMatch(/must|is required/);
    expect(rec.calls).toHaveLength(0);
  });

  it('accepts the boundaries of every range', async () => {
    const rec = answer();
    await expect(
      client().chat.completions.create({ ...chatParams, temperature: 2, top_p: 0, max_tokens: 1, presence_penalty: 2, frequency_penalty: -2 }),
    ).resolves.toEqual(completionFixture);
    expect(rec.calls[0]?.body).toMatchObject({ temperature: 2, top_p: 0, max_tokens: 1, presence_penalty: 2, frequency_penalty: -2 });
  });
});
