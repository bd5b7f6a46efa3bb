import type { APIPromise } from '../../core/api-promise.js';
import type { OpenStream, RequestOptions } from '../../core/types.js';
import { path } from '../../internal/path.js';
import { downloadRequest, withProgress } from './download.js';
import { ValidationError } from '../../core/errors.js';
import type { Redactor } from '../../internal/redact.js';
import { normalizeVideoTask, taskNotFound } from './task.js';
import { waitForVideo } from './wait.js';
import { DURATION_RULE, isVideoDuration } from './durations.js';
import type { VideoContext, VideoCreateParams, VideoDownloadOptions, VideoTask, VideoTaskSource, VideoWaitOptions } from './types.js';

// The video calls and their checks (docs/architecture.md#loading-on-first-use).

/** Checked by hand rather than with zod: four fields do not justify loading a schema. */
export function checkVideoParams(body: VideoCreateParams): void {
  if (typeof body !== 'object' || body === null) throw new ValidationError('params', 'must be an object');
  // Any model id is sent as it is: gateways add video models beyond the documented two.
  if (typeof body.model !== 'string' || !body.model.trim()) throw new ValidationError('model', "is required: a video model id such as 'vendor_video2' or 'vendor_video2-landscape'");
  if (typeof body.prompt !== 'string' || !body.prompt.trim()) throw new ValidationError('prompt', 'is required: a description of the video');
  if (!isVideoDuration(body.duration)) throw new ValidationError('duration', DURATION_RULE);
  if (body.async !== undefined && typeof body.async !== 'boolean') throw new ValidationError('async', 'must be a boolean');
}

/** How many task ids each client remembers the base URL of. */
const REMEMBERED_TASKS = 1_000;

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
          if (ctx.taskBases.size >= REMEMBERED_TASKS) ctx.taskBases.delete(ctx.taskBases.keys().next().value as string);
          ctx.taskBases.set(task.id, { baseURL: servedBy, createdAt: typeof task.created_at === 'number' ? task.created_at * 1000 : Date.now() });
        }
        return task;
      },
    },
    options,
  );
}

/** GET videos/generations/{id}, from the base that created the task. */
export function retrieve(ctx: VideoContext, taskId: string, options: RequestOptions | undefined): APIPromise<VideoTask> {
  const origin = typeof taskId === 'string' ? ctx.taskBases.get(taskId) : undefined;
  return ctx.call<VideoTask>(
    {
      request: () => {
        if (typeof taskId !== 'string' || !taskId) throw new ValidationError('taskId', 'must be a non-empty task id');
        return { method: 'GET', path: path`videos/generations/${{ taskId }}`, baseURL: origin?.baseURL };
      },
      map: normalizeVideoTask,
      mapError: (error) => taskNotFound(error, taskId, origin?.createdAt),
    },
    options,
  );
}

/** A download with progress; see `Videos.download`. */
export function download(ctx: VideoContext, taskOrURL: VideoTask | string, options: VideoDownloadOptions): APIPromise<Response> {
  const origin = typeof taskOrURL === 'object' && taskOrURL ? ctx.taskBases.get(taskOrURL.id)?.baseURL : undefined;
  const { onProgress, ...requestOptions } = options;
  return ctx.call<Response>(
    {
      request: () => downloadRequest(taskOrURL, origin, ctx.config.pool),
      map: (open, response) => withProgress(open as OpenStream, response, requestOptions.idleTimeout ?? ctx.config.idleTimeout, onProgress),
    },
    requestOptions,
  );
}

/** Checks, then submits and polls (the loop in wait.ts loads on first use). */
export async function generateAndWait(videos: VideoTaskSource, body: VideoCreateParams, options: VideoWaitOptions, redactor: Redactor): Promise<VideoTask> {
  checkVideoParams(body);
  return waitForVideo(videos, body, options, redactor);
}
