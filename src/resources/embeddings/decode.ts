import type { CreateEmbeddingResponse, EmbeddingCreateParams, Vector } from './types.js';

/** Whether this platform stores floats little-endian, as the wire does (nearly every one does). */
const littleEndian = new Uint8Array(new Float32Array([1]).buffer)[3] === 0x3f;

/**
 * Base64 of little-endian float32 values, as OpenAI-compatible servers send them, to a
 * Float32Array: the bytes are copied into its buffer, with no array of numbers in between.
 */
export function decodeFloat32Array(base64: string): Float32Array {
  const binary = atob(base64);
  const out = new Float32Array(binary.length >> 2);
  const bytes = new Uint8Array(out.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = binary.charCodeAt(i);
  if (!littleEndian) {
    // Reads each value little-endian and stores it back in the platform's order, in place.
    const view = new DataView(out.buffer);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  }
  return out;
}

/** The same to numbers. */
export function decodeFloat32(base64: string): number[] {
  const floats = decodeFloat32Array(base64);
  // A counted loop: Array.from walks an iterator, a call per element, on every vector.
  const out = new Array<number>(floats.length);
  for (let i = 0; i < floats.length; i++) out[i] = floats[i] as number;
  return out;
}

type Format = EmbeddingCreateParams['encoding_format'];

/** What goes on the wire: the caller's format, else base64 (a third of the bytes of JSON floats, decoded by `decodeAsAsked`). */
export const wireFormat = (format: Format): 'float' | 'base64' => format ?? 'base64';

/**
 * The answer as the caller asked for it: base64 strings as sent; with `float32`, Float32Arrays
 * (from base64 directly, or from the numbers of a server that sent floats); otherwise numbers.
 */
export function decodeAsAsked(format: Format, float32: boolean | undefined, data: unknown): CreateEmbeddingResponse<Vector> {
  const res = data as CreateEmbeddingResponse<Vector>;
  if (format === 'base64') return res;
  for (const item of res.data) {
    const vector = item.embedding;
    if (float32) item.embedding = typeof vector === 'string' ? decodeFloat32Array(vector) : Float32Array.from(vector as number[]);
    else if (typeof vector === 'string') item.embedding = decodeFloat32(vector);
  }
  return res;
}
