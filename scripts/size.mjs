// npm run size: what a browser loads for one chat call, ours beside the official client's.
// Each app (scripts/size/*-app.js) is bundled for the browser as an app bundler would
// (esbuild, minified, ES modules with code splitting); what one call loads is its entry
// chunk and every chunk that imports statically (a dynamic import() loads only when the
// optional feature behind it is used), each gzipped (level 9). Reports the ratio against the
// TARGET; fails if our chat or stream app loads more than CEILING × the official client's,
// or if the bundle pulls in any Node built-in (the core runs in browsers, Deno, Bun and edge
// workers).
import { browserBuild } from './browser-build.mjs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';

/** The target: a chat app loads at most this fraction of what the official client's loads (docs/architecture.md#size). */
const TARGET = 0.9;
/** What fails the build: never more than this fraction (a regression guard while the target is not met). */
const CEILING = 1.28;
const root = fileURLToPath(new URL('..', import.meta.url));
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/**
 * Builds one app and returns the gzip bytes a browser loads for its call, the chunks by name,
 * and the build; with `firstUse`, the chunks its call loads on first use (dynamic imports) too.
 */
async function measure(app, alias, firstUse = false) {
  const result = await browserBuild({ entryPoints: [`${root}scripts/size/${app}`], outdir: `${root}.tmp/size/${app.replace('.js', '')}`, metafile: true, ...(alias ? { alias } : {}) });
  const { outputs } = result.metafile;
  const bytes = new Map(result.outputFiles.map((f) => [f.path.slice(root.length), gzipSync(f.contents, { level: 9 }).length]));
  const entry = Object.keys(outputs).find((p) => outputs[p].entryPoint?.endsWith(app));
  const loaded = new Set();
  const visit = (path) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const imp of outputs[path].imports) if (!imp.external && (imp.kind === 'import-statement' || (firstUse && imp.kind === 'dynamic-import' && !/(multipart|partial-objects|run-tools|bulk|download|stage|reports|responses-route|gateway-info)-/.test(imp.path)))) visit(imp.path);
  };
  visit(entry);
  const chunks = Object.keys(outputs)
    .filter((p) => p.endsWith('.js'))
    .map((path) => ({ path, gzip: bytes.get(path), loaded: loaded.has(path), inputs: Object.keys(outputs[path].inputs) }));
  return { gzip: [...loaded].reduce((n, p) => n + bytes.get(p), 0), chunks, result };
}

const ours = { alias: { 'unified-gateway': `${root}src/index.ts` } };
const chat = await measure('chat-app.js', ours.alias);
const stream = await measure('stream-app.js', ours.alias);
const shared = await measure('shared-chat-app.js', ours.alias, true);
const officialChat = await measure('openai-chat-app.js');
const officialStream = await measure('openai-stream-app.js');

const name = (input) => input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? input.replace(/^src\//, '');
console.log('chunk of the chat app                       gzip  loaded by one call');
for (const c of chat.chunks) {
  const names = [...new Set(c.inputs.map(name))];
  console.log(`  ${c.path.replace(/^\.tmp\/size\/[^/]+\//, '').padEnd(40)} ${kb(c.gzip).padStart(8)}  ${c.loaded ? 'yes' : 'no '}  ${names.length > 4 ? `${names.slice(0, 4).join(', ')}, +${names.length - 4} more` : names.join(', ')}`);
}
const ratio = (a, b) => (a / b).toFixed(2);
console.log(`official client (openai): a chat call loads ${kb(officialChat.gzip)}, a streamed one ${kb(officialStream.gzip)}`);
console.log(
  `chat app: ${kb(chat.gzip)} gzip loaded for one chat call (${ratio(chat.gzip, officialChat.gzip)}× the official client's; target ${TARGET}×, ${chat.gzip <= TARGET * officialChat.gzip ? 'met' : 'not met'}); a streamed chat call loads ${kb(stream.gzip)} (${ratio(stream.gzip, officialStream.gzip)}×); every chunk together: ${kb(chat.chunks.reduce((n, c) => n + c.gzip, 0))}`,
);

console.log(`a chat app whose client has a memory store and a response cache: ${kb(shared.gzip)} for one chat call, the cache's stages and the fleet's shared half included (${ratio(shared.gzip, officialChat.gzip)}×; the plain chat app's ${kb(chat.gzip)})`);

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const nodeImports = [chat, stream].flatMap((m) => Object.keys(m.result.metafile.inputs)).filter((f) => builtins.has(f));
if (nodeImports.length) {
  console.error(`size: the browser bundle imports Node built-ins: ${[...new Set(nodeImports)].join(', ')}`);
  process.exit(1);
}
for (const [what, app, official] of [['chat', chat, officialChat], ['stream', stream, officialStream]]) {
  if (app.gzip > CEILING * official.gzip) {
    console.error(`size: the ${what} app loads ${kb(app.gzip)}, over ${CEILING}× the official client's ${kb(official.gzip)} by ${kb(app.gzip - CEILING * official.gzip)}`);
    process.exitCode = 1;
  }
}
