// Bulk embeddings: createMany() embeds a few hundred texts in concurrent batches, then a nearest-neighbour search.
import { EmbeddingBatchError, Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_EMBEDDING_MODEL ?? 'text-embedding-3-small';

// 300 short sentences from a few topics, as a stand-in for the chunks of your documents.
const subjects = ['The cat', 'Our train', 'The storm', 'Quarterly revenue', 'The new recipe', 'The football team'];
const verbs = ['surprised everyone', 'was late again', 'made the news', 'changed overnight', 'went better than planned'];
const places = ['in Lisbon', 'near the harbour', 'at the office', 'in the mountains', 'downtown', 'on Sunday', 'this spring', 'last week', 'after lunch', 'at dawn'];
const corpus = subjects.flatMap((s) => verbs.flatMap((v) => places.map((p) => `${s} ${v} ${p}.`)));

try {
  const { data, usage } = await client.embeddings.createMany(
    { model, input: corpus, dimensions: 256 },
    { batchSize: 50, concurrency: 3, onProgress: ({ done, total }) => console.log(`embedded ${done} of ${total}`) },
  );
  console.log(`${data.length} vectors of ${data[0]?.embedding.length} numbers, ${usage.total_tokens} tokens`);

  // data[i] belongs to corpus[i] (index = the position in the whole input).
  const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
  const cosine = (a: number[], b: number[]) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  for (const query of ['Is the train late?', 'How did revenue do this quarter?']) {
    const [q] = (await client.embeddings.create({ model, input: query, dimensions: 256 })).data;
    const best = data
      .map((d) => ({ text: corpus[d.index], score: cosine(q!.embedding, d.embedding) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    console.log(`"${query}"\n${best.map((b) => `  ${b.score.toFixed(3)}  ${b.text}`).join('\n')}`);
  }
} catch (err) {
  // One batch failed after its retries, or came back without a vector per input: nothing more
  // was sent; start/end say which inputs it held.
  if (err instanceof EmbeddingBatchError) console.log(`inputs ${err.start}..${err.end - 1} failed: ${err.message}`);
  else throw err;
}
