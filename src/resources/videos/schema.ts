import { ValidationError } from '../../core/errors.js';
import { DURATION_RULE, isVideoDuration } from './durations.js';

/**
 * Checks the params of POST videos/generations, by hand rather than with zod: four fields do
 * not justify a schema. Any model id is sent as it is: gateways add video models beyond the
 * documented two.
 */
export function check(body: unknown): void {
  if (typeof body !== 'object' || body === null) throw new ValidationError('params', 'must be an object');
  const { model, prompt, duration, async } = body as Record<string, unknown>;
  if (typeof model !== 'string' || !model.trim()) throw new ValidationError('model', "is required: a video model id such as 'vendor_video2' or 'vendor_video2-landscape'");
  if (typeof prompt !== 'string' || !prompt.trim()) throw new ValidationError('prompt', 'is required: a description of the video');
  if (!isVideoDuration(duration)) throw new ValidationError('duration', DURATION_RULE);
  if (async !== undefined && typeof async !== 'boolean') throw new ValidationError('async', 'must be a boolean');
}
