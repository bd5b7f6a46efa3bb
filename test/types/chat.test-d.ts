// Type-level tests, checked by `npm run typecheck` (tsc over test/).
import { expectTypeOf } from 'vitest';
import { chatStreamFromReadable, defineTool, Gateway, responseFormat, streamFromReadable, type StreamFromReadableOptions, type APIPromise, type ChatCompletion, type ChatCompletionStream, type ChatCompletionChunk, type Model, type ModelList } from '../../src/index.js';

declare const client: Gateway;
const messages = [{ role: 'user' as const, content: 'hi' }];

expectTypeOf(client.chat.completions.create({ model: 'm', messages })).toEqualTypeOf<APIPromise<ChatCompletion>>();
expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: false })).toEqualTypeOf<APIPromise<ChatCompletion>>();
expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: true })).toEqualTypeOf<APIPromise<ChatCompletionStream>>();
declare const flag: boolean;
expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: flag })).toEqualTypeOf<APIPromise<ChatCompletion | ChatCompletionStream>>();

declare const stream: ChatCompletionStream;
expectTypeOf(stream).toMatchTypeOf<AsyncIterable<ChatCompletionChunk>>();
expectTypeOf(stream.finalChatCompletion()).toEqualTypeOf<Promise<ChatCompletion>>();
expectTypeOf(stream.controller).toEqualTypeOf<AbortController>();
expectTypeOf(stream.toReadableStream()).toEqualTypeOf<ReadableStream<Uint8Array>>();

expectTypeOf(client.models.list()).toEqualTypeOf<APIPromise<ModelList>>();
expectTypeOf(client.models.retrieve('m')).toEqualTypeOf<APIPromise<Model>>();

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

// Other endpoints: overloads follow the parameters.
import type { Completion, CreateEmbeddingResponse, Response as GatewayResponse, ResponseStream, Stream, Transcription, TranscriptionVerbose, VideoModel, VideoTask } from '../../src/index.js';
expectTypeOf(client.completions.create({ model: 'm', prompt: 'p' })).toEqualTypeOf<APIPromise<Completion>>();
expectTypeOf(client.completions.create({ model: 'm', prompt: 'p', stream: true })).toEqualTypeOf<APIPromise<Stream<Completion>>>();
expectTypeOf(client.embeddings.create({ model: 'm', input: 'x' })).toEqualTypeOf<APIPromise<CreateEmbeddingResponse>>();
expectTypeOf(client.embeddings.create({ model: 'm', input: 'x', encoding_format: 'base64' })).toEqualTypeOf<APIPromise<CreateEmbeddingResponse<string>>>();
declare const audio: Blob;
expectTypeOf(client.audio.transcriptions.create({ model: 'm', file: audio })).toEqualTypeOf<APIPromise<Transcription>>();
expectTypeOf(client.audio.transcriptions.create({ model: 'm', file: audio, response_format: 'srt' })).toEqualTypeOf<APIPromise<string>>();
expectTypeOf(client.audio.transcriptions.create({ model: 'm', file: audio, response_format: 'verbose_json' })).toEqualTypeOf<APIPromise<TranscriptionVerbose>>();
expectTypeOf(client.responses.create({ model: 'm', input: 'x' })).toEqualTypeOf<APIPromise<GatewayResponse>>();
expectTypeOf(client.responses.create({ model: 'm', input: 'x', stream: true })).toEqualTypeOf<APIPromise<ResponseStream>>();
expectTypeOf(client.videos.generateAndWait({ model: 'acme_video2', prompt: 'x', duration: 5 })).toEqualTypeOf<Promise<VideoTask>>();
// @ts-expect-error duration must be 5, 10, 15 or 20
void client.videos.create({ model: 'acme_video2', prompt: 'x', duration: 7 });
// Gateways add video models: any model id compiles.
void client.videos.create({ model: 'acme_video3', prompt: 'x', duration: 5 });
// @ts-expect-error a documented model takes only its documented sizes
void client.images.generate({ model: 'dall-e-3', prompt: 'x', size: '512x512' });
// @ts-expect-error dall-e-2 edits take 256x256, 512x512 or 1024x1024
void client.images.edit({ model: 'dall-e-2', prompt: 'x', image: audio, size: '1792x1024' });
// Other image models take any <w>x<h>, and a model id typed string takes any size.
void client.images.generate({ model: 'flux-pro', prompt: 'x', size: '1440x960' });
declare const someModel: string;
void client.images.generate({ model: someModel, prompt: 'x', size: '512x512' });
// @ts-expect-error image sizes are <w>x<h>
void client.images.generate({ model: 'dall-e-3', prompt: 'x', size: 'large' });

