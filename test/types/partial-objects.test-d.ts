// Type-level tests of stream.partialObjects() and DeepPartial, checked by `npm run typecheck`.
import * as z from 'zod';
import { expectTypeOf } from 'vitest';
import { responseFormat, type ChatCompletionTool, type DeepPartial, type Gateway, type InferInput, type ParsedChatCompletion, type ParsedChatCompletionStream, type StandardSchemaV1 } from '../../src/index.js';

declare const client: Gateway;
const messages = [{ role: 'user' as const, content: 'hi' }];
const Plan = z.object({ title: z.string(), tags: z.array(z.string()), steps: z.array(z.object({ text: z.string(), done: z.boolean(), at: z.number().nullable() })) });
type Plan = z.infer<typeof Plan>;

// DeepPartial: every property optional at every depth, array elements partial, primitives and null kept.
expectTypeOf<DeepPartial<Plan>>().toEqualTypeOf<{
  title?: string;
  tags?: string[];
  steps?: Array<{ text?: string; done?: boolean; at?: number | null }>;
}>();
expectTypeOf<DeepPartial<string>>().toEqualTypeOf<string>();
expectTypeOf<DeepPartial<number | null>>().toEqualTypeOf<number | null>();
expectTypeOf<DeepPartial<readonly number[]>>().toEqualTypeOf<number[]>();
expectTypeOf<DeepPartial<unknown>>().toEqualTypeOf<unknown>();
// A tuple stays a tuple, each place optional: jsonriver fills it from the left.
expectTypeOf<DeepPartial<[string, { n: number }]>>().toEqualTypeOf<[string?, { n?: number }?]>();
expectTypeOf<DeepPartial<readonly [string, number]>>().toEqualTypeOf<[string?, number?]>();

// A schema whose output differs from its input: a partial is the JSON so far, so it has the input's shape.
const Event = z.object({
  when: z.string().transform((s) => new Date(s)),
  at: z.tuple([z.number(), z.number()]).transform(([lat, lon]) => ({ lat, lon })),
  tags: z.string().transform((s) => s.split(',')),
});
type EventIn = z.input<typeof Event>;
type EventOut = z.output<typeof Event>;
expectTypeOf<InferInput<typeof Event>>().toEqualTypeOf<EventIn>();
expectTypeOf<InferInput<StandardSchemaV1<{ a: string }, number>>>().toEqualTypeOf<{ a: string }>();

async function typed() {
  const stream = await client.chat.completions.parse({ model: 'm', messages, response_format: responseFormat(Plan, 'plan'), stream: true });
  expectTypeOf(stream).toMatchTypeOf<ParsedChatCompletionStream<Plan>>();
  for await (const partial of stream.partialObjects()) {
    expectTypeOf(partial).toEqualTypeOf<DeepPartial<Plan>>();
    expectTypeOf(partial.steps?.[0]?.done).toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error: a partial has only the schema's keys
    void partial.other;
  }
  expectTypeOf(stream.finalChatCompletion()).toEqualTypeOf<Promise<ParsedChatCompletion<Plan>>>();
  expectTypeOf((await stream.finalChatCompletion()).choices[0]?.message.parsed).toEqualTypeOf<Plan | null | undefined>();
}

async function transformed() {
  const stream = await client.chat.completions.parse({ model: 'm', messages, response_format: responseFormat(Event, 'event'), stream: true });
  for await (const partial of stream.partialObjects()) {
    expectTypeOf(partial).toEqualTypeOf<DeepPartial<EventIn>>();
    expectTypeOf(partial.when).toEqualTypeOf<string | undefined>();
    expectTypeOf(partial.at).toEqualTypeOf<[number?, number?] | undefined>();
    expectTypeOf(partial.tags).toEqualTypeOf<string | undefined>();
  }
  // What finalChatCompletion() gives is validated: the output.
  expectTypeOf((await stream.finalChatCompletion()).choices[0]?.message.parsed).toEqualTypeOf<EventOut | null | undefined>();
  expectTypeOf(stream).toMatchTypeOf<ParsedChatCompletionStream<EventOut, ChatCompletionTool, EventIn>>();
}

async function untyped() {
  // json_object: partials of unknown shape; no json format: partialObjects() gives null (nothing to parse).
  const json = await client.chat.completions.parse({ model: 'm', messages, response_format: { type: 'json_object' }, stream: true });
  expectTypeOf(json.partialObjects()).toEqualTypeOf<AsyncIterableIterator<unknown>>();
  const text = await client.chat.completions.parse({ model: 'm', messages, stream: true });
  expectTypeOf(text.partialObjects()).toEqualTypeOf<AsyncIterableIterator<null>>();
  // create() streams have no partialObjects().
  const plain = await client.chat.completions.create({ model: 'm', messages, stream: true });
  // @ts-expect-error: only parse() streams give partial objects
  void plain.partialObjects;
}

void typed;
void transformed;
void untyped;
