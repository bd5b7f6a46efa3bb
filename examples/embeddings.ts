// Embeddings: vectors for several texts, and the cosine similarity between them.
import { Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_EMBEDDING_MODEL ?? 'text-embedding-3-small';

const texts = ['The cat sat on the mat.', 'A cat was sitting on a rug.', 'Quarterly revenue grew 4%.'];
const { data, usage } = await client.embeddings.create({ model, input: texts, dimensions: 256 });

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0) / (Math.hypot(...a) * Math.hypot(...b));
console.log(`${data.length} vectors of ${data[0]?.embedding.length} numbers (${usage.total_tokens} tokens)`);
console.log(`similarity 1~2: ${cosine(data[0]!.embedding, data[1]!.embedding).toFixed(3)}, 1~3: ${cosine(data[0]!.embedding, data[2]!.embedding).toFixed(3)}`);
