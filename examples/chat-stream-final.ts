// Streaming chat, then the whole reply: finalChatCompletion() merges every chunk, usage included.
import { Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const stream = await client.chat.completions.create({
  model,
  messages: [{ role: 'user', content: 'Give me three words for fast.' }],
  stream: true,
  stream_options: { include_usage: true },
});

let chunks = 0;
for await (const chunk of stream) {
  chunks++;
  process.stdout.write(chunk.choices[0]?.delta.content ?? '');
}
process.stdout.write('\n');

// Chunks already read are included; here the stream is finished, so this resolves at once.
const completion = await stream.finalChatCompletion();
console.log(`${chunks} chunks -> "${completion.choices[0]?.message.content}"`);
console.log(`finish_reason: ${completion.choices[0]?.finish_reason}, usage: ${JSON.stringify(completion.usage ?? null)}`);
