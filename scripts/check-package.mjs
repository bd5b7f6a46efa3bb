// npm run check:package: what a user installs, checked as a user gets it.
// 1. npm pack; 2. publint and @arethetypeswrong/cli on the tarball; 3. a fresh project
// installs the tarball and runs an ESM (.mjs) and a CJS (.cjs) consumer against the mock.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = join(root, '.tmp', 'package-check');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args, cwd = root) => {
  console.log(`$ ${[cmd, ...args].map((a) => a.replace(root, '')).join(' ')}`);
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 180_000 });
};

rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'consumer'), { recursive: true });
const tarball = join(work, run('npm', ['pack', '--silent', '--pack-destination', work]).trim().split('\n').pop());

console.log(run(bin('publint'), [tarball]).trim());
console.log(run(bin('attw'), [tarball, '--format', 'table']).trim());

const consumer = join(work, 'consumer');
writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }));
run('npm', ['install', '--no-audit', '--no-fund', '--silent', tarball], consumer);

const body = `
const mock = createMockGateway({ apiKey: 'k' });
const client = new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', fetch: mock.fetch });
const main = async () => {
  const chat = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'streamed' }], stream: true });
  const final = await stream.finalChatCompletion();
  const emb = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 3 });
  const err = await client.models.retrieve('nope').catch((e) => e);
  const file = await toFile(new Uint8Array([1, 2, 3]), 'a.png');
  const checks = [
    chat.choices[0].message.content === 'You said: hi',
    final.choices[0].message.content === 'You said: streamed',
    emb.data[0].embedding.length === 3,
    err instanceof NotFoundError && Gateway.NotFoundError === NotFoundError,
    DefaultExport === Gateway,
    file.name === 'a.png',
  ];
  if (checks.includes(false)) throw new Error('consumer checks failed: ' + JSON.stringify(checks));
  console.log('ok');
};
`;
writeFileSync(
  join(consumer, 'esm.mjs'),
  `import DefaultExport, { Gateway, NotFoundError, toFile } from 'unified-gateway';\nimport { createMockGateway } from 'unified-gateway/testing';\n${body}\nawait main();\n`,
);
writeFileSync(
  join(consumer, 'cjs.cjs'),
  `const { Gateway, NotFoundError, toFile, default: DefaultExport } = require('unified-gateway');\nconst { createMockGateway } = require('unified-gateway/testing');\n${body}\nmain().catch((e) => { console.error(e); process.exit(1); });\n`,
);
for (const file of ['esm.mjs', 'cjs.cjs']) {
  const out = run(process.execPath, [file], consumer).trim();
  if (out !== 'ok') throw new Error(`${file} printed ${out}`);
  console.log(`${file}: ok`);
}

// The optional peers stay out of a plain install.
for (const peer of ['@opentelemetry/api', 'redis', 'ioredis']) {
  if (existsSync(join(consumer, 'node_modules', peer))) throw new Error(`installing the package installed its optional peer ${peer}`);
}

// unified-gateway/otel, with @opentelemetry/api (its optional peer) installed beside it: a
// tracer provider written against the API alone records the span names.
run('npm', ['install', '--no-audit', '--no-fund', '--silent', '@opentelemetry/api@^1.7.0'], consumer);
const otelBody = `
const names = [];
const span = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 });
const tracerProvider = { getTracer: () => ({ startSpan: (name) => (names.push(name), span), startActiveSpan: () => undefined }) };
const mock = createMockGateway({ apiKey: 'k' });
const client = new Gateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', fetch: mock.fetch, telemetry: openTelemetry({ tracerProvider }) });
const main = async () => {
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  if (names.join() !== 'chat gpt-4o-mini,POST /v1/chat/completions') throw new Error('otel consumer saw ' + names.join());
  console.log('ok');
};
`;
writeFileSync(
  join(consumer, 'otel-esm.mjs'),
  `import { Gateway } from 'unified-gateway';\nimport { openTelemetry } from 'unified-gateway/otel';\nimport { createMockGateway } from 'unified-gateway/testing';\nimport { trace } from '@opentelemetry/api';\n${otelBody}\nawait main();\n`,
);
writeFileSync(
  join(consumer, 'otel-cjs.cjs'),
  `const { Gateway } = require('unified-gateway');\nconst { openTelemetry } = require('unified-gateway/otel');\nconst { createMockGateway } = require('unified-gateway/testing');\nconst { trace } = require('@opentelemetry/api');\n${otelBody}\nmain().catch((e) => { console.error(e); process.exit(1); });\n`,
);
for (const file of ['otel-esm.mjs', 'otel-cjs.cjs']) {
  const out = run(process.execPath, [file], consumer).trim();
  if (out !== 'ok') throw new Error(`${file} printed ${out}`);
  console.log(`${file}: ok`);
}

