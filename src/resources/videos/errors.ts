import { GatewayError, NotFoundError, type APIErrorInit } from '../../core/errors.js';
import type { VideoTask } from './types.js';

/** Task ids can be queried for this long after creation (gateway limit). */
export const VIDEO_TASK_TTL_MS = 24 * 60 * 60 * 1000;

// Only the classes: their messages are composed by the calls (calls.ts), which load with the first video call.

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
  /** @internal Built by the SDK from a redacted task. */
  constructor(message: string, task: VideoTask, error: string | undefined) {
    super(message);
    this.task = task;
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
  /** @internal Built by the SDK from the gateway's answer. */
  constructor(init: APIErrorInit, message: string, taskId: string, expired: boolean) {
    super(init);
    this.message = message;
    this.taskId = taskId;
    this.expired = expired;
  }
}
