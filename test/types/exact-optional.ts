// Compiled by `npm run typecheck` with exactOptionalPropertyTypes on (tsconfig.exact.json):
// optional fields take an explicit `undefined`, as values read from the environment or from
// an earlier reply often are.
import { Gateway, memoryStore, type ChatCompletionMessageParam, type RequestOptions } from 'unified-gateway';
import { redisStore } from 'unified-gateway/redis';
import { createMockGateway } from 'unified-gateway/testing';

const maybe = (): string | undefined => undefined;
const client = new Gateway({ apiKey: maybe(), baseURL: process.env.GATEWAY_BASE_URL, backupBaseURL: maybe(), timeout: undefined, hooks: { onRetry: undefined } });

export async function reply(): Promise<void> {
  const first = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], temperature: undefined, tools: undefined });
  const message = first.choices[0]?.message;
  const history: ChatCompletionMessageParam[] = [{ role: 'assistant', content: message?.content, tool_calls: message?.tool_calls }];
  const options: RequestOptions = { signal: undefined, timeout: undefined, maxRetries: undefined, headers: undefined };
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history, stream: undefined }, options);
  await client.images.generate({ model: 'dall-e-3', prompt: 'x', size: undefined, n: undefined });
  await client.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: undefined });
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history, stream: true, stream_options: { include_usage: undefined } });
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: history, response_format: { type: 'json_schema', json_schema: { name: 'answer', description: undefined, schema: undefined, strict: undefined } } });
  await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'x', stream: true, stream_options: { include_usage: undefined } });
  await client.responses.create({
    model: 'gpt-4o-mini',
    input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x.example/a.png', detail: undefined }] }],
    text: { format: { type: 'json_schema', name: 'answer', schema: {}, strict: undefined } },
  });
  await client.videos.generateAndWait({ model: 'vendor_video2', prompt: 'x', duration: 5, async: undefined }, { pollIntervalMs: undefined, onProgress: undefined });
}

export const mock = createMockGateway({ apiKey: maybe(), videoStepMs: undefined, faults: [{ type: 'rate_limit', retryAfter: undefined, path: undefined }] });

// Every optional option of the mock, explicitly undefined.
export const exactMock = createMockGateway({
  apiKey: undefined,
  models: undefined,
  frameDelayMs: undefined,
  stallTimeoutMs: undefined,
  videoStepMs: undefined,
  script: [{ content: undefined, refusal: undefined, finishReason: undefined, toolCalls: [{ name: 'f', arguments: {}, id: undefined }] }],
  faults: [
    { type: 'unavailable', retryAfter: undefined, times: undefined },
    { type: 'rate_limit', retryAfterMs: undefined },
    { type: 'status', status: 500, body: undefined, headers: undefined },
    { type: 'stall', afterFrames: 1, pingEveryMs: undefined },
  ],
});
export const exactServe = (): Promise<unknown> => exactMock.listen({ port: undefined, host: undefined });

export async function stores(): Promise<void> {
  const store = memoryStore({ maxBytes: undefined });
  await store.set('k', 'v', { ttlMs: 1000, ifAbsent: undefined });
  await redisStore({ sendCommand: async () => null }, { prefix: undefined }).set('k', 'v', { ttlMs: 1000, ifAbsent: undefined });
}
