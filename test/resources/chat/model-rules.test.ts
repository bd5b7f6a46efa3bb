import { describe, expect, it } from 'vitest';
import { Gateway, memoryStore, UnsupportedParameterError, ValidationError, type AdaptInfo, type GatewayOptions, type Store } from '../../../src/index.js';
import { createMockGateway, strictModels } from '../../../src/testing/index.js';

// modelRules on the request path, against the strict catalogue: each model gets the request it
// takes (built in, the client's rules, what the gateway's 400s taught), or a refusal before sending.

const ask = { messages: [{ role: 'user' as const, content: 'Say OK' }] };
/** Ids no built-in rule knows, in the families that refuse parameters and endpoints. */
const unknownIds = [
  { id: 'acme-reasoner', owned_by: 'acme', kind: 'chat' as const, family: 'openai-reasoning' as const },
  { id: 'acme-pro', owned_by: 'acme', kind: 'chat' as const, family: 'openai-pro' as const },
  { id: 'acme-chat', owned_by: 'acme', kind: 'chat' as const },
];

function setup(options: GatewayOptions = {}, mock = createMockGateway({ models: [...strictModels, ...unknownIds] })) {
  const adapted: AdaptInfo[] = [];
  const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 0, onAdapt: (e) => adapted.push(e), ...options });
  const sent = () => mock.requests.map((r) => ({ path: r.path, body: r.body as Record<string, unknown> }));
  return { mock, client, adapted, sent };
}

