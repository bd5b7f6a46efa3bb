import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockGateway, type Served } from '../src/testing/index.js';

// Every ```ts block in docs/ runs, in its own process, against a mock gateway served on
// 127.0.0.1 (GATEWAY_* point at it), importing the built package by name as a user would.
const root = join(import.meta.dirname, '..');
const docsDir = join(root, 'docs');
const work = join(root, '.tmp', 'doc-snippets');

const snippets = readdirSync(docsDir)
  .filter((f) => f.endsWith('.md'))
  .flatMap((file) => {
    const text = readFileSync(join(docsDir, file), 'utf8');
    return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => ({ name: `${file.replace(/\.md$/, '')}-${i + 1}`, code: m[1] ?? '' }));
  });

let served: Served;
beforeAll(async () => {
  served = await createMockGateway({ apiKey: 'demo-key', videoStepMs: 50 }).listen();
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
});
afterAll(async () => {
  await served.close();
});

function run(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, GATEWAY_API_KEY: 'demo-key', GATEWAY_BASE_URL: served.url };
    delete env.GATEWAY_BACKUP_BASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', file], { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('docs snippets', () => {
  it('finds snippets on every topic page', () => {
    expect(snippets.length).toBeGreaterThan(15);
  });

  it.concurrent.each(snippets)('$name runs', { timeout: 30_000 }, async ({ name, code }) => {
    const file = join(work, `${name}.ts`);
    writeFileSync(file, `${code}\nexport {};\n`);
    const { code: exit, output } = await run(file);
    expect(output).not.toMatch(/Error:|✗/);
    expect(exit, output).toBe(0);
  });
});
