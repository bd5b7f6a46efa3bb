import { FormDataEncoder } from 'form-data-encoder';
import { ValidationError } from '../errors.js';
import { isReadStreamLike, readUpload, type Uploadable } from './uploads.js';

// Multipart bodies, loaded with the first upload (images.edit, audio.transcriptions.create):
// the file fields read into named Files once per call, the body encoded by form-data-encoder.

/** A multipart body built once, so that retries and failover replay it whole. */
export interface MultipartBody {
  blob: Blob;
  contentType: string;
}

/** Reads the file fields (`files`) of `fields` into named Files, checking each one's kind. */
export async function readFiles(fields: object, files: readonly string[]): Promise<Record<string, File>> {
  const out: Record<string, File> = {};
  for (const name of files) {
    const value = (fields as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (!isUploadable(value)) throw new ValidationError(name, 'must be a Blob, File, Uint8Array, Buffer, ArrayBuffer, Response or fs.ReadStream');
    out[name] = await readUpload(value, undefined, {}, name);
  }
  return out;
}

/**
 * Encodes `fields` as multipart/form-data, the file fields taken from `read`; `undefined`
 * and `null` fields are left out, other values sent as text. The Blob references the files'
 * bytes without reading them and can be sent any number of times.
 */
export function encodeMultipart(fields: object, files: readonly string[], read: Record<string, File>): MultipartBody {
  const form = new FormData();
  for (const [key, value] of Object.entries({ ...fields, ...read })) {
    if (value === undefined || value === null || (files.includes(key) && !(value instanceof Blob))) continue;
    if (value instanceof Blob) form.append(key, value, (value as File).name);
    else form.append(key, String(value));
  }
  const encoder = new FormDataEncoder(form);
  return { blob: new Blob([...encoder.values()] as BlobPart[], { type: encoder.contentType }), contentType: encoder.contentType };
}

function isUploadable(value: unknown): value is Uploadable {
  return (
    value instanceof Blob ||
    value instanceof Uint8Array ||
    value instanceof ArrayBuffer ||
    (typeof Response !== 'undefined' && value instanceof Response) ||
    isReadStreamLike(value)
  );
}
