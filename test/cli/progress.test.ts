import { describe, expect, it } from 'vitest';
import type { VideoTask } from '../../src/index.js';
import { createProgress, formatBytes } from '../../src/cli/progress.js';

/** A fake stderr that records writes, and a clock the test moves. */
function setup(isTTY: boolean) {
  let written = '';
  let time = 1_000_000;
  const out = { isTTY, write: (text: string) => (written += text) };
  const progress = createProgress(out, () => time);
  return { progress, output: () => written, advance: (ms: number) => (time += ms) };
}
const task = (status: string, progress?: number): VideoTask => ({ id: 'video_1', status, created_at: 0, progress });

describe('createProgress on a pipe', () => {
  it('prints one plain line per status change, the task id on the first', () => {
    const { progress, output, advance } = setup(false);
    progress.task(task('pending'));
    advance(12_000);
    progress.task(task('pending'));
    progress.task(task('processing', 40));
    progress.task(task('processing', 45));
    progress.task(task('completed'));
    expect(output()).toBe('waiting  pending  0s  (task video_1)\nwaiting  processing 40%  12s\nwaiting  completed  12s\n');
  });

  it('prints a download line per 10% and never a carriage return', () => {
    const { progress, output } = setup(false);
    for (let loaded = 0; loaded <= 8_000_000; loaded += 100_000) progress.download({ loadedBytes: loaded, totalBytes: 8_000_000 });
    progress.finish();
    const lines = output().trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('download 0 B / 8.0 MB  0%');
    expect(lines.at(-1)).toBe('download 8.0 MB / 8.0 MB  100%');
    expect(output()).not.toContain('\r');
  });

  it('without a total, prints the first bytes, then at most every 5 s, then a done line', () => {
    const { progress, output, advance } = setup(false);
    progress.download({ loadedBytes: 100, totalBytes: null });
    progress.download({ loadedBytes: 2_000, totalBytes: null });
    advance(5_000);
    progress.download({ loadedBytes: 3_100_000, totalBytes: null });
    progress.finish();
    expect(output()).toBe('download 100 B\ndownload 3.1 MB\ndownload 3.1 MB  done\n');
  });
});

describe('createProgress on a terminal', () => {
  it('redraws one line in place for both phases and ends it with a newline', () => {
    const { progress, output, advance } = setup(true);
    progress.task(task('processing', 40));
    advance(1_000);
    progress.download({ loadedBytes: 3_100_000, totalBytes: 8_000_000 });
    progress.finish();
    expect(output()).toBe('\r\x1b[2Kwaiting  processing 40%  0s\r\x1b[2Kdownload 3.1 MB / 8.0 MB  38%\r\x1b[2Kdownload 3.1 MB / 8.0 MB  38%\n');
  });

  it('redraws a download at most every 100 ms, but always its end', () => {
    const { progress, output } = setup(true);
    for (let loaded = 0; loaded <= 1_000; loaded += 100) progress.download({ loadedBytes: loaded, totalBytes: 1_000 });
    expect(output().split('\r').filter(Boolean)).toEqual(['\x1b[2Kdownload 0 B / 1.0 kB  0%', '\x1b[2Kdownload 1.0 kB / 1.0 kB  100%']);
  });

  it('clears its line before an error message', () => {
    const { progress, output } = setup(true);
    progress.task(task('pending'));
    progress.clear();
    expect(output()).toBe('\r\x1b[2Kwaiting  pending  0s\r\x1b[2K');
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1_000, '1.0 kB'],
    [3_100_000, '3.1 MB'],
    [8_000_000_000, '8.0 GB'],
  ])('%d → %s', (n, text) => expect(formatBytes(n)).toBe(text));
});
