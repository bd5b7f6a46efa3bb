// The responses endpoint: one call with output_text, then a stream of typed events.
import { Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const response = await client.responses.create({ model, instructions: 'Answer in one sentence.', input: 'What is a gateway?' });
console.log(`output_text: ${response.output_text}`);

const stream = await client.responses.create({ model, input: 'Stream a short greeting.', stream: true });
process.stdout.write('streamed: ');
for await (const event of stream) {
  if (event.type === 'response.output_text.delta') process.stdout.write(event.delta);
  if (event.type === 'response.completed') process.stdout.write(`  [${event.response.status}, ${event.response.usage?.total_tokens ?? '?'} tokens]\n`);
}
