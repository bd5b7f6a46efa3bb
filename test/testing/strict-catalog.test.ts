import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { createMockGateway, defaultModels, strictFamilies, strictModels, type MockGateway } from '../../src/testing/index.js';

// The strict catalogue, read on the wire (raw JSON and SSE through the mock's fetch, and once
// over HTTP on 127.0.0.1) so the SDK's own handling of these vendors plays no part: each family's
// rule kept gets a 200, broken gets the vendor's exact body.

type Json = Record<string, unknown>;

const strict = () => createMockGateway({ catalog: 'strict' });

async function post(mock: MockGateway, body: Json, path = 'chat/completions'): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await mock.fetch(`http://mock.local/v1/${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function message(mock: MockGateway, body: Json): Promise<Json> {
  const res = await post(mock, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { choices: Array<{ message: Json }> }).choices[0]?.message ?? {};
}

/** The `delta` of every data frame of a streamed answer, in order. */
async function deltas(mock: MockGateway, body: Json): Promise<Json[]> {
  const res = await mock.fetch('http://mock.local/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .flatMap((line) => (JSON.parse(line.slice('data: '.length)) as { choices: Array<{ delta: Json }> }).choices.map((c) => c.delta));
}

const user = { role: 'user', content: 'Weather in Paris?' };
const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
const toolResult = (message: Json) => ({ role: 'tool', tool_call_id: (message.tool_calls as Array<{ id: string }>)[0]?.id, content: '14 C' });

/** A two-step tool loop: the model calls the tool, then gets its turn back as `back` makes it, with the result. */
async function loop(mock: MockGateway, model: string, back: (m: Json) => Json, extra: Json = {}) {
  const first = await message(mock, { model, messages: [user], tools, ...extra });
  expect(first.tool_calls).toHaveLength(1);
  return post(mock, { model, messages: [user, back(first), toolResult(first)], tools, ...extra });
}

const without = (...fields: string[]) => (m: Json) => Object.fromEntries(Object.entries(m).filter(([k]) => !fields.includes(k)));
const asReceived = (m: Json) => m;

describe('the strict catalogue', () => {
  it('is opt-in: the default catalogue is unchanged, catalog: "strict" adds every family', async () => {
    const plain = createMockGateway();
    expect((await post(plain, { model: 'kimi-k2-thinking', messages: [user] })).status).toBe(404);
    // The default catalogue's models keep their behaviour: a pushed field is taken, deepseek-reasoner's 400 unchanged.
    expect((await post(plain, { model: 'gpt-4o-mini', messages: [user, { role: 'assistant', content: 'Hi', parsed: null }, { role: 'user', content: 'ok' }] })).status).toBe(200);
    const old = await loop(plain, 'deepseek-reasoner', without('reasoning_content'));
    expect(old.body).toEqual({ error: { message: 'The `reasoning_content` in the thinking mode must be passed back to the API.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } });
    const list = (await (await strict().fetch('http://mock.local/v1/models', { headers: { authorization: 'Bearer test-key' } })).json()) as { data: Array<{ id: string }> };
    const ids = list.data.map((m) => m.id);
    for (const m of strictModels) expect(ids).toContain(m.id);
    expect(ids).toContain('gpt-4o-mini');
    expect(ids).toContain('text-embedding-3-small');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has at least 12 families, each with ids and https sources, as plain data', () => {
    expect(strictFamilies.length).toBeGreaterThanOrEqual(12);
    for (const f of strictFamilies) {
      expect(f.ids.length, f.name).toBeGreaterThan(0);
      expect(f.sources.length, f.name).toBeGreaterThan(0);
      for (const s of f.sources) expect(s).toMatch(/^https:\/\//);
    }
    expect(strictModels.every((m) => m.kind === 'chat' && m.family !== undefined)).toBe(true);
  });

  it('is documented: every family, id and source in docs/chat.md, every family in docs/mock-gateway.md', () => {
    const chat = readFileSync(new URL('../../docs/chat.md', import.meta.url), 'utf8');
    const section = chat.slice(chat.indexOf('## Families behind the gateway (the strict mock)'));
    const mockDoc = readFileSync(new URL('../../docs/mock-gateway.md', import.meta.url), 'utf8');
    expect(section.length).toBeGreaterThan(1000);
    for (const f of strictFamilies) {
      expect(section, f.name).toContain(`| \`${f.name}\` |`);
      expect(mockDoc, f.name).toContain(`| \`${f.name}\` |`);
      for (const id of f.ids) expect(section, id).toContain(`\`${id}\``);
      for (const source of f.sources) expect(section, source).toContain(`<${source}>`);
    }
  });

  it('checks the options: catalog with models, an unknown family, family with reasoning', () => {
    expect(() => createMockGateway({ catalog: 'strict', models: defaultModels })).toThrow(ValidationError);
    expect(() => createMockGateway({ catalog: 'loose' as 'strict' })).toThrow(/catalog/);
    expect(() => createMockGateway({ models: [{ id: 'x', owned_by: 'x', kind: 'chat', family: 'nope' as 'glm' }] })).toThrow(/models\[0\]\.family/);
    expect(() => createMockGateway({ models: [{ id: 'x', owned_by: 'x', kind: 'chat', family: 'glm', reasoning: {} }] })).toThrow(/models\[0\]\.reasoning/);
  });

  it('lets an id of your own join a family', async () => {
    const mock = createMockGateway({ models: [{ id: 'my-kimi', owned_by: 'me', kind: 'chat', family: 'kimi-thinking' }] });
    const res = await loop(mock, 'my-kimi', without('reasoning_content'));
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toMatch(/^thinking is enabled but reasoning_content is missing/);
  });
});

