import { APIError, NotFoundError } from '../../core/errors.js';
import { isRecord } from '../../internal/is-record.js';
import type { Redactor } from '../../internal/redact.js';
import { VIDEO_TASK_TTL_MS, VideoTaskFailedError, VideoTaskNotFoundError } from '../errors.js';
import type { VideoTask } from './types.js';

// A task as the gateway words it, made uniform, and the errors a task ends in.

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

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
  const safe = redactor.deep(task);
  const error = failureText(safe);
  const how = String(safe.status).toLowerCase() === 'failed' ? 'failed' : `ended with status '${String(safe.status)}'`;
  // The server's text may end its own sentence: one period, not two.
  return new VideoTaskFailedError(`Video task ${safe.id} ${how}${error ? `: ${error.replace(/[.\s]+$/, '')}` : ''}.`, safe, error);
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
