import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

// The build script (scripts/build.mjs) builds into a staging directory and swaps it in.
const out = process.env.UNIFIED_GATEWAY_OUT_DIR ?? 'dist';

const shared: Options = {
  sourcemap: true,
  target: 'es2022',
  // The testing entry imports node:http lazily inside listen(), and node:fs/promises when it
  // reads or writes cassette files; keep them external and keep the
  // node: prefix (Deno and edge bundlers need it; tsup strips it by default).
  external: ['node:http', 'node:fs/promises'],
  removeNodeProtocol: false,
  outDir: out,
  // No keepNames (an __name call per function, +0.5 KB gzip for every app): the source keeps
  // names true instead. Bundling renames a class that refers to itself by name (client.ts
  // says `this.constructor`) and the second of two classes of one name (there are none);
  // test/package.test.ts checks the built names.
};

/**
 * The testing entry for browsers and workers: listen() and cassette files are the only parts
 * that need Node, so its node:http server is swapped for a stub that says to use mock.fetch,
 * and its cassette files for a module that says to pass cassettes inline.
 */
const withoutNodeServer: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'testing-without-node-server',
  setup(build) {
    build.onResolve({ filter: /\/(node-server|cassette-files)\.js$/ }, (args) => ({ path: `${args.resolveDir}/${args.path.replace(/^.*\//, '').replace(/\.js$/, '.web.ts')}` }));
  },
};

/**
 * The ai-sdk, otel and redis entries run on the root entry the app already loads, not on a
 * copy of it: their `../index.js` imports become imports of the package by its own name (a
 * client passed in is then the same class, with the same failover health; a ValidationError
 * the root's class), so the root's bundles are the same with or without them.
 */
const rootAsPackage: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'root-as-package',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, (args) => (/[\\/]src[\\/](ai-sdk|otel|redis)$/.test(args.resolveDir) ? { path: 'unified-gateway', external: true } : undefined));
    // Only APICallError is code we need; the package's single dist file would bring every
    // error class (~25 KB), so take the class from the source it ships.
    build.onResolve({ filter: /^@ai-sdk\/provider$/ }, () => ({ path: fileURLToPath(new URL('node_modules/@ai-sdk/provider/src/errors/api-call-error.ts', import.meta.url)) }));
  },
};

/**
 * unified-gateway/ai-sdk: the Vercel AI SDK provider. `@ai-sdk/provider` (a dev dependency)
 * is bundled: only its APICallError is code, and the AI SDK recognises it by a registered
 * symbol, not by identity. Its types are inlined in the declarations, so the entry
 * needs nothing installed beyond `ai` itself (docs/ai-sdk.md).
 */
const aiSdk: Options = {
  ...shared,
  entry: { 'ai-sdk': 'src/ai-sdk/index.ts' },
  external: [...(shared.external ?? []), 'unified-gateway'],
  esbuildPlugins: [rootAsPackage],
  dts: { resolve: ['@ai-sdk/provider'] },
};

export default defineConfig([
  { ...aiSdk, format: ['esm'], platform: 'neutral' },
  { ...aiSdk, format: ['cjs'], platform: 'node' },
  // ESM for bundlers, browsers and edge workers (the "import"/"default" conditions):
  // platform-neutral, zod left to the app's bundler (so an app that uses zod has one copy),
  // and split so that code loaded on first use (schemas, SSE, multipart) lands in its own
  // chunks. Its testing entry bundles for a worker.
  {
    ...shared,
    dts: true,
    entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
    format: ['esm'],
    platform: 'neutral',
    splitting: true,
    esbuildPlugins: [withoutNodeServer],
  },
  // ESM for Node, Deno and Bun (the "node" condition): the same code with zod/mini bundled
  // into the validation chunk. Node loads one file there instead of about a hundred zod
  // modules, which is most of a cold start's first call (docs/benchmarks.md).
  { ...shared, outDir: `${out}/node`, entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' }, format: ['esm'], platform: 'node', splitting: true, noExternal: ['zod'] },
  // CJS for require(), zod bundled as for Node ESM. `module.exports` is the Gateway class
  // itself, with every named export on it, so `const Gateway = require('unified-gateway');
  // new Gateway()` works as it does for the official SDK, and `require(...).Gateway` /
  // `.default` too. esbuild lists the named exports for Node's cjs-module-lexer but leaves
  // out `default`, so the footer names it too (it never runs: `0 && …`); without it, type
  // checkers take `export default` in index.d.cts for a lie (attw: FalseExportDefault).
  {
    ...shared,
    dts: true,
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    platform: 'node',
    // jsonriver is ESM only: bundled, so require() never meets it (Node 20 before 20.19 refuses).
    noExternal: ['zod', 'jsonriver'],
    footer: { js: 'module.exports = Object.defineProperties(module.exports.Gateway, Object.getOwnPropertyDescriptors(module.exports));\n0 && (module.exports.default = 0);' },
  },
  { ...shared, dts: true, entry: { testing: 'src/testing/index.ts' }, format: ['cjs'], platform: 'node' },
  // unified-gateway/otel: built on its own (it takes ValidationError from the root entry by
  // the package's name, and types), platform-neutral, with @opentelemetry/api left to the
  // app (an optional peer).
  { ...shared, dts: true, entry: { otel: 'src/otel/index.ts' }, format: ['esm', 'cjs'], platform: 'neutral', external: ['@opentelemetry/api', 'unified-gateway'], esbuildPlugins: [rootAsPackage] },
  // unified-gateway/redis: redisStore over the app's own node-redis or ioredis client, taken
  // structurally, so neither library is imported, bundled or named in the declarations; the
  // root is imported by the package's name, as for ai-sdk. Platform-neutral: it needs only
  // crypto.subtle and TextEncoder/TextDecoder.
  { ...shared, dts: true, entry: { redis: 'src/redis/index.ts' }, format: ['esm'], platform: 'neutral', external: [...(shared.external ?? []), 'unified-gateway'], esbuildPlugins: [rootAsPackage] },
  { ...shared, dts: true, entry: { redis: 'src/redis/index.ts' }, format: ['cjs'], platform: 'node', external: [...(shared.external ?? []), 'unified-gateway'], esbuildPlugins: [rootAsPackage] },
  // The command line (bin: unified-gateway), Node only. It imports the package by its own
  // name, so it runs on the built SDK rather than carrying a second copy.
  { ...shared, entry: { cli: 'src/cli/index.ts' }, target: 'node20', format: ['esm'], platform: 'node', external: ['unified-gateway'], banner: { js: '#!/usr/bin/env node' } },
]);
