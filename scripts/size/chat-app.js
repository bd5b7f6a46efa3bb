// The app measured by `npm run size`: import Gateway and make one chat call.
import { Gateway } from 'unified-gateway';

const client = new Gateway({ apiKey: 'user-scoped-key', baseURL: 'https://gateway.example/v1', dangerouslyAllowBrowser: true });
const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
document.body.textContent = completion.choices[0]?.message.content ?? '';
