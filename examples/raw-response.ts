// Raw responses: withResponse() gives the result with its headers and request id; asResponse() the unread Response.
import { Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

const { data, response, requestID } = await client.chat.completions
  .create({ model, messages: [{ role: 'user', content: 'Say hi.' }] })
  .withResponse();
console.log(`reply: ${data.choices[0]?.message.content}`);
console.log(`status ${response.status}, request id ${requestID ?? '(none)'}`);
// Sent by gateways that pass on the upstream's rate-limit state; many send none.
for (const name of ['x-ratelimit-remaining-requests', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-requests']) {
  console.log(`${name}: ${response.headers.get(name) ?? '(not sent)'}`);
}

// The body unread and unparsed: e.g. to pass it on as is. Call asResponse() before awaiting.
const raw = await client.models.list().asResponse();
const text = await raw.text();
console.log(`models: ${raw.headers.get('content-type')}, ${text.length} bytes, starts ${text.slice(0, 40)}…`);
