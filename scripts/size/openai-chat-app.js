// The official client doing what chat-app.js does, measured the same way for comparison.
import OpenAI from 'openai';

const client = new OpenAI({ apiKey: 'user-scoped-key', baseURL: 'https://gateway.example/v1', dangerouslyAllowBrowser: true });
const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
document.body.textContent = completion.choices[0]?.message.content ?? '';
