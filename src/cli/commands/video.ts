import { videoPrices, type VideoDuration } from 'unified-gateway';
import { integerOption, modelOption, requireOption, stringOption, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { checkOutPath, writeOut } from '../out-file.js';
import { resolvePrompt } from '../resolve-prompt.js';
import { createProgress } from '../progress.js';

/** The durations the gateway offers: the SDK's price table has one entry per duration. */
const DURATIONS: readonly number[] = Object.keys(videoPrices).map(Number);

/** `unified-gateway video <prompt> --duration N --out F`: generate, wait with progress, download. */
export const video: Command = {
  name: 'video',
  summary: 'Generate a video, wait for it with a progress display, and download it',
  help: `Usage: unified-gateway video <prompt> --duration N --out FILE [--model M] [--poll-ms N]

Submit a video task, wait for it (polling at the gateway's advised pace: every 5-10 s for
5 and 10 s videos, 15-30 s for 15 and 20 s videos), then download the video to FILE and
print the path written. Progress goes to stderr: one line redrawn in place on a terminal,
plain lines (one per status change, one per 10% downloaded) when stderr is a pipe or file.
Ctrl-C stops waiting (the task keeps running on the gateway; its id is on stderr).

Options:
  --duration N   Seconds of video: 5, 10, 15 or 20 (required)
  --out FILE     Where to write the video (required)
  --model M      The video model (default: vendor_video2; vendor_video2-landscape for landscape)
  --poll-ms N    Milliseconds between polls instead of the advised pace

Examples:
  unified-gateway video "Waves at sunset" --duration 5 --out waves.mp4
  unified-gateway video "A kite over dunes" --duration 10 --model vendor_video2-landscape --out kite.mp4`,
  options: {
    duration: { type: 'string', short: 'd' },
    out: { type: 'string', short: 'o' },
    model: { type: 'string', short: 'm' },
    'poll-ms': { type: 'string' },
  },
  argument: 'prompt',
  async run({ values, positionals, client, signal, io }) {
    const model = modelOption(values, 'vendor_video2', 'video');
    const duration = integerOption(values, 'duration', { min: 1 }, 'video');
    if (duration === undefined) throw new UsageError('Missing required option --duration (5, 10, 15 or 20)', 'video');
    if (!DURATIONS.includes(duration)) throw new UsageError(`Option --duration must be ${DURATIONS.join(', ').replace(/, (\d+)$/, ' or $1')} (seconds), got ${duration}`, 'video');
    const out = requireOption(values, 'out', 'video');
    const pollIntervalMs = integerOption(values, 'poll-ms', { min: 0 }, 'video');
    await checkOutPath(out, 'video');
    const prompt = await resolvePrompt(positionals[0], io, 'video');
    const gateway = client();

    const progress = createProgress(io.stderr);
    let taskId: string | undefined;
    let downloading = false;
    try {
      const task = await gateway.videos.generateAndWait(
        { model, prompt, duration: duration as VideoDuration },
        {
          signal,
          pollIntervalMs,
          onProgress: (t) => {
            taskId = t.id;
            progress.task(t);
          },
        },
      );
      downloading = true;
      const response = await gateway.videos.download(task, { signal, onProgress: (p) => progress.download(p) });
      if (!response.body) throw new Error(`The download of video task ${task.id} has no body.`);
      await writeOut(out, response.body, signal);
      progress.finish();
    } catch (error) {
      progress.clear();
      if (taskId && signal.aborted) {
        io.stderr.write(downloading ? `Stopped downloading video task ${taskId}.\n` : `Stopped waiting for video task ${taskId}; it keeps running on the gateway.\n`);
      }
      throw error;
    }
    io.stdout.write(`${out}\n`);
  },
};
