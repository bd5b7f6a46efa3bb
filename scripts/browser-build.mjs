// The browser build every size figure uses: esbuild, minified, ES modules with code
// splitting (as app bundlers split dynamic imports), in memory.
import { build } from 'esbuild';

/** @param {import('esbuild').BuildOptions} options entry (entryPoints or stdin), outdir, alias, … */
export function browserBuild(options) {
  return build({ bundle: true, minify: true, splitting: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'error', ...options });
}
