import { defineConfig } from 'vitest/config';

// Two projects; `vitest run` (and `npm test`, after the build) runs both.
// - unit: src/ imported in this process, no build needed: `npm run test:unit` is the fast loop.
// - package: the built package (dist/ through its exports map, its declarations, the CLI,
//   docs snippets type-checked and run against it, an edge bundle of it), so it needs
//   `npm run build` first and takes seconds per test by design. Every test that reads dist/
//   is here: `npm ci && npm run test:unit` passes on a fresh clone, with no dist/ at all. Run it alone with
//   `npx vitest run --project package`. A test that spawns dist/cli.js belongs in test/cli/.
// Each file is in exactly one project. `!(progress|token-usage)` is an extglob: every file directly
// in test/cli/ but progress.test.ts and token-usage.test.ts, formatters imported from src/ (unit).
const builtPackage = [
  'test/docs.test.ts',
  'test/package.test.ts',
  'test/api-report.test.ts',
  'test/edge.test.ts',
  'test/cli/!(progress|token-usage).test.ts',
  // These read dist/ too: its declarations (types/), its otel entry (the example), its testing types.
  'test/types/dist.test.ts',
  'test/types/completions.test.ts',
  'test/types/model-catalog.test.ts',
  'test/otel/example.test.ts',
  'test/testing/node-only-types.test.ts',
];
// Real Chromium runs in its own config (npm run test:browser).
const notHere = ['test/browser/**', 'node_modules/**'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 10_000,
    hookTimeout: 10_000,
    // Tests that spawn a process (docs snippets, built-package checks) take seconds by design;
    // listing each of them as slow only buries the summary. A root-only option.
    slowTestThreshold: 10_000,
    // Tests that exhaust retries on purpose would each print the SDK's warn line; the logger's
    // own tests put the default level back (test/core/logger.test.ts).
    env: { GATEWAY_LOG: 'off' },
    // fast-check: a fixed seed and a time limit for every property (test/helpers/fast-check-setup.ts).
    setupFiles: ['test/helpers/fast-check-setup.ts'],
    restoreMocks: true,
    unstubEnvs: true,
    // A test that reaches no expect() passes whatever the code does (say its only check sits in a
    // callback that never ran); expectTypeOf() does not count. Concurrent tests must use their
    // context's expect, or they count each other's assertions.
    expect: { requireAssertions: true },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...notHere, ...builtPackage] },
      },
      {
        extends: true,
        test: {
          name: 'package',
          include: builtPackage,
          exclude: notHere,
        },
      },
    ],
  },
});
