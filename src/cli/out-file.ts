import { constants, createWriteStream } from 'node:fs';
import { access, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { UsageError } from './args.js';

const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** What stat says, or undefined when nothing is there; any other failure is thrown. */
async function statIfThere(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

const writable = (path: string) =>
  access(path, constants.W_OK).then(
    () => true,
    () => false,
  );

/**
 * Refuses an `--out` path the result could not be written to (a directory, a missing or
 * read-only parent directory, a read-only file) with a {@link UsageError}. Called before
 * anything is sent: an image or a video is paid for whether or not it can be saved.
 * The parent must be writable even when the file exists, as {@link writeOut} writes beside it.
 */
export async function checkOutPath(out: string, command: string): Promise<void> {
  const refuse = (why: string) => new UsageError(`Option --out: cannot write '${out}': ${why}`, command);
  if (/[/\\]$/.test(out)) throw refuse('the path ends in a slash; give a file name');
  const target = await statIfThere(out);
  if (target?.isDirectory()) throw refuse('it is a directory; give a file name');
  const parent = dirname(resolve(out));
  const folder = await statIfThere(parent);
  if (!folder) throw refuse(`the directory '${parent}' does not exist`);
  if (!folder.isDirectory()) throw refuse(`'${parent}' is not a directory`);
  if (!(await writable(parent))) throw refuse(`the directory '${parent}' is not writable`);
  if (target && !(await writable(out))) throw refuse('the file is not writable');
}

/**
 * Writes `data` (bytes, or a download's body) to `out` through `out.part`, renamed at the
 * end: an interrupted or failed write never leaves a truncated file under the name asked for.
 */
export async function writeOut(out: string, data: Uint8Array | ReadableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
  const partial = `${out}.part`;
  try {
    if (data instanceof Uint8Array) await writeFile(partial, data, { signal });
    else await pipeline(Readable.fromWeb(data as WebReadableStream<Uint8Array>), createWriteStream(partial), { signal });
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
