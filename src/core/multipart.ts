import { FormDataEncoder } from 'form-data-encoder';
import { ValidationError } from './errors.js';
import { isReadStreamLike, readUpload, type Uploadable } from './uploads.js';

/** A multipart body built once, so that retries and failover replay it whole. */
export interface MultipartBody {
  blob: Blob;
  contentType: string;
}

/**
 * Encodes fields as multipart/form-data with form-data-encoder. File fields are given as
 * Files (see {@link toFile}); `undefined` fields are left out; other values are sent as text.
 */
export function encodeMultipart(fields: Record<string, File | string | number | boolean | undefined | null>): MultipartBody {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(key, value, (value as File).name);
    else form.append(key, String(value));
  }
  const encoder = new FormDataEncoder(form);
  // values() yields header bytes and the Files themselves without reading them: the Blob
  // references the files' bytes and can be sent any number of times.
  return { blob: new Blob([...encoder.values()] as BlobPart[], { type: encoder.contentType }), contentType: encoder.contentType };
}

/** Resolves the file fields of a request to named Files, validating each one's kind. */
export async function resolveFiles<K extends string>(fields: Partial<Record<K, Uploadable | undefined>>): Promise<Partial<Record<K, File>>> {
  const out: Partial<Record<K, File>> = {};
  for (const [key, value] of Object.entries(fields) as Array<[K, Uploadable | undefined]>) {
    if (value === undefined) continue;
    if (!isUploadable(value)) throw new ValidationError(key, 'must be a Blob, File, Uint8Array, Buffer, ArrayBuffer, Response or fs.ReadStream');
    out[key] = await readUpload(value, undefined, {}, key);
  }
  return out;
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
