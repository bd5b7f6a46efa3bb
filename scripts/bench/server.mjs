// Benchmark server, run in its own process so it does not share the client's event loop.
// The path prefix picks the scenario: /<scenario>/v1/chat/completions.
//   json          a small chat completion
//   sse           SSE_FRAMES chat chunks, written in batches, then [DONE]
//   big           about 100 MB of chat chunks, then [DONE]
//   stall         a few chunks, then silence (the socket stays open until the client leaves)
import { createServer } from 'node:http';

const SSE_FRAMES = 20_000;
const BIG_BYTES = 100 * 1024 * 1024;

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the benchmark server.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
});

const frame = (i) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench-model', system_fingerprint: 'fp_bench', choices: [{ index: 0, delta: { content: `w${i % 1000} ` }, logprobs: null, finish_reason: null }] })}\n\n`;

// Pre-rendered so the server is never the bottleneck.
const sseBatches = [];
for (let i = 0; i < SSE_FRAMES; i += 100) {
  let batch = '';
  for (let j = i; j < Math.min(i + 100, SSE_FRAMES); j++) batch += frame(j);
  sseBatches.push(Buffer.from(batch));
}
const bigChunk = (() => {
  let s = '';
  for (let i = 0; i < 300; i++) s += frame(i);
  return Buffer.from(s);
})();
const done = Buffer.from('data: [DONE]\n\n');

async function writeAll(res, chunks) {
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
  }
}

const server = createServer((req, res) => {
  const scenario = (req.url ?? '').split('/')[1];
  req.resume();
  req.on('end', async () => {
    if (scenario === 'json') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) });
      return res.end(completion);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (scenario === 'sse') {
      await writeAll(res, sseBatches);
      return res.end(done);
    }
    if (scenario === 'big') {
      const count = Math.ceil(BIG_BYTES / bigChunk.length);
      for (let i = 0; i < count && !res.destroyed; i++) {
        if (!res.write(bigChunk)) await new Promise((r) => res.once('drain', r));
      }
      return res.end(done);
    }
    if (scenario === 'stall') {
      res.write(frame(0) + frame(1) + frame(2));
      return; // silence; the client leaves or the server is killed
    }
    res.end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
// Bounded: the runner kills it; this is the backstop.
setTimeout(() => process.exit(0), 15 * 60_000).unref();
