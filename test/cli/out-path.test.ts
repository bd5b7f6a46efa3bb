import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, useServedMock } from './run-cli.js';

// A generated image or video is paid for whether or not it can be saved: an --out that
// cannot be written must be refused before the first request.
const served = useServedMock('ug-cli-out-');
const { mock } = served;
/** Root writes through any permission bit, so the read-only cases cannot happen for it. */
const isRoot = process.getuid?.() === 0;

const image = (out: string) => ['image', 'a cat', '--out', out];
const video = (out: string) => ['video', 'waves', '--duration', '5', '--out', out, '--poll-ms', '20'];
const models = (out: string) => ['models', '--typescript', '--out', out];

async function expectRefused(args: string[], out: string, why: string) {
  const run = await runCli(args, { env: served.env });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`Option --out: cannot write '${out}': ${why}`);
  expect(run.stdout).toBe('');
  expect(mock.requests).toEqual([]);
}

describe('--out is checked before anything is sent', { timeout: 20_000 }, () => {
  it.each([
    ['image', image],
    ['video', video],
    ['models', models],
  ])('%s: a missing parent directory', async (_name, args) => {
    const out = join(served.dir, 'no-such-dir', 'x.out');
    await expectRefused(args(out), out, `the directory '${join(served.dir, 'no-such-dir')}' does not exist`);
  });

  it.each([
    ['image', image],
    ['video', video],
    ['models', models],
  ])('%s: a directory', async (_name, args) => {
    await expectRefused(args(served.dir), served.dir, 'it is a directory');
  });

  it('a path ending in a slash', async () => {
    const out = `${join(served.dir, 'new-dir')}/`;
    await expectRefused(image(out), out, 'the path ends in a slash');
  });

  it('a parent that is a file', async () => {
    const file = join(served.dir, 'a-file');
    writeFileSync(file, '');
    const out = join(file, 'x.png');
    await expectRefused(image(out), out, `'${file}' is not a directory`);
  });

  it.skipIf(isRoot)('a read-only directory', async () => {
    const dir = join(served.dir, 'read-only');
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    try {
      const out = join(dir, 'v.mp4');
      await expectRefused(video(out), out, `the directory '${dir}' is not writable`);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it.skipIf(isRoot)('a read-only file', async () => {
    const out = join(served.dir, 'locked.png');
    writeFileSync(out, 'old');
    chmodSync(out, 0o444);
    await expectRefused(image(out), out, 'the file is not writable');
    expect(readFileSync(out, 'utf8')).toBe('old');
  });

  it('replaces an existing writable file, leaving no .part behind', async () => {
    const out = join(served.dir, 'again.png');
    writeFileSync(out, 'old');
    const run = await runCli(image(out), { env: served.env });
    expect(run).toMatchObject({ code: 0, stdout: `${out}\n` });
    expect(readFileSync(out).subarray(1, 4).toString()).toBe('PNG');
    expect(existsSync(`${out}.part`)).toBe(false);
  });
});
