import { APITimeoutError, APIUserAbortError, GatewayError, ValidationError } from '../../core/errors.js';
import { failureKind, isRetryable } from '../../core/policy/decide.js';
import type { Redactor } from '../../internal/redact.js';
import { anySignal } from '../../internal/signals.js';
import { sleep } from '../../internal/sleep.js';
import { taskFailed } from './task.js';
import { videoDurations } from './durations.js';
import { videoTaskState } from './task-state.js';
import type { VideoCreateParams, VideoTask, VideoTaskSource, VideoWaitOptions } from './types.js';

/** How long `generateAndWait` waits in all by default, in ms. */
export const DEFAULT_WAIT_MS = 30 * 60 * 1000;

/** A poll failure worth polling again for: the retrieve already retried it. */
function isPassing(error: unknown): boolean {
  return isRetryable(failureKind(error));
}

/** The loop behind `videos.generateAndWait` (parameters already checked). */
export async function waitForVideo(videos: VideoTaskSource, body: VideoCreateParams, options: VideoWaitOptions, redactor: Redactor): Promise<VideoTask> {
  const { pollIntervalMs, onProgress } = options;
  if (pollIntervalMs !== undefined && !(pollIntervalMs >= 0)) throw new ValidationError('pollIntervalMs', 'must be a number of ms >= 0');
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  if (!(timeoutMs > 0)) throw new ValidationError('timeoutMs', 'must be a number of ms > 0');

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = anySignal(options.signal, deadline.signal) ?? deadline.signal;
  let task: VideoTask | undefined;
  const stopped = (cause?: unknown): GatewayError =>
    options.signal?.aborted
      ? new APIUserAbortError(undefined, { cause: options.signal.reason })
      : new APITimeoutError(`Video task ${task?.id ?? '(not yet created)'} did not finish within ${timeoutMs} ms (last status: ${task?.status ?? 'none'}).`, { cause });

  try {
    task = await videos.create(body, { signal }).catch((error: unknown) => {
      throw deadline.signal.aborted || options.signal?.aborted ? stopped(error) : error;
    });
    onProgress?.(task);
    const [min, max] = videoDurations[body.duration].pollMs;
    for (;;) {
      const state = videoTaskState(task);
      if (state === 'failed') throw taskFailed(task, redactor);
      if (state === 'completed') {
        if (task.video_url) return task;
        throw new GatewayError(
          `Video task ${task.id} completed (status '${String(task.status)}') but the gateway sent no video URL (looked in video_url, url, result_url and metadata.url).`,
        );
      }
      await sleep(pollIntervalMs ?? min + Math.random() * (max - min), signal).catch((reason: unknown) => {
        throw stopped(reason);
      });
      try {
        task = await videos.retrieve(task.id, { signal });
        onProgress?.(task);
      } catch (error) {
        if (signal.aborted) throw stopped(error);
        // A poll that failed for a passing reason (the retrieve already retried) is not
        // the task failing: keep the task and poll again at the next interval.
        if (!isPassing(error)) throw error;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