describe('DeepSeek', () => {
  it('thinking mode: a tool-call turn without reasoning_content is its 400; with it, a 200', async () => {
    const mock = strict();
    const bad = await loop(mock, 'deepseek-v4-flash', without('reasoning_content'));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { message: 'The `reasoning_content` in the thinking mode must be passed back to the API.', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } });
    const ok = await loop(mock, 'deepseek-reasoner', asReceived);
    expect(ok.status).toBe(200);
    expect(await loop(mock, 'deepseek-reasoner', (m) => ({ ...m, reasoning_content: '' }))).toMatchObject({ status: 200 });
  });

  it('deepseek-chat thinks, and demands it back, only with thinking enabled', async () => {
    const mock = strict();
    expect(await message(mock, { model: 'deepseek-chat', messages: [user] })).not.toHaveProperty('reasoning_content');
    expect((await loop(mock, 'deepseek-chat', without('reasoning_content'))).status).toBe(200);
    const thinking = { thinking: { type: 'enabled' } };
    expect(await message(mock, { model: 'deepseek-chat', messages: [user], ...thinking })).toHaveProperty('reasoning_content');
    expect((await loop(mock, 'deepseek-chat', without('reasoning_content'), thinking)).status).toBe(400);
    expect((await loop(mock, 'deepseek-chat', asReceived, thinking)).status).toBe(200);
  });

  it('R1: reasoning_content in a message is its 400, and so are tools', async () => {
    const mock = strict();
    const first = await message(mock, { model: 'deepseek-r1', messages: [user] });
    expect(typeof first.reasoning_content).toBe('string');
    const bad = await post(mock, { model: 'deepseek-r1', messages: [user, first, { role: 'user', content: 'And tomorrow?' }] });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: Json }).error).toEqual({
      message: 'The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your message to reduce network traffic.',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_request_error',
    });
    expect((await post(mock, { model: 'deepseek-r1', messages: [user, without('reasoning_content')(first), { role: 'user', content: 'And tomorrow?' }] })).status).toBe(200);
    const withTools = await post(mock, { model: 'deepseek-r1', messages: [user], tools });
    expect(withTools.status).toBe(400);
    expect(withTools.body).toEqual({ error: { message: 'deepseek-r1 does not support Function Calling', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } });
  });
});

describe('Kimi', () => {
  it('K2 thinking: a tool-call turn without reasoning_content is its 400 (naming the index); with it, a 200', async () => {
    for (const model of ['kimi-k2-thinking', 'kimi-for-coding']) {
      const mock = strict();
      const bad = await loop(mock, model, without('reasoning_content'));
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: { message: 'thinking is enabled but reasoning_content is missing in assistant tool call message at index 1', type: 'invalid_request_error' } });
      expect((await loop(mock, model, asReceived)).status).toBe(200);
    }
  });

  it('kimi-k2-instruct and kimi-k2-0905-preview are not thinking models', async () => {
    for (const model of ['kimi-k2-instruct', 'kimi-k2-0905-preview']) {
      const mock = strict();
      const first = await message(mock, { model, messages: [user], tools });
      expect(first).not.toHaveProperty('reasoning_content');
      expect((await loop(mock, model, asReceived)).status).toBe(200);
    }
  });
});

