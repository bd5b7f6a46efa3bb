import { GatewayError, NotFoundError, ValidationError } from '../core/errors.js';
import type { RequestOptions } from '../core/request.js';
import { APIResource } from '../core/resource.js';
import { path } from '../internal/path.js';
import { waitForVideo } from './videos-wait.js';
import type { VideoCreateParams, VideoDuration, VideoTask, VideoWaitOptions } from './videos.types.js';

/** USD per video, by duration in seconds, from the gateway's price list. */
export const videoPrices: Readonly<Record<VideoDuration, number>> = { 5: 0.08, 10: 0.15, 15: 0.3, 20: 0.5 };

/** Task ids can be queried for this long after creation (gateway limit). */
export const VIDEO_TASK_TTL_MS = 24 * 60 * 60 * 1000;

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
    return task;
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
      return await this._request<VideoTask>({ method: 'GET', path: path`videos/generations/${taskId}`, ...(origin ? { baseURL: origin.baseURL } : {}) }, options);
    } catch (error) {
      if (error instanceof NotFoundError) throw new VideoTaskNotFoundError(error, taskId, origin?.createdAt);
      throw error;
    }
  }

  /**
   * Submits a task, then polls until it completes; resolves with the completed task
   * (`video_url` set). Polls follow the gateway's advice unless `pollIntervalMs` is given;
   * failed polls that are worth retrying are retried without losing the task; unknown
   * status words count as still running.
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
    return waitForVideo(this, body, options);
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

const MODEL_PATTERN = /^[A-Za-z0-9][\w.-]*_video2(-landscape)?$/;

/** Checked by hand rather than with zod: three fields do not justify loading a schema. */
function checkVideoParams(body: VideoCreateParams): void {
  if (typeof body !== 'object' || body === null) throw new ValidationError('params', 'must be an object');
  if (typeof body.model !== 'string' || !MODEL_PATTERN.test(body.model)) {
    throw new ValidationError('model', "must be '<vendor>_video2' (portrait) or '<vendor>_video2-landscape' (landscape)");
  }
  if (typeof body.prompt !== 'string' || !body.prompt.trim()) throw new ValidationError('prompt', 'is required: a description of the video');
  checkDuration(body.duration);
  if (body.async !== undefined && typeof body.async !== 'boolean') throw new ValidationError('async', 'must be a boolean');
}

function checkDuration(duration: unknown): asserts duration is VideoDuration {
  if (!Object.prototype.hasOwnProperty.call(videoPrices, String(duration)) || typeof duration !== 'number') {
    throw new ValidationError('duration', 'must be 5, 10, 15 or 20 (seconds)');
  }
}

/** The video task ended in `failed`. `error` is the server's error text, when it sent one. */
export class VideoTaskFailedError extends GatewayError {
  static override readonly kind = 'VideoTaskFailedError';
  /** The failed task as last retrieved. */
  readonly task: VideoTask;
  /** The server's error string. */
  readonly error: string | undefined;
  constructor(task: VideoTask) {
    super(`Video task ${task.id} failed${task.error ? `: ${task.error}` : ''}.`);
    this.task = task;
    this.error = task.error;
  }
}

/**
 * A video task id was not found: it is unknown, or older than 24 hours (task ids can only be
 * queried for 24 hours after creation).
 */
export class VideoTaskNotFoundError extends NotFoundError {
  static override readonly kind = 'VideoTaskNotFoundError';
  /** The task id that was asked for. */
  readonly taskId: string;
  /** True when this client created the task more than 24 hours ago. */
  readonly expired: boolean;
  constructor(source: NotFoundError, taskId: string, createdAtMs: number | undefined) {
    super({
      status: source.status,
      error: source.error,
      headers: source.headers,
      message: undefined,
      code: source.code,
      type: source.type,
      param: source.param,
      method: 'GET',
      url: '',
      retryAfterMs: source.retryAfterMs,
    });
    const age = createdAtMs === undefined ? undefined : Date.now() - createdAtMs;
    this.taskId = taskId;
    this.expired = age !== undefined && age > VIDEO_TASK_TTL_MS;
    this.message = this.expired
      ? `Video task ${taskId} has expired: task ids can be queried for 24 hours and it was created ${Math.floor((age ?? 0) / 3_600_000)} h ago.`
      : `Video task ${taskId} was not found (404). Task ids can be queried for 24 hours after creation; check the id, or whether it has expired.`;
  }
}