describe('built-in rules', () => {
  it('renames max_tokens for the gpt-5 family and says so', async () => {
    const { client, adapted, sent } = setup();
    const done = await client.chat.completions.create({ model: 'gpt-5-mini', ...ask, max_tokens: 20 });
    expect(done.choices[0]?.message.content).toBeTruthy();
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.body).toMatchObject({ max_completion_tokens: 20 });
    expect(sent()[0]?.body).not.toHaveProperty('max_tokens');
    expect(adapted).toEqual([expect.objectContaining({ model: 'gpt-5-mini', param: 'max_tokens', action: 'renamed', to: 'max_completion_tokens', source: 'built-in' })]);
  });

  it('leaves out a default temperature, and refuses another before sending, naming the rule that allows it', async () => {
    const { client, sent } = setup();
    await client.chat.completions.create({ model: 'o3', ...ask, temperature: 1 });
    expect(sent()[0]?.body).not.toHaveProperty('temperature');
    const error = await client.chat.completions.create({ model: 'o3', ...ask, temperature: 0.2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedParameterError);
    expect(error).toMatchObject({ model: 'o3', param: 'temperature', status: 400 });
    expect((error as UnsupportedParameterError).allowedBy).toBe(`{ 'o3': { params: { temperature: 'drop' } } }`);
    expect((error as Error).message).toContain("modelRules: { 'o3': { params: { temperature: 'drop' } } }");
    expect(sent()).toHaveLength(1);
  });

  it('serves a responses-only model through /v1/responses, in chat shape, streamed too', async () => {
    const { client, adapted, sent } = setup();
    const done = await client.chat.completions.create({ model: 'o3-pro', ...ask, max_tokens: 30 });
    expect(done).toMatchObject({ object: 'chat.completion', model: 'o3-pro', choices: [{ message: { role: 'assistant', content: 'You said: Say OK' }, finish_reason: 'stop' }] });
    expect(sent()[0]).toMatchObject({ path: 'responses', body: { model: 'o3-pro', max_output_tokens: 30, input: [{ role: 'user', content: 'Say OK' }] } });
    expect(adapted.at(-1)).toMatchObject({ action: 'rerouted', to: 'responses', source: 'built-in' });
    const stream = await client.chat.completions.create({ model: 'gpt-5-codex', ...ask, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: Say OK');
    expect((await stream.finalChatCompletion()).choices[0]?.finish_reason).toBe('stop');
    expect(sent().map((r) => r.path)).toEqual(['responses', 'responses']);
  });

  it('a responses-only model through asResponse() is refused before sending (its body would not be chat’s)', async () => {
    const { client, sent } = setup();
    await expect(client.chat.completions.create({ model: 'o3-pro', ...ask }).asResponse()).rejects.toThrow(ValidationError);
    expect(sent()).toHaveLength(0);
  });

  it('a model no rule concerns goes as it is, and onAdapt hears nothing', async () => {
    const { client, adapted, sent } = setup();
    await client.chat.completions.create({ model: 'deepseek-chat', ...ask, max_tokens: 5, temperature: 0.3 });
    expect(sent()[0]?.body).toMatchObject({ max_tokens: 5, temperature: 0.3 });
    expect(adapted).toEqual([]);
  });
});

describe("the client's modelRules", () => {
  it('a drop that changes the request is made only where the user says so', async () => {
    const { client, adapted, sent } = setup({ modelRules: { 'gpt-5*': { params: { temperature: 'drop' } } } });
    await client.chat.completions.create({ model: 'gpt-5', ...ask, temperature: 0.2, max_tokens: 9 });
    // The user's entry names temperature; the built-in rename of max_tokens still applies.
    expect(sent()[0]?.body).toMatchObject({ max_completion_tokens: 9 });
    expect(sent()[0]?.body).not.toHaveProperty('temperature');
    expect(adapted.map((e) => [e.param, e.action, e.source])).toEqual([
      ['temperature', 'dropped', 'rule'],
      ['max_tokens', 'renamed', 'built-in'],
    ]);
  });

  it('the most specific entry wins; "*" covers only what nothing more specific does', async () => {
    const { client, sent } = setup({
      modelRules: {
        '*': { params: { max_tokens: 'drop' } },
        'acme-*': { params: { seed: 'drop' } },
        'acme-chat': { params: { seed: 'unsupported' } },
      },
    });
    await client.chat.completions.create({ model: 'gpt-5', ...ask, max_tokens: 3 });
    expect(sent()[0]?.body).toMatchObject({ max_completion_tokens: 3 }); // built-in beats '*'
    await client.chat.completions.create({ model: 'acme-chat', ...ask, max_tokens: 3 });
    expect(sent()[1]?.body).not.toHaveProperty('max_tokens'); // '*' where nothing else names it
    await expect(client.chat.completions.create({ model: 'acme-chat', ...ask, seed: 7 })).rejects.toThrow(UnsupportedParameterError);
    expect(sent()).toHaveLength(2);
  });

  it('endpoint: "responses" reroutes any model', async () => {
    const { client, sent } = setup({ modelRules: { 'acme-chat': { endpoint: 'responses' } } });
    await client.chat.completions.create({ model: 'acme-chat', ...ask });
    expect(sent()[0]?.path).toBe('responses');
  });

  it('a chat parameter with no /v1/responses equivalent refuses a rerouted call before sending', async () => {
    const { client, sent } = setup();
    const error = await client.chat.completions.create({ model: 'o3-pro', ...ask, stop: ['x'] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'UnsupportedParameterError', param: 'stop', model: 'o3-pro' });
    expect(sent()).toHaveLength(0);
  });

  it.for([
    [{ 'gpt-5': 'x' }, 'modelRules.gpt-5'],
    [{ 'gpt-5': { params: { temperature: 'ignore me' } } }, 'modelRules.gpt-5.params.temperature'],
    [{ 'gpt-5': { params: { model: 'drop' } } }, 'modelRules.gpt-5.params.model'],
    [{ 'gpt-5': { endpoint: 'messages' } }, 'modelRules.gpt-5.endpoint'],
    [{ 'gpt-5': { parms: {} } }, 'modelRules.gpt-5.parms'],
    [{ 'gpt-*-mini': {} }, 'modelRules.gpt-*-mini'],
    [{ 'gpt-5': { reasoning: { send: 'sometimes' } } }, 'modelRules.gpt-5.reasoning.send'],
  ] as const)('%j is refused at construction (%s)', ([modelRules, field]) => {
    const make = () => new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', modelRules: modelRules as never });
    expect(make).toThrow(ValidationError);
    expect(make).toThrow(field);
  });

  it('reasoningRules stays an alias of modelRules[id].reasoning; modelRules wins the same key', async () => {
    const client = new Gateway({
      apiKey: 'k',
      baseURL: 'http://mock.local/v1',
      reasoningRules: { 'my-vllm/*': { send: 'never' }, 'other/*': { send: 'always' } },
      modelRules: { 'my-vllm/*': { reasoning: { send: 'tool-calls', field: 'reasoning' } } },
    });
    expect(client.chat.completions._reasoningRules()).toEqual({ 'my-vllm/*': { send: 'tool-calls', field: 'reasoning' }, 'other/*': { send: 'always', field: 'reasoning_content' } });
  });
});

describe('learnt from the gateway', () => {
  it('a refused max_tokens is renamed and sent again once; the next call meets no 400', async () => {
    const { client, adapted, sent } = setup();
    const done = await client.chat.completions.create({ model: 'acme-reasoner', ...ask, max_tokens: 12 });
    expect(done.choices[0]?.message.content).toBeTruthy();
    expect(sent().map((r) => Object.keys(r.body).filter((k) => k.startsWith('max')))).toEqual([['max_tokens'], ['max_completion_tokens']]);
    expect(adapted).toEqual([expect.objectContaining({ param: 'max_tokens', action: 'renamed', source: 'learned' })]);
    await client.chat.completions.create({ model: 'acme-reasoner', ...ask, max_tokens: 12 });
    expect(sent()).toHaveLength(3);
    expect(sent()[2]?.body).toHaveProperty('max_completion_tokens', 12);
  });

  it('a refused non-default temperature is not dropped: UnsupportedParameterError with the gateway’s words, and the next call is refused unsent', async () => {
    const { client, sent } = setup();
    const error = await client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedParameterError);
    expect(error).toMatchObject({ model: 'acme-reasoner', param: 'temperature', status: 400 });
    expect((error as Error).message).toContain("Unsupported value: 'temperature' does not support 0.2");
    expect(sent()).toHaveLength(1);
    await expect(client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.2 })).rejects.toThrow(UnsupportedParameterError);
    expect(sent()).toHaveLength(1);
    // Its default is left out, and the call goes.
    await client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 1 });
    expect(sent()[1]?.body).not.toHaveProperty('temperature');
  });

  it('such a refusal moves the call to the next fallback model', async () => {
    const { client, sent } = setup({ fallbackModels: { 'acme-reasoner': ['deepseek-chat'] } });
    const done = await client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.2 });
    expect(done.model).toBe('deepseek-chat');
    expect(sent().map((r) => r.body.model)).toEqual(['acme-reasoner', 'deepseek-chat']);
    expect(sent()[1]?.body).toHaveProperty('temperature', 0.2);
    // Known now: refused before sending, straight to the fallback.
    await client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.2 });
    expect(sent().map((r) => r.body.model)).toEqual(['acme-reasoner', 'deepseek-chat', 'deepseek-chat']);
  });

  it('a 404 "not a chat model" reroutes to /v1/responses and stays learnt', async () => {
    const { client, sent } = setup();
    const done = await client.chat.completions.create({ model: 'acme-pro', ...ask });
    expect(done.choices[0]?.message.content).toBe('You said: Say OK');
    await client.chat.completions.create({ model: 'acme-pro', ...ask });
    expect(sent().map((r) => r.path)).toEqual(['chat/completions', 'responses', 'responses']);
  });

  it('through a store, the fleet pays a refusal once: another client never meets it', async () => {
    const store = memoryStore();
    const mock = createMockGateway({ models: [...strictModels, ...unknownIds] });
    const a = setup({ store }, mock);
    const b = setup({ store }, mock);
    await a.client.chat.completions.create({ model: 'acme-reasoner', ...ask, max_tokens: 4 });
    await b.client.chat.completions.create({ model: 'acme-reasoner', ...ask, max_tokens: 4 });
    expect(mock.requests.map((r) => (r.body as Record<string, unknown>).max_tokens !== undefined)).toEqual([true, false, false]);
    expect(b.adapted).toEqual([expect.objectContaining({ source: 'learned', action: 'renamed' })]);
  });

  it.for(['null', '{}', '"x"', '{"v":1,"params":{"temperature":"drop"}}', '{"v":1,"params":{"model":"unsupported"}}', '{"v":2,"params":{}}', '{"v":1,"params":[]}', 'not json'])(
    'a learnt record read back as %s is ignored, never trusted',
    async (text) => {
      const inner = memoryStore();
      // Every learnt record reads back as `text`.
      const store: Store = { ...inner, get: async (keys) => (await inner.get(keys)).map((v, i) => (keys[i]?.includes(':learned') ? text : v)), set: inner.set.bind(inner), delete: inner.delete.bind(inner), take: inner.take.bind(inner) };
      const { client, sent } = setup({ store });
      await client.chat.completions.create({ model: 'deepseek-chat', ...ask, temperature: 0.2, max_tokens: 3 });
      expect(sent()[0]?.body).toMatchObject({ temperature: 0.2, max_tokens: 3 });
    },
  );

  it.for([
    ['a parameter the request did not carry', { message: "Unsupported parameter: 'seed' is not supported with this model.", type: 'invalid_request_error', param: 'seed', code: 'unsupported_parameter' }],
    ['something else', { message: "Invalid 'messages[0].content': string too long.", type: 'invalid_request_error', param: 'messages', code: null }],
  ] as const)('a 400 about %s teaches nothing and is not sent again', async ([, error]) => {
    const { mock, client, sent } = setup();
    mock.inject({ type: 'status', status: 400, body: { error } });
    await expect(client.chat.completions.create({ model: 'deepseek-chat', ...ask, temperature: 0.5 })).rejects.toThrow(error.message);
    await client.chat.completions.create({ model: 'deepseek-chat', ...ask, temperature: 0.5 });
    expect(sent()).toHaveLength(2);
    expect(sent().at(-1)?.body).toHaveProperty('temperature', 0.5);
  });

  it('the debug log says what was changed and why', async () => {
    const lines: string[] = [];
    const logger = { error: () => {}, warn: () => {}, info: () => {}, debug: (line: string) => lines.push(line) };
    const { client } = setup({ logLevel: 'debug', logger });
    await client.chat.completions.create({ model: 'gpt-5', ...ask, max_tokens: 3 });
    expect(lines.some((l) => l.includes('adapted the request: gpt-5 takes max_completion_tokens instead of max_tokens'))).toBe(true);
  });
});

