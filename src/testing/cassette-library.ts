import { ValidationError } from '../core/errors.js';
import { describeDifferences, distance, matchKey, modelOf, type CassetteRequest } from './canonical.js';
import { cassetteName, toCassette, type Cassette } from './cassette.js';
import { readCassetteFiles } from './cassette-files.js';

/** A cassette with what it is found by. */
export interface LoadedCassette {
  cassette: Cassette;
  /** Its file name (computed for an inline cassette). */
  name: string;
}

/** Where cassettes come from, and which body fields matching leaves out. */
export interface LibrarySource {
  dir?: string | undefined;
  /** The option `dir` came from, as errors name it. @default 'dir' */
  field?: string | undefined;
  cassettes?: readonly unknown[] | undefined;
  ignore: readonly string[];
}

/** Why no cassette answered a request: the nearest recorded one, and how the request differs from it. */
export interface Miss {
  /** The nearest cassette's name, or null when there are none. */
  nearest: string | null;
  differences: string[];
  /** All of it in sentences, naming the request and where the cassettes are. */
  text: string;
}

/** The cassette files of `dir`; a directory that cannot be read (not a directory, no permission) is a ValidationError, never a connection error to retry. */
async function readDir(dir: string, field: string): Promise<Array<{ name: string; text: string }> | undefined> {
  try {
    return await readCassetteFiles(dir);
  } catch (error) {
    throw new ValidationError(field, `${dir} cannot be read (${(error as Error).message}). Pass the path of a directory of cassette files (it need not exist yet).`);
  }
}

/**
 * The cassettes a recorder replays or the mock serves, grouped by the request they answer.
 * The same request asked again gets the group's next cassette, and the last one once they
 * are used up (a polled task stays completed).
 */
export class CassetteLibrary {
  readonly #ignore: readonly string[];
  readonly #groups = new Map<string, LoadedCassette[]>();
  readonly #all: LoadedCassette[] = [];
  readonly #served = new Map<string, number>();
  readonly #where: string;

  private constructor(ignore: readonly string[], where: string) {
    this.#ignore = ignore;
    this.#where = where;
  }

  /** Reads `dir` (when given) and the inline cassettes. A file that is not a cassette is a ValidationError naming it. */
  static async load(source: LibrarySource): Promise<CassetteLibrary> {
    const files = source.dir === undefined ? [] : await readDir(source.dir, source.field ?? 'dir');
    const inline = source.cassettes ?? [];
    const places = [
      ...(source.dir === undefined ? [] : [`${source.dir}${files === undefined ? ' (it does not exist)' : ''}`]),
      ...(inline.length > 0 || source.dir === undefined ? ['the inline cassettes'] : []),
    ];
    const library = new CassetteLibrary(source.ignore, places.join(' and '));
    for (const { name, text } of files ?? []) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new ValidationError(`cassettes (${source.dir}/${name})`, `is not JSON: ${(error as Error).message}`);
      }
      library.add(toCassette(parsed, `${source.dir}/${name}`), name);
    }
    for (const [i, value] of inline.entries()) {
      const cassette = toCassette(value, `cassettes[${i}]`);
      library.add(cassette, await cassetteName(cassette.request, source.ignore, cassette.sequence));
    }
    return library;
  }

  add(cassette: Cassette, name: string): void {
    const key = matchKey(cassette.request, this.#ignore);
    const loaded = { cassette, name };
    const group = this.#groups.get(key) ?? [];
    group.push(loaded);
    group.sort((a, b) => (a.cassette.sequence ?? 1) - (b.cassette.sequence ?? 1));
    this.#groups.set(key, group);
    this.#all.push(loaded);
  }

  /** True when some cassette answers this request. */
  has(request: CassetteRequest): boolean {
    return this.#groups.has(matchKey(request, this.#ignore));
  }

  /** The next cassette for this request, or undefined when none answers it. */
  take(request: CassetteRequest): LoadedCassette | undefined {
    const key = matchKey(request, this.#ignore);
    const group = this.#groups.get(key);
    if (!group) return undefined;
    const served = this.#served.get(key) ?? 0;
    this.#served.set(key, served + 1);
    return group[Math.min(served, group.length - 1)];
  }

  /** Starts every request's sequence again from its first cassette. */
  rewind(): void {
    this.#served.clear();
  }

  /** The request named, and how it differs from the nearest cassette. */
  miss(request: CassetteRequest): Miss {
    const model = modelOf(request);
    const named = `${request.method} ${request.path}${model === undefined ? '' : ` (model ${model})`}`;
    let nearest: LoadedCassette | undefined;
    let best = Infinity;
    for (const loaded of this.#all) {
      const d = distance(request, loaded.cassette.request, this.#ignore);
      if (d < best) [nearest, best] = [loaded, d];
    }
    if (!nearest) return { nearest: null, differences: [], text: `No cassette for ${named}: there are none in ${this.#where}.` };
    const differences = describeDifferences(request, nearest.cassette.request, this.#ignore);
    const text = `No cassette for ${named} in ${this.#where}. The nearest, ${nearest.name}, differs in:\n${differences.map((line) => `  ${line}`).join('\n')}`;
    return { nearest: nearest.name, differences, text };
  }
}
