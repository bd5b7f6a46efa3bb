import type { VideoTask } from './types.js';

/** Where a video task stands, whatever vocabulary its gateway uses. */
export type VideoTaskState = 'running' | 'completed' | 'failed';

/**
 * Status words, lower-cased, that end a task: gateways word states in several vocabularies,
 * in any case. Every other word, known or new, means still running.
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