describe('Qwen3 and GLM', () => {
  it('answer with reasoning_content; a tool loop without it is no 400, but the reasoning is lost (x-mock-reasoning-lost)', async () => {
    for (const model of ['qwen3-max', 'glm-4.6']) {
      const mock = strict();
      const lost = await loop(mock, model, without('reasoning_content'));
      expect(lost.status).toBe(200);
      expect(lost.headers.get('x-mock-reasoning-lost')).toBe('messages[1]');
      const kept = await loop(mock, model, asReceived);
      expect(kept.status).toBe(200);
      expect(kept.headers.get('x-mock-reasoning-lost')).toBeNull();
    }
  });
});

describe('Groq', () => {
  it('answers in `reasoning` (whole and streamed) and refuses reasoning_content in any message, even without tools', async () => {
    const mock = strict();
    const first = await message(mock, { model: 'qwen/qwen3-32b', messages: [user] });
    expect(typeof first.reasoning).toBe('string');
    expect(first).not.toHaveProperty('reasoning_content');
    const frames = await deltas(mock, { model: 'openai/gpt-oss-120b', messages: [user] });
    expect(frames.filter((d) => typeof d.reasoning === 'string').length).toBeGreaterThan(1);
    expect(frames.some((d) => 'reasoning_content' in d)).toBe(false);

    const renamed = { role: 'assistant', content: first.content, reasoning_content: first.reasoning };
    const bad = await post(mock, { model: 'qwen/qwen3-32b', messages: [user, renamed, { role: 'user', content: 'And tomorrow?' }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { message: "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]", type: 'invalid_request_error' } });
    expect((await post(mock, { model: 'qwen/qwen3-32b', messages: [user, first, { role: 'user', content: 'And tomorrow?' }] })).status).toBe(200);
  });

  it('a model that does not reason (kimi-k2-instruct there) refuses it too', async () => {
    const mock = strict();
    const first = await message(mock, { model: 'moonshotai/kimi-k2-instruct-0905', messages: [user] });
    expect(first).not.toHaveProperty('reasoning');
    const bad = await post(mock, { model: 'moonshotai/kimi-k2-instruct-0905', messages: [user, { ...first, reasoning_content: '' }, { role: 'user', content: 'ok' }] });
    expect(bad.status).toBe(400);
    expect((await post(mock, { model: 'moonshotai/kimi-k2-instruct-0905', messages: [user, first, { role: 'user', content: 'ok' }] })).status).toBe(200);
  });
});

describe('Gemini 3 (its OpenAI-compatible endpoint)', () => {
  const signature = (m: Json) => ((m.tool_calls as Json[])[0]?.extra_content as { google: { thought_signature: string } } | undefined)?.google.thought_signature;

  it('signs the first tool call in extra_content; a tool loop that drops it is its 400, a JSON array', async () => {
    const mock = strict();
    const first = await message(mock, { model: 'gemini-3-pro-preview', messages: [user], tools });
    expect(signature(first)).toMatch(/^Ev/);
    const stripped = (m: Json) => ({ ...m, tool_calls: (m.tool_calls as Json[]).map(without('extra_content')) });
    const bad = await loop(mock, 'gemini-3-pro-preview', stripped);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual([
      {
        error: {
          code: 400,
          message:
            'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
          status: 'INVALID_ARGUMENT',
        },
      },
    ]);
    expect((await loop(mock, 'gemini-3-flash-preview', asReceived)).status).toBe(200);
    // Only the current turn is checked: an earlier turn without its signature is fine.
    const old = stripped(first);
    const later = await post(mock, { model: 'gemini-3-pro-preview', messages: [user, old, toolResult(first), { role: 'assistant', content: '14 C.' }, { role: 'user', content: 'Thanks' }] });
    expect(later.status).toBe(200);
  });

  it('streams each tool call whole, in one delta without index, with its signature', async () => {
    const frames = await deltas(strict(), { model: 'gemini-3-pro-preview', messages: [user], tools });
    const calls = frames.filter((d) => Array.isArray(d.tool_calls)).flatMap((d) => d.tool_calls as Json[]);
    expect(calls).toHaveLength(1);
    const call = calls[0] as Json;
    expect(call).not.toHaveProperty('index');
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    expect(signature({ tool_calls: [call] })).toMatch(/^Ev/);
  });
});

describe('OpenRouter', () => {
  const raw = (body: unknown) => (body as { error: { metadata: { raw: string } } }).error.metadata.raw;

  it('Claude: reasoning and signed reasoning_details; a tool loop must return them unmodified', async () => {
    const mock = strict();
    const model = 'anthropic/claude-sonnet-4.5';
    const first = await message(mock, { model, messages: [user], tools });
    expect(typeof first.reasoning).toBe('string');
    const details = first.reasoning_details as Json[];
    expect(details).toEqual([{ type: 'reasoning.text', text: first.reasoning, signature: expect.stringMatching(/^Ev/), format: 'anthropic-claude-v1', index: 0 }]);

    expect((await loop(mock, model, asReceived)).status).toBe(200);
    const missing = await loop(mock, model, without('reasoning_details'));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { message: 'Provider returned error', code: 400, metadata: { provider_name: 'Anthropic', is_byok: false } } });
    expect(JSON.parse(raw(missing.body))).toMatchObject({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
      },
    });
    const edited = await loop(mock, model, (m) => ({ ...m, reasoning_details: (m.reasoning_details as Json[]).map((d) => ({ ...d, text: `${String(d.text)} (edited)` })) }));
    expect(edited.status).toBe(400);
    expect(JSON.parse(raw(edited.body)).error.message).toBe('messages.1.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.');
  });

  it('Claude streams reasoning_details beside the reasoning, the signature on the last piece', async () => {
    const frames = await deltas(strict(), { model: 'anthropic/claude-opus-4.5', messages: [user], tools });
    const pieces = frames.filter((d) => Array.isArray(d.reasoning_details)).map((d) => (d.reasoning_details as Json[])[0] as Json);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((p) => p.text).join('')).toBe(frames.map((d) => (typeof d.reasoning === 'string' ? d.reasoning : '')).join(''));
    expect(pieces.slice(0, -1).every((p) => p.signature === null)).toBe(true);
    expect(pieces.at(-1)?.signature).toMatch(/^Ev/);
    // What a client accumulates from the stream goes back as one block.
    const text = pieces.map((p) => p.text).join('');
    const call = frames.flatMap((d) => (Array.isArray(d.tool_calls) ? (d.tool_calls as Json[]) : [])).find((c) => typeof c.id === 'string') as { id: string; function: { name: string } };
    const turn = { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: call.function.name, arguments: '{"city":"Paris"}' } }], reasoning_details: [{ ...pieces[0], text, signature: pieces.at(-1)?.signature }] };
    const ok = await post(strict(), { model: 'anthropic/claude-opus-4.5', messages: [user, turn, { role: 'tool', tool_call_id: call.id, content: '14 C' }], tools });
    expect(ok.status).toBe(200);
  });

  it('Gemini 3: reasoning.encrypted per tool call; without it, the Google error quoted in metadata.raw', async () => {
    const mock = strict();
    const model = 'google/gemini-3-pro-preview';
    const first = await message(mock, { model, messages: [user], tools });
    const encrypted = (first.reasoning_details as Json[]).find((d) => d.type === 'reasoning.encrypted');
    expect(encrypted).toMatchObject({ id: (first.tool_calls as Json[])[0]?.id, format: 'google-gemini-v1', data: expect.stringMatching(/^Ev/) });
    expect((await loop(mock, model, asReceived)).status).toBe(200);
    const bad = await loop(mock, model, without('reasoning_details'));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { message: 'Provider returned error', code: 400, metadata: { provider_name: 'Google AI Studio' } } });
    expect(raw(bad.body)).toBe(
      'Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks. Upstream error: {\n  "error": {\n    "code": 400,\n    "message": "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",\n    "status": "INVALID_ARGUMENT"\n  }\n}\n',
    );
    const frames = await deltas(mock, { model, messages: [user], tools });
    expect(frames.some((d) => Array.isArray(d.reasoning_details) && (d.reasoning_details as Json[]).some((r) => r.type === 'reasoning.encrypted'))).toBe(true);
  });
});

