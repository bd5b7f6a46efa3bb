import type { APIPromise } from '../../core/api-promise.js';
import { redactDeep } from '../../core/error-factory.js';
import type { OpenStream, RequestOptions } from '../../core/request.js';
import type { CallPipeline } from '../../core/resource.js';
import { path } from '../../internal/path.js';
import { downloadRequest, withProgress } from './download.js';
import type { VideoDownloadOptions } from './index.js';
import type { VideoTaskSource } from './wait.js';
import { APIError, NotFoundError, ValidationError } from '../../core/errors.js';
import { VIDEO_TASK_TTL_MS, VideoTaskFailedError, VideoTaskNotFoundError } from './errors.js';
import type { Redactor } from '../../internal/redact.js';

import type { VideoCreateParams, VideoTask, VideoWaitOptions } from './types.js';

// Loaded with the first video call: the calls themselves, checks, normalisation and the
// wording of errors.


/** The durations the gateway offers, in seconds. */
const durations: ReadonlySet<unknown> = new Set([5, 10, 15, 20]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** Checked by hand rather than with zod: four fields do not justify loading a schema. */
export function checkVideoParams(body: VideoCreateParams): void {
  if (typeof body !== 'object' || body === null) throw new ValidationError('params', 'must be an object');
  // Any model id is sent as it is: gateways add video models beyond the documented two.
  if (typeof body.model !== 'string' || !body.model.trim()) throw new ValidationError('model', "is required: a video model id such as 'vendor_video2' or 'vendor_video2-landscape'");
  if (typeof body.prompt !== 'string' || !body.prompt.trim()) throw new ValidationError('prompt', 'is required: a description of the video');
  if (!durations.has(body.duration)) throw new ValidationError('duration', 'must be 5, 10, 15 or 20 (seconds)');
  if (body.async !== undefined && typeof body.async !== 'boolean') throw new ValidationError('async', 'must be a boolean');
}

/**
 * A task as the SDK hands it out: the server's fields kept as sent, plus `video_url` filled
 * from `url`, `result_url` or `metadata.url` where a gateway puts the result, and a
 * `progress` of `"30%"` read as 30.
 */
export function normalizeVideoTask(raw: unknown): VideoTask {
  const task = { ...(raw as VideoTask) };
  const metadata = isRecord(task.metadata) ? task.metadata : {};
  const url = text(task.video_url) ?? text(task.url) ?? text(task.result_url) ?? text(metadata.url);
  if (url !== undefined) task.video_url = url;
  if (typeof task.progress === 'string') {
    const n = Number.parseFloat(task.progress);
    if (Number.isFinite(n)) task.progress = n;
  }
  return task;
}

/** The server's words for why a task failed: `error` (a string, or an object's `message`), else `fail_reason`. */
function failureText(task: VideoTask): string | undefined {
  const error: unknown = task.error;
  if (isRecord(error)) return text(error.message) ?? text(error.code) ?? text(task.fail_reason);
  return text(error) ?? text(task.fail_reason);
}

/** The error for a task that ended in failure, with the client's secrets removed from all of it. */
export function taskFailed(task: VideoTask, redactor: Redactor): VideoTaskFailedError {
  const safe = redactDeep(task, redactor);
  const error = failureText(safe);
  const how = String(safe.status).toLowerCase() === 'failed' ? 'failed' : `ended with status '${String(safe.status)}'`;
  return new VideoTaskFailedError(`Video task ${safe.id} ${how}${error ? `: ${error}` : ''}.`, safe, error);
}

/**
 * A 404, or a 400 `task_not_exist`, for a task id as a VideoTaskNotFoundError explaining the
 * 24-hour validity; any other error as it is.
 */
export function taskNotFound(error: unknown, taskId: string, createdAtMs: number | undefined): unknown {
  const unknownTask = error instanceof NotFoundError || (error instanceof APIError && (error.code === 'task_not_exist' || error.code === 'task_not_found'));
  if (!unknownTask) return error;
  const age = createdAtMs === undefined ? undefined : Date.now() - createdAtMs;
  const expired = age !== undefined && age > VIDEO_TASK_TTL_MS;
  const message = expired
    ? `Video task ${taskId} has expired: task ids can be queried for 24 hours and it was created ${Math.floor((age ?? 0) / 3_600_000)} h ago.`
    : `Video task ${taskId} was not found (${error.status}${error.code ? ` ${error.code}` : ''}). Task ids can be queried for 24 hours after creation; check the id, or whether it has expired.`;
  const init = { status: error.status, error: error.error, headers: error.headers, message: undefined, code: error.code, type: error.type, param: error.param, method: 'GET', url: '', retryAfterMs: error.retryAfterMs, requestID: error.requestID };
  return new VideoTaskNotFoundError(init, message, taskId, expired);
}

/** How many task ids each client remembers the base URL of. */
const REMEMBERED_TASKS = 1_000;

/** What the calls need from the Videos resource. */
export interface VideoContext extends CallPipeline {
  /** Task id → the base URL that created it (task ids need not be shared between bases), and when. */
  origin: Map<string, { baseURL: string; createdAt: number }>;
}

/** POST videos/generations, remembering which base made the task. */
export function create(ctx: VideoContext, body: VideoCreateParams, options: RequestOptions | undefined): APIPromise<VideoTask> {
  let servedBy = '';
  return ctx.call<VideoTask>(
    {
      model: body?.model,
      request: (model?: string) => {
        checkVideoParams(body);
        return { method: 'POST', path: 'videos/generations', body: { ...body, model: model ?? body.model, async: body.async ?? true }, onServed: (base: string) => (servedBy = base) };
      },
      map: (data) => {
        const task = normalizeVideoTask(data);
        if (task?.id && servedBy) {
          if (ctx.origin.size >= REMEMBERED_TASKS) ctx.origin.delete(ctx.origin.keys().next().value as string);
          ctx.origin.set(task.id, { baseURL: servedBy, createdAt: typeof task.created_at === 'number' ? task.created_at * 1000 : Date.now() });
        }
        return task;
      },
    },
    options,
  );
}

/** GET videos/generations/{id}, from the base that created the task. */
export function retrieve(ctx: VideoContext, taskId: string, options: RequestOptions | undefined): APIPromise<VideoTask> {
  const origin = typeof taskId === 'string' ? ctx.origin.get(taskId) : undefined;
  return ctx.call<VideoTask>(
    {
      request: () => {
        if (typeof taskId !== 'string' || !taskId) throw new ValidationError('taskId', 'must be a non-empty task id');
        return { method: 'GET', path: path`videos/generations/${taskId}`, baseURL: origin?.baseURL };
      },
      map: normalizeVideoTask,
      mapError: (error) => taskNotFound(error, taskId, origin?.createdAt),
    },
    options,
  );
}

/** A download with progress; see `Videos.download`. */
export function download(ctx: VideoContext, taskOrURL: VideoTask | string, options: VideoDownloadOptions): APIPromise<Response> {
  const origin = typeof taskOrURL === 'object' && taskOrURL ? ctx.origin.get(taskOrURL.id)?.baseURL : undefined;
  const { onProgress, ...requestOptions } = options;
  return ctx.call<Response>(
    {
      request: () => downloadRequest(taskOrURL, origin, ctx.config.pool),
      map: (open, response) => withProgress(open as OpenStream, response, requestOptions.idleTimeout ?? ctx.config.idleTimeout, onProgress),
    },
    requestOptions,
  );
}

/** Checks, then submits and polls (the loop loads with the first wait). */
export async function generateAndWait(videos: VideoTaskSource, body: VideoCreateParams, options: VideoWaitOptions, redactor: Redactor): Promise<VideoTask> {
  checkVideoParams(body);
  return (await import('./wait.js')).waitForVideo(videos, body, options, redactor);
}
