// A stream that survives a dropped connection: cut before its first text it is retried and completes; cut after text it throws StreamInterruptedError with the text so far.
// Always runs against a local mock gateway on 127.0.0.1 (cuts cannot be scripted on the real service).
import { Gateway, StreamInterruptedError, type ChatCompletion, type ChatCompletionMessageParam } from 'unified-gateway';
import { createMockGateway } from 'unified-gateway/testing';

const mock = createMockGateway({ apiKey: 'demo-key' });
const served = await mock.listen();
const client = new Gateway({
  apiKey: 'demo-key',
  baseURL: served.url,
  hooks: {
    onResponse: (e) => console.log(`  attempt ${e.attempt}: HTTP ${e.status}`),
    onRetry: (e) => console.log(`  attempt ${e.attempt} failed before any text (${e.error.name}), retrying in ${e.delayMs} ms`),
  },
});
const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Describe a lighthouse at night' }];

let shown = ''; // what the loop received, as a UI would have shown it
async function streamOnce(): Promise<string> {
  shown = '';
  const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
  for await (const chunk of stream) shown += chunk.choices[0]?.delta.content ?? '';
  return shown;
}

try {
  console.log('1) the connection drops after the role-only first chunk: nothing reached you, so it is retried');
  mock.inject({ type: 'stream_cut', afterFrames: 1, path: 'chat/completions' });
  console.log(`  -> ${JSON.stringify(await streamOnce())} (${mock.requests.length} requests)`);

  console.log('2) the connection drops after two pieces of text: not retried, the text so far is kept');
  mock.reset();
  mock.inject({ type: 'stream_cut', afterFrames: 3, path: 'chat/completions' });
  const err = await streamOnce().catch((e: unknown) => e);
  if (!(err instanceof StreamInterruptedError)) throw new Error(`expected a StreamInterruptedError, got ${String(err)}`);
  const partial = err.partial as ChatCompletion | undefined;
  const kept = partial?.choices[0]?.message.content ?? '';
  console.log(`  ${err.name}, partial ${JSON.stringify(kept)}, finish_reason ${partial?.choices[0]?.finish_reason} (${mock.requests.length} request)`);
  console.log(`  the partial is exactly what the loop received: ${kept === shown}`);

  console.log('3) continue the conversation from the partial: sent back as the assistant turn');
  const rest = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [...messages, { role: 'assistant', content: kept }, { role: 'user', content: 'Continue exactly where you stopped.' }],
  });
  console.log(`  -> ${JSON.stringify(rest.choices[0]?.message.content)}`);
} finally {
  await served.close();
}
