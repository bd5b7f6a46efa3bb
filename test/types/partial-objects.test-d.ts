// Type-level tests of stream.partialObjects() and DeepPartial, checked by `npm run typecheck`.
import * as z from 'zod';
import { expectTypeOf } from 'vitest';
import { responseFormat, type DeepPartial, type Gateway, type ParsedChatCompletion, type ParsedChatCompletionStream } from '../../src/index.js';

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
void untyped;
