import type { APIPromise } from '../../../core/api-promise.js';
import type { RequestOptions } from '../../../core/types.js';
import type { CallPipeline } from '../../../core/resource.js';
import { postForm } from '../../../core/post-form.js';
import { check } from './schema.js';
import type { Transcription, TranscriptionCreateParams, TranscriptionVerbose } from './types.js';

// The transcription call, loaded with the first one (with its schema, zod and the multipart encoder).

/** POST audio/transcriptions as multipart; text formats come back as strings. */
export function create(api: CallPipeline, body: TranscriptionCreateParams, options: RequestOptions | undefined): APIPromise<Transcription | TranscriptionVerbose | string> {
  const asText = body?.response_format === 'text' || body?.response_format === 'srt' || body?.response_format === 'vtt';
  return postForm(api, { path: 'audio/transcriptions', body, files: ['file'], check, responseType: asText ? 'text' : 'json' }, options);
}
