// npm run build: builds dist/ with tsup when its inputs changed since the last build, and
// says so in one line. `npm test`, `npm run demo` and every test:* script call it, so an
// unchanged tree is built once, not once per script. `--force` rebuilds regardless.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markTypeOnlyExports } from './type-only-exports.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = join(root, '.tmp', 'build-stamp');
const inputs = ['src', 'scripts/build.mjs', 'scripts/type-only-exports.mjs', 'tsup.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const outputs = ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/testing.js', 'dist/testing.cjs', 'dist/testing.d.ts', 'dist/node/index.js', 'dist/node/testing.js', 'dist/cli.js'];
outputs.push('dist/otel.js', 'dist/otel.cjs', 'dist/otel.d.ts', 'dist/otel.d.cts');
outputs.push('dist/ai-sdk.js', 'dist/ai-sdk.cjs', 'dist/ai-sdk.d.ts', 'dist/ai-sdk.d.cts');
outputs.push('dist/redis.js', 'dist/redis.cjs', 'dist/redis.d.ts', 'dist/redis.d.cts');

function* files(path) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) yield* files(join(path, entry));
  else yield path;
}

const hash = createHash('sha256');
for (const input of inputs) {
  for (const file of files(join(root, input))) hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0');
}
const stamp = hash.digest('hex');
const fresh = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && outputs.every((o) => existsSync(join(root, o)));
if (fresh && !process.argv.includes('--force')) {
  console.log('build: dist/ is up to date');
  process.exit(0);
}

const started = Date.now();
// Built beside dist/ and swapped in at the end, so a test or script reading dist/ while a
// build runs never finds it half written or missing. At dist/'s depth: source maps hold
// paths relative to where they were written.
const staging = join(root, '.dist-build');
rmSync(staging, { recursive: true, force: true });
rmSync(stampFile, { force: true });
try {
  execFileSync(join(root, 'node_modules', '.bin', 'tsup'), ['--silent'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, UNIFIED_GATEWAY_OUT_DIR: staging } });
} catch (error) {
  // tsup reports type errors of the declaration build on stdout/stderr: show them.
  process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
  console.error('build: failed');
  process.exit(1);
}
try {
  markTypeOnlyExports(join(root, 'src', 'index.ts'), [join(staging, 'index.d.ts'), join(staging, 'index.d.cts')]);
  markTypeOnlyExports(join(root, 'src', 'testing', 'index.ts'), [join(staging, 'testing.d.ts'), join(staging, 'testing.d.cts')]);
  markTypeOnlyExports(join(root, 'src', 'otel', 'index.ts'), [join(staging, 'otel.d.ts'), join(staging, 'otel.d.cts')]);
} catch (error) {
  console.error(`build: ${error.message}`);
  process.exit(1);
}
const previous = join(root, '.tmp', 'dist-previous');
rmSync(previous, { recursive: true, force: true });
if (existsSync(join(root, 'dist'))) renameSync(join(root, 'dist'), previous);
renameSync(staging, join(root, 'dist'));
rmSync(previous, { recursive: true, force: true });
mkdirSync(join(root, '.tmp'), { recursive: true });
writeFileSync(stampFile, stamp);
const built = [...files(join(root, 'dist'))].filter((f) => /\.(c?js|d\.c?ts)$/.test(f));
console.log(`build: dist/ rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s (${built.length} files)`);
