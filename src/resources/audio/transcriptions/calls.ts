import type { APIPromise } from '../../../core/api-promise.js';
import { encodeMultipart, resolveFiles } from '../../../core/multipart.js';
import type { RequestOptions } from '../../../core/request.js';
import type { ResourceAPI } from '../../../core/resource.js';
import { check } from './schema.js';
import type { Transcription, TranscriptionCreateParams, TranscriptionVerbose } from './types.js';

// The transcription call, loaded with the first one (with its schema, zod and the multipart encoder).

/** POST audio/transcriptions as multipart; text formats come back as strings. */
export function create(api: ResourceAPI, body: TranscriptionCreateParams, options: RequestOptions | undefined): APIPromise<Transcription | TranscriptionVerbose | string> {
  // The file is read once per call: a stream or a Response can be read only once, and a
  // fallback model gets the same bytes.
  let files: Promise<Record<string, File | undefined>> | undefined;
  return api.call(
    {
      model: body?.model,
      request: async (model?: string) => {
        check(body);
        const { file, ...fields } = body;
        files ??= resolveFiles({ file });
        const form = encodeMultipart({ ...fields, model: model ?? fields.model, ...(await files) });
        const asText = body.response_format === 'text' || body.response_format === 'srt' || body.response_format === 'vtt';
        return { method: 'POST', path: 'audio/transcriptions', form, responseType: asText ? 'text' : 'json' };
      },
    },
    options,
  );
}
