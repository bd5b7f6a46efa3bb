// npm run size: bundles scripts/size/chat-app.js for the browser from the built package
// (esbuild, minified), gzips it and fails when it exceeds the budget.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';

const BUDGET_GZIP_BYTES = 16 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));

const result = await build({
  entryPoints: [`${root}scripts/size/chat-app.js`],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  metafile: true,
  alias: { 'unified-gateway': `${root}dist/index.js` },
  logLevel: 'error',
});

const code = result.outputFiles[0].contents;
const gzip = gzipSync(code, { level: 9 }).length;

// Which packages the bytes come from, before minification.
const byPackage = new Map();
for (const [file, info] of Object.entries(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].inputs)) {
  const match = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  const name = match ? match[1] : file.startsWith('dist/') ? 'unified-gateway (dist)' : file;
  byPackage.set(name, (byPackage.get(name) ?? 0) + info.bytesInOutput);
}

// The core must run where there is no Node: no built-in module may be pulled in.
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const nodeImports = Object.keys(result.metafile.inputs).filter((f) => builtins.has(f));

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`chat-only browser bundle: ${kb(code.length)} minified, ${kb(gzip)} gzip (budget ${kb(BUDGET_GZIP_BYTES)})`);
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1])) console.log(`  ${name.padEnd(28)} ${kb(bytes)} minified`);
if (nodeImports.length) {
  console.error(`size: the browser bundle imports Node built-ins: ${nodeImports.join(', ')}`);
  process.exit(1);
}
if (gzip > BUDGET_GZIP_BYTES) {
  console.error(`size: over budget by ${kb(gzip - BUDGET_GZIP_BYTES)}`);
  process.exit(1);
}
