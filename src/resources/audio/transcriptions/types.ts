import type { Uploadable } from '../../../core/uploads/uploads.js';
import type { ModelId } from '../../../core/model-catalog.js';

/** POST /audio/transcriptions parameters (sent as multipart/form-data). */
export interface TranscriptionCreateParams {
  /** The audio: a Blob/File, bytes, a fetch Response or an fs.ReadStream (mp3, mp4, m4a, wav, webm, ogg, flac). */
  file: Uploadable;
  model: ModelId;
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
