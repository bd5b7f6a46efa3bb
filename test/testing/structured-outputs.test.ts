import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';

const KEY = 'test-key';
const BASE = 'http://mock.local/v1';
const client = (mock: MockGateway) => new Gateway({ apiKey: KEY, baseURL: BASE, fetch: mock.fetch, maxRetries: 0 });
const user = (content: string) => [{ role: 'user' as const, content }];

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    city: { type: 'string' },
    kind: { type: 'string', enum: ['talk', 'party'] },
    seats: { type: 'integer', minimum: 10, maximum: 20 },
    price: { type: ['number', 'null'], minimum: 2.5 },
    online: { type: 'boolean' },
    schema_version: { const: 2 },
    speakers: {
      type: 'array',
      minItems: 2,
      items: { type: 'object', properties: { name: { type: 'string' }, bio: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['name', 'bio'], additionalProperties: false },
    },
  },
  required: ['title', 'city', 'kind', 'seats', 'price', 'online', 'schema_version', 'speakers'],
  additionalProperties: false,
};
const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'event', schema, strict: true } };
const validator = z.fromJSONSchema(schema as never);

describe('structured outputs (response_format)', () => {
  it('answers json_schema with JSON content that validates against the schema', async () => {
    const res = await client(createMockGateway()).chat.completions.create({ model: 'gpt-4o-mini', messages: user('Plan a meetup in Berlin'), response_format: responseFormat });
    const content = res.choices[0]?.message.content ?? '';
    expect(validator.safeParse(JSON.parse(content)).success).toBe(true);
    expect(JSON.parse(content)).toMatchObject({ city: 'Berlin', kind: 'talk', seats: 10, price: 2.5, online: true, schema_version: 2 });
    expect(JSON.parse(content).speakers).toHaveLength(2);
    expect(res.choices[0]).toMatchObject({ finish_reason: 'stop', message: { refusal: null } });
  });

  it('streams the same JSON in several content chunks', async () => {
    const mock = createMockGateway();
    const body = { model: 'gpt-4o-mini', messages: user('Plan a meetup in Berlin'), response_format: responseFormat };
    const whole = (await client(mock).chat.completions.create(body)).choices[0]?.message.content;
    const stream = await client(mock).chat.completions.create({ ...body, stream: true });
    const deltas: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(whole);
    expect(validator.safeParse(JSON.parse(deltas.join(''))).success).toBe(true);
  });

  it('answers json_object with a small JSON object', async () => {
    const mock = createMockGateway();
    const body = { model: 'gpt-4o-mini', messages: user('Reply in JSON'), response_format: { type: 'json_object' as const } };
    const res = await client(mock).chat.completions.create(body);
    expect(JSON.parse(res.choices[0]?.message.content ?? '')).toEqual({ reply: 'You said: Reply in JSON' });
    const streamed = await (await client(mock).chat.completions.create({ ...body, stream: true })).finalChatCompletion();
    expect(streamed.choices[0]?.message.content).toBe(res.choices[0]?.message.content);
  });

  it('refuses, with message.refusal and null content, when the user says "refuse"', async () => {
    const mock = createMockGateway();
    const body = { model: 'gpt-4o-mini', messages: user('Please refuse this one'), response_format: responseFormat };
    const res = await client(mock).chat.completions.create(body);
    expect(res.choices[0]?.message).toMatchObject({ content: null, refusal: expect.stringMatching(/can't help/) });
    const stream = await client(mock).chat.completions.create({ ...body, stream: true });
    const refusals: string[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.refusal) refusals.push(chunk.choices[0].delta.refusal);
    expect(refusals.length).toBeGreaterThan(1);
    expect(refusals.join('')).toBe(res.choices[0]?.message.refusal);
  });

  it('rejects a json_schema without a valid name with 400', async () => {
    const res = await createMockGateway().fetch(`${BASE}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: user('x'), response_format: { type: 'json_schema', json_schema: { schema } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'response_format.json_schema.name' } });
  });

  it("satisfies the official openai client's parse() with a zod schema, and its refusals", async () => {
    const openai = new OpenAI({ apiKey: KEY, baseURL: BASE, fetch: createMockGateway().fetch, maxRetries: 0 });
    const Weather = z.object({ city: z.string(), unit: z.enum(['c', 'f']), days: z.array(z.object({ high: z.number().int().min(-50).max(60), note: z.string().nullable() })).min(3) });
    const format = zodResponseFormat(Weather, 'weather');
    const parsed = await openai.chat.completions.parse({ model: 'gpt-4o-mini', messages: user('Forecast for Lisbon'), response_format: format });
    expect(parsed.choices[0]?.message.parsed).toMatchObject({ city: 'Lisbon', unit: 'c' });
    expect(parsed.choices[0]?.message.parsed?.days).toHaveLength(3);
    const refused = await openai.chat.completions.parse({ model: 'gpt-4o-mini', messages: user('refuse'), response_format: format });
    expect(refused.choices[0]?.message).toMatchObject({ parsed: null, refusal: expect.any(String) });
  });
});
