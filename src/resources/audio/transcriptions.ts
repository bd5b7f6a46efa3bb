import type { RequestOptions } from '../../core/request.js';
import { APIResource } from '../../core/resource.js';
import { claimStreams } from '../../core/claim-streams.js';
import type { Uploadable } from '../../core/uploads.js';
import { lazy } from '../../internal/lazy.js';

/** The schema (and zod) load with the first call; see core/resource.ts. */
const loadSchema = lazy(() => import('./transcriptions.schema.js'));

/** `client.audio.transcriptions`: speech to text. */
export class Transcriptions extends APIResource {
  /**
   * Transcribes an audio file (multipart upload). With `response_format` `text`, `srt` or
   * `vtt` it resolves to the transcript as a string; with `verbose_json` to a
   * {@link TranscriptionVerbose}; otherwise to a {@link Transcription}.
   * @example
   * const { text } = await client.audio.transcriptions.create({ model: 'whisper-1', file: createReadStream('talk.mp3') });
   */
  create(body: TranscriptionCreateParams & { response_format?: 'json' | null }, options?: RequestOptions): Promise<Transcription>;
  create(body: TranscriptionCreateParams & { response_format: 'verbose_json' }, options?: RequestOptions): Promise<TranscriptionVerbose>;
  create(body: TranscriptionCreateParams & { response_format: 'text' | 'srt' | 'vtt' }, options?: RequestOptions): Promise<string>;
  create(body: TranscriptionCreateParams, options?: RequestOptions): Promise<Transcription | TranscriptionVerbose | string>;
  async create(body: TranscriptionCreateParams, options?: RequestOptions): Promise<Transcription | TranscriptionVerbose | string> {
    claimStreams([body?.file]);
    await this._check(loadSchema, body);
    const { file, ...fields } = body;
    const { encodeMultipart, resolveFiles } = await import('../../core/multipart.js');
    const form = encodeMultipart({ ...fields, ...(await resolveFiles({ file })) });
    const asText = body.response_format === 'text' || body.response_format === 'srt' || body.response_format === 'vtt';
    return this._request({ method: 'POST', path: 'audio/transcriptions', form, responseType: asText ? 'text' : 'json' }, options);
  }
}

/** POST /audio/transcriptions parameters (sent as multipart/form-data). */
export interface TranscriptionCreateParams {
  /** The audio: a Blob/File, bytes, a fetch Response or an fs.ReadStream (mp3, mp4, m4a, wav, webm, ogg, flac). */
  file: Uploadable;
  model: string;
  /** ISO-639-1 language of the audio, e.g. `en`; improves accuracy and speed. */
  language?: string | undefined;
  /** Text to guide style or continue a previous segment. */
  prompt?: string | undefined;
  /** @default 'json' */
  response_format?: 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt' | null | undefined;
  /** 0 to 1. */
  temperature?: number | null | undefined;
}

/** The transcript (`response_format: 'json'`). */
export interface Transcription {
  text: string;
}

/** The transcript with timing (`response_format: 'verbose_json'`). */
export interface TranscriptionVerbose extends Transcription {
  language: string;
  /** Seconds. */
  duration: number;
  segments?: Array<{ id: number; start: number; end: number; text: string }> | undefined;
  words?: Array<{ word: string; start: number; end: number }> | undefined;
}
