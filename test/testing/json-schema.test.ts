import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Gateway } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { sampleFromSchema } from '../../src/testing/json-schema.js';

/** A real validator for the hand-written schemas below. */
const validates = (schema: Record<string, unknown>, value: unknown) => z.fromJSONSchema(schema as never).safeParse(value).success;

describe('sampleFromSchema', () => {
  it('builds a value that validates against a schema using every supported keyword', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 3, maximum: 7 },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        step: { type: 'integer', minimum: 2, multipleOf: 5 },
        verbose: { type: 'boolean' },
        version: { const: 'v1' },
        note: { type: ['string', 'null'], maxLength: 8 },
        code: { type: 'string', minLength: 40 },
        when: { anyOf: [{ type: 'null' }, { type: 'string', format: 'date-time' }] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 3, uniqueItems: true },
        pair: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }] },
        owner: { $ref: '#/$defs/person' },
      },
      required: ['city', 'unit', 'days', 'ratio', 'step', 'verbose', 'version', 'note', 'code', 'when', 'tags', 'pair', 'owner'],
      additionalProperties: false,
      $defs: { person: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 18 } }, required: ['name', 'age'], additionalProperties: false } },
    };
    const value = sampleFromSchema(schema, 'Is it sunny in Oslo tomorrow?');
    expect(validates(schema, value)).toBe(true);
    expect(validates(schema, { ...(value as object), extra: 1 })).toBe(false); // the validator is strict
    expect(value).toMatchObject({ city: 'Oslo', unit: 'celsius', days: 3, ratio: 0.5, step: 5, verbose: true, version: 'v1', when: '2024-01-01T12:00:00Z' });
    expect(value).toMatchObject({ tags: ['Is it sunny in', 'Is it sunny in 2', 'Is it sunny in 3'], pair: [1, true], owner: { name: 'Is it sunny in', age: 18 } });
  });

  it('takes a place from the text, never a sentence opener, else Paris', () => {
    const place = (text: string) => sampleFromSchema({ type: 'object', properties: { location: { type: 'string' } } }, text);
    expect(place("What's the weather in New York? I'm going there.")).toEqual({ location: 'New York' });
    expect(place('Tokyo is big. Is it raining in "Berlin"?')).toEqual({ location: 'Berlin' });
    expect(place('hello mock')).toEqual({ location: 'Paris' });
  });

  it('merges allOf and ends recursive schemas', () => {
    const tree = { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['label', 'children'] } } };
    const value = sampleFromSchema(tree, 'root');
    expect(validates(tree, value)).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThan(200);
    expect(sampleFromSchema({ allOf: [{ type: 'object', properties: { a: { type: 'boolean' } } }, { properties: { b: { const: 3 } }, required: ['b'] }] }, '')).toEqual({ a: true, b: 3 });
  });
});

describe('tool calls of the mock', () => {
  it('fills the function parameters with plausible, deterministic arguments', async () => {
    const mock = createMockGateway();
    const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch });
    const parameters = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 5 },
        query: { type: 'string' },
        filters: { type: 'object', properties: { indoor: { type: 'boolean' }, max_price: { type: 'number', maximum: 0.5 } } },
      },
      required: ['city'],
    };
    const ask = () =>
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Plan three days of sightseeing in Lisbon for me, please.' }],
        tools: [{ type: 'function', function: { name: 'plan_trip', parameters } }],
      });
    const call = (await ask()).choices[0]?.message.tool_calls?.[0];
    expect(JSON.parse(call?.function.arguments ?? '')).toEqual({
      city: 'Lisbon',
      unit: 'celsius',
      days: 1,
      query: 'Plan three days of',
      filters: { indoor: true, max_price: 0.5 },
    });
    expect((await ask()).choices[0]?.message.tool_calls?.[0]?.function.arguments).toBe(call?.function.arguments);
  });
});
