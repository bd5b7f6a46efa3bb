// Video generation end to end: submit, poll at the advised pace, download to a file, with one progress display.
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Gateway, VideoTaskFailedError, videoTaskState, type VideoTask } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_VIDEO_MODEL ?? 'vendor_video2-landscape'; // any video model id the gateway lists
// Against the mock gateway tasks finish in milliseconds; against the real one polls follow
// the advised 5-10 s (5/10 s videos) or 15-30 s (15/20 s videos).
const pollIntervalMs = process.env.GATEWAY_DEMO_MOCK ? 50 : undefined;

const started = Date.now();
/** One line per step for both phases: waiting for the task, then downloading it. */
const show = (phase: 'waiting' | 'download', detail: string, fraction: number) => {
  const bar = '#'.repeat(Math.round(fraction * 20)).padEnd(20, '.');
  console.log(`  ${phase.padEnd(8)} [${bar}] ${detail.padEnd(22)} ${((Date.now() - started) / 1000).toFixed(1)}s`);
};

/** How far a task is: its progress when the gateway reports one; whatever its status word, completed is all. */
const done = (task: VideoTask) => (videoTaskState(task) === 'completed' ? 1 : typeof task.progress === 'number' ? task.progress / 100 : 0);

console.log(`estimated cost: $${client.videos.estimateCost(5).toFixed(2)}`);
try {
  const task = await client.videos.generateAndWait(
    { model, prompt: 'Waves rolling onto a beach at sunset', duration: 5 },
    { pollIntervalMs, timeoutMs: 15 * 60_000, onProgress: (t) => show('waiting', String(t.status), done(t)) },
  );
  const response = await client.videos.download(task, {
    onProgress: ({ loadedBytes, totalBytes }) => show('download', `${loadedBytes} of ${totalBytes ?? '?'} bytes`, totalBytes ? loadedBytes / totalBytes : 0),
  });
  const file = join(await mkdtemp(join(tmpdir(), 'video-')), `${task.id}.mp4`);
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(file));
  console.log(`saved ${file}`);
} catch (err) {
  if (err instanceof VideoTaskFailedError) console.log(`the task failed: ${err.error}`);
  else throw err;
}
