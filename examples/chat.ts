// Chat: one question, one answer.
import { Gateway } from 'unified-gateway';

const client = new Gateway(); // reads GATEWAY_API_KEY and GATEWAY_BASE_URL
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const completion = await client.chat.completions.create({
  model,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Name one prime number above 10.' },
  ],
  temperature: 0.2,
  max_tokens: 50,
});

console.log(completion.choices[0]?.message.content);
console.log(`tokens: ${completion.usage?.total_tokens ?? 'n/a'}`);
