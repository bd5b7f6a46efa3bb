// Streaming chat, then the whole reply at once: finalChatCompletion() merges every chunk.
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
  if (chunks === 2) console.log(`first content: ${JSON.stringify(chunk.choices[0]?.delta.content)}`);
  if (chunks >= 3) break; // stop reading early; the rest is fetched below
}
// Breaking out cancels the HTTP body, so start a new stream to show the full accumulation.
const again = await client.chat.completions.create({
  model,
  messages: [{ role: 'user', content: 'Give me three words for fast.' }],
  stream: true,
  stream_options: { include_usage: true },
});
const completion = await again.finalChatCompletion();
console.log(`final: ${completion.choices[0]?.message.content}`);
console.log(`finish_reason: ${completion.choices[0]?.finish_reason}, usage: ${JSON.stringify(completion.usage ?? null)}`);
