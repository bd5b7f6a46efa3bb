import { EventSourceParserStream } from 'eventsource-parser/stream';
import { describe, expect, it } from 'vitest';
import { APIError, GatewayError, RateLimitError, type ChatCompletion, type ChatCompletionChunk } from '../../../src/index.js';
import { ChatChunksFromResponseEvents, isFinalResponseEvent, toChatCompletion, toResponsesRequest } from '../../../src/resources/chat/completions/responses-route.js';
import { createMockGateway } from '../../../src/testing/index.js';

// Chat callers of models that answer only on /v1/responses (issue 31): a chat body goes out
// as a responses body, and the answer (streamed or not) comes back chat-shaped.

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const getWeather = { type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: weather, strict: true } };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('toResponsesRequest', () => {
  it('sends the parameters responses shares by name, the limits as max_output_tokens and the effort as reasoning', () => {
    const { body, unsupported } = toResponsesRequest({
      model: 'o3-pro',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 1,
      top_p: 0.5,
      max_tokens: 50,
      max_completion_tokens: 100,
      parallel_tool_calls: false,
      user: 'u-1',
      metadata: { run: '7' },
      store: false,
      stream: true,
      stream_options: { include_usage: true },
      n: 1,
      reasoning_effort: 'high',
    });
    expect(unsupported).toEqual([]);
    expect(body).toEqual({
      model: 'o3-pro',
      input: [{ role: 'user', content: 'Hi' }],
      temperature: 1,
      top_p: 0.5,
      max_output_tokens: 100,
      parallel_tool_calls: false,
      user: 'u-1',
      metadata: { run: '7' },
      store: false,
      stream: true,
      reasoning: { effort: 'high' },
    });
  });

  it('takes max_tokens when max_completion_tokens is not given', () => {
    expect(toResponsesRequest({ model: 'o3-pro', messages: [], max_tokens: 64 }).body.max_output_tokens).toBe(64);
  });

  it('turns a multi-turn tool conversation into messages, function_call and function_call_output items in order', () => {
    const { body, unsupported } = toResponsesRequest({
      model: 'o3-pro',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          reasoning_content: 'another vendor’s field',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '14 C' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '19 ' }, { type: 'text', text: 'C' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Paris 14 C, Rome 19 C.' }] },
        { role: 'assistant', content: null, refusal: 'I cannot.' },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(unsupported).toEqual([]);
    expect(body.input).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: [{ type: 'input_text', text: 'Use tools.' }] },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking both.', annotations: [] }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '14 C' },
      { type: 'function_call_output', call_id: 'call_2', output: '19 C' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Paris 14 C, Rome 19 C.', annotations: [] }] },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('sends a tool-call-only assistant turn as its function calls alone', () => {
    const { body } = toResponsesRequest({ model: 'o3-pro', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }] });
    expect(body.input).toEqual([{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }]);
  });

  it('turns text and image parts into input_text and input_image (detail auto when not given)', () => {
    const { body, unsupported } = toResponsesRequest({
      model: 'o3-pro',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare', cache_control: { type: 'ephemeral' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(unsupported).toEqual([]);
    expect(body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Compare' },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
        ],
      },
    ]);
  });

  it('flattens function tools and a named tool_choice; passes a string tool_choice as it is', () => {
    const named = toResponsesRequest({ model: 'o3-pro', messages: [], tools: [getWeather, { type: 'function', function: { name: 'now', strict: null } }], tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    expect(named.body.tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather now', parameters: weather, strict: true },
      { type: 'function', name: 'now' },
    ]);
    expect(named.body.tool_choice).toEqual({ type: 'function', name: 'get_weather' });
    expect(toResponsesRequest({ model: 'o3-pro', messages: [], tool_choice: 'required' }).body.tool_choice).toBe('required');
  });

  it('puts a json_schema response_format in text.format, flat, and json_object as its type', () => {
    const schema = toResponsesRequest({ model: 'o3-pro', messages: [], response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: weather, strict: true } } });
    expect(schema.body.text).toEqual({ format: { type: 'json_schema', name: 'weather', schema: weather, strict: true } });
    expect(schema.body).not.toHaveProperty('response_format');
    expect(toResponsesRequest({ model: 'o3-pro', messages: [], response_format: { type: 'json_object' } }).body.text).toEqual({ format: { type: 'json_object' } });
  });

  it('names every parameter, message field and part responses cannot honour, and sends none of them', () => {
    const { body, unsupported } = toResponsesRequest({
      model: 'o3-pro',
      messages: [
        { role: 'user', name: 'ann', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] },
        { role: 'function', name: 'f', content: 'x' },
      ],
      n: 2,
      logprobs: true,
      top_logprobs: 3,
      presence_penalty: 0.5,
      frequency_penalty: 0.5,
      stop: ['\n'],
      seed: 7,
      logit_bias: { '50256': -100 },
      audio: { voice: 'alloy', format: 'wav' },
      modalities: ['text', 'audio'],
      prediction: { type: 'content', content: 'x' },
      top_k: 40,
      constructor: 'a vendor field named like an Object method',
      tools: [{ type: 'custom', custom: { name: 'grep' } }],
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } },
    });
    expect(unsupported.sort()).toEqual(
      ['n', 'logprobs', 'top_logprobs', 'presence_penalty', 'frequency_penalty', 'stop', 'seed', 'logit_bias', 'audio', 'modalities', 'prediction', 'top_k', 'constructor', 'tools[0]', 'tool_choice', 'messages[0].name', 'messages[0].content[0]', 'messages[1]'].sort(),
    );
    expect(Object.keys(body).sort()).toEqual(['input', 'model', 'tools']);
    expect(body.tools).toEqual([]);
  });

  it('leaves out values that ask for the default: null, n 1, logprobs false, zero penalties', () => {
    const { body, unsupported } = toResponsesRequest({ model: 'o3-pro', messages: [], n: 1, logprobs: false, presence_penalty: 0, frequency_penalty: 0, stop: null, seed: null, temperature: null });
    expect(unsupported).toEqual([]);
    expect(body).toEqual({ model: 'o3-pro', input: [] });
  });

  it('does not change the body it is given', () => {
    const request = {
      model: 'o3-pro',
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'ok' },
      ],
      tools: [getWeather],
      response_format: { type: 'json_schema', json_schema: { name: 'w', schema: weather } },
      max_tokens: 10,
      seed: 1,
    };
    const before = structuredClone(request);
    // Frozen: any write to the input throws in strict-mode module code.
    expect(() => toResponsesRequest(deepFreeze(request))).not.toThrow();
    expect(request).toEqual(before);
  });
});

