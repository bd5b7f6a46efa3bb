// Benchmark server, run in its own process so it does not share the client's event loop.
// The path prefix picks the scenario: /<scenario>/v1/chat/completions.
//   json          a small chat completion
//   sse           SSE_FRAMES chat chunks, written in batches, then [DONE]
//   big           about 100 MB of chat chunks, then [DONE]
//   stall         a few chunks, then silence (the socket stays open until the client leaves)
//   ratelimit     POST embeddings, at most RATE requests a second (a token bucket with a
//                 burst of BURST); over it, 429 with retry-after-ms until the next token.
//                 GET /ratelimit/stats gives what was served; POST /ratelimit/reset starts over.
//   vectors       POST embeddings, no limit: one 256-dimension vector per input, base64
//                 (little-endian float32) unless encoding_format is 'float'.
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

const RATE = 100;
const BURST = 5;
const bucket = { tokens: BURST, at: Date.now(), served: 0, limited: 0, first: 0, last: 0 };
/** Takes a token if there is one; else how long until there is, in ms. */
function take() {
  const now = Date.now();
  bucket.tokens = Math.min(BURST, bucket.tokens + ((now - bucket.at) * RATE) / 1000);
  bucket.at = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return Math.ceil(((1 - bucket.tokens) * 1000) / RATE);
}

function rateLimited(req, res, body) {
  if (req.url.endsWith('/stats')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ rate: RATE, served: bucket.served, limited: bucket.limited, spanMs: bucket.last - bucket.first }));
  }
  if (req.url.endsWith('/reset')) {
    Object.assign(bucket, { tokens: BURST, at: Date.now(), served: 0, limited: 0, first: 0, last: 0 });
    return res.end();
  }
  const wait = take();
  if (wait > 0) {
    bucket.limited++;
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': String(wait) });
    return res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }));
  }
  const { input } = JSON.parse(body);
  const data = input.map((_, index) => ({ object: 'embedding', index, embedding: [index, 1, 0.5] }));
  bucket.served++;
  bucket.last = Date.now();
  bucket.first ||= bucket.last;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', model: 'bench-embed', data, usage: { prompt_tokens: input.length, total_tokens: input.length } }));
}

// Pre-rendered vectors (a few, so that consecutive inputs differ), so the server is never the bottleneck.
const DIMS = 256;
const VARIANTS = 16;
const floatVectors = Array.from({ length: VARIANTS }, (_, v) => Float32Array.from({ length: DIMS }, (_, i) => Math.sin(v * DIMS + i)));
const base64Items = floatVectors.map((f) => `,"embedding":"${Buffer.from(f.buffer).toString('base64')}"}`);
const floatItems = floatVectors.map((f) => `,"embedding":${JSON.stringify(Array.from(f))}}`);

function vectors(res, body) {
  const { input, encoding_format } = JSON.parse(body);
  const items = encoding_format === 'float' ? floatItems : base64Items;
  let data = '';
  for (let i = 0; i < input.length; i++) data += `${i ? ',' : ''}{"object":"embedding","index":${i}${items[i % VARIANTS]}`;
  const json = `{"object":"list","model":"bench-embed","data":[${data}],"usage":{"prompt_tokens":${input.length},"total_tokens":${input.length}}}`;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

const server = createServer((req, res) => {
  const scenario = (req.url ?? '').split('/')[1];
  if (scenario === 'ratelimit' || scenario === 'vectors') {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => (scenario === 'vectors' ? vectors(res, body) : rateLimited(req, res, body)));
    return;
  }
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
// Bounded: the runner kills it; this is the backstop (minutes from the first argument, default 15).
setTimeout(() => process.exit(0), Number(process.argv[2] ?? 15) * 60_000).unref();
