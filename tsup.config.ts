import { defineConfig } from 'tsup';

const entry = { index: 'src/index.ts', testing: 'src/testing/index.ts' };

export default defineConfig([
  {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'neutral',
    // The testing entry imports node:http lazily inside listen(); keep it external and keep the
    // node: prefix (Deno and edge bundlers need it).
    external: ['node:http'],
    removeNodeProtocol: false,
  },
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'neutral',
    external: ['node:http'],
    removeNodeProtocol: false,
    // ky 1.x ships ESM only; bundle it into the CJS build so require() works on every Node 20.x.
    noExternal: ['ky'],
  },
]);
