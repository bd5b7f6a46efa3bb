import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// fetch refuses port 9 (a "bad port"): a command that got past its argument checks would
// fail with exit 1 (a connection error), not 2, so every "exit 2" below is the checks' doing.
const unreachable = { GATEWAY_API_KEY: 'k', GATEWAY_BASE_URL: 'http://127.0.0.1:9/v1' };
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const commands = ['models', 'chat', 'image', 'video', 'transcribe'] as const;

describe('help and version', { timeout: 20_000 }, () => {
  it('prints the tool help on stdout with every command, the variables and the exit codes', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const name of commands) expect(run.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    for (const name of ['GATEWAY_API_KEY', 'GATEWAY_BASE_URL', 'GATEWAY_BACKUP_BASE_URL', 'GATEWAY_MODEL', '--base-url', '--timeout', '--max-retries']) expect(run.stdout).toContain(name);
    expect(run.stdout).toContain('there is no --api-key option');
    expect(run.stderr).toBe('');
  });

  it.each(commands)('prints the help of %s with its usage line and the global options', async (name) => {
    const run = await runCli([name, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: unified-gateway ${name}`));
    expect(run.stdout).toContain('Examples:');
    expect(run.stdout).toContain('--base-url');
    expect(run.stderr).toBe('');
  });

  it('documents each command’s own options in its help', async () => {
    const expected: Record<(typeof commands)[number], string[]> = {
      models: ['--json'],
      chat: ['--model', '--system', '--no-stream', '--usage', 'GATEWAY_MODEL'],
      image: ['--out', '--model', '--size', 'dall-e-3'],
      video: ['--duration', '--out', '--model', '--poll-ms', 'vendor_video2'],
      transcribe: ['--model', '--language', '--format', 'whisper-1', 'verbose_json'],
    };
    for (const name of commands) {
      const { stdout } = await runCli(['help', name]);
      for (const option of expected[name]) expect(stdout, `${name} --help`).toContain(option);
    }
  });

  it('prints the package version with --version', async () => {
    const run = await runCli(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('prints the usage on stderr and exits 2 without a command', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: unified-gateway <command>');
  });
});

describe('bad arguments exit 2 with a usage message on stderr', { timeout: 20_000 }, () => {
  it.each([
    [['frob'], "Unknown command 'frob'"],
    [['models', '--frob'], "Unknown option '--frob'"],
    [['chat', 'hi', '--model'], "--model <value>' argument missing"],
    [['image', 'a cat'], 'Missing required option --out'],
    [['image', 'a cat', '--out', 'x.png', '--size', 'big'], '--size must look like 1024x1024'],
    [['video', 'waves', '--out', 'v.mp4'], 'Missing required option --duration'],
    [['video', 'waves', '--out', 'v.mp4', '--duration', '7'], '--duration must be 5, 10, 15 or 20'],
    [['video', 'waves', '--duration', '5'], 'Missing required option --out'],
    [['video', 'waves', '--duration', '5', '--out', 'v.mp4', '--poll-ms', 'soon'], '--poll-ms must be a whole number'],
    [['transcribe'], 'Missing <file>'],
    [['transcribe', 'no-such-file.wav'], "Cannot read 'no-such-file.wav'"],
    [['transcribe', 'package.json', '--format', 'xml'], '--format must be one of json, text, srt, vtt, verbose_json'],
    [['transcribe', 'src'], "Cannot read 'src': it is a directory"],
    [['transcribe', 'package.json', '--language', 'english'], "Option --language must be an ISO-639-1 two-letter code such as en, de or ja, got 'english'"],
    [['transcribe', 'package.json', '--language', 'EN'], "Option --language must be an ISO-639-1 two-letter code such as en, de or ja, got 'EN'"],
    [['models', '--max-retries', '-1'], "Option --max-retries must be a whole number from 0 to 100, got '-1'"],
    [['models', '--timeout', 'soon'], "Option --timeout must be a positive whole number of milliseconds, got 'soon'"],
    [['models', '--timeout', '-5'], "Option --timeout must be a positive whole number of milliseconds, got '-5'"],
    [['--timeout', '-5', 'models'], "Option --timeout must be a positive whole number of milliseconds, got '-5'"],
    [['video', 'waves', '-d', '-5', '--out', 'v.mp4'], "Option --duration must be a whole number >= 1, got '-5'"],
    [['models', 'foo'], "Unexpected argument 'foo': 'models' takes no arguments"],
    [['models', 'foo', 'bar'], "Unexpected arguments 'foo', 'bar': 'models' takes no arguments"],
    [['chat', 'one', 'two', '--model', 'gpt-4o-mini'], "Unexpected argument 'two': 'chat' takes one <prompt> (quote the prompt if it has spaces)"],
    [['image', 'a', 'cat', '--out', 'x.png'], "Unexpected argument 'cat': 'image' takes one <prompt>"],
    [['video', 'waves', 'crash', '--duration', '5', '--out', 'v.mp4'], "Unexpected argument 'crash': 'video' takes one <prompt>"],
    [['transcribe', 'package.json', 'README.md'], "Unexpected argument 'README.md': 'transcribe' takes one <file>"],
    [['help', 'models', 'chat'], "Unexpected argument 'chat': 'help' takes one <command>"],
    [['chat', '--model', 'gpt-4o-mini'], 'The prompt read from stdin is empty'],
  ])('%j', async (args, message) => {
    const run = await runCli(args, { env: unreachable, cwd: new URL('../..', import.meta.url).pathname });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain('ambiguous');
    expect(run.stderr).toMatch(/Run 'unified-gateway( \w+)? --help' for usage/);
    expect(run.stdout).toBe('');
  });

  it('names --model and GATEWAY_MODEL when chat has no model', async () => {
    const run = await runCli(['chat', 'hi'], { env: unreachable });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--model');
    expect(run.stderr).toContain('GATEWAY_MODEL');
  });

  it('refuses --api-key, says to use GATEWAY_API_KEY, and does not repeat the key', async () => {
    const run = await runCli(['models', '--api-key', 'sk-typed-on-the-command-line'], { env: unreachable });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('GATEWAY_API_KEY');
    expect(run.stderr + run.stdout).not.toContain('sk-typed-on-the-command-line');
  });
});

describe('missing configuration exits 2 naming the variable', { timeout: 20_000 }, () => {
  it('without GATEWAY_API_KEY', async () => {
    const run = await runCli(['models'], { env: { GATEWAY_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('GATEWAY_API_KEY');
  });

  it('without a base URL', async () => {
    const run = await runCli(['models'], { env: { GATEWAY_API_KEY: 'k' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--base-url');
    expect(run.stderr).toContain('GATEWAY_BASE_URL');
  });

  it('with a base URL that is not one', async () => {
    const run = await runCli(['models', '--base-url', 'gateway.example'], { env: { GATEWAY_API_KEY: 'k' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid base URL (--base-url or GATEWAY_BASE_URL)');
  });

  it.each([
    [['--base-url', 'http://127.0.0.1:9'], {}, "Invalid base URL (--base-url or GATEWAY_BASE_URL): must end in /v1 (e.g. http://127.0.0.1:9/v1), got 'http://127.0.0.1:9'"],
    [[], { GATEWAY_BASE_URL: 'http://127.0.0.1:9/api/' }, 'Invalid base URL (--base-url or GATEWAY_BASE_URL): must end in /v1'],
    [['--backup-base-url', 'http://127.0.0.1:9'], { GATEWAY_BASE_URL: 'http://127.0.0.1:9/v1' }, 'Invalid backup base URL (--backup-base-url or GATEWAY_BACKUP_BASE_URL): must end in /v1'],
  ])('with a base URL not ending in /v1: %j %j', async (args, env, message) => {
    // Port 9 is refused by fetch: had anything been sent, this would be exit 1.
    const run = await runCli(['models', '--max-retries', '0', ...args], { env: { GATEWAY_API_KEY: 'k', ...env } });
    expect(run.code).toBe(2);
    expect(run.stderr.startsWith(`unified-gateway: ${message}`), run.stderr).toBe(true);
    expect(run.stderr.trimEnd()).not.toContain('\n');
  });

  it('accepts a base URL ending in /v1/ (a trailing slash)', async () => {
    const run = await runCli(['models', '--max-retries', '0', '--base-url', 'http://127.0.0.1:9/v1/'], { env: { GATEWAY_API_KEY: 'k' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^APIConnectionError: /);
  });

  it('exits 1, not 2, when the configuration is fine but the gateway cannot be reached', async () => {
    const run = await runCli(['models', '--max-retries', '0'], { env: unreachable });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^APIConnectionError: /);
  });
});
