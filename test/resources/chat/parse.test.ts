import * as z from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod/v3';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTool, ParseError, responseFormat, ValidationError, type StandardSchemaV1 } from '../../../src/index.js';
import { mockClient } from '../../helpers/mock-client.js';

const Weather = z.object({ city: z.string(), celsius: z.number() });
const messages = [{ role: 'user' as const, content: 'What is the weather in Paris?' }];
const params = { model: 'gpt-4o-mini', messages, response_format: responseFormat(Weather, 'weather') };

describe('responseFormat', () => {
  it('describes the schema as a strict json_schema format, objects closed, without $schema', () => {
    const format = responseFormat(Weather, 'weather');
    expect(format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'weather',
        strict: true,
        schema: { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'], additionalProperties: false },
      },
    });
    expect(JSON.parse(JSON.stringify(format))).toEqual(format);
  });

  it('takes a zod/mini schema through an explicit jsonSchema, and says how when it is missing', () => {
    const mini = zm.object({ city: zm.string() });
    expect(() => responseFormat(mini, 'x')).toThrow(/zod schema that cannot describe itself \(zod\/mini.*jsonSchema: toJSONSchema\(schema, \{ io: 'input' \}\)/);
    expect(responseFormat(mini, 'x', { jsonSchema: zm.toJSONSchema(mini) }).json_schema.schema).toMatchObject({ properties: { city: { type: 'string' } }, additionalProperties: false });
  });

  it('points a zod 3 schema to zod-to-json-schema, since zod 4\'s toJSONSchema cannot convert it', () => {
    const v3 = z3.object({ city: z3.string() });
    for (const make of [() => responseFormat(v3, 'x'), () => defineTool({ name: 'x', parameters: v3 })]) {
      expect(make).toThrow(ValidationError);
      expect(make).toThrow(/zod 3 schema.*zodToJsonSchema\(schema\).*'zod-to-json-schema'/);
      expect(make).not.toThrow(/toJSONSchema\(schema/);
    }
    expect(responseFormat(v3, 'x', { jsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }).json_schema.schema).toMatchObject({ additionalProperties: false });
  });

  it('rejects what is not a Standard Schema, a schema that cannot give JSON Schema, and a bad name', () => {
    expect(() => responseFormat({} as StandardSchemaV1, 'x')).toThrow(ValidationError);
    const opaque: StandardSchemaV1<string> = { '~standard': { version: 1, vendor: 'acme', validate: (v) => ({ value: String(v) }) } };
    expect(() => responseFormat(opaque, 'x')).toThrow(/acme schema that gives no JSON Schema/);
    // A transform: the model is asked for what goes in, the pipe's input.
    expect(responseFormat(z.string().transform(Number).pipe(z.number()), 'x').json_schema.schema).toEqual({ type: 'string' });
    expect(() => responseFormat(Weather, 'has spaces')).toThrow(expect.objectContaining({ field: 'name' }) as Error);
  });
});

describe('chat.completions.parse', () => {
  it('sends the strict json_schema format and gives message.parsed, validated and typed', async () => {
    const { client, mock } = mockClient();
    const completion = await client.chat.completions.parse(params);
    const parsed = completion.choices[0]?.message.parsed;
    expectTypeOf(parsed).toEqualTypeOf<{ city: string; celsius: number } | null | undefined>();
    expect(parsed).toEqual({ city: 'Paris', celsius: 1 });
    expect((mock.requests[0]?.body as { response_format: unknown }).response_format).toEqual(JSON.parse(JSON.stringify(params.response_format)));
  });

  it('gives null on a refusal, keeping the refusal text', async () => {
    const { client, mock } = mockClient();
    mock.script({ refusal: 'I cannot help with that.' });
    const completion = await client.chat.completions.parse(params);
    expect(completion.choices[0]?.message).toMatchObject({ parsed: null, refusal: 'I cannot help with that.', content: null });
  });

  it.each([
    ['content that is not JSON', 'Sunny in Paris', /not valid JSON/],
    ['JSON that fails the schema', '{"city":"Paris","celsius":"warm"}', /does not match its schema: celsius: /],
  ])('rejects %s with ParseError carrying the raw content', async (_, content, message) => {
    const { client, mock } = mockClient();
    mock.script({ content });
    const err = await client.chat.completions.parse(params).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect(err).toMatchObject({ content, message: expect.stringMatching(message) });
  });

  it('says the reply was cut when finish_reason is length', async () => {
    const { client, mock } = mockClient();
    mock.script({ content: '{"city":"Par', finishReason: 'length' });
    await expect(client.chat.completions.parse(params)).rejects.toThrow(/cut at max_tokens/);
  });

  it('fills function.parsed_arguments for defineTool tools, typed by name', async () => {
    const getWeather = defineTool({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
    const getTime = defineTool({ name: 'get_time', parameters: z.object({ zone: z.string() }) });
    const { client, mock } = mockClient();
    mock.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_time', arguments: { zone: 'CET' } }] });
    const completion = await client.chat.completions.parse({ model: 'gpt-4o-mini', messages, tools: [getWeather, getTime] });
    const calls = completion.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((c) => c.function.parsed_arguments)).toEqual([{ city: 'Oslo' }, { zone: 'CET' }]);
    const first = calls[0];
    if (first?.function.name === 'get_weather') expectTypeOf(first.function.parsed_arguments).toEqualTypeOf<{ city: string }>();
    expect((mock.requests[0]?.body as { tools: unknown[] }).tools).toEqual([
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true } },
      { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'], additionalProperties: false }, strict: true } },
    ]);
  });

  it('rejects tool arguments that fail their schema with ParseError', async () => {
    const getWeather = defineTool({ name: 'get_weather', parameters: z.object({ city: z.string() }) });
    const { client, mock } = mockClient();
    mock.script({ toolCalls: [{ name: 'get_weather', arguments: { town: 'Oslo' } }] });
    const err = await client.chat.completions.parse({ model: 'gpt-4o-mini', messages, tools: [getWeather] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ParseError', content: '{"town":"Oslo"}' });
  });

  it('parses the final completion of a stream', async () => {
    const { client } = mockClient();
    const stream = await client.chat.completions.parse({ ...params, stream: true });
    let chunks = 0;
    for await (const chunk of stream) chunks += chunk.choices.length;
    const final = await stream.finalChatCompletion();
    expectTypeOf(final.choices[0]?.message.parsed).toEqualTypeOf<{ city: string; celsius: number } | null | undefined>();
    expect(chunks).toBeGreaterThan(2);
    expect(final.choices[0]?.message.parsed).toEqual({ city: 'Paris', celsius: 1 });
  });

  it('gives parsed: null without a json response format', async () => {
    const { client } = mockClient();
    const completion = await client.chat.completions.parse({ model: 'gpt-4o-mini', messages });
    expectTypeOf(completion.choices[0]?.message.parsed).toEqualTypeOf<null | undefined>();
    expect(completion.choices[0]?.message.parsed).toBeNull();
  });

  it('can be used with create() too: the format and tools are plain JSON on the wire', async () => {
    const { client, mock } = mockClient();
    const res = await client.chat.completions.create({ ...params, tools: [defineTool({ name: 'noop', parameters: z.object({}) })], tool_choice: 'none' });
    expect(JSON.parse(res.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris', celsius: 1 });
    expect(mock.requests).toHaveLength(1);
  });
});
