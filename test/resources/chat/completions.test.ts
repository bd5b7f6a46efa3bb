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
    ...['ftp://example.com/cat.png', 'http://example.com/cat.png', 'file:///etc/passwd', 'cat.png'].map((url): [string, unknown, string] => [
      `image_url ${url}`,
      { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] },
      'messages[0].content[0].image_url.url',
    ]),
    ["a raw tool named 'get weather'", { ...chatParams, tools: [{ type: 'function', function: { name: 'get weather' } }] }, 'tools[0].function.name'],
    ['a raw tool name of 65 characters', { ...chatParams, tools: [{ type: 'function', function: { name: 'a'.repeat(65) } }] }, 'tools[0].function.name'],
    ['a logit_bias above 100', { ...chatParams, logit_bias: { '50256': 101 } }, 'logit_bias'],
    ['a logit_bias below -100', { ...chatParams, logit_bias: { '50256': -100.5 } }, 'logit_bias'],
    ['a logit_bias that is not a number', { ...chatParams, logit_bias: { '50256': '5' } }, 'logit_bias'],
    ['a logit_bias that is an array', { ...chatParams, logit_bias: [5] }, 'logit_bias'],
    ['top_logprobs of 99', { ...chatParams, top_logprobs: 99 }, 'top_logprobs'],
    ['top_logprobs of -1', { ...chatParams, top_logprobs: -1 }, 'top_logprobs'],
    ['fractional top_logprobs', { ...chatParams, top_logprobs: 1.5 }, 'top_logprobs'],
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
    await expect(client().chat.completions.create({ ...chatParams, logit_bias: { '1': -100, '2': 100, '3': 0 }, logprobs: true, top_logprobs: 0 })).resolves.toEqual(completionFixture);
    await expect(client().chat.completions.create({ ...chatParams, top_logprobs: 20, logit_bias: {} })).resolves.toEqual(completionFixture);
    expect(rec.calls[1]?.body).toMatchObject({ logit_bias: { '1': -100, '2': 100, '3': 0 }, top_logprobs: 0 });
  });

  it('accepts https and data: image URLs, and tool names of letters, digits, _ and -', async () => {
    const rec = answer();
    const image = (url: string) => ({ type: 'image_url' as const, image_url: { url } });
    const content = [image('https://example.com/a.png'), image('HTTPS://EXAMPLE.COM/B.PNG'), image('data:image/png;base64,iVBORw0KGgo=')];
    const tools = [{ type: 'function' as const, function: { name: 'get_weather-2', parameters: { type: 'object' } } }, { type: 'function' as const, function: { name: 'a'.repeat(64) } }];
    await client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content }], tools });
    expect(rec.calls).toHaveLength(1);
  });
});
