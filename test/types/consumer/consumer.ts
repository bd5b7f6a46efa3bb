// A user's file. scripts/check-types.mjs copies it into a project that type-checks it
// against the built declarations, as ESM (dist/index.d.ts, verbatimModuleSyntax) and as
// CommonJS (dist/index.d.cts), with strict, exactOptionalPropertyTypes and skipLibCheck off;
// test/types/dist.test.ts runs that with the repo's TypeScript, `npm run check:types-latest`
// with the newest on the registry. `npm run typecheck` checks it against the source.
import { Gateway, NotFoundError, type ChatCompletionCreateParams, type CompletionCreateParams, type ResponseCreateParams, type VideoModel } from 'unified-gateway';
import type { Audio, Chat, ChatCompletions, ChatCompletionStream, Completions, Embeddings, Images, Models, Responses, ResponseStream, Stream, Transcriptions, Videos } from 'unified-gateway';
import { createMockGateway } from 'unified-gateway/testing';

const maybe = (): string | undefined => undefined;
const mock = createMockGateway({ apiKey: maybe() });
const client = new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', fetch: mock.fetch, timeout: undefined });

// The resource and stream classes exist as types only.
export interface Resources {
  audio: Audio;
  transcriptions: Transcriptions;
  chat: Chat;
  chatCompletions: ChatCompletions;
  completions: Completions;
  embeddings: Embeddings;
  images: Images;
  models: Models;
  responses: Responses;
  videos: Videos;
}
export const resources: Resources = {
  audio: client.audio,
  transcriptions: client.audio.transcriptions,
  chat: client.chat,
  chatCompletions: client.chat.completions,
  completions: client.completions,
  embeddings: client.embeddings,
  images: client.images,
  models: client.models,
  responses: client.responses,
  videos: client.videos,
};

// Every optional field takes an explicit `undefined` (exactOptionalPropertyTypes).
const chat: ChatCompletionCreateParams = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'hi' }],
  stream: true,
  stream_options: { include_usage: undefined },
  response_format: { type: 'json_schema', json_schema: { name: 'answer', description: undefined, schema: undefined, strict: undefined } },
};
const completion: CompletionCreateParams = { model: 'm', prompt: 'p', stream: true, stream_options: { include_usage: undefined } };
const response: ResponseCreateParams = {
  model: 'm',
  input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x.example/a.png', detail: undefined }] }],
  text: { format: { type: 'json_schema', name: 'n', schema: {}, strict: undefined } },
};

// The documented video models are literal members (editors offer them); any id is accepted.
export const videoModels: VideoModel[] = ['vendor_video2', 'vendor_video2-landscape', 'acme_video3'];

export async function run(): Promise<string> {
  const chatStream: ChatCompletionStream = await client.chat.completions.create({ ...chat, stream: true });
  const completionStream: Stream<unknown> = await client.completions.create({ ...completion, stream: true });
  const responseStream: ResponseStream = await client.responses.create({ ...response, stream: true });
  const missing = await client.models.retrieve('nope').catch((error: unknown) => error);
  return [chatStream.controller.signal.aborted, completionStream.controller.signal.aborted, responseStream.controller.signal.aborted, missing instanceof NotFoundError].join();
}
