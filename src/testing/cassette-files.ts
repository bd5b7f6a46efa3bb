// Cassette files on disk (Node, Deno, Bun). The testing entry's default build (browsers,
// edge workers) swaps in cassette-files.web.ts, so node:fs stays out of a worker's bundle.

/** Cassette files can be read and written here. */
export const hasFileSystem = true;

/** Loads node:fs/promises on first use: the testing entry imports without it. */
const fs = () => import('node:fs/promises');

/** The `.json` files of `dir`, name and text, sorted by name; undefined when `dir` does not exist. */
export async function readCassetteFiles(dir: string): Promise<Array<{ name: string; text: string }> | undefined> {
  const { readdir, readFile } = await fs();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
  const files = names.filter((name) => name.endsWith('.json')).sort();
  return Promise.all(files.map(async (name) => ({ name, text: await readFile(joinPath(dir, name), 'utf8') })));
}

/** The names of the files in `dir` (none when it does not exist). */
export async function listCassetteFiles(dir: string): Promise<string[]> {
  const { readdir } = await fs();
  return readdir(dir).catch(() => []);
}

/**
 * Writes one cassette, creating `dir` if needed. Through a temporary file and a rename, so
 * a reader (another test process) never sees half a cassette.
 */
export async function writeCassetteFile(dir: string, name: string, text: string): Promise<void> {
  const { mkdir, rename, writeFile } = await fs();
  await mkdir(dir, { recursive: true });
  const temporary = joinPath(dir, `.${name}.${Math.random().toString(36).slice(2)}.tmp`);
  await writeFile(temporary, text, 'utf8');
  await rename(temporary, joinPath(dir, name));
}

/**
 * Makes sure a cassette can be written to `dir` (created if needed) by writing and removing
 * an empty file: permission bits alone cannot say (root, read-only mounts, ACLs).
 */
export async function checkWritableDir(dir: string): Promise<void> {
  const { mkdir, rm, writeFile } = await fs();
  await mkdir(dir, { recursive: true });
  const probe = joinPath(dir, `.write-check.${Math.random().toString(36).slice(2)}.tmp`);
  await writeFile(probe, '', 'utf8');
  await rm(probe, { force: true });
}

/** Removes files of `dir` by name; a file already gone is no error. */
export async function removeCassetteFiles(dir: string, names: readonly string[]): Promise<void> {
  const { rm } = await fs();
  await Promise.all(names.map((name) => rm(joinPath(dir, name), { force: true })));
}

/** `dir/name` without node:path: a forward slash works on every platform's fs. */
const joinPath = (dir: string, name: string): string => `${dir.replace(/[\\/]+$/, '')}/${name}`;
