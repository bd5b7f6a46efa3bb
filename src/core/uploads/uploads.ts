import { claimStreams, earlyFailure, isReadStreamLike, type ReadStreamLike } from './file-streams.js';
import { ValidationError } from '../errors.js';

/**
 * Anything a file field accepts: `Blob`/`File`, `Uint8Array` (Node `Buffer` included),
 * `ArrayBuffer`, a fetch `Response` (a successful one: a failed one is refused), or a Node
 * `fs.ReadStream`.
 */
export type Uploadable = Blob | Uint8Array | ArrayBuffer | Response | ReadStreamLike;

/** Options for {@link toFile}. */
export interface ToFileOptions {
  /** MIME type, e.g. `image/png`. @default guessed from the first bytes, else '' */
  type?: string | undefined;
}

/** The implementation of the public `toFile` (core/to-file.ts), and how multipart.ts reads a file field. */
export async function readUpload(data: Uploadable | Promise<Uploadable>, name?: string, options: ToFileOptions = {}, field = 'file'): Promise<File> {
  const value = await data;
  // A stream passed as a promise could not be claimed at the call: claim it now.
  claimStreams([value]);
  if (typeof File !== 'undefined' && value instanceof File && name === undefined && options.type === undefined) return value;
  const { bytes, fallbackName, type } = await readUploadable(value, field);
  const head = bytes instanceof Blob ? new Uint8Array(await bytes.slice(0, 16).arrayBuffer()) : bytes.subarray(0, 16);
  const sniffed = sniff(head);
  const finalType = options.type ?? (type || sniffed?.type || '');
  const finalName = name ?? fallbackName ?? `upload${sniffed ? `.${sniffed.ext}` : ''}`;
  return new File([bytes as BlobPart], finalName, { type: finalType });
}

async function readUploadable(value: Uploadable, field: string): Promise<{ bytes: Blob | Uint8Array; fallbackName?: string | undefined; type?: string | undefined }> {
  if (value instanceof Blob) return { bytes: value, fallbackName: (value as Partial<File>).name || undefined, type: value.type };
  if (value instanceof Uint8Array) return { bytes: value };
  if (value instanceof ArrayBuffer) return { bytes: new Uint8Array(value) };
  if (typeof Response !== 'undefined' && value instanceof Response) {
    // A failed download's body is its error page: never upload that as the file.
    if (!value.ok) {
      await value.body?.cancel().catch(() => undefined);
      throw new ValidationError(field, `is a fetch Response with status ${value.status}${value.statusText ? ` ${value.statusText}` : ''}: pass a successful (2xx) response, or check response.ok before uploading`);
    }
    const blob = await value.blob();
    const last = value.url ? new URL(value.url).pathname.split('/').pop() : undefined;
    return { bytes: blob, fallbackName: last || undefined, type: blob.type };
  }
  if (isReadStreamLike(value)) {
    const path = String(value.path);
    const unreadable = (error: unknown) => new ValidationError(field, `could not read the file ${path}: ${error instanceof Error ? error.message : String(error)}`);
    if (earlyFailure(value) !== undefined) throw unreadable(earlyFailure(value));
    const chunks: Uint8Array[] = [];
    try {
      for await (const chunk of value) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
    } catch (error) {
      throw unreadable(error);
    }
    const name = path.split(/[\\/]/).pop();
    return { bytes: new Blob(chunks as BlobPart[]) as Blob, fallbackName: name || undefined };
  }
  throw new ValidationError(field, 'must be a Blob, File, Uint8Array, Buffer, ArrayBuffer, Response or fs.ReadStream');
}

export { isReadStreamLike, type ReadStreamLike };

/** Magic numbers of the formats the gateway's image and audio endpoints take. */
const signatures: Array<{ bytes: number[]; offset?: number; type: string; ext: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], type: 'image/png', ext: 'png' },
  { bytes: [0xff, 0xd8, 0xff], type: 'image/jpeg', ext: 'jpg' },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, type: 'image/webp', ext: 'webp' },
  { bytes: [0x57, 0x41, 0x56, 0x45], offset: 8, type: 'audio/wav', ext: 'wav' },
  { bytes: [0x49, 0x44, 0x33], type: 'audio/mpeg', ext: 'mp3' },
  { bytes: [0x4f, 0x67, 0x67, 0x53], type: 'audio/ogg', ext: 'ogg' },
  { bytes: [0x66, 0x4c, 0x61, 0x43], type: 'audio/flac', ext: 'flac' },
  { bytes: [0x1a, 0x45, 0xdf, 0xa3], type: 'audio/webm', ext: 'webm' },
];

function sniff(head: Uint8Array): { type: string; ext: string } | undefined {
  return signatures.find((s) => s.bytes.every((b, i) => head[(s.offset ?? 0) + i] === b));
}
