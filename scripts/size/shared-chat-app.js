// A chat app whose client has a memory store and a response cache: what one chat call loads,
// the chunks loaded on first use (the cache's stages, the fleet's shared half) included.
import { Gateway, memoryStore } from 'unified-gateway';

const client = new Gateway({ apiKey: 'user-scoped-key', baseURL: 'https://gateway.example/v1', dangerouslyAllowBrowser: true, store: memoryStore(), cache: {} });
const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
document.body.textContent = completion.choices[0]?.message.content ?? '';