// 0.2: raw responses keep each overload's type; parse() types `parsed` from the schema;
// runTools() types each tool's arguments from its schema.
declare const schema: import('../../src/index.js').StandardSchemaV1<unknown, { city: string }>;
expectTypeOf(client.chat.completions.create({ model: 'm', messages }).withResponse()).resolves.toHaveProperty('data').toEqualTypeOf<ChatCompletion>();
expectTypeOf(client.chat.completions.create({ model: 'm', messages, stream: true }).withResponse()).resolves.toHaveProperty('data').toEqualTypeOf<ChatCompletionStream>();
expectTypeOf(client.models.list().asResponse()).toEqualTypeOf<Promise<Response>>();
const parsed = client.chat.completions.parse({ model: 'm', messages, response_format: responseFormat(schema, 'x') });
expectTypeOf(parsed).resolves.toHaveProperty('choices').items.toHaveProperty('message').toHaveProperty('parsed').toEqualTypeOf<{ city: string } | null>();
const tool = defineTool({ name: 'lookup', parameters: schema, run: (args) => args.city.length });
expectTypeOf(tool.function.name).toEqualTypeOf<'lookup'>();
void client.chat.completions.runTools({ model: 'm', messages, tools: [tool] }, { onStep: (step) => expectTypeOf(step.toolResults[0]?.args).toEqualTypeOf<{ city: string } | undefined>() });
// @ts-expect-error a tool's run receives its schema's output type
defineTool({ name: 'bad', parameters: schema, run: (args: { town: string }) => args.town });
// The documented video models are members of the union, so editors offer them (a
// `${string}_video2` member would absorb them); test/types/completions.test.ts asks an editor.
expectTypeOf<Extract<VideoModel, 'vendor_video2'>>().toEqualTypeOf<'vendor_video2'>();
expectTypeOf<Extract<VideoModel, 'vendor_video2-landscape'>>().toEqualTypeOf<'vendor_video2-landscape'>();
expectTypeOf<'anything'>().toMatchTypeOf<VideoModel>();

// The readers of a route's toReadableStream(): a ChatCompletionStream, or a Stream of the given frames.
expectTypeOf(chatStreamFromReadable).returns.toEqualTypeOf<ChatCompletionStream>();
expectTypeOf(streamFromReadable<{ type: string }>).returns.toEqualTypeOf<Stream<{ type: string }>>();
expectTypeOf(streamFromReadable).parameter(1).toEqualTypeOf<StreamFromReadableOptions | undefined>();

// Without a generated catalogue (this repository has none), ModelCatalog is empty and a model
// id is any string, as before; test/types/model-catalog.test.ts checks a project with one.
import type { ChatCompletionCreateParams, ModelCatalog, ModelId } from '../../src/index.js';
expectTypeOf<keyof ModelCatalog>().toEqualTypeOf<never>();
expectTypeOf<string>().toMatchTypeOf<ModelId>();
expectTypeOf<ModelId>().toMatchTypeOf<string>();
expectTypeOf<string>().toMatchTypeOf<ChatCompletionCreateParams['model']>();
