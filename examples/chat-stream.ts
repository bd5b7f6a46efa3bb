// Streaming chat: print tokens as they arrive.
import { Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const stream = await client.chat.completions.create({
  model,
  messages: [{ role: 'user', content: 'Write a haiku about retries.' }],
  stream: true,
});

for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta.content ?? '');
}
process.stdout.write('\n');
