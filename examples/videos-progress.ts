// Video generation with a live progress display: submit, poll at the gateway's advised pace, download link.
import { Gateway, VideoTaskFailedError } from 'unified-gateway';

const client = new Gateway();
const model = process.env.GATEWAY_VIDEO_MODEL ?? 'vendor_video2-landscape'; // any video model id the gateway lists
// Against the mock gateway tasks finish in milliseconds; against the real one polls follow
// the advised 5-10 s (5/10 s videos) or 15-30 s (15/20 s videos).
const pollIntervalMs = process.env.GATEWAY_DEMO_MOCK ? 50 : undefined;

console.log(`estimated cost: $${client.videos.estimateCost(5).toFixed(2)}`);
const started = Date.now();
const bar = (status: string) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(5);
  const steps = ['pending', 'processing', 'completed'];
  const done = Math.max(0, steps.indexOf(status)) + 1;
  return `[${'#'.repeat(done * 4).padEnd(12, '.')}] ${status.padEnd(10)} ${seconds}s`;
};

try {
  const task = await client.videos.generateAndWait(
    { model, prompt: 'Waves rolling onto a beach at sunset', duration: 5 },
    { pollIntervalMs, timeoutMs: 15 * 60_000, onProgress: (t) => console.log(`  ${bar(t.status)}  ${t.id}`) },
  );
  console.log(`done: ${task.video_url}`);
} catch (err) {
  if (err instanceof VideoTaskFailedError) console.log(`the task failed: ${err.error}`);
  else throw err;
}
