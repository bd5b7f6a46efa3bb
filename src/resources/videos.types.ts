/** `<vendor>_video2` (portrait) or `<vendor>_video2-landscape` (landscape). */
export type VideoModel = `${string}_video2` | `${string}_video2-landscape`;

/** Seconds of video; the gateway offers exactly these. */
export type VideoDuration = 5 | 10 | 15 | 20;

/** POST /videos/generations parameters. */
export interface VideoCreateParams {
  model: VideoModel;
  /** What the video shows. */
  prompt: string;
  duration: VideoDuration;
  /** Asynchronous mode: submit now, poll for the result. @default true */
  async?: boolean;
}

/** The states of a video task; unknown words from newer gateways are kept as they are. */
export type VideoTaskStatus = 'pending' | 'processing' | 'completed' | 'failed' | (string & {});

/** A video generation task. */
export interface VideoTask {
  /** Task id; it can be queried for 24 hours. */
  id: string;
  status: VideoTaskStatus;
  /** Unix seconds. */
  created_at: number;
  /** Set when `status` is `completed`: download the video from here. */
  video_url?: string;
  /** May be set when `status` is `failed`. */
  error?: string;
}

/** Options of `videos.generateAndWait`. */
export interface VideoWaitOptions {
  /** Aborts submission or polling at once with `APIUserAbortError`. */
  signal?: AbortSignal;
  /**
   * ms between polls, used as given. @default the gateway's advice with jitter: 5–10 s for
   * 5 and 10 s videos, 15–30 s for 15 and 20 s videos
   */
  pollIntervalMs?: number;
  /** Give up (with `APITimeoutError`) after this many ms in all. @default 1_800_000 (30 min) */
  timeoutMs?: number;
  /** Called with the task after submission and after every successful poll. */
  onProgress?: (task: VideoTask) => void;
}
