// Embeddings at any scale: iterate() embeds a text file line by line into a JSONL file, with a progress display, in bounded memory.
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { EmbeddingBatchError, Gateway } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_EMBEDDING_MODEL ?? 'text-embedding-3-small';

// Usage: embeddings-stream.ts [input.txt [output.jsonl]]; the output defaults to vectors.jsonl.
// Without arguments, a sample of 5,000 lines (every seventh blank) in a temporary folder,
// removed at the end.
const sample = process.argv.length <= 2;
const dir = sample ? mkdtempSync(join(tmpdir(), 'embeddings-stream-')) : undefined;
const inputFile = dir ? join(dir, 'lines.txt') : (process.argv[2] as string);
const outputFile = dir ? join(dir, 'vectors.jsonl') : (process.argv[3] ?? 'vectors.jsonl');
if (dir) writeFileSync(inputFile, Array.from({ length: 5_000 }, (_, i) => (i % 7 === 6 ? '' : `Note ${i + 1}, about topic ${i % 40}.`)).join('\n'));

// The texts, read from the file as iterate() asks for them. Blank lines are skipped (an empty
// input is refused), so each text's line number goes into a queue, taken back in order below.
const lineNumbers: number[] = [];
async function* texts(file: string) {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    n++;
    if (line.trim() === '') continue;
    lineNumbers.push(n);
    yield line;
  }
}

const out = createWriteStream(outputFile);
const started = Date.now();
const progress = (done: number) => {
  const line = `embedded ${done} lines (${Math.round(done / ((Date.now() - started) / 1000 || 1))} / s)`;
  // A terminal gets one line redrawn; a log gets a line now and then.
  if (process.stdout.isTTY) process.stdout.write(`\r${line}`);
  else if (done % 1_000 < 250) console.log(line);
};

let written = 0;
try {
  for await (const e of client.embeddings.iterate(
    { model, input: texts(inputFile), dimensions: 256 },
    { batchSize: 250, concurrency: 4, float32: true, onProgress: ({ done }) => progress(done) },
  )) {
    // e.embedding is a Float32Array: 1 KB for 256 dimensions. Written, then let go.
    const line = JSON.stringify({ line: lineNumbers.shift(), embedding: Array.from(e.embedding) });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
    written++;
  }
  if (process.stdout.isTTY) process.stdout.write('\n');
  console.log(`wrote ${written} vectors of 256 dimensions to ${dir ? 'a sample file, now removed' : outputFile}`);
} catch (err) {
  // Every vector before err.start was written: run again on the rest to resume.
  if (err instanceof EmbeddingBatchError) console.log(`stopped at input ${err.start} (${written} written): ${err.message}`);
  else throw err;
} finally {
  out.end();
  await once(out, 'close');
  if (dir) rmSync(dir, { recursive: true, force: true });
}
