// The public types as a user's compiler sees them: test/types/consumer/consumer.ts in a
// project that resolves `unified-gateway` through the package's exports map (its own name,
// from inside the package) to the BUILT declarations, once as ESM (dist/index.d.ts, with
// verbatimModuleSyntax) and once as CommonJS (dist/index.d.cts); strict,
// exactOptionalPropertyTypes, skipLibCheck off. Beside it, files that must NOT compile: a
// value import of each name exported as a type only (the class is not in the JS, so the
// import would fail at start-up).
//
// `node scripts/check-types.mjs` uses the repo's TypeScript (test/types/dist.test.ts does the
// same); `--latest` (npm run check:types-latest) installs typescript@latest from the npm
// registry into .tmp first: 7.x is the native port, whose package ships a `tsc` binary only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Exported by src/index.ts as types only while the declarations hold classes by these names. */
export const TYPE_ONLY_CLASSES = ['Stream', 'ChatCompletionStream', 'ResponseStream', 'Chat', 'ChatCompletions', 'Completions', 'Embeddings', 'Images', 'Models', 'Responses', 'Transcriptions', 'Videos', 'Audio'];

const compilerOptions = (format) => ({
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  // CommonJS projects cannot use it: it rejects `import` in a .cts file.
  verbatimModuleSyntax: format === 'esm',
  skipLibCheck: false,
  noEmit: true,
});

/** Runs `tsc -p` on a fresh project under .tmp; returns its diagnostics, one per line. */
function compile(tsc, name, format, files) {
  const dir = join(root, '.tmp', 'check-types', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: compilerOptions(format), files: Object.keys(files) }, null, 2));
  try {
    execFileSync(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    return [];
  } catch (error) {
    const lines = `${error.stdout ?? ''}${error.stderr ?? ''}`.split('\n').filter((l) => l.trim());
    if (!lines.some((l) => /error TS\d+/.test(l))) throw error;
    // tsc prints paths relative to the project; make them relative to the repo.
    return lines.map((l) => (/^\S+\(\d+,\d+\)/.test(l) ? `${relative(root, dir)}/${l}` : l));
  }
}

/**
 * @param {string} tsc path to a TypeScript `bin/tsc`
 * @returns {{ version: string, problems: string[] }} problems: empty when the types are right
 */
export function checkBuiltTypes(tsc) {
  const version = execFileSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' }).trim();
  const consumer = readFileSync(join(root, 'test', 'types', 'consumer', 'consumer.ts'), 'utf8');
  const names = TYPE_ONLY_CLASSES;
  const valueUse = `import { ${names.join(', ')} } from 'unified-gateway';\n${names.map((n) => `export const use${n} = ${n};`).join('\n')}\n`;
  const typeUse = `import { ${names.join(', ')} } from 'unified-gateway';\n${names.map((n) => `export type Use${n} = ${n}${n === 'Stream' ? '<unknown>' : ''};`).join('\n')}\n`;
  const problems = [];
  const expectErrors = (diagnostics, file, code, message) => {
    for (const name of names) {
      if (!diagnostics.some((d) => d.includes(`${file}(`) && d.includes(`error TS${code}: '${name}' ${message}`))) problems.push(`${file}: no TS${code} for ${name}`);
    }
  };
  const esm = compile(tsc, 'esm', 'esm', { 'consumer.mts': consumer, 'value-use.mts': valueUse, 'type-use.mts': typeUse });
  problems.push(...esm.filter((d) => !/value-use\.mts\(.*TS(1362|1485)|type-use\.mts\(.*TS1485/.test(d)));
  expectErrors(esm, 'value-use.mts', 1362, 'cannot be used as a value');
  // A plain import used only as a type is kept by verbatimModuleSyntax, so it too must not compile.
  expectErrors(esm, 'type-use.mts', 1485, 'resolves to a type-only declaration');
  const cjs = compile(tsc, 'cjs', 'cjs', { 'consumer.cts': consumer, 'value-use.cts': valueUse });
  problems.push(...cjs.filter((d) => !/value-use\.cts\(.*TS1362/.test(d)));
  expectErrors(cjs, 'value-use.cts', 1362, 'cannot be used as a value');
  return { version, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (process.argv.includes('--latest')) {
    const prefix = join(root, '.tmp', 'typescript-latest');
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', '--silent', 'typescript@latest'], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 180_000 });
    tsc = join(prefix, 'node_modules', 'typescript', 'bin', 'tsc');
  }
  const { version, problems } = checkBuiltTypes(tsc);
  if (problems.length) {
    console.error(`check-types (${version}):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`check-types (${version}): the built declarations compile as ESM and CJS; value imports of the ${TYPE_ONLY_CLASSES.length} type-only classes do not`);
}
