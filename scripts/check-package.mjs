// npm run check:package: what a user installs, checked as a user gets it.
// 1. npm pack; 2. publint and @arethetypeswrong/cli on the tarball; 3. a fresh project
// installs the tarball and runs an ESM (.mjs) and a CJS (.cjs) consumer against the mock.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
console.log('package check: publint, attw, ESM and CJS consumers all pass');
