// Type-level tests, checked by `npm run typecheck` (tsc over test/).
import { expectTypeOf } from 'vitest';
import { Gateway, type ChatCompletion, type ChatCompletionStream, type ChatCompletionChunk, type Model, type ModelList } from '../../src/index.js';

declare const client: Gateway;
const messages = [{ role: 'user' as const, content: 'hi' }];

expectTypeOf(client.chat.completions.create({ model: 'm', messages })).toEqualTypeOf<Promise<ChatCompletion>>();
expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: false })).toEqualTypeOf<Promise<ChatCompletion>>();
expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: true })).toEqualTypeOf<Promise<ChatCompletionStream>>();
declare const flag: boolean;
expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: flag })).toEqualTypeOf<Promise<ChatCompletion | ChatCompletionStream>>();

declare const stream: ChatCompletionStream;
expectTypeOf(stream).toMatchTypeOf<AsyncIterable<ChatCompletionChunk>>();
expectTypeOf(stream.finalChatCompletion()).toEqualTypeOf<Promise<ChatCompletion>>();
expectTypeOf(stream.controller).toEqualTypeOf<AbortController>();
expectTypeOf(stream.toReadableStream()).toEqualTypeOf<ReadableStream<Uint8Array>>();

expectTypeOf(client.models.list()).toEqualTypeOf<Promise<ModelList>>();
expectTypeOf(client.models.retrieve('m')).toEqualTypeOf<Promise<Model>>();

// Roles and content parts are checked; a typo in a field name is caught.
// @ts-expect-error unknown role
void client.chat.completions.create({ model: 'm', messages: [{ role: 'robot', content: 'x' }] });
// @ts-expect-error misspelt parameter
void client.chat.completions.create({ model: 'm', messages, temprature: 1 });
// @ts-expect-error a tool message needs tool_call_id
void client.chat.completions.create({ model: 'm', messages: [{ role: 'tool', content: 'x' }] });
// Vendor extras pass when spread from a variable.
const extras = { top_k: 40 };
void client.chat.completions.create({ model: 'm', messages, ...extras });