// unified-gateway/ai-sdk in a project that installed only `ai`, `zod` and the tarball:
// ESM and CJS against the mock, and its declarations checked against ai's own types.
const aiConsumer = join(work, 'ai-consumer');
mkdirSync(aiConsumer, { recursive: true });
writeFileSync(join(aiConsumer, 'package.json'), JSON.stringify({ name: 'ai-consumer', private: true, version: '0.0.0', type: 'module' }));
run('npm', ['install', '--no-audit', '--no-fund', '--silent', tarball, 'ai@6', 'zod@4'], aiConsumer);
const aiBody = `
const mock = createMockGateway({ apiKey: 'k' });
const gw = createUnifiedGateway({ apiKey: 'k', baseURL: 'http://mock.local/v1', fetch: mock.fetch });
const main = async () => {
  const { text } = await generateText({ model: gw('gpt-4o-mini'), prompt: 'hi' });
  const streamed = streamText({ model: gw('gpt-4o-mini'), prompt: 'streamed' });
  const usage = await streamed.usage;
  const err = await generateText({ model: gw('nope'), prompt: 'x' }).catch((e) => e);
  const checks = [text === 'You said: hi', (await streamed.text) === 'You said: streamed', usage.totalTokens > 0, APICallError.isInstance(err) && err.statusCode === 404];
  if (checks.includes(false)) throw new Error('ai consumer checks failed: ' + JSON.stringify(checks));
  console.log('ok');
};
`;
writeFileSync(join(aiConsumer, 'esm.mjs'), `import { APICallError, generateText, streamText } from 'ai';\nimport { createUnifiedGateway } from 'unified-gateway/ai-sdk';\nimport { createMockGateway } from 'unified-gateway/testing';\n${aiBody}\nawait main();\n`);
writeFileSync(
  join(aiConsumer, 'cjs.cjs'),
  `const { APICallError, generateText, streamText } = require('ai');\nconst { createUnifiedGateway } = require('unified-gateway/ai-sdk');\nconst { createMockGateway } = require('unified-gateway/testing');\n${aiBody}\nmain().catch((e) => { console.error(e); process.exit(1); });\n`,
);
writeFileSync(
  join(aiConsumer, 'types.ts'),
  `import { embedMany, generateText, type LanguageModel, type EmbeddingModel } from 'ai';\nimport { Gateway } from 'unified-gateway';\nimport { createUnifiedGateway, unifiedGateway } from 'unified-gateway/ai-sdk';\nconst gw = createUnifiedGateway({ client: new Gateway({ apiKey: 'k', baseURL: 'http://x/v1' }) });\nconst model: LanguageModel = gw('gpt-4o-mini');\nconst embedding: EmbeddingModel = unifiedGateway.embeddingModel('e');\nexport const calls = [generateText({ model, prompt: 'x' }), embedMany({ model: embedding, values: ['a'] })];\n`,
);
for (const file of ['esm.mjs', 'cjs.cjs']) {
  const out = run(process.execPath, [file], aiConsumer).trim();
  if (out !== 'ok') throw new Error(`ai-consumer/${file} printed ${out}`);
  console.log(`ai-consumer/${file}: ok`);
}
run(bin('tsc'), ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', 'types.ts'], aiConsumer);
console.log('ai-consumer/types.ts: ok');
// unified-gateway/redis with node-redis and ioredis (its optional peers) installed beside it,
// majors 5 then 6, against a redis-server of this machine: ESM and CJS, and its declarations
// checked with both libraries' own client types.
const redisServer = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'redis-server')).find((f) => existsSync(f));
if (!redisServer && process.env.CI) throw new Error('redis-server is not installed: apt-get install redis-server');
if (!redisServer) {
  console.log('redis consumer: skipped, redis-server is not installed (apt-get install redis-server)');
} else {
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'ug-redis-'));
  const server = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  try {
    const pong = () =>
      new Promise((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
        socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
        socket.on('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
        socket.on('error', () => resolve(false));
      });
    let up = false;
    for (let i = 0; i < 100 && !up; i++) up = (await pong()) || (await new Promise((r) => setTimeout(() => r(false), 50)));
    if (!up) throw new Error(`redis-server did not answer on port ${port}`);
    for (const major of [5, 6]) {
      run('npm', ['install', '--no-audit', '--no-fund', '--silent', `redis@^${major}`, `ioredis@^${major}`, '@types/node@^20'], consumer);
      const redisBody = (prefix) => `
const url = 'redis://127.0.0.1:${port}';
const main = async () => {
  const node = await createClient({ url }).on('error', () => {}).connect();
  const io = new Redis(url);
  io.on('error', () => {});
  const results = [];
  for (const client of [node, io]) {
    const store = redisStore(client, { prefix: '${prefix}' });
    await store.set('k', 'v', { ttlMs: 60_000 });
    results.push((await store.get(['k', 'none'])).join(), (await store.take('b', { amount: 3, perMs: 0.001, capacity: 5, maxWaitMs: 0 })).taken);
  }
  node.destroy();
  io.disconnect();
  if (results.join('|') !== 'v,|true|v,|false') throw new Error('redis consumer saw ' + results.join('|'));
  console.log('ok');
};
`;
      writeFileSync(join(consumer, 'redis-esm.mjs'), `import { createClient } from 'redis';\nimport { Redis } from 'ioredis';\nimport { redisStore } from 'unified-gateway/redis';\n${redisBody(`esm-${major}`)}\nawait main();\n`);
      writeFileSync(join(consumer, 'redis-cjs.cjs'), `const { createClient } = require('redis');\nconst { Redis } = require('ioredis');\nconst { redisStore } = require('unified-gateway/redis');\n${redisBody(`cjs-${major}`)}\nmain().catch((e) => { console.error(e); process.exit(1); });\n`);
      for (const file of ['redis-esm.mjs', 'redis-cjs.cjs']) {
        const out = run(process.execPath, [file], consumer).trim();
        if (out !== 'ok') throw new Error(`${file} (redis ${major}) printed ${out}`);
        console.log(`${file} (redis and ioredis ${major}): ok`);
      }
      writeFileSync(
        join(consumer, 'redis-types.mts'),
        `import { createClient, createCluster } from 'redis';\nimport { Cluster, Redis } from 'ioredis';\nimport { memoryStore, type Store } from 'unified-gateway';\nimport { redisStore } from 'unified-gateway/redis';\nexport const stores: Store[] = [redisStore(createClient()), redisStore(createCluster({ rootNodes: [] })), redisStore(new Redis({ lazyConnect: true }), { prefix: 'x' }), redisStore(new Cluster([], { lazyConnect: true })), memoryStore()];\n`,
      );
      run(bin('tsc'), ['--noEmit', '--strict', '--exactOptionalPropertyTypes', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', 'redis-types.mts'], consumer);
      console.log(`redis-types.mts (redis and ioredis ${major}): ok`);
    }
  } finally {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log('package check: publint, attw, ESM and CJS consumers (otel, ai-sdk and redis included) all pass');
