import type { DownloadOptions, DownloadProgress, RequestOptions } from '../../core/types.js';
import type { ModelId } from '../../core/model-catalog.js';

/**
 * A video model id. The documented ids `vendor_video2` (portrait) and
 * `vendor_video2-landscape` (landscape) autocomplete; other vendors' `<vendor>_video2` ids and
 * any other id the gateway lists are accepted too (the SDK never refuses a model id); the ids
 * of a generated `ModelCatalog` autocomplete as well.
 * No `${string}_video2` member here: TypeScript folds the literals into such a template and
 * editors then offer nothing.
 */
export type VideoModel = 'vendor_video2' | 'vendor_video2-landscape' | ModelId;

/** Seconds of video; the gateway offers exactly these. */
export type VideoDuration = 5 | 10 | 15 | 20;

/** POST /videos/generations parameters. */
export interface VideoCreateParams {
  model: VideoModel;
  /** What the video shows. */
  prompt: string;
  duration: VideoDuration;
  /** Asynchronous mode: submit now, poll for the result. @default true */
  async?: boolean | undefined;
}

/**
 * The states of a video task as the server words them. The spec's words autocomplete; other
 * gateways send `queued`, `in_progress`, `SUCCESS`, `FAILURE`, `cancelled`, … and those are
 * kept as sent. Read a status with `videoTaskState(task)`.
 */
export type VideoTaskStatus = 'pending' | 'processing' | 'completed' | 'failed' | (string & {});

/** A video generation task, as the gateway sent it (with `video_url` filled where it put the URL elsewhere). */
export interface VideoTask {
  /** Task id; it can be queried for 24 hours. */
  id: string;
  /** The server's own word: see {@link VideoTaskStatus}. */
  status: VideoTaskStatus;
  /** Unix seconds. */
  created_at: number;
  /**
   * Set when the task has completed: download the video from here. Filled from `url`,
   * `result_url` or `metadata.url` when the gateway puts the result there.
   */
  video_url?: string | undefined;
  /** Percent done, when the gateway reports it (a `"30%"` string is read as 30). */
  progress?: number | string | undefined;
  /** May be set when the task failed: a string, or an object `{ message, code }` on some gateways. */
  error?: string | { message?: string | undefined; code?: string | number | undefined; [key: string]: unknown } | null | undefined;
  /** Some gateways give the failure reason here instead of `error`. */
  fail_reason?: string | null | undefined;
  /** Where some gateways put the result URL (copied to `video_url`). */
  url?: string | undefined;
  /** Where some gateways put the result URL (copied to `video_url`). */
  result_url?: string | undefined;
  /** Vendor details; some gateways put the result URL at `metadata.url`. */
  metadata?: Record<string, unknown> | null | undefined;
  model?: string | undefined;
}

/** Options of `videos.generateAndWait`. */
export interface VideoWaitOptions {
  /** Aborts submission or polling at once with `APIUserAbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * ms between polls, used as given. @default the gateway's advice with jitter: 5–10 s for
   * 5 and 10 s videos, 15–30 s for 15 and 20 s videos
   */
  pollIntervalMs?: number | undefined;
  /** Give up (with `APITimeoutError`) after this many ms in all. @default 1_800_000 (30 min) */
  timeoutMs?: number | undefined;
  /** Called with the task after submission and after every successful poll. */
  onProgress?: ((task: VideoTask) => void) | undefined;
}

export type { DownloadProgress };

/** Options of `videos.download`: the usual request options, and progress. */
export type VideoDownloadOptions = DownloadOptions;

/** What the wait needs from the resource: submit and poll. */
export interface VideoTaskSource {
  create(body: VideoCreateParams, options?: RequestOptions): Promise<VideoTask>;
  retrieve(taskId: string, options?: RequestOptions): Promise<VideoTask>;
}
