// Cancelling: an AbortSignal stops a request at once (even mid-backoff); a stream stops with its controller.
import { APIUserAbortError, Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const controller = new AbortController();
controller.abort(); // e.g. the user closed the page
try {
  await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'never sent' }] }, { signal: controller.signal });
} catch (err) {
  if (err instanceof APIUserAbortError) console.log('request aborted before it was sent');
}

const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'count slowly to twenty' }], stream: true });
let received = 0;
try {
  for await (const chunk of stream) {
    received += chunk.choices[0]?.delta.content?.length ?? 0;
    if (received > 5) stream.controller.abort();
  }
} catch (err) {
  if (err instanceof APIUserAbortError) console.log(`stream aborted after ${received} characters`);
  else throw err;
}
