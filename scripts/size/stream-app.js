// The streamed app measured by `npm run size`: import Gateway and stream one chat reply.
import { Gateway } from 'unified-gateway';

const client = new Gateway({ apiKey: 'user-scoped-key', baseURL: 'https://gateway.example/v1', dangerouslyAllowBrowser: true });
const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], stream: true });
for await (const chunk of stream) document.body.textContent += chunk.choices[0]?.delta.content ?? '';
