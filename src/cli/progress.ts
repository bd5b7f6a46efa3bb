import type { VideoTask } from 'unified-gateway';

/** Where progress goes (stderr); a terminal gets one redrawn line, a pipe or file plain lines. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
}

/** One display for both phases of `video`: waiting for the task, then downloading it. */
export interface ProgressDisplay {
  /** The task's state after submission and after every poll. */
  task(task: VideoTask): void;
  /** Bytes read so far; `totalBytes` is null when the server did not say. */
  download(progress: { loadedBytes: number; totalBytes: number | null }): void;
  /** Shows the final state: the terminal line is kept, a pipe gets a last line if needed. */
  finish(): void;
  /** Removes the terminal line (before an error message); stops the clock. */
  clear(): void;
}

/** How often a terminal line is redrawn at most, and how often the clock ticks, in ms. */
const REDRAW_MS = 100;
const TICK_MS = 1_000;
/** A pipe gets a download line per this many percent, or per this many ms without a total. */
const PIPE_STEP_PERCENT = 10;
const PIPE_UNKNOWN_TOTAL_MS = 5_000;

/** `3.1 MB`, in decimal units as download tools show them. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = n / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `12s`, `3m05s`. */
function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

const percentOf = (p: { loadedBytes: number; totalBytes: number | null }): number | null =>
  p.totalBytes === null ? null : p.totalBytes === 0 ? 100 : Math.min(100, Math.floor((p.loadedBytes / p.totalBytes) * 100));

/**
 * A progress display writing to `out`: on a terminal a single line redrawn in place
 * (`waiting  processing 40%  12s`, then `download 3.1 MB / 8.0 MB  39%`); elsewhere plain
 * lines, one per status change and one per 10% downloaded, never a carriage return.
 * @example const progress = createProgress(process.stderr);
 */
export function createProgress(out: ProgressOutput, now: () => number = Date.now): ProgressDisplay {
  const tty = out.isTTY === true;
  const started = now();
  let line = '';
  let drawnAt = 0;
  let lastTask: VideoTask | undefined;
  let lastDownload: { loadedBytes: number; totalBytes: number | null } | undefined;
  let printedKey = '';
  let printedAt = 0;
  let clock: ReturnType<typeof setInterval> | undefined;

  const taskLine = (t: VideoTask) => {
    const progress = typeof t.progress === 'number' ? ` ${Math.round(t.progress)}%` : '';
    return `waiting  ${String(t.status)}${progress}  ${formatElapsed(now() - started)}`;
  };
  const downloadLine = (p: { loadedBytes: number; totalBytes: number | null }) => {
    const percent = percentOf(p);
    return p.totalBytes === null ? `download ${formatBytes(p.loadedBytes)}` : `download ${formatBytes(p.loadedBytes)} / ${formatBytes(p.totalBytes)}  ${percent}%`;
  };
  const draw = (text: string, force: boolean) => {
    if (!force && now() - drawnAt < REDRAW_MS) return;
    line = text;
    drawnAt = now();
    out.write(`\r\x1b[2K${text}`);
  };
  const print = (text: string, key: string) => {
    printedKey = key;
    printedAt = now();
    out.write(`${text}\n`);
  };
  const stopClock = () => {
    if (clock) clearInterval(clock);
    clock = undefined;
  };

  return {
    task(t) {
      lastTask = t;
      if (tty) {
        draw(taskLine(t), true);
        // Redraw every second so the elapsed time moves between polls; never keeps the process alive.
        clock ??= setInterval(() => lastTask && !lastDownload && draw(taskLine(lastTask), true), TICK_MS);
        clock.unref();
        return;
      }
      const step = typeof t.progress === 'number' ? Math.floor(t.progress / PIPE_STEP_PERCENT) : '';
      const key = `task:${String(t.status)}:${step}`;
      if (key !== printedKey) print(`${taskLine(t)}${printedKey ? '' : `  (task ${t.id})`}`, key);
    },
    download(p) {
      stopClock();
      const first = lastDownload === undefined;
      lastDownload = p;
      if (tty) return draw(downloadLine(p), first || p.loadedBytes === p.totalBytes);
      const percent = percentOf(p);
      const key = percent === null ? 'download' : `download:${Math.floor(percent / PIPE_STEP_PERCENT)}`;
      const due = percent === null ? first || now() - printedAt >= PIPE_UNKNOWN_TOTAL_MS : key !== printedKey;
      if (due) print(downloadLine(p), percent === null ? 'download' : key);
    },
    finish() {
      stopClock();
      const last = lastDownload ? `${downloadLine(lastDownload)}${lastDownload.totalBytes === null ? '  done' : ''}` : lastTask ? taskLine(lastTask) : '';
      if (tty) {
        if (last) out.write(`\r\x1b[2K${last}\n`);
        line = '';
      } else if (last && !(lastDownload && percentOf(lastDownload) === 100)) {
        // At 100% the last download line is already out; anything else gets a last line.
        print(last, 'finished');
      }
    },
    clear() {
      stopClock();
      if (tty && line) out.write('\r\x1b[2K');
      line = '';
    },
  };
}
