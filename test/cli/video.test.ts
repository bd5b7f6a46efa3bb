import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpServer } from '../helpers/sockets.js';
import { runCli, useServedMock } from './run-cli.js';

/** The bytes the mock serves for every video (see src/testing/media.ts). */
const MOCK_MP4 = [0, 0, 0, 24, 102, 116, 121, 112];
const served = useServedMock('ug-cli-video-');
const { mock } = served;

describe('video', { timeout: 20_000 }, () => {
  it('waits, downloads the video to --out and prints only the path on stdout', async () => {
    const out = join(served.dir, 'waves.mp4');
    const run = await runCli(['video', 'Waves at sunset', '--duration', '5', '--out', out, '--poll-ms', '20'], { env: served.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${out}\n`);
    expect([...readFileSync(out)]).toEqual(MOCK_MP4);
    expect(existsSync(`${out}.part`)).toBe(false);
    expect(mock.requests.find((r) => r.path === 'videos/generations')?.body).toMatchObject({ model: 'vendor_video2', prompt: 'Waves at sunset', duration: 5 });
  });

  it('shows progress on stderr as plain lines when stderr is a pipe', async () => {
    const run = await runCli(['video', 'A paper boat', '--duration', '10', '--out', join(served.dir, 'boat.mp4'), '--poll-ms', '20', '--model', 'vendor_video2-landscape'], { env: served.env });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).not.toContain('\x1b');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^waiting {2}pending {2}\d+s {2}\(task video_mock_\d+\)$/);
    expect(lines).toContainEqual(expect.stringMatching(/^waiting {2}completed {2}\d+s$/));
    expect(lines.at(-1)).toMatch(/^download 8 B/);
    // One line per change: no status line repeats the one before it.
    const statuses = lines.filter((l) => l.startsWith('waiting')).map((l) => l.replace(/ {2}\d+s.*$/, ''));
    expect(statuses.every((s, i) => i === 0 || s !== statuses[i - 1])).toBe(true);
  });

  it('exits 1 with VideoTaskFailedError and writes no file when the task fails', async () => {
    const out = join(served.dir, 'failed.mp4');
    const run = await runCli(['video', 'please fail', '--duration', '5', '--out', out, '--poll-ms', '20'], { env: served.env });
    expect(run.code).toBe(1);
    // The server's reason ends in a period of its own: the message has one, not two.
    expect(run.stderr).toMatch(/(^|\n)VideoTaskFailedError: Video task video_mock_\d+ failed: Generation failed: the prompt asked the mock to fail\.\n$/);
    expect(run.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('stops waiting on Ctrl-C with exit code 130, naming the task', async () => {
    const out = join(served.dir, 'interrupted.mp4');
    let sent = false;
    // Polls a minute apart: a run that kept waiting after Ctrl-C would be killed at its 15 s
    // limit (timedOut), so its ending by itself is what shows the wait stopped, not how soon.
    const run = await runCli(['video', 'A slow one', '--duration', '5', '--out', out, '--poll-ms', '60000'], {
      env: served.env,
      timeoutMs: 15_000,
      onStderr: (stderr, child) => {
        if (!sent && stderr.includes('waiting')) sent = child.kill('SIGINT');
      },
    });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/Stopped waiting for video task video_mock_\d+; it keeps running on the gateway\.\nAborted\.\n$/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.part`)).toBe(false);
  });
});

describe('Ctrl-C during a chat stream', { timeout: 20_000 }, () => {
  it('aborts the stream and exits 130, starting its message on a new line', async () => {
    mock.inject({ type: 'stall', afterFrames: 2, path: 'chat/completions' });
    let sent = false;
    const run = await runCli(['chat', 'a long answer please', '--model', 'gpt-4o-mini'], {
      env: served.env,
      timeoutMs: 15_000,
      onStdout: (stdout, child) => {
        if (!sent && stdout.length > 0) sent = child.kill('SIGINT');
      },
    });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(130);
    // The reply stopped mid-line; on a shared terminal "Aborted." would otherwise follow it.
    expect(run.stdout).not.toMatch(/\n$/);
    expect(run.stderr).toBe('\nAborted.\n');
  });
});

describe('video download progress with a Content-Length', { timeout: 20_000 }, () => {
  it('prints a line per 10% downloaded, ending at 100%', async () => {
    // A gateway whose task is complete at once and whose video has a known size, sent in chunks.
    const video = Buffer.alloc(250_000, 7);
    const server = await httpServer((req, res) => {
      req.resume();
      if (req.method === 'POST') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'task_1', status: 'completed', created_at: 0, video_url: '/files/v.mp4' }));
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
      for (let i = 0; i < video.length; i += 10_000) res.write(video.subarray(i, i + 10_000));
      res.end();
    });
    try {
      const out = join(served.dir, 'sized.mp4');
      const run = await runCli(['video', 'sized', '--duration', '5', '--out', out], { env: { GATEWAY_API_KEY: 'k', GATEWAY_BASE_URL: server.url } });
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(out)).toEqual(video);
      const downloads = run.stderr.split('\n').filter((l) => l.startsWith('download'));
      expect(downloads.at(-1)).toBe('download 250.0 kB / 250.0 kB  100%');
      expect(downloads.length).toBeGreaterThanOrEqual(2);
      expect(downloads.length).toBeLessThanOrEqual(11);
      expect(run.stderr).not.toContain('\r');
    } finally {
      await server.close();
    }
  });
});
