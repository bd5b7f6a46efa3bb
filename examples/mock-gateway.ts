// Testing your own code: the mock gateway as a fetch function, with scripted faults and a request log.
import { Gateway, ServiceUnavailableError } from 'unified-gateway';
import { createMockGateway } from 'unified-gateway/testing';

// Your application code, written against the SDK.
async function summarise(client: Gateway, text: string): Promise<string> {
  const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
  return res.choices[0]?.message.content ?? '';
}

const mock = createMockGateway({ apiKey: 'test-key' });
const client = new Gateway({ apiKey: 'test-key', baseURL: 'http://mock.local/v1', fetch: mock.fetch, maxRetries: 1 });

console.log(`happy path: ${await summarise(client, 'hello')}`);

mock.inject({ type: 'server_error' }); // one 500, recovered by the SDK's retry
console.log(`after one 500: ${await summarise(client, 'again')}`);

mock.inject({ type: 'unavailable', times: 2 }); // more failures than retries
await summarise(client, 'fails').catch((e) => console.log(`surfaced to the app: ${e instanceof ServiceUnavailableError ? 'ServiceUnavailableError' : e}`));

console.log(`the mock saw ${mock.requests.length} requests to ${[...new Set(mock.requests.map((r) => r.path))].join(', ')}`);
