import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModels } from '../../src/testing/index.js';
import { runCli, useServedMock } from './run-cli.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const served = useServedMock('ug-cli-');
const { mock } = served;

/** The JSON bodies the mock received on `path`. */
const bodies = (path: string) => mock.requests.filter((r) => r.path === path).map((r) => r.body as Record<string, unknown>);

describe('models', { timeout: 20_000 }, () => {
  it('lists the model ids, one per line', async () => {
    const run = await runCli(['models'], { env: served.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(defaultModels.map((m) => `${m.id}\n`).join(''));
  });

  it('prints the raw list with --json', async () => {
    const run = await runCli(['models', '--json'], { env: served.env });
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as { data: Array<{ id: string }> };
    expect(list.data.map((m) => m.id)).toEqual(defaultModels.map((m) => m.id));
  });
});

describe('chat', { timeout: 20_000 }, () => {
  it('streams the reply to stdout and ends it with a newline', async () => {
    const run = await runCli(['chat', 'hello there', '--model', 'gpt-4o-mini'], { env: served.env });
    expect(run).toMatchObject({ code: 0, stdout: 'You said: hello there\n', stderr: '' });
    expect(bodies('chat/completions')).toEqual([expect.objectContaining({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hello there' }] })]);
  });

  it('waits for the whole reply with --no-stream', async () => {
    const run = await runCli(['chat', 'all at once', '--model', 'gpt-4o', '--no-stream'], { env: served.env });
    expect(run).toMatchObject({ code: 0, stdout: 'You said: all at once\n' });
    expect(bodies('chat/completions')[0]?.stream).not.toBe(true);
  });

  it('takes the model from GATEWAY_MODEL and sends --system first', async () => {
    const run = await runCli(['chat', 'hi', '--system', 'Be brief.'], { env: { ...served.env, GATEWAY_MODEL: 'deepseek-chat' } });
    expect(run.code).toBe(0);
    expect(bodies('chat/completions')[0]).toMatchObject({ model: 'deepseek-chat', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] });
  });

  it.each([[['chat', '--model', 'gpt-4o-mini']], [['chat', '-', '--model', 'gpt-4o-mini']]])('reads the prompt from stdin: %j', async (args) => {
    const run = await runCli(args, { env: served.env, input: 'from a pipe\n' });
    expect(run).toMatchObject({ code: 0, stdout: 'You said: from a pipe\n' });
  });

  it('prints the token usage and the cost on stderr with --usage, streamed or not, cached input tokens named', async () => {
    // The mock bills 4 + 3 × 4 (completion ratio) = 16 tokens × 1.25 (model ratio) = 20 quota, at 500,000 a dollar.
    const line = 'usage: 4 input tokens (cached: not reported), 3 output tokens · cost 20 quota ($0.00004, priced)\n';
    const streamed = await runCli(['chat', 'hi', '--model', 'gpt-4o-mini', '--usage'], { env: served.env });
    expect(streamed).toMatchObject({ code: 0, stdout: 'You said: hi\n', stderr: line });
    expect(bodies('chat/completions')[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const whole = await runCli(['chat', 'hi', '--model', 'gpt-4o-mini', '--usage', '--no-stream'], { env: served.env });
    expect(whole).toMatchObject({ code: 0, stdout: 'You said: hi\n', stderr: line });
  });

  it('exits 1 with the error on stderr for an unknown model', async () => {
    const run = await runCli(['chat', 'hi', '--model', 'no-such-model'], { env: served.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^NotFoundError: 404 .*no-such-model/);
    expect(run.stdout).toBe('');
  });
});

describe('image', { timeout: 20_000 }, () => {
  it('writes the PNG it asked for as base64 and prints the path', async () => {
    const out = join(served.dir, 'cat.png');
    const run = await runCli(['image', 'a cat', '--out', out], { env: served.env });
    expect(run).toMatchObject({ code: 0, stdout: `${out}\n`, stderr: '' });
    expect([...readFileSync(out).subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(bodies('images/generations')).toEqual([expect.objectContaining({ model: 'dall-e-3', prompt: 'a cat', response_format: 'b64_json', n: 1 })]);
  });

  it('sends --model and --size', async () => {
    const run = await runCli(['image', 'a boat', '--out', join(served.dir, 'boat.png'), '--model', 'gpt-image-1', '--size', '1536x1024'], { env: served.env });
    expect(run.code).toBe(0);
    expect(bodies('images/generations')[0]).toMatchObject({ model: 'gpt-image-1', size: '1536x1024' });
  });

  it('exits 2 and sends nothing for a size the model does not offer', async () => {
    const run = await runCli(['image', 'a cat', '--out', join(served.dir, 'no.png'), '--size', '512x512'], { env: served.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ValidationError: .*size/);
    expect(bodies('images/generations')).toEqual([]);
  });
});

describe('transcribe', { timeout: 20_000 }, () => {
  it('uploads the file and prints the transcript', async () => {
    const file = join(served.dir, 'clip.wav');
    writeFileSync(file, 'RIFF....WAVEfmt ');
    const run = await runCli(['transcribe', file, '--language', 'en'], { env: served.env });
    expect(run).toMatchObject({ code: 0, stdout: 'Mock transcript of clip.wav (16 bytes, en).\n', stderr: '' });
    expect(bodies('audio/transcriptions')[0]).toMatchObject({ model: 'whisper-1', language: 'en', file: { name: 'clip.wav', size: 16 } });
  });

  it('refuses a --language that is not an ISO-639-1 code before anything is sent', async () => {
    const file = join(served.dir, 'clip.wav');
    writeFileSync(file, 'RIFF....WAVEfmt ');
    const run = await runCli(['transcribe', file, '--language', 'english'], { env: served.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Option --language must be an ISO-639-1 two-letter code such as en, de or ja, got 'english'");
    expect(mock.requests).toEqual([]);
  });

  it('prints the raw format asked for', async () => {
    const file = join(served.dir, 'clip.wav');
    writeFileSync(file, 'RIFF....WAVEfmt ');
    const run = await runCli(['transcribe', file, '--format', 'srt'], { env: served.env });
    expect(run).toMatchObject({ code: 0, stdout: '1\n00:00:00,000 --> 00:00:01,500\nMock transcript of clip.wav (16 bytes).\n' });
  });

  it('exits 1 when the gateway refuses the model', async () => {
    const file = join(served.dir, 'clip.wav');
    writeFileSync(file, 'RIFF....WAVEfmt ');
    const run = await runCli(['transcribe', file, '--model', 'whisper-9'], { env: served.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^NotFoundError: 404 /);
  });
});