describe('OpenRouter (OpenAI models)', () => {
  it('reasoning_details with a reasoning.summary and a reasoning.encrypted entry under one id, whole and streamed; nothing required back', async () => {
    const mock = strict();
    const first = await message(mock, { model: 'openai/gpt-5', messages: [user], tools });
    const details = first.reasoning_details as Json[];
    expect(details).toEqual([
      { type: 'reasoning.summary', summary: first.reasoning, id: expect.stringMatching(/^rs_/), format: 'openai-responses-v1', index: 0 },
      { type: 'reasoning.encrypted', data: expect.stringMatching(/^Ev/), id: details[0]?.id, format: 'openai-responses-v1', index: 1 },
    ]);
    expect((await loop(mock, 'openai/gpt-5', without('reasoning_details', 'reasoning'))).status).toBe(200);
    const frames = await deltas(mock, { model: 'openai/o4-mini', messages: [user] });
    const entries = frames.flatMap((d) => (Array.isArray(d.reasoning_details) ? (d.reasoning_details as Json[]) : []));
    expect(entries.filter((e) => e.type === 'reasoning.summary').map((e) => e.summary).join('')).toBe('The user said: Weather in Paris?');
    expect(entries.filter((e) => e.type === 'reasoning.encrypted')).toHaveLength(1);
  });
});

