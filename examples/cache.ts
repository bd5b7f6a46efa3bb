// A response cache: a repeated call and a replayed stream answered with nothing sent, and a corpus re-embedded after one edit (only that document sent).
// Always runs against a local mock gateway on 127.0.0.1, whose request log shows what reached the gateway.
import { Gateway, memoryStore, type CacheOutcome } from 'unified-gateway';
import { createMockGateway } from 'unified-gateway/testing';

const mock = createMockGateway({ apiKey: 'demo-key' });
const served = await mock.listen();
const outcomes: CacheOutcome[] = [];
const client = new Gateway({
  apiKey: 'demo-key',
  baseURL: served.url,
  cache: { store: memoryStore({ maxBytes: 16 * 2 ** 20 }), ttl: 60 * 60 * 1000 },
  hooks: { onCache: (e) => outcomes.push(e.outcome) },
});
const sent = () => mock.requests.length;

try {
  console.log('1) the same question, twice');
  const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'What is a lighthouse for?' }], temperature: 0 };
  const first = await client.chat.completions.create(ask).withResponse();
  console.log(`  first:  ${first.cache}, ${JSON.stringify(first.data.choices[0]?.message.content)} (requests the gateway received: ${sent()})`);
  const second = await client.chat.completions.create(ask).withResponse();
  const same = second.data.choices[0]?.message.content === first.data.choices[0]?.message.content;
  console.log(`  second: ${second.cache}, the same answer: ${same}, header x-unified-gateway-cache: ${second.response.headers.get('x-unified-gateway-cache')} (requests: ${sent()})`);

  console.log('2) a streamed story, then the same stream');
  const story = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Tell a two-sentence story about a lighthouse keeper.' }], stream: true as const };
  const read = async () => {
    const { data, cache } = await client.chat.completions.create(story).withResponse();
    const pieces: string[] = [];
    for await (const chunk of data) pieces.push(chunk.choices[0]?.delta.content ?? '');
    return { pieces, cache };
  };
  const live = await read();
  console.log(`  live:     ${live.cache}, ${live.pieces.length} chunks, ${JSON.stringify(live.pieces.join(''))} (requests: ${sent()})`);
  const replayed = await read();
  console.log(`  replayed: ${replayed.cache}, the same ${replayed.pieces.length} chunks in order: ${JSON.stringify(replayed.pieces) === JSON.stringify(live.pieces)} (requests: ${sent()})`);

  console.log('3) a handbook of 200 paragraphs embedded, one paragraph edited, embedded again');
  const model = 'text-embedding-3-small';
  const handbook = Array.from({ length: 200 }, (_, i) => `Paragraph ${i + 1} of the keeper's handbook.`);
  const start = sent();
  await client.embeddings.createMany({ model, input: handbook }, { batchSize: 50 });
  const before = sent();
  console.log(`  first run: ${before - start} requests (batches of 50)`);
  const edited = handbook.map((text, i) => (i === 116 ? `${text} Revised: check the lamp at dusk.` : text));
  outcomes.length = 0;
  const again = await client.embeddings.createMany({ model, input: edited }, { batchSize: 50 });
  const inputs = mock.requests.slice(before).flatMap((r) => (r.body as { input: string[] }).input);
  console.log(`  second run: ${sent() - before} request holding ${inputs.length} input ${JSON.stringify(inputs)}`);
  console.log(`  batches, as they finished: ${outcomes.join(', ')}; ${again.data.length} vectors back, in input order: ${again.data.every((e, i) => e.index === i)}`);
} finally {
  await served.close();
}
