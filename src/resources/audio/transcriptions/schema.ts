import * as z from 'zod/mini';
import { ValidationError } from '../../../core/errors.js';
import { validate } from '../../../core/validation.js';
import { model, range, oneOf } from '../../shared/schema.js';

const transcriptionParams = z.looseObject(
  {
    model: model('whisper-1'),
    language: z.optional(z.string({ error: 'must be an ISO-639-1 code such as en' })),
    prompt: z.optional(z.string({ error: 'must be a string' })),
    response_format: oneOf(['json', 'text', 'srt', 'verbose_json', 'vtt']),
    temperature: range(0, 1),
  },
  { error: 'must be an object' },
);

/** Throws a ValidationError for the first rule `params` breaks (the file is checked as it is read). */
export function check(params: unknown): void {
  validate(transcriptionParams, params);
  if ((params as { file?: unknown }).file === undefined) throw new ValidationError('file', 'is required: the audio to transcribe');
}
