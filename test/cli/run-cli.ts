import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';

/** The built command line; `npm run build` makes it (npm test builds first). */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** A key the mock does not accept, so every call with it is a 401 that must not echo it. */
export const SECRET_KEY = 'sk-cli-test-secret-0123';

/** What a finished run printed and how it ended. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the run was killed for taking longer than `timeoutMs`. */
  timedOut: boolean;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Variables added to a copy of this process's environment (HOME, PATH… are inherited); `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Killed (SIGKILL) after this long. @default 10_000 */
  timeoutMs?: number;
  cwd?: string;
  /** Called on every stderr chunk with all stderr so far, and the child (to send it a signal). */
  onStderr?: (stderr: string, child: { kill(signal: NodeJS.Signals): boolean }) => void;
  /** Same as `onStderr`, for stdout. */
  onStdout?: (stdout: string, child: { kill(signal: NodeJS.Signals): boolean }) => void;
}

/** Runs `node dist/cli.js ...args` with pipes for stdout and stderr, bounded in time. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run 'npm run build' first.`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The runner's own gateway settings must not leak into the child.
  for (const name of ['GATEWAY_API_KEY', 'GATEWAY_BASE_URL', 'GATEWAY_BACKUP_BASE_URL', 'GATEWAY_MODEL', 'GATEWAY_LOG']) delete env[name];
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd: options.cwd, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (options.input !== undefined) child.stdin?.end(options.input);
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  if (!child.stdout || !child.stderr) throw new Error('spawn gave no pipes for stdout and stderr');
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    options.onStdout?.(stdout, child);
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    options.onStderr?.(stderr, child);
  });
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 10_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** A mock gateway served on 127.0.0.1 for one test file, the CLI's environment for it, and a scratch directory. */
export interface ServedMock {
  mock: MockGateway;
  /** GATEWAY_API_KEY and GATEWAY_BASE_URL pointing at the mock; set in beforeAll. */
  env: Record<string, string>;
  /** A fresh directory for output files; removed in afterAll. */
  dir: string;
}

/** Serves a mock (key `k`, video steps of 10 ms) for the file's tests; its log is reset before each. */
export function useServedMock(dirPrefix: string): ServedMock {
  const served: ServedMock = { mock: createMockGateway({ apiKey: 'k', videoStepMs: 10 }), env: {}, dir: '' };
  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const listening = await served.mock.listen();
    close = listening.close;
    served.env = { GATEWAY_API_KEY: 'k', GATEWAY_BASE_URL: listening.url };
    served.dir = mkdtempSync(join(tmpdir(), dirPrefix));
  });
  afterAll(async () => {
    await close();
    rmSync(served.dir, { recursive: true, force: true });
  });
  beforeEach(() => served.mock.reset());
  return served;
}
