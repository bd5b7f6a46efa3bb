import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  dts: true,
  sourcemap: true,
  target: 'es2022',
  // The testing entry imports node:http lazily inside listen(); keep it external and keep the
  // node: prefix (Deno and edge bundlers need it; tsup strips it by default).
  external: ['node:http'],
  removeNodeProtocol: false,
};

// dist/ is emptied by the build script: the builds run in parallel, so none of them cleans.
export default defineConfig([
  // ESM for bundlers, browsers, Deno, Bun and edge runtimes: platform-neutral, and split so
  // that code loaded on first use (schemas, SSE, multipart) lands in its own chunks.
  { ...shared, entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' }, format: ['esm'], platform: 'neutral', splitting: true },
  // CJS for require(). `module.exports` is the Gateway class itself, with every named export
  // on it, so `const Gateway = require('unified-gateway'); new Gateway()` works as it does
  // for the official SDK, and `require(...).Gateway` / `.default` too. esbuild lists the
  // named exports for Node's cjs-module-lexer but leaves out `default`, so the footer names
  // it too (it never runs: `0 && …`); without it, type checkers take `export default` in
  // index.d.cts for a lie (attw: FalseExportDefault).
  {
    ...shared,
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    platform: 'node',
    footer: { js: 'module.exports = Object.defineProperties(module.exports.Gateway, Object.getOwnPropertyDescriptors(module.exports));\n0 && (module.exports.default = 0);' },
  },
  { ...shared, entry: { testing: 'src/testing/index.ts' }, format: ['cjs'], platform: 'node' },
  // The command line (bin: unified-gateway), Node only. It imports the package by its own
  // name, so it runs on the built SDK rather than carrying a second copy.
  { entry: { cli: 'src/cli/index.ts' }, format: ['esm'], platform: 'node', target: 'node20', sourcemap: true, dts: false, external: ['unified-gateway'], banner: { js: '#!/usr/bin/env node' }, removeNodeProtocol: false },
]);
