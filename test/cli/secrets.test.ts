import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockGateway } from '../../src/testing/index.js';
import { runCli, SECRET_KEY } from './run-cli.js';

// The mock accepts only 'k', so SECRET_KEY gets a 401 on every call.
const mock = createMockGateway({ apiKey: 'k', videoStepMs: 10 });
let env: Record<string, string>;
let close: () => Promise<void>;
let dir: string;
let audio: string;

beforeAll(async () => {
  const served = await mock.listen();
  close = served.close;
  // GATEWAY_LOG=debug: the SDK's own log lines go to stderr too, and must not carry it either.
  env = { GATEWAY_API_KEY: SECRET_KEY, GATEWAY_BASE_URL: served.url, GATEWAY_LOG: 'debug' };
  dir = mkdtempSync(join(tmpdir(), 'ug-cli-secret-'));
  audio = join(dir, 'clip.wav');
  writeFileSync(audio, 'RIFF....WAVEfmt ');
});
afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => mock.reset());

const cases: Array<[string, () => string[]]> = [
  ['models', () => ['models']],
  ['chat (streamed)', () => ['chat', 'hi', '--model', 'gpt-4o-mini']],
  ['chat --no-stream', () => ['chat', 'hi', '--model', 'gpt-4o-mini', '--no-stream']],
  ['image', () => ['image', 'a cat', '--out', join(dir, 'cat.png')]],
  ['video', () => ['video', 'waves', '--duration', '5', '--out', join(dir, 'v.mp4'), '--poll-ms', '20']],
  ['transcribe', () => ['transcribe', audio]],
];

describe('the API key never reaches stdout or stderr', { timeout: 20_000 }, () => {
  it.each(cases)('%s: a 401 exits 1 with AuthenticationError and without the key', async (_name, args) => {
    const run = await runCli(args(), { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^AuthenticationError: 401 /m);
    expect(run.stdout + run.stderr).not.toContain(SECRET_KEY);
    expect(mock.requests.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s: not even when the server echoes the key in its error', async (_name, args) => {
    mock.inject({ type: 'status', status: 401, times: 10, body: { error: { message: `Incorrect API key provided: ${SECRET_KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } });
    const run = await runCli(args(), { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Incorrect API key provided');
    expect(run.stdout + run.stderr).not.toContain(SECRET_KEY);
  });
});

describe("the command line's own messages are redacted too", { timeout: 20_000 }, () => {
  it('a base URL that holds the key is refused without printing it', async () => {
    const run = await runCli(['models'], { env: { GATEWAY_API_KEY: SECRET_KEY, GATEWAY_BASE_URL: `http://127.0.0.1:9/${SECRET_KEY}` } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("must end in /v1 (e.g. http://127.0.0.1:9/v1), got 'http://127.0.0.1:9/[REDACTED]'");
    expect(run.stdout + run.stderr).not.toContain(SECRET_KEY);
  });
});
