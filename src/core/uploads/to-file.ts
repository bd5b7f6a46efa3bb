import { claimStreams } from './file-streams.js';
import { readUpload, type ToFileOptions, type Uploadable } from './uploads.js';

/**
 * Turns any {@link Uploadable} into a `File` with a name, so the gateway can tell its
 * format: name a Buffer or a nameless Blob, or read an fs.ReadStream or a fetch Response.
 * The type is guessed from the first bytes when not given. A Response that is not ok (a 404
 * page, say) is refused with a ValidationError rather than uploaded as the file.
 * @example
 * const image = await toFile(readFileSync('cat.png'), 'cat.png', { type: 'image/png' });
 * await client.images.edit({ model: 'dall-e-2', image, prompt: 'Add a hat' });
 */
export async function toFile(data: Uploadable | Promise<Uploadable>, name?: string, options?: ToFileOptions): Promise<File> {
  // Before the first await: a missing file's stream error would otherwise crash the process.
  claimStreams([data]);
  return readUpload(data, name, options);
}