describe('what the network may teach (found by the hostile trial)', () => {
  const refusal = (message: string, extra: Record<string, unknown> = {}) => ({ type: 'status' as const, status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: null, ...extra } } });

  it.for([
    ["Unsupported parameter: 'temperature' is not supported with this model. Use 'drop' instead.", 'temperature'],
    ["Unsupported parameter: 'max_tokens' is not supported with this model. Use 'n' instead.", 'max_tokens'],
    ["Unsupported parameter: 'max_tokens' is not supported with this model. Use 'model' instead.", 'max_tokens'],
    ["Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_tokens' instead.", 'max_tokens'],
  ] as const)('%s is learnt as unsupported: never a drop, never a rename the network chose', async ([message, param]) => {
    const { mock, client, sent } = setup();
    mock.inject(refusal(message));
    const error = await client.chat.completions.create({ model: 'deepseek-chat', ...ask, temperature: 1.7, max_tokens: 7 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'UnsupportedParameterError', param });
    expect(sent()).toHaveLength(1);
    await expect(client.chat.completions.create({ model: 'deepseek-chat', ...ask, temperature: 1.7, max_tokens: 7 })).rejects.toThrow(UnsupportedParameterError);
    expect(sent()).toHaveLength(1);
  });

  it.for(['model', 'messages', 'stream', '__proto__'])('a refusal naming %s teaches nothing', async (param) => {
    const { mock, client, sent } = setup();
    mock.inject(refusal(`Unsupported parameter: '${param}' is not supported with this model.`, { code: 'unsupported_parameter', param }));
    await expect(client.chat.completions.create({ model: 'deepseek-chat', ...ask })).rejects.toThrow();
    await client.chat.completions.create({ model: 'deepseek-chat', ...ask });
    expect(sent()).toHaveLength(2);
  });

  it('the reroute is learnt only from the refusal’s own opening words, never from a value it quotes', async () => {
    const { mock, client, sent } = setup();
    mock.inject(refusal("Invalid 'messages[0].content': 'This model is only supported in v1/responses' is too long."));
    await expect(client.chat.completions.create({ model: 'deepseek-chat', ...ask })).rejects.toThrow();
    await client.chat.completions.create({ model: 'deepseek-chat', ...ask });
    expect(sent().map((r) => r.path)).toEqual(['chat/completions', 'chat/completions']);
  });

  it('a call with its own credential teaches the fleet nothing: another user’s channel may differ', async () => {
    const { client, sent } = setup();
    await expect(client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.7 }, { headers: { Authorization: 'Bearer test-key' } })).rejects.toThrow(/temperature/);
    await expect(client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.7 })).rejects.toThrow(/temperature/);
    expect(sent()).toHaveLength(2);
  });

  it.for(['{"v":1,"params":{"max_tokens":"messages"}}', '{"v":1,"params":{"max_tokens":"n"}}', '{"v":1,"params":{"max_tokens":"stream"}}', '{"v":1,"params":{"max_tokens":"constructor"}}'])(
    'a learnt record %s read back is ignored',
    async (text) => {
      const inner = memoryStore();
      const store: Store = { get: async (keys) => (await inner.get(keys)).map((v, i) => (keys[i]?.includes(':learned') ? text : v)), set: inner.set.bind(inner), delete: inner.delete.bind(inner), take: inner.take.bind(inner) };
      const { client, sent } = setup({ store });
      await client.chat.completions.create({ model: 'deepseek-chat', ...ask, max_tokens: 3 });
      expect(sent()[0]?.body).toMatchObject({ max_tokens: 3 });
      expect(sent()[0]?.body).not.toHaveProperty('n');
    },
  );

  it.for([
    [{ params: { max_tokens: 'model' } }, 'params.max_tokens'],
    [{ params: { max_tokens: '__proto__' } }, 'params.max_tokens'],
    [{ params: { temperature: 'top_p', top_p: 'temperature' } }, 'params.temperature'],
    [{ params: { temperature: 'Drop' } }, 'params.temperature'],
    [{ params: { temperature: 'UNSUPPORTED' } }, 'params.temperature'],
  ] as const)('modelRules %j is a ValidationError (%s)', ([rule, field]) => {
    expect(() => new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', modelRules: { m: rule as never } })).toThrow(`modelRules.m.${field}`);
  });

  it('a refusal no rule can allow suggests none', async () => {
    const { client } = setup();
    const error = (await client.chat.completions.create({ model: 'o3-pro', messages: [{ role: 'user', content: 'hi', name: 'bob' }] }).catch((e: unknown) => e)) as UnsupportedParameterError;
    expect(error).toBeInstanceOf(UnsupportedParameterError);
    expect(error.allowedBy).toBeNull();
    expect(error.message).not.toContain("'drop'");
  });

  it('a gateway refusal keeps its own words once, without repeating the status', async () => {
    const { client } = setup();
    const error = (await client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.2 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^400 unsupported_value: Unsupported value: 'temperature'/);
    expect(error.message.match(/400/g)).toHaveLength(1);
  });

  it('parse() on a responses-only model gets structured output through /v1/responses', async () => {
    const { client } = setup();
    const done = await client.chat.completions.parse({
      model: 'o3-pro',
      ...ask,
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false }, strict: true } },
    });
    expect(typeof (done.choices[0]?.message.parsed as { ok?: unknown } | null)?.ok).toBe('boolean');
  });

  it('a responses answer without an output array is an error, never an empty reply', async () => {
    const { mock, client } = setup();
    mock.inject({ type: 'status', status: 200, body: { weird: true } });
    await expect(client.chat.completions.create({ model: 'o3-pro', ...ask })).rejects.toThrow(/output array/);
  });
});

