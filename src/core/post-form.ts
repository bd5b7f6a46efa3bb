import type { APIPromise } from './api-promise.js';
import type { RequestOptions } from './types.js';
import type { CallPipeline } from './resource.js';

/** Multipart fields, as {@link postForm} reads them. */
export type FormBody = { model?: unknown } & object;

/** A multipart POST; see {@link postForm}. */
export interface FormSpec<B extends FormBody> {
  /** Relative path without a leading slash: `images/edits`. */
  path: string;
  /** The caller's fields, file fields among them. */
  body: B;
  /** The names of the file fields. */
  files: readonly string[];
  /** Throws a ValidationError for bad fields, before anything is read or sent. */
  check: (body: B) => void;
  /** `text` for answers that are not JSON (transcripts as srt, vtt or text). */
  responseType?: 'json' | 'text' | undefined;
}

/**
 * A multipart POST (images.edit, audio.transcriptions.create): the fields checked first,
 * the file fields read once per call (a stream or a Response can be read only once, and a
 * fallback model gets the same bytes), the body built once so every retry replays it whole.
 * The encoder (with form-data-encoder) loads with the first upload.
 */
export function postForm<T, B extends FormBody>(api: CallPipeline, spec: FormSpec<B>, options: RequestOptions | undefined): APIPromise<T> {
  const { body } = spec;
  let files: Promise<Record<string, File | undefined>> | undefined;
  return api.call<T>(
    {
      model: body?.model,
      request: async (model?: string) => {
        spec.check(body);
        const fields: Record<string, unknown> = { ...body, model: model ?? body.model };
        const uploads: Record<string, unknown> = {};
        for (const key of spec.files) {
          uploads[key] = fields[key];
          delete fields[key];
        }
        const { encodeMultipart, resolveFiles } = await import('./multipart.js');
        files ??= resolveFiles(uploads as Parameters<typeof resolveFiles>[0]);
        const form = encodeMultipart({ ...(fields as Parameters<typeof encodeMultipart>[0]), ...(await files) });
        return { method: 'POST', path: spec.path, form, responseType: spec.responseType };
      },
    },
    options,
  );
}
