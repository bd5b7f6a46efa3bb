// Retries and failover, observed through hooks. Always runs against two local mock gateways
// (faults cannot be scripted on the real service): the main one fails, the backup answers.
import { Gateway } from 'unified-gateway';
import { createMockGateway } from 'unified-gateway/testing';

const main = createMockGateway({ apiKey: 'demo-key' });
const backup = createMockGateway({ apiKey: 'demo-key' });
const [mainServer, backupServer] = await Promise.all([main.listen(), backup.listen()]);

const client = new Gateway({
  apiKey: 'demo-key',
  baseURL: mainServer.url,
  backupBaseURL: backupServer.url,
  hooks: {
    onRetry: (e) => console.log(`  retry #${e.attempt} after ${e.status ?? e.error.name}, waiting ${e.delayMs} ms`),
    onFailover: (e) => console.log(`  failover ${new URL(e.from).port} -> ${new URL(e.to).port}`),
  },
});
const ask = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] });

console.log('1) the main base answers 503: the retry goes straight to the backup');
main.inject({ type: 'unavailable' });
console.log(`  -> ${(await ask()).choices[0]?.message.content}`);

console.log('2) during the cooldown, new requests go to the backup first');
await ask();
console.log(`  main saw ${main.requests.length} request(s), backup ${backup.requests.length}`);

console.log('3) a 429 with Retry-After on the only base is retried after the delay it asks for');
const single = new Gateway({ apiKey: 'demo-key', baseURL: backupServer.url, hooks: { onRetry: (e) => console.log(`  retry after ${e.delayMs} ms`) } });
backup.inject({ type: 'rate_limit', retryAfter: 0.2 });
console.log(`  -> ${(await single.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'again' }] })).choices[0]?.message.content}`);

console.log('4) insufficient_quota is never retried');
backup.inject({ type: 'insufficient_quota' });
await single.models.list().catch((e: Error) => console.log(`  ${e.name}: ${e.message}`));

await Promise.all([mainServer.close(), backupServer.close()]);
