import { ValidationError } from '../../core/errors.js';
import type { APIPromise } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/types.js';
import { APIResource, configOf } from '../../core/resource.js';
import { DURATION_RULE, isVideoDuration, videoDurations } from './durations.js';
import * as schema from './schema.js';
import { normalizeVideoTask, taskNotFound } from './task.js';
import { waitForVideo } from './wait.js';
import type { VideoCreateParams, VideoDownloadOptions, VideoDuration, VideoTask, VideoWaitOptions } from './types.js';

/** How many task ids each client remembers the base URL of. */
const REMEMBERED_TASKS = 1_000;

export { VIDEO_TASK_TTL_MS, VideoTaskFailedError, VideoTaskNotFoundError } from '../errors.js';
export { videoTaskState, type VideoTaskState } from './task-state.js';

/** USD per video, by duration in seconds, from the gateway's price list. */
export const videoPrices = /* @__PURE__ */ Object.fromEntries(Object.entries(videoDurations).map(([seconds, { priceUSD }]) => [seconds, priceUSD])) as Readonly<Record<VideoDuration, number>>;

/** `client.videos`: asynchronous video generation. */
export class Videos extends APIResource {
  /** Task id → the base URL that created it: task ids need not be shared between bases. */
  readonly #taskBases = new Map<string, { baseURL: string; createdAt: number }>();

  /**
   * Submits a video task (with `async: true` unless you set it) and resolves to it,
   * `status: 'pending'`.
   * @example
   * const task = await client.videos.create({ model: 'vendor_video2', prompt: 'A paper boat on a river', duration: 5 });
   */
  create(body: VideoCreateParams, options?: RequestOptions): APIPromise<VideoTask> {
    let servedBy = '';
    const sent = typeof body === 'object' && body !== null ? { ...body, async: body.async ?? true } : body;
    return this._post(
      'videos/generations',
      { body: sent, schema, onServed: (baseURL) => (servedBy = baseURL), map: (data) => this.#remember(normalizeVideoTask(data), servedBy) },
      options,
    );
  }

  /**
   * Fetches a task's current state, from the base URL that created it when this client
   * created it. A task that is not found (ids expire after 24 hours) rejects with
   * {@link VideoTaskNotFoundError}.
   * @example const task = await client.videos.retrieve(id); if (task.status === 'completed') console.log(task.video_url);
   */
  retrieve(taskId: string, options?: RequestOptions): APIPromise<VideoTask> {
    const origin = typeof taskId === 'string' ? this.#taskBases.get(taskId) : undefined;
    return this._get('videos/generations/{taskId}', options, {
      pathParams: { taskId },
      baseURL: origin?.baseURL,
      map: normalizeVideoTask,
      mapError: (error) => taskNotFound(error, taskId, origin?.createdAt),
    });
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
    schema.check(body);
    return waitForVideo(this, body, options, configOf(this._client).redactor);
  }

  /**
   * Downloads a finished video: from a completed task's `video_url`, or from a URL. Resolves
   * to a `Response` once the first bytes arrived (retried like any request until then);
   * its body reports `{ loadedBytes, totalBytes }` to `onProgress` as it is read
   * (`totalBytes` is null without a Content-Length), and errors if it is cut short.
   * The API key is sent only when the URL's origin is one of the client's base URLs
   * (gateways proxy downloads through themselves); a CDN, or any other origin, never gets
   * it, redirects included.
   * @example
   * const response = await client.videos.download(task, { onProgress: (p) => console.log(p.loadedBytes, p.totalBytes) });
   * await writeFile('video.mp4', Buffer.from(await response.arrayBuffer()));
   */
  download(taskOrURL: VideoTask | string, options: VideoDownloadOptions = {}): Promise<Response> {
    const task = typeof taskOrURL === 'object' && taskOrURL !== null ? taskOrURL : undefined;
    return this._download(typeof taskOrURL === 'string' ? taskOrURL : task?.video_url, options, task && this.#taskBases.get(task.id)?.baseURL);
  }

  /**
   * The price of one video of `duration` seconds, in USD (0.08, 0.15, 0.30 or 0.50).
   * @example client.videos.estimateCost(10) // 0.15
   */
  estimateCost(duration: VideoDuration): number {
    if (!isVideoDuration(duration)) throw new ValidationError('duration', DURATION_RULE);
    return videoDurations[duration].priceUSD;
  }

  /** Remembers which base made a task (its id need not exist on the other base), for retrieve and download. */
  #remember(task: VideoTask, servedBy: string): VideoTask {
    if (task?.id && servedBy) {
      if (this.#taskBases.size >= REMEMBERED_TASKS) this.#taskBases.delete(this.#taskBases.keys().next().value as string);
      this.#taskBases.set(task.id, { baseURL: servedBy, createdAt: typeof task.created_at === 'number' ? task.created_at * 1000 : Date.now() });
    }
    return task;
  }
}
