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
  for (const { name, code } of snippets) writeFileSync(join(work, `${name}.ts`), `${code}\nexport {};\n`);
  // As strict as a demanding user's project: a snippet that needs a cast to compile is wrong.
  const compilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2023', 'dom'],
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
  };
  writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
});
afterAll(async () => {
  await served.close();
});

/** Runs node with `args` against the served mock; killed after `limitMs`. */
function run(args: string[], limitMs = 20_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, GATEWAY_API_KEY: 'demo-key', GATEWAY_BASE_URL: served.url };
    delete env.GATEWAY_BACKUP_BASE_URL;
    const child = spawn(process.execPath, args, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
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

  it('type-check in a strict project (exactOptionalPropertyTypes, noUncheckedIndexedAccess), importing the built package by name', { timeout: 60_000 }, async () => {
    const { code: exit, output } = await run([join(root, 'node_modules/typescript/bin/tsc'), '-p', work], 50_000);
    expect(output).toBe('');
    expect(exit).toBe(0);
  });

  it.concurrent.for(snippets)('$name runs', { timeout: 30_000 }, async ({ name }, { expect }) => {
    const { code: exit, output } = await run(['--import', 'tsx', join(work, `${name}.ts`)]);
    expect(output).not.toMatch(/Error:|✗/);
    expect(exit, output).toBe(0);
  });
});
