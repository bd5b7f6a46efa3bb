// Cassette files where there is no file system (browsers, edge workers): the testing entry's
// default build swaps this in for cassette-files.ts. recorder() and createMockGateway()
// check `hasFileSystem` when given a `dir`, so these functions are never reached.

/** Cassette files cannot be read or written here: cassettes are given inline. */
export const hasFileSystem = false;

const unavailable = (): Promise<never> => Promise.reject(new Error('Cassette files need a file system (Node, Deno or Bun).'));

export const readCassetteFiles = (_dir: string): Promise<Array<{ name: string; text: string }> | undefined> => unavailable();
export const listCassetteFiles = (_dir: string): Promise<string[]> => unavailable();
export const writeCassetteFile = (_dir: string, _name: string, _text: string): Promise<void> => unavailable();
export const checkWritableDir = (_dir: string): Promise<void> => unavailable();
export const removeCassetteFiles = (_dir: string, _names: readonly string[]): Promise<void> => unavailable();
