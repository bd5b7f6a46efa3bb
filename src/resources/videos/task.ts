import { APIError, GatewayError, NotFoundError } from '../../core/errors.js';
import type { Redactor } from '../../internal/redact.js';
import type { VideoTask } from './types.js';

/** Task ids can be queried for this long after creation (gateway limit). */
export const VIDEO_TASK_TTL_MS = 24 * 60 * 60 * 1000;

/** Where a video task stands, whatever vocabulary its gateway uses. */
export type VideoTaskState = 'running' | 'completed' | 'failed';

/**
 * Status words, lower-cased, that end a task (REALITIES.md: gateways use several
 * vocabularies, in any case). Every other word, known or new, means still running.
 */
const finishedWords: ReadonlySet<string> = new Set(['completed', 'succeeded', 'success']);
const failedWords: ReadonlySet<string> = new Set([
  'failed',
  'failure',
  'cancelled', // a task cancelled for running too long is dead
  'canceled',
  'expired',
]);

/**
 * Reads a task's `status` word: `completed`, `succeeded` and `success` finish; `failed`,
 * `failure`, `cancelled`, `canceled` and `expired` are terminal failures; anything else
 * (`pending`, `queued`, `in_progress`, `NOT_START`, `unknown`, a new word) is still running.
 * Case does not matter.
 * @example if (videoTaskState(task) === 'completed') console.log(task.video_url);
 */
export function videoTaskState(task: Pick<VideoTask, 'status'>): VideoTaskState {
  const word = typeof task.status === 'string' ? task.status.trim().toLowerCase() : '';
  return finishedWords.has(word) ? 'completed' : failedWords.has(word) ? 'failed' : 'running';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
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

/**
 * The video task ended in failure (`failed`, `cancelled`, `expired`, … as the gateway words
 * it). `error` is the server's own text; the task as last retrieved is on `task`. Both are
 * free of the API key, even when the server echoed it.
 */
export class VideoTaskFailedError extends GatewayError {
  static override readonly kind = 'VideoTaskFailedError';
  /** The failed task as last retrieved (`status` as the server sent it). */
  readonly task: VideoTask;
  /** The server's error text: `error`, `error.message` or `fail_reason`. */
  readonly error: string | undefined;
  /** @param redactor removes the client's secrets; the SDK always passes one. */
  constructor(task: VideoTask, redactor?: Redactor) {
    const safe = redactor ? redactor.deep(task) : task;
    const error = failureText(safe);
    const how = String(safe.status).toLowerCase() === 'failed' ? 'failed' : `ended with status '${String(safe.status)}'`;
    super(`Video task ${safe.id} ${how}${error ? `: ${error}` : ''}.`);
    this.task = safe;
    this.error = error;
  }
}

/**
 * A video task id was not found: it is unknown, or older than 24 hours (task ids can only be
 * queried for 24 hours after creation). Gateways answer 404, or 400 with code
 * `task_not_exist`; `status` says which.
 */
export class VideoTaskNotFoundError extends NotFoundError {
  static override readonly kind = 'VideoTaskNotFoundError';
  /** The task id that was asked for. */
  readonly taskId: string;
  /** True when this client created the task more than 24 hours ago. */
  readonly expired: boolean;
  constructor(source: APIError, taskId: string, createdAtMs: number | undefined) {
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
      requestID: source.requestID,
    });
    const age = createdAtMs === undefined ? undefined : Date.now() - createdAtMs;
    this.taskId = taskId;
    this.expired = age !== undefined && age > VIDEO_TASK_TTL_MS;
    this.message = this.expired
      ? `Video task ${taskId} has expired: task ids can be queried for 24 hours and it was created ${Math.floor((age ?? 0) / 3_600_000)} h ago.`
      : `Video task ${taskId} was not found (${source.status}${source.code ? ` ${source.code}` : ''}). Task ids can be queried for 24 hours after creation; check the id, or whether it has expired.`;
  }
}

/** True for the errors a gateway answers an unknown task id with: 404, or 400 `task_not_exist`. */
export const isUnknownTask = (error: unknown): error is APIError =>
  error instanceof NotFoundError || (error instanceof APIError && (error.code === 'task_not_exist' || error.code === 'task_not_found'));
