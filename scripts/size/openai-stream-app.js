// The official client doing what stream-app.js does, measured the same way for comparison.
import OpenAI from 'openai';

const client = new OpenAI({ apiKey: 'user-scoped-key', baseURL: 'https://gateway.example/v1', dangerouslyAllowBrowser: true });
const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], stream: true });
for await (const chunk of stream) document.body.textContent += chunk.choices[0]?.delta.content ?? '';
