// Legacy text completions, plain and streamed (chat completions are preferred for new code).
import { Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_COMPLETION_MODEL ?? 'gpt-3.5-turbo-instruct';

const res = await client.completions.create({ model, prompt: 'Once upon a time', max_tokens: 20 });
console.log(`completion: ${JSON.stringify(res.choices[0]?.text)}`);

const stream = await client.completions.create({ model, prompt: 'Count: one two', max_tokens: 10, stream: true });
process.stdout.write('streamed:');
for await (const frame of stream) process.stdout.write(frame.choices[0]?.text ?? '');
process.stdout.write('\n');
