import { ValidationError } from '../../core/errors.js';
import type { RequestOptions } from '../../core/request.js';
import { APIResource, configOf } from '../../core/resource.js';
import { path } from '../../internal/path.js';
import { isUnknownTask, normalizeVideoTask, VideoTaskNotFoundError } from './task.js';
import { waitForVideo } from './wait.js';
import type { VideoCreateParams, VideoDuration, VideoTask, VideoWaitOptions } from './types.js';

export { VIDEO_TASK_TTL_MS, VideoTaskFailedError, VideoTaskNotFoundError, videoTaskState, type VideoTaskState } from './task.js';

/** USD per video, by duration in seconds, from the gateway's price list. */
export const videoPrices: Readonly<Record<VideoDuration, number>> = { 5: 0.08, 10: 0.15, 15: 0.3, 20: 0.5 };

/** How many task ids each client remembers the base URL of. */
const REMEMBERED_TASKS = 1_000;

/** `client.videos`: asynchronous video generation. */
export class Videos extends APIResource {
  /** Task id → the base URL that created it: task ids need not be shared between bases. */
  readonly #origin = new Map<string, { baseURL: string; createdAt: number }>();

  /**
   * Submits a video task (with `async: true` unless you set it) and resolves to it,
   * `status: 'pending'`.
   * @example
   * const task = await client.videos.create({ model: 'vendor_video2', prompt: 'A paper boat on a river', duration: 5 });
   */
  async create(body: VideoCreateParams, options?: RequestOptions): Promise<VideoTask> {
    checkVideoParams(body);
    let servedBy = '';
    const task = await this._request<VideoTask>(
      { method: 'POST', path: 'videos/generations', body: { ...body, async: body.async ?? true }, onServed: (base) => (servedBy = base) },
      options,
    );
    this.#remember(task, servedBy);
    return normalizeVideoTask(task);
  }

  /**
   * Fetches a task's current state, from the base URL that created it when this client
   * created it. A task that is not found (ids expire after 24 hours) rejects with
   * {@link VideoTaskNotFoundError}.
   * @example const task = await client.videos.retrieve(id); if (task.status === 'completed') console.log(task.video_url);
   */
  async retrieve(taskId: string, options?: RequestOptions): Promise<VideoTask> {
    if (typeof taskId !== 'string' || !taskId) throw new ValidationError('taskId', 'must be a non-empty task id');
    const origin = this.#origin.get(taskId);
    try {
      const task = await this._request<VideoTask>({ method: 'GET', path: path`videos/generations/${taskId}`, baseURL: origin?.baseURL }, options);
      return normalizeVideoTask(task);
    } catch (error) {
      if (isUnknownTask(error)) throw new VideoTaskNotFoundError(error, taskId, origin?.createdAt);
      throw error;
    }
  }

  /**
   * Submits a task, then polls until it completes; resolves with the completed task
   * (`video_url` set). Polls follow the gateway's advice unless `pollIntervalMs` is given;
   * failed polls that are worth retrying are retried without losing the task. Status words
   * of every gateway vocabulary are understood (see `videoTaskState`); unknown words count
   * as still running.
   * @throws {@link VideoTaskFailedError} when the task fails, `APITimeoutError` past
   * `timeoutMs`, `APIUserAbortError` on abort.
   * @example
   * const done = await client.videos.generateAndWait(
   *   { model: 'vendor_video2-landscape', prompt: 'Waves at sunset', duration: 10 },
   *   { onProgress: (t) => console.log(t.status) },
   * );
   * console.log(done.video_url);
   */
  async generateAndWait(body: VideoCreateParams, options: VideoWaitOptions = {}): Promise<VideoTask> {
    checkVideoParams(body);
    return waitForVideo(this, body, options, configOf(this._client).redactor);
  }

  /**
   * The price of one video of `duration` seconds, in USD (0.08, 0.15, 0.30 or 0.50).
   * @example client.videos.estimateCost(10) // 0.15
   */
  estimateCost(duration: VideoDuration): number {
    checkDuration(duration);
    return videoPrices[duration];
  }

  #remember(task: VideoTask, baseURL: string): void {
    if (!task?.id || !baseURL) return;
    if (this.#origin.size >= REMEMBERED_TASKS) this.#origin.delete(this.#origin.keys().next().value as string);
    this.#origin.set(task.id, { baseURL, createdAt: typeof task.created_at === 'number' ? task.created_at * 1000 : Date.now() });
  }
}

/** Checked by hand rather than with zod: four fields do not justify loading a schema. */
function checkVideoParams(body: VideoCreateParams): void {
  if (typeof body !== 'object' || body === null) throw new ValidationError('params', 'must be an object');
  // Any model id is sent as it is: gateways add video models beyond the documented two.
  if (typeof body.model !== 'string' || !body.model.trim()) throw new ValidationError('model', "is required: a video model id such as 'vendor_video2' or 'vendor_video2-landscape'");
  if (typeof body.prompt !== 'string' || !body.prompt.trim()) throw new ValidationError('prompt', 'is required: a description of the video');
  checkDuration(body.duration);
  if (body.async !== undefined && typeof body.async !== 'boolean') throw new ValidationError('async', 'must be a boolean');
}

function checkDuration(duration: unknown): asserts duration is VideoDuration {
  if (!Object.prototype.hasOwnProperty.call(videoPrices, String(duration)) || typeof duration !== 'number') {
    throw new ValidationError('duration', 'must be 5, 10, 15 or 20 (seconds)');
  }
}
