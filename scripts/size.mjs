// npm run size: bundles scripts/size/chat-app.js for the browser (esbuild, minified, ESM with
// code splitting, as an app bundler would), and measures what that app loads to make one
// chat call: its entry chunk, the chunks those import, and the lazily loaded chat schema
// with its imports. Other endpoints' schemas and the multipart encoder load only when those
// endpoints are called; they are reported but not counted. Fails above the budget, or if
// anything in the bundle is a Node built-in.
import { browserBuild } from './browser-build.mjs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';

// 18 KB since 0.2: raw responses (APIPromise) and logging live in the core. 19.5 KB since
// 0.3: the request path in named stages (call, attempt, response, exchange; after a failure,
// recovery loads on first use), the checks that refuse unsendable keys, headers and base
// URLs at construction, the chat schema's new rules, the chunk boundaries that errors living
// in their resources' folders add, the telemetry hook, and credentials set as headers kept
// out of errors (docs/architecture.md#size).
const BUDGET_GZIP_BYTES = 19.5 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));

const result = await browserBuild({
  entryPoints: [`${root}scripts/size/chat-app.js`],
  outdir: `${root}.tmp/size`,
  metafile: true,
  alias: { 'unified-gateway': `${root}src/index.ts` },
});

const outputs = result.metafile.outputs;
const files = new Map(result.outputFiles.map((f) => [f.path.slice(root.length), f.contents]));
const gz = (path) => gzipSync(files.get(path), { level: 9 }).length;
const entry = Object.keys(outputs).find((p) => outputs[p].entryPoint?.endsWith('scripts/size/chat-app.js'));

// The chunks a chat call loads: static imports always; of the dynamic imports, only those
// chat.completions.create makes: its schema, and for a stream the SSE reader and stream class.
const CHAT_SCHEMA = ['src/resources/chat/completions/schema.ts'];
const CHAT_STREAM = [...CHAT_SCHEMA, 'src/resources/chat/completions/stream.ts', 'src/core/streaming.ts'];
const reach = (wanted) => {
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imp of outputs[path].imports) {
      if (imp.external) continue;
      // A dynamic import may land on a facade chunk that re-exports from others: look through it.
      const target = outputs[imp.path];
      const inputs = [imp.path, ...target.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path)].flatMap((p) => Object.keys(outputs[p]?.inputs ?? {}));
      if (imp.kind === 'import-statement' || (imp.kind === 'dynamic-import' && wanted.some((w) => inputs.includes(w)))) visit(imp.path);
    }
  };
  visit(entry);
  return seen;
};
const loaded = reach(CHAT_SCHEMA);
const loadedStreaming = reach(CHAT_STREAM);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const describe = (path) => {
  const names = new Set(Object.keys(outputs[path].inputs).map((i) => i.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? i.replace(/^src\//, '')));
  const list = [...names];
  return list.length > 4 ? `${list.slice(0, 4).join(', ')}, +${list.length - 4} more` : list.join(', ');
};

let chat = 0;
let all = 0;
console.log('chunk                                   gzip    loaded by a chat call');
for (const path of Object.keys(outputs).filter((p) => p.endsWith('.js'))) {
  const size = gz(path);
  all += size;
  if (loaded.has(path)) chat += size;
  console.log(`  ${path.replace('.tmp/size/', '').padEnd(36)} ${kb(size).padStart(8)}  ${loaded.has(path) ? 'yes' : 'no '}  ${describe(path)}`);
}
const streaming = [...loadedStreaming].reduce((n, p) => n + gz(p), 0);
console.log(`chat app: ${kb(chat)} gzip loaded for one chat call (budget ${kb(BUDGET_GZIP_BYTES)}); a streamed chat call loads ${kb(streaming)}; every chunk together: ${kb(all)}`);

// The core must run where there is no Node: no built-in module may be pulled in.
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const nodeImports = Object.keys(result.metafile.inputs).filter((f) => builtins.has(f));
if (nodeImports.length) {
  console.error(`size: the browser bundle imports Node built-ins: ${nodeImports.join(', ')}`);
  process.exit(1);
}
if (chat > BUDGET_GZIP_BYTES) {
  console.error(`size: over budget by ${kb(chat - BUDGET_GZIP_BYTES)}`);
  process.exit(1);
}
