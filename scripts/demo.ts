// npm run demo: runs every example in examples/ and prints what each does, then the
// command line (dist/cli.js).
// Without GATEWAY_API_KEY and GATEWAY_BASE_URL it starts the bundled mock gateway on
// 127.0.0.1 and points the examples at it; with both set, the examples talk to the real service.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockGateway } from 'unified-gateway/testing';

const EXAMPLE_TIMEOUT_MS = 60_000;
const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'examples');
// Simple first, then streams, tools and structured outputs, errors, raw responses and resilience.
const order = [
  'chat',
  'chat-stream',
  'chat-stream-final',
  'chat-stream-browser',
  'chat-tools',
  'tools-run',
  'reasoning-tools',
  'structured-outputs',
  'structured-stream',
  'chat-vision',
  'models',
  'typed-model-ids',
  'completions',
  'embeddings',
  'embeddings-bulk',
  'embeddings-stream',
  'images-generate',
  'images-edit',
  'audio-transcription',
  'responses',
  'videos-progress',
  'errors',
  'raw-response',
  'abort',
  'retries-and-failover',
  'model-fallback',
  'fleet',
  'stream-survives-cut',
  'logging',
  'otel-traces',
  'cache',
  'cost',
  'mock-gateway',
  'strict-mock',
  'record-replay',
  'ai-sdk',
];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

function rank(file: string): number {
  const i = order.indexOf(file.replace(/\.ts$/, ''));
  return i < 0 ? order.length : i;
}

const real = Boolean(process.env.GATEWAY_API_KEY && process.env.GATEWAY_BASE_URL);
const env: NodeJS.ProcessEnv = { ...process.env };
let stop = async () => undefined as void;
if (real) {
  console.log(`demo: against ${process.env.GATEWAY_BASE_URL} (GATEWAY_API_KEY is set)\n`);
} else {
  // Video tasks advance every 100 ms so the video example finishes in well under a second.
  const served = await createMockGateway({ apiKey: 'demo-key', videoStepMs: 100 }).listen();
  env.GATEWAY_API_KEY = 'demo-key';
  env.GATEWAY_BASE_URL = served.url;
  env.GATEWAY_DEMO_MOCK = '1';
  delete env.GATEWAY_BACKUP_BASE_URL;
  stop = served.close;
  console.log(`demo: against the bundled mock gateway at ${served.url} (set GATEWAY_API_KEY and GATEWAY_BASE_URL to use the real service)\n`);
}

function describe(file: string): string {
  const first = readFileSync(join(dir, file), 'utf8').split('\n')[0] ?? '';
  return first.replace(/^\/\/\s*/, '');
}

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\n(killed after ${EXAMPLE_TIMEOUT_MS} ms)`;
      child.kill('SIGKILL');
    }, EXAMPLE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

let failed = 0;
async function show(title: string, args: string[]): Promise<void> {
  console.log(`▶ ${title}`);
  const { code, output } = await run(args);
  console.log(output.trimEnd().replace(/^/gm, '    '));
  if (code !== 0) {
    failed++;
    console.log(`    ✗ exited with ${code}`);
  }
  console.log();
}
for (const file of files) await show(`examples/${file}: ${describe(file)}`, ['--import', 'tsx', join(dir, file)]);

// The command line, as a user runs it. Images and videos cost money on the real service:
// those two run against the mock only.
const cli = join(dir, '..', 'dist', 'cli.js');
const out = mkdtempSync(join(tmpdir(), 'unified-gateway-demo-'));
const model = process.env.GATEWAY_MODEL ?? 'gpt-4o-mini';
const cliRuns = [
  ['models'],
  // The real service lists 200+ ids: written to a file there, printed from the mock.
  real ? ['models', '--typescript', '--out', join(out, 'gateway-models.d.ts')] : ['models', '--typescript'],
  ['chat', 'Hello from the command line', '--model', model, '--usage'],
  // What each model takes, measured with the key: one model (a few requests of one token); --yes, since the demo has no terminal.
  ['probe', '--models', model, '--yes'],
  ...(real
    ? []
    : [
        ['image', 'A lighthouse at dawn', '--out', join(out, 'lighthouse.png')],
        ['video', 'Waves at sunset', '--duration', '5', '--out', join(out, 'waves.mp4'), '--poll-ms', '100'],
      ]),
];
for (const args of cliRuns) await show(`unified-gateway ${args.join(' ')}`, [cli, ...args]);
rmSync(out, { recursive: true, force: true });
await stop();
console.log(`demo: ${files.length} examples and ${cliRuns.length} command-line runs, ${failed} failed`);
process.exit(failed ? 1 : 0);
