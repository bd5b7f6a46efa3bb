import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  // The testing entry imports node:http lazily inside listen(); keep it external and keep the
  // node: prefix (Deno and edge bundlers need it; tsup strips it by default).
  external: ['node:http'],
  removeNodeProtocol: false,
});