describe('built-in scope', () => {
  it('a router’s id (vendor/model) gets no built-in rule: the router adapts it itself', async () => {
    const { client, sent } = setup({}, createMockGateway({ models: [{ id: 'openai/gpt-5', owned_by: 'openrouter', kind: 'chat' }] }));
    await client.chat.completions.create({ model: 'openai/gpt-5', ...ask, max_tokens: 5, temperature: 0.2 });
    expect(sent()[0]?.body).toMatchObject({ max_tokens: 5, temperature: 0.2 });
  });

  it('tools left out take tool_choice and parallel_tool_calls with them', async () => {
    const { client, adapted, sent } = setup({ modelRules: { 'o1-mini': { params: { tools: 'drop' } } } });
    const tools = [{ type: 'function' as const, function: { name: 'f', parameters: { type: 'object', properties: {} } } }];
    await client.chat.completions.create({ model: 'o1-mini', ...ask, tools, tool_choice: 'auto', parallel_tool_calls: true });
    expect(Object.keys(sent()[0]?.body ?? {}).sort()).toEqual(['messages', 'model']);
    expect(adapted.map((e) => e.param)).toEqual(expect.arrayContaining(['tools', 'tool_choice', 'parallel_tool_calls']));
  });
});

describe('wrappings and credentials (second hostile trial)', () => {
  it.for([
    ['LiteLLM', { error: { message: "litellm.BadRequestError: OpenAIException - This model is only supported in v1/responses and not in v1/chat/completions.", type: null, param: null, code: '400' } }],
    ['OpenRouter', { error: { message: 'Provider returned error', code: 400, metadata: { raw: JSON.stringify({ error: { message: 'This model is only supported in v1/responses and not in v1/chat/completions.' } }), provider_name: 'OpenAI' } } }],
  ] as const)('a reroute inside %s’s wrapping is learnt', async ([, body]) => {
    const { mock, client, sent } = setup();
    mock.inject({ type: 'status', status: 400, body });
    await client.chat.completions.create({ model: 'deepseek-chat', ...ask });
    expect(sent().map((r) => r.path)).toEqual(['chat/completions', 'responses']);
  });

  it.for(['x-goog-api-key', 'Proxy-Authorization', 'Cookie'])('a call with its own %s header teaches the fleet nothing', async (header) => {
    const { client, sent } = setup();
    await expect(client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.7 }, { headers: { [header]: 'secret' } })).rejects.toThrow(/temperature/);
    await expect(client.chat.completions.create({ model: 'acme-reasoner', ...ask, temperature: 0.7 })).rejects.toThrow(/temperature/);
    expect(sent()).toHaveLength(2);
  });
});