const baseResponse = { id: 'resp_1', object: 'response', created_at: 1_700_000_000, model: 'o3-pro', status: 'completed', error: null, incomplete_details: null };

describe('toChatCompletion', () => {
  it('gives the text of the output messages as content, and usage in chat’s names; reasoning items are left out', () => {
    const completion = toChatCompletion({
      ...baseResponse,
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }] },
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello ', annotations: [] }, { type: 'output_text', text: 'there.', annotations: [] }] },
      ],
      usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 4 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 20 }, total_tokens: 42 },
    });
    expect(completion).toEqual<ChatCompletion>({
      id: 'resp_1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'o3-pro',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there.', refusal: null }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 30, total_tokens: 42, prompt_tokens_details: { cached_tokens: 4 }, completion_tokens_details: { reasoning_tokens: 20 } },
    });
  });

  it('gives function calls as tool_calls with finish_reason tool_calls, content null, and no usage details that were not sent', () => {
    const completion = toChatCompletion({
      ...baseResponse,
      output: [
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
        { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}', status: 'completed' },
      ],
      usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 },
    });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
    ]);
    expect(completion.usage).toEqual({ prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 });
  });

  it('carries a refusal part as the message’s refusal', () => {
    const completion = toChatCompletion({ ...baseResponse, output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I can’t help with that.' }] }] });
    expect(completion.choices[0]?.message).toEqual({ role: 'assistant', content: null, refusal: 'I can’t help with that.' });
  });

  it('says length for a response cut at max_output_tokens (even with a call in it) and content_filter for a filtered one', () => {
    const text = { type: 'message', id: 'm', role: 'assistant', status: 'incomplete', content: [{ type: 'output_text', text: 'Par', annotations: [] }] };
    const call = { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"ci' };
    expect(toChatCompletion({ ...baseResponse, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [text] }).choices[0]?.finish_reason).toBe('length');
    expect(toChatCompletion({ ...baseResponse, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [call] }).choices[0]?.finish_reason).toBe('length');
    expect(toChatCompletion({ ...baseResponse, status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [text] }).choices[0]?.finish_reason).toBe('content_filter');
  });

  it('throws the APIError a failed response names, classed by its code, instead of returning a success', () => {
    const failed = { ...baseResponse, status: 'failed', output: [], error: { code: 'invalid_prompt', message: 'Your prompt was flagged.' } };
    expect(() => toChatCompletion(failed)).toThrow(APIError);
    expect(() => toChatCompletion(failed)).toThrow(expect.objectContaining({ status: 200, code: 'invalid_prompt', message: expect.stringContaining('Your prompt was flagged.') }));
    const limited = { ...failed, error: { code: 'rate_limit_exceeded', message: 'Slow down.' } };
    expect(() => toChatCompletion(limited)).toThrow(RateLimitError);
    expect(() => toChatCompletion(limited, { url: 'https://gw.test/v1/responses' })).toThrow(/POST https:\/\/gw\.test\/v1\/responses/);
  });

  it('throws for an error beside a completed status, and for a cancelled response without one', () => {
    expect(() => toChatCompletion({ ...baseResponse, output: [], error: { code: 'server_error', message: 'Upstream broke.' } })).toThrow(/server_error: Upstream broke\./);
    expect(() => toChatCompletion({ ...baseResponse, status: 'cancelled', output: [] })).toThrow(/status 'cancelled'/);
    expect(() => toChatCompletion('not a response')).toThrow(GatewayError);
  });
});

const running = { ...baseResponse, status: 'in_progress', output: [], usage: null };
const done = (output: unknown[], extra: object = {}) => ({ ...baseResponse, output, usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7, output_tokens_details: { reasoning_tokens: 2 } }, ...extra });

