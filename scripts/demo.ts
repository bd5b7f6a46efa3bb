// npm run demo: runs every example in examples/ and prints what each does.
// Without GATEWAY_API_KEY and GATEWAY_BASE_URL it starts the bundled mock gateway on
// 127.0.0.1 and points the examples at it; with both set, the examples talk to the real service.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMockGateway } from 'unified-gateway/testing';

const EXAMPLE_TIMEOUT_MS = 60_000;
const dir = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'examples');
// Simple first, then streams, tools and structured outputs, errors, raw responses and resilience.
const order = [
  'chat',
  'chat-stream',
  'chat-stream-final',
  'chat-tools',
  'tools-run',
  'structured-outputs',
  'chat-vision',
  'models',
  'completions',
  'embeddings',
  'images-generate',
  'images-edit',
  'audio-transcription',
  'responses',
  'videos-progress',
  'errors',
  'raw-response',
  'abort',
  'retries-and-failover',
  'logging',
  'mock-gateway',
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

function run(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(dir, file)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
for (const file of files) {
  console.log(`▶ examples/${file}: ${describe(file)}`);
  const { code, output } = await run(file);
  console.log(output.trimEnd().replace(/^/gm, '    '));
  if (code !== 0) {
    failed++;
    console.log(`    ✗ exited with ${code}`);
  }
  console.log();
}
await stop();
console.log(`demo: ${files.length} examples ran, ${failed} failed`);
process.exit(failed ? 1 : 0);