describe('the gateway’s table (supported_endpoint_types), after a refusal that does not say why', () => {
  const unexplained = { type: 'status' as const, status: 404, body: { error: { message: 'The model is not available on this endpoint.', type: 'invalid_request_error', param: null, code: 'model_not_found' } } };
  const modelCalls = (sent: () => Array<{ path: string }>) => sent().filter((r) => !r.path.includes('api/'));
  const tableReads = (sent: () => Array<{ path: string }>) => sent().filter((r) => r.path.includes('api/pricing')).length;

  it('a model the table lists on /v1/responses only is served there, and the fleet learns it', async () => {
    const store = memoryStore();
    const { mock, client, adapted, sent } = setup({ store });
    mock.inject(unexplained);
    const done = await client.chat.completions.create({ model: 'acme-pro', ...ask });
    expect(done.choices[0]?.message.content).toBeTruthy();
    expect(modelCalls(sent).map((r) => r.path)).toEqual(['chat/completions', 'responses']);
    expect(tableReads(sent)).toBe(1);
    expect(adapted).toContainEqual(expect.objectContaining({ model: 'acme-pro', action: 'rerouted', to: 'responses', source: 'learned' }));
    // Another process on the same store sends it there at once, and reads no table.
    const other = setup({ store }, mock);
    mock.reset();
    await other.client.chat.completions.create({ model: 'acme-pro', ...ask });
    expect(sent().map((r) => r.path)).toEqual(['responses']);
  });

  it('a model the table lists on chat/completions keeps its refusal', async () => {
    const { mock, client, sent } = setup();
    mock.inject(unexplained);
    await expect(client.chat.completions.create({ model: 'acme-chat', ...ask })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    expect(modelCalls(sent).map((r) => r.path)).toEqual(['chat/completions']);
    expect(tableReads(sent)).toBe(1);
  });

  it('a gateway without the table: the refusal stands, and nothing is warned', async () => {
    const logged: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) };
    const mock = createMockGateway({ models: [...strictModels, ...unknownIds], accounting: false });
    const { client, sent } = setup({ logger, logLevel: 'warn' }, mock);
    mock.inject(unexplained);
    await expect(client.chat.completions.create({ model: 'acme-pro', ...ask })).rejects.toMatchObject({ status: 404 });
    expect(modelCalls(sent).map((r) => r.path)).toEqual(['chat/completions']);
    expect(logged.join('\n')).not.toMatch(/api\/pricing/);
  });

  it('waits for the table no longer than one of the call’s attempts: a table that hangs leaves the 404 as it was', async () => {
    const mock = createMockGateway({ models: [...strictModels, ...unknownIds] });
    // The gateway's table never answers (until the client's own 5 s timeout ends the read: past this test's 3 s).
    const hangingTable = (input: RequestInfo | URL, init?: RequestInit) =>
      String(input instanceof Request ? input.url : input).includes('/api/')
        ? new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
        : mock.fetch(input as Request | string | URL, init);
    const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: hangingTable, maxRetries: 0, timeout: 5_000 });
    mock.inject(unexplained);
    await expect(client.chat.completions.create({ model: 'acme-pro', ...ask }, { timeout: 100 })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  }, 3_000);

  it('a table that hangs is waited for once: the next 404s (a fallback model’s too) do not wait for it again', async () => {
    const mock = createMockGateway({ models: [...strictModels, ...unknownIds] });
    let tableReads = 0;
    const hangingTable = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!url.includes('/api/')) return mock.fetch(input as Request | string | URL, init);
      if (url.includes('/api/pricing')) tableReads++;
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    };
    const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: hangingTable, maxRetries: 0, timeout: 5_000, fallbackModels: { 'acme-pro': ['acme-chat', 'acme-reasoner', 'deepseek-chat'] } });
    mock.inject({ ...unexplained, path: 'chat/completions', times: 3 });
    // acme-pro's 404 waits its 1.5 s for the table; acme-chat's and acme-reasoner's 404s then do not
    // wait again (three waits would pass this test's 4 s); deepseek-chat answers.
    const done = await client.chat.completions.create({ model: 'acme-pro', ...ask }, { timeout: 1_500 });
    expect(done.model).toBe('deepseek-chat');
    expect(tableReads).toBe(1);
  }, 4_000);

  it('what one gateway’s table taught is not applied by a withOptions() client of another base URL', async () => {
    const { mock, client, sent } = setup();
    mock.inject(unexplained);
    await client.chat.completions.create({ model: 'acme-pro', ...ask });
    mock.reset();
    const elsewhere = client.withOptions({ baseURL: 'http://other.local/v1' });
    await elsewhere.chat.completions.create({ model: 'acme-pro', ...ask });
    expect(modelCalls(sent).map((r) => r.path)).toEqual(['chat/completions', 'responses']);
  });

  it('one table read for the clients withOptions() makes', async () => {
    const { mock, client, sent } = setup();
    mock.inject({ ...unexplained, path: 'chat/completions', times: 6 });
    const clients = [client, ...Array.from({ length: 5 }, (_, i) => client.withOptions({ timeout: 10_000 + i }))];
    await Promise.all(clients.map((c) => c.chat.completions.create({ model: 'acme-pro', ...ask })));
    expect(modelCalls(sent).filter((r) => r.path === 'chat/completions')).toHaveLength(6);
    expect(tableReads(sent)).toBe(1);
  });

  it('a 404 the reroute cannot take (n: 2, asResponse()) stands as it was: that request was sent and refused', async () => {
    const { mock, client } = setup();
    mock.inject(unexplained);
    await expect(client.chat.completions.create({ model: 'acme-pro', ...ask, n: 2 })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const other = setup();
    other.mock.inject(unexplained);
    await expect(other.client.chat.completions.create({ model: 'acme-pro', ...ask }).asResponse()).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('a client whose defaultHeaders carry another credential reads no table and teaches the fleet nothing', async () => {
    const { mock, client, sent } = setup();
    const other = client.withOptions({ defaultHeaders: { Authorization: 'Bearer someone-else' } });
    mock.inject(unexplained);
    await expect(other.chat.completions.create({ model: 'acme-pro', ...ask })).rejects.toMatchObject({ status: 404 });
    expect(tableReads(sent)).toBe(0);
    mock.reset();
    // The parent learnt nothing from it: its own call goes to chat/completions first.
    await client.chat.completions.create({ model: 'acme-pro', ...ask });
    expect(modelCalls(sent).map((r) => r.path)).toEqual(['chat/completions', 'responses']);
  });

  it('a call with its own key reads no table and teaches nothing', async () => {
    const { mock, client, sent } = setup();
    mock.inject(unexplained);
    await expect(client.chat.completions.create({ model: 'acme-pro', ...ask }, { headers: { Authorization: 'Bearer user-key' } })).rejects.toMatchObject({ status: 404 });
    expect(tableReads(sent)).toBe(0);
  });
});