describe('LiteLLM (Claude)', () => {
  it('signed thinking_blocks beside reasoning_content; a tool loop without them is its 400', async () => {
    const mock = strict();
    const model = 'litellm/claude-sonnet-4-5';
    const first = await message(mock, { model, messages: [user], tools });
    expect(first.thinking_blocks).toEqual([{ type: 'thinking', thinking: first.reasoning_content, signature: expect.stringMatching(/^Ev/) }]);
    expect((await loop(mock, model, asReceived)).status).toBe(200);
    const bad = await loop(mock, model, without('thinking_blocks'));
    expect(bad.status).toBe(400);
    const error = (bad.body as { error: Json }).error;
    expect(error).toMatchObject({ type: null, param: null, code: '400' });
    expect(error.message).toMatch(/^litellm\.BadRequestError: AnthropicException - b'\{"type":"error","error":\{"type":"invalid_request_error","message":"messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\./);
    expect(error.message).toMatch(/'\. Received Model Group=litellm\/claude-sonnet-4-5\nAvailable Model Group Fallbacks=None$/);
  });

  it('streams thinking_blocks with each reasoning piece, and the signature in a delta of its own', async () => {
    const frames = await deltas(strict(), { model: 'litellm/claude-opus-4-5', messages: [user] });
    const blocks = frames.filter((d) => Array.isArray(d.thinking_blocks)).map((d) => (d.thinking_blocks as Json[])[0] as Json);
    expect(blocks.length).toBeGreaterThan(2);
    expect(blocks.at(-1)).toEqual({ type: 'thinking', thinking: '', signature: expect.stringMatching(/^Ev/) });
    expect(blocks.map((b) => b.thinking).join('')).toBe('The user said: Weather in Paris?');
  });
});

describe('new-api relaying Claude in OpenAI format', () => {
  it('sends reasoning_content without any signature, and a tool loop fails whatever the client sends', async () => {
    const mock = strict();
    const model = 'claude-sonnet-4-5-20250929-thinking';
    const first = await message(mock, { model, messages: [user], tools });
    expect(typeof first.reasoning_content).toBe('string');
    expect(JSON.stringify(first)).not.toMatch(/signature/);
    for (const back of [asReceived, without('reasoning_content')]) {
      const res = await loop(mock, model, back);
      expect(res.status).toBe(400);
      const error = (res.body as { error: Json }).error;
      expect(error).toMatchObject({ type: 'new_api_error', param: '', code: null });
      expect(error.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. .* \(request id: \d{14}\d{6}mock\)$/);
    }
    // Without a tool loop, the conversation goes on.
    expect((await post(mock, { model, messages: [user, { role: 'assistant', content: 'Sunny.', reasoning_content: 'It is sunny.' }, { role: 'user', content: 'Thanks' }] })).status).toBe(200);
  });
});

describe('OpenAI', () => {
  it('gpt-5 family and o-series: max_tokens, a non-default temperature or top_p are their 400s', async () => {
    const mock = strict();
    const maxTokens = await post(mock, { model: 'gpt-5', messages: [user], max_tokens: 50 });
    expect(maxTokens.status).toBe(400);
    expect(maxTokens.body).toEqual({ error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } });
    expect((await post(mock, { model: 'gpt-5', messages: [user], max_completion_tokens: 50 })).status).toBe(200);
    const temperature = await post(mock, { model: 'o3', messages: [user], temperature: 0.2 });
    expect(temperature.body).toEqual({ error: { message: "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } });
    expect((await post(mock, { model: 'o3', messages: [user], temperature: 1 })).status).toBe(200);
    const topP = await post(mock, { model: 'gpt-5-mini', messages: [user], top_p: 0.5 });
    expect(topP.body).toEqual({ error: { message: "Unsupported parameter: 'top_p' is not supported with this model.", type: 'invalid_request_error', param: 'top_p', code: 'unsupported_parameter' } });
    expect((await post(mock, { model: 'gpt-5', input: 'hi', temperature: 0 }, 'responses')).status).toBe(400);
    expect((await post(mock, { model: 'gpt-5', input: 'hi' }, 'responses')).status).toBe(200);
  });

  it('o1-mini: tools are a 404', async () => {
    const mock = strict();
    const res = await post(mock, { model: 'o1-mini', messages: [user], tools });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { message: 'tools is not supported in this model. For a list of supported models, refer to https://platform.openai.com/docs/guides/function-calling#models-supporting-function-calling.', type: 'invalid_request_error', param: null, code: null } });
    expect((await post(mock, { model: 'o1-mini', messages: [user] })).status).toBe(200);
  });

  it('responses-only models: chat/completions is their 404, /v1/responses serves them', async () => {
    const mock = strict();
    const pro = await post(mock, { model: 'o3-pro', messages: [user] });
    expect(pro.status).toBe(404);
    expect(pro.body).toEqual({ error: { message: 'This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?', type: 'invalid_request_error', param: 'model', code: null } });
    const codex = await post(mock, { model: 'gpt-5-codex', messages: [user], stream: true });
    expect(codex.status).toBe(404);
    expect(codex.body).toEqual({ error: { message: 'This model is only supported in v1/responses and not in v1/chat/completions.', type: 'invalid_request_error', param: 'model', code: null } });
    for (const model of ['o1-pro', 'o3-pro', 'codex-mini-latest', 'gpt-5-codex']) {
      const res = await post(mock, { model, input: 'Weather in Paris?' }, 'responses');
      expect(res.status, model).toBe(200);
      expect((res.body as { output_text: string }).output_text).toBe('You said: Weather in Paris?');
    }
  });

  it('a strict host: unknown message fields (a pushed `parsed`) and json_schema on gpt-4 are its 400s', async () => {
    const mock = strict();
    const first = await message(mock, { model: 'gpt-4', messages: [user] });
    const parsed = await post(mock, { model: 'gpt-4', messages: [user, { ...first, parsed: null }, { role: 'user', content: 'ok' }] });
    expect(parsed.status).toBe(400);
    expect(parsed.body).toEqual({ error: { message: "Additional properties are not allowed ('refusal', 'parsed' were unexpected) - 'messages.1'", type: 'invalid_request_error', param: null, code: null } });
    const one = await post(mock, { model: 'gpt-3.5-turbo', messages: [user, { role: 'assistant', content: 'Hi', parsed: null }] });
    expect((one.body as { error: { message: string } }).error.message).toBe("Additional properties are not allowed ('parsed' was unexpected) - 'messages.1'");
    expect((await post(mock, { model: 'gpt-4', messages: [user, { role: 'assistant', content: first.content }, { role: 'user', content: 'ok' }] })).status).toBe(200);
    const schema = await post(mock, { model: 'gpt-4', messages: [user], response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' } } } });
    expect(schema.body).toEqual({
      error: {
        message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model. Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    expect((await post(mock, { model: 'gpt-4', messages: [user], response_format: { type: 'json_object' } })).status).toBe(200);
  });
});

describe('over HTTP on 127.0.0.1', () => {
  it('keeps the families’ rules and streams on the wire', { timeout: 15_000 }, async () => {
    const mock = strict();
    const { url, close } = await mock.listen();
    try {
      const call = (body: Json) =>
        fetch(`${url}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5_000) });
      const refused = await call({ model: 'gpt-5', messages: [user], max_tokens: 10 });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unsupported_parameter');
      const stream = await call({ model: 'gemini-3-flash-preview', messages: [user], tools, stream: true });
      const text = await stream.text();
      expect(text).toContain('"extra_content":{"google":{"thought_signature":"Ev');
      expect(text).not.toMatch(/"tool_calls":\[\{"index"/);
      const gemini = await call({ model: 'gemini-3-flash-preview', messages: [user, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'x' }] });
      expect(gemini.status).toBe(400);
      expect(Array.isArray(await gemini.json())).toBe(true);
    } finally {
      await close();
    }
  });
});
