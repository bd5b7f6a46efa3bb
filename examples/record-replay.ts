// Record and replay for your own tests: record the gateway's answers once, replay them with no network, and see what a changed request says.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gateway } from 'unified-gateway';
import { CassetteNotFoundError, recorder } from 'unified-gateway/testing';

const model = process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini';

// Your application code, written against the SDK: one answer, and one streamed.
async function tagline(client: Gateway, product: string): Promise<string> {
  const res = await client.chat.completions.create({ model, messages: [{ role: 'user', content: `A five-word tagline for ${product}.` }], temperature: 0 });
  return res.choices[0]?.message.content ?? '';
}
async function story(client: Gateway): Promise<string> {
  const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Tell a two-sentence story about a lighthouse.' }], temperature: 0, stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

// In a project this is a committed folder such as test/cassettes.
const dir = mkdtempSync(join(tmpdir(), 'cassettes-'));
try {
  // 1. Record against the gateway (GATEWAY_API_KEY, GATEWAY_BASE_URL): one cassette per request.
  const rec = recorder({ dir, mode: 'record' });
  const live = new Gateway({ fetch: rec.fetch });
  const said = await tagline(live, 'a paper boat');
  const told = await story(live);
  const files = readdirSync(dir);
  const key = process.env.GATEWAY_API_KEY ?? '';
  console.log(`recorded ${files.length} cassettes: ${files.join(', ')}`);
  console.log(`the key in any of them: ${key !== '' && files.some((f) => readFileSync(join(dir, f), 'utf8').includes(key))}`);

  // 2. Replay: another host, no key, and a fetch that refuses the network.
  const replay = recorder({ dir, mode: 'replay', fetch: () => Promise.reject(new Error('replay must not reach the network')) });
  const offline = new Gateway({ apiKey: 'not-a-key', baseURL: 'https://offline.invalid/v1', fetch: replay.fetch });
  console.log(`replayed answer identical: ${(await tagline(offline, 'a paper boat')) === said}`);
  console.log(`replayed stream identical: ${(await story(offline)) === told}`);
  console.log(`replay entries: ${replay.entries.map((e) => `${e.action} ${e.method} ${e.path}`).join('; ')}`);

  // 3. The app changed its prompt: no cassette, nothing sent, and the message says what differs.
  const err = await tagline(offline, 'a paper plane').catch((e: unknown) => e);
  if (err instanceof CassetteNotFoundError) {
    console.log(`a changed request is refused before sending (${err.name}):`);
    console.log(err.message.replace(/^/gm, '  '));
  } else {
    throw new Error(`expected a CassetteNotFoundError, got ${String(err)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