function chunksOf(events: unknown[]): ChatCompletionChunk[] {
  const converter = new ChatChunksFromResponseEvents();
  return events.flatMap((event) => converter.push(event));
}

describe('ChatChunksFromResponseEvents', () => {
  it('streams text: a role chunk, content deltas, the finish reason, then a usage chunk with no choices', () => {
    const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi there', annotations: [] }] };
    const chunks = chunksOf([
      { type: 'response.created', response: running },
      { type: 'response.in_progress', response: running },
      { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
      { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hi ' },
      { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'there' },
      { type: 'response.output_text.done', item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Hi there' },
      { type: 'response.output_item.done', output_index: 0, item: message },
      { type: 'response.completed', response: done([message]) },
    ]);
    const head = { id: 'resp_1', object: 'chat.completion.chunk' as const, created: 1_700_000_000, model: 'o3-pro' };
    expect(chunks).toEqual<ChatCompletionChunk[]>([
      { ...head, choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] },
      { ...head, choices: [{ index: 0, delta: { content: 'Hi ' }, finish_reason: null }] },
      { ...head, choices: [{ index: 0, delta: { content: 'there' }, finish_reason: null }] },
      { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { ...head, choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7, completion_tokens_details: { reasoning_tokens: 2 } } },
    ]);
  });

  it('streams two function calls as tool-call deltas indexed 0 and 1, their argument pieces after them, and finishes with tool_calls', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [] };
    const first = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' };
    const second = { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'get_time', arguments: '{}', status: 'completed' };
    const chunks = chunksOf([
      { type: 'response.created', response: running },
      { type: 'response.output_item.added', output_index: 0, item: reasoning },
      { type: 'response.output_item.done', output_index: 0, item: reasoning },
      { type: 'response.output_item.added', output_index: 1, item: { ...first, arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 1, delta: '{"city":' },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 1, delta: '"Paris"}' },
      { type: 'response.output_item.done', output_index: 1, item: first },
      { type: 'response.output_item.added', output_index: 2, item: { ...second, arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_2', output_index: 2, delta: '{}' },
      { type: 'response.output_item.done', output_index: 2, item: second },
      { type: 'response.completed', response: done([reasoning, first, second]) },
    ]);
    expect(chunks.map((c) => c.choices[0]?.delta.tool_calls ?? null).filter(Boolean)).toEqual([
      [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      [{ index: 0, function: { arguments: '{"city":' } }],
      [{ index: 0, function: { arguments: '"Paris"}' } }],
      [{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '' } }],
      [{ index: 1, function: { arguments: '{}' } }],
    ]);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(7);
  });

  it('finishes an incomplete response with length', () => {
    const chunks = chunksOf([{ type: 'response.created', response: running }, { type: 'response.incomplete', response: done([], { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }) }]);
    expect(chunks.map((c) => c.choices[0]?.finish_reason ?? null)).toEqual([null, 'length', null]);
  });

  it('sends a role chunk first even without response.created, and what only an item’s done event carries', () => {
    const chunks = chunksOf([
      { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hel' },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Hello' }] } },
      { type: 'response.output_item.done', output_index: 1, item: { type: 'function_call', id: 'fc_9', call_id: 'call_9', name: 'f', arguments: '{"a":1}' } },
    ]);
    expect(chunks.map((c) => c.choices[0]?.delta)).toEqual([{ role: 'assistant' }, { content: 'Hel' }, { content: 'lo' }, { tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }]);
  });

  it('throws the APIError of response.failed and of an error event', () => {
    const failed = { type: 'response.failed', response: { ...running, status: 'failed', error: { code: 'server_error', message: 'The model crashed.' } } };
    const converter = new ChatChunksFromResponseEvents({ url: 'https://gw.test/v1/responses' });
    converter.push({ type: 'response.created', response: running });
    expect(() => converter.push(failed)).toThrow(expect.objectContaining({ name: 'InternalServerError', code: 'server_error', message: expect.stringMatching(/The model crashed\..*POST https:\/\/gw\.test\/v1\/responses/) }));
    expect(() => chunksOf([{ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null, sequence_number: 1 }])).toThrow(RateLimitError);
  });

  it('tells final events from the others', () => {
    expect(['response.completed', 'response.incomplete', 'response.failed', 'response.created', 'error'].map((type) => isFinalResponseEvent({ type }))).toEqual([true, true, true, false, false]);
    expect(isFinalResponseEvent(null)).toBe(false);
  });
});

