import type { APIPromise } from '../../../core/api-promise.js';
import type { RequestOptions } from '../../../core/types.js';
import { APIResource } from '../../../core/resource.js';
import { claimStreams } from '../../../core/uploads/file-streams.js';
import * as schema from './schema.js';
import type { TranscriptionCreateParams, Transcription, TranscriptionVerbose } from './types.js';

/** `client.audio.transcriptions`: speech to text. */
export class Transcriptions extends APIResource {
  /**
   * Transcribes an audio file (multipart upload). With `response_format` `text`, `srt` or
   * `vtt` it resolves to the transcript as a string; with `verbose_json` to a
   * {@link TranscriptionVerbose}; otherwise to a {@link Transcription}.
   * @example
   * const { text } = await client.audio.transcriptions.create({ model: 'whisper-1', file: createReadStream('talk.mp3') });
   */
  create(body: TranscriptionCreateParams & { response_format?: 'json' | null | undefined }, options?: RequestOptions): APIPromise<Transcription>;
  create(body: TranscriptionCreateParams & { response_format: 'verbose_json' }, options?: RequestOptions): APIPromise<TranscriptionVerbose>;
  create(body: TranscriptionCreateParams & { response_format: 'text' | 'srt' | 'vtt' }, options?: RequestOptions): APIPromise<string>;
  create(body: TranscriptionCreateParams, options?: RequestOptions): APIPromise<Transcription | TranscriptionVerbose | string>;
  create(body: TranscriptionCreateParams, options?: RequestOptions): APIPromise<Transcription | TranscriptionVerbose | string> {
    // At the call, before any await: a missing file's stream error would crash the process.
    claimStreams([body?.file]);
    const format = body?.response_format;
    const responseType = format === 'text' || format === 'srt' || format === 'vtt' ? 'text' : 'json';
    const model = typeof body?.model === 'string' ? body.model : undefined;
    return this._request({ method: 'POST', path: 'audio/transcriptions', form: { fields: body, files: ['file'] }, schema, model, responseType }, options);
  }
}
