// Embeddings at scale: memory while embeddings.iterate() streams a million inputs, and its
// throughput against a rate-limited server. Part of `npm run bench`; alone (after `npm run
// build`): `node scripts/bench/embeddings.mjs`, which rewrites only its own section of
// docs/benchmarks.md. Each measurement runs in a fresh process (client.mjs) against
// server.mjs in another; a few minutes on 2 cores.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withSection } from './sections.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MILLION = 1_000_000;
const RATE_RUNS = 3;
const HEADING = '## Embeddings at any scale';

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : String(n));
const verdict = (ok) => (ok ? 'met' : '**not met**');

/** Runs every embeddings measurement, each in a fresh process; returns the figures. */
export async function runEmbeddingBenchmarks(log = (line) => process.stdout.write(`${line}\n`)) {
  const server = spawn(process.execPath, [join(root, 'scripts/bench/server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
    const measure = (scenario, env, extra = []) =>
      JSON.parse(
        execFileSync(process.execPath, [...extra, join(root, 'scripts/bench/client.mjs'), 'ours', scenario, port, '1'], { cwd: root, encoding: 'utf8', timeout: 600_000, env: { ...process.env, ...env } })
          .trim()
          .split('\n')
          .pop(),
      );
    const memory = [];
    for (const [method, vectors, inputs] of [
      ['iterate', 'float32', MILLION],
      ['iterate', 'number', MILLION],
      ['createMany', 'number', 100_000],
    ]) {
      memory.push(measure('embed-memory', { BENCH_EMBED_METHOD: method, BENCH_EMBED_VECTORS: vectors, BENCH_EMBED_INPUTS: String(inputs) }, ['--expose-gc']));
      log(`embeddings: ${method} of ${inputs} inputs (${vectors}) done`);
    }
    const rate = [];
    for (let i = 0; i < RATE_RUNS; i++) {
      rate.push(measure('iterate-ratelimit', { BENCH_EMBED_INPUTS: '30000' }));
      log(`embeddings: rate-limited run ${i + 1}/${RATE_RUNS} done`);
    }
    return { memory, rate, load: loadavg()[0] };
  } finally {
    server.kill();
  }
}

/** The section of docs/benchmarks.md these figures make. */
export function embeddingsSection({ memory, rate, load }) {
  const streamed = memory.filter((m) => m.method === 'iterate');
  const perSecond = (r) => r.stats.served / (r.ms[0] / 1000);
  const ratios = rate.map((r) => perSecond(r) / r.stats.rate).sort((a, b) => a - b);
  const medianRatio = ratios[ratios.length >> 1];
  return `${HEADING}: a million inputs, and a rate limit

\`embeddings.iterate\` reads its input as it goes and holds at most \`2 × concurrency\` batches,
so memory should not depend on the input's length. Measured in a fresh process (\`--expose-gc\`)
against a local server (127.0.0.1, \`scripts/bench/server.mjs\` "vectors", no limit) that
answers every input with a 256-dimension vector, base64-encoded as the real API does. The
input is a generator of \`text number <i>\` strings, batches of 500, concurrency 4; the
consumer checks each vector's \`index\` and dimensions and reads one value of it. After a
5,000-input warm-up and two \`gc()\` calls, \`process.memoryUsage()\` is sampled every 10 ms
(as often as the event loop allows) and the largest growth over that baseline reported:
the V8 heap (\`heapUsed\`), the buffers outside it (\`arrayBuffers\`, where a \`Float32Array\`'s
bytes live) and the process (RSS).

| method | inputs | vectors | time | heap growth, peak | arrayBuffers growth, peak | RSS growth, peak |
|---|---|---|---|---|---|---|
${memory.map((m) => `| ${m.method} | ${m.inputs.toLocaleString('en-US')} | ${m.float32 ? '`Float32Array` (`float32: true`)' : '`number[]`'} | ${fmt(m.ms[0] / 1000)} s | ${fmt(m.heapPeakMB)} MB | ${fmt(m.arrayBuffersPeakMB)} MB | ${fmt(m.rssPeakMB)} MB |`).join('\n')}

Target: a million inputs streamed with peak heap growth under 200 MB (${verdict(streamed.every((m) => m.inputs === MILLION && m.heapPeakMB < 200))}). The
\`createMany\` row is for scale: it holds every vector until it resolves, so its memory grows
with the input (here a tenth of the inputs); a million \`number[]\` vectors of 1,536
dimensions, as a new user would ask for, do not fit in a default Node heap.

Throughput: \`embeddings.iterate\` of 30,000 inputs (batches of 50, concurrency 8,
\`maxRetries: 20\`) against the server's "ratelimit" scenario, which serves ${rate[0].stats.rate} requests a
second (a token bucket with a burst of 5) and answers 429 with \`retry-after-ms\` above it.
After a one-request warm-up (the code loaded, a connection open) the server's count starts
over; time is the whole loop's wall time, from the call to the last vector.

| run | time | requests served | 429s | served / s | vs the limit |
|---|---|---|---|---|---|
${rate.map((r, i) => `| ${i + 1} | ${fmt(r.ms[0] / 1000, 2)} s | ${r.stats.served} | ${r.stats.limited} | ${fmt(perSecond(r), 0)} | ${fmt(perSecond(r) / r.stats.rate, 2)}× |`).join('\n')}

Every vector came back, in input order. Target: at least 0.9 of the server's limit, on the
median of the runs: ${fmt(medianRatio, 2)}× (${verdict(medianRatio >= 0.9)}). Concurrency halves on a burst of 429s and grows back by
one after a run of successes, as in \`createMany\` above, so it spends most of the run at
1 to 3 requests in flight: enough while a round trip to the server takes under 10 ms. On
a machine busy enough to stretch round trips past that (the 1-minute load average was
${fmt(load, 1)} on ${cpus().length} cores at the end of these runs), a run falls below the limit by as much.

Rerun this section alone: \`npm run build && node scripts/bench/embeddings.mjs\`.
`;
}

/** Replaces this section of `markdown` (or adds it before the browser bundles). */
export function withEmbeddingsSection(markdown, section) {
  return withSection(markdown, HEADING, section, '## Browser bundles');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const section = embeddingsSection(await runEmbeddingBenchmarks());
  const docs = join(root, 'docs/benchmarks.md');
  writeFileSync(docs, withEmbeddingsSection(readFileSync(docs, 'utf8'), section));
  console.log(section);
}