describe('through the mock gateway (o3-pro answers only on /v1/responses)', () => {
  const mock = createMockGateway({ apiKey: 'test-key', catalog: 'strict' });
  const post = (path: string, body: object) =>
    mock.fetch(`http://mock.local/v1/${path}`, { method: 'POST', headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function streamed(body: Record<string, unknown>): Promise<ChatCompletionChunk[]> {
    const res = await post('responses', body);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const converter = new ChatChunksFromResponseEvents();
    const chunks: ChatCompletionChunk[] = [];
    const events = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    for (let next = await events.read(); !next.done; next = await events.read()) {
      const data: unknown = JSON.parse(next.value.data);
      chunks.push(...converter.push(data));
      if (isFinalResponseEvent(data)) break;
    }
    await events.cancel();
    return chunks;
  }

  const user = { role: 'user', content: 'Weather in Paris?' };

  it('refuses o3-pro on chat/completions, which is why the route exists', async () => {
    expect((await post('chat/completions', { model: 'o3-pro', messages: [user] })).status).toBe(404);
  });

  it('answers a converted body with a response that reads as a chat completion', async () => {
    const { body, unsupported } = toResponsesRequest({ model: 'o3-pro', messages: [{ role: 'developer', content: 'Be brief.' }, user], max_completion_tokens: 200, stream_options: { include_usage: true } });
    expect(unsupported).toEqual([]);
    const res = await post('responses', body);
    expect(res.status).toBe(200);
    const completion = toChatCompletion(await res.json());
    expect(completion).toMatchObject({ object: 'chat.completion', model: 'o3-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'You said: Weather in Paris?' }, finish_reason: 'stop' }] });
    expect(completion.id).toMatch(/^resp_mock_/);
    expect(completion.usage).toEqual({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 });
  });

  it('runs a tool round trip: the call comes back as tool_calls, its result goes back as function_call_output', async () => {
    const first = toChatCompletion(await (await post('responses', toResponsesRequest({ model: 'o3-pro', messages: [user], tools: [getWeather] }).body)).json());
    const turn = first.choices[0]?.message;
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(turn?.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse(turn?.tool_calls?.[0]?.function.arguments ?? '')).toHaveProperty('city');
    const messages = [user, turn, { role: 'tool', tool_call_id: turn?.tool_calls?.[0]?.id, content: '14 C' }];
    const second = toChatCompletion(await (await post('responses', toResponsesRequest({ model: 'o3-pro', messages, tools: [getWeather] }).body)).json());
    expect(second.choices[0]).toMatchObject({ message: { content: 'You said: the tool returned: 14 C' }, finish_reason: 'stop' });
  });

  it('streams a converted body as chat chunks: role first, the text in pieces, stop, then usage', async () => {
    const chunks = await streamed(toResponsesRequest({ model: 'o3-pro', messages: [user], stream: true, stream_options: { include_usage: true } }).body);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id.startsWith('resp_mock_') && c.model === 'o3-pro' && c.created > 0)).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant' });
    const pieces = chunks.flatMap((c) => c.choices[0]?.delta.content ?? []);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('You said: Weather in Paris?');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } });
  });

  it('streams a tool call as a chat tool-call delta whose arguments are the call’s JSON', async () => {
    const chunks = await streamed(toResponsesRequest({ model: 'o3-pro', messages: [user], tools: [getWeather], stream: true }).body);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(calls.every((call) => call.index === 0)).toBe(true);
    expect(JSON.parse(calls.map((call) => call.function?.arguments ?? '').join(''))).toHaveProperty('city');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
  });
});
