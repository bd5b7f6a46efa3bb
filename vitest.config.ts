import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real Chromium runs in its own config (npm run test:browser).
    exclude: ['test/browser/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 10_000,
    // Tests that spawn a process (docs snippets, built-package checks) take seconds by design;
    // listing each of them as slow only buries the summary.
    slowTestThreshold: 10_000,
    hookTimeout: 10_000,
    restoreMocks: true,
    unstubEnvs: true,
  },
});
