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
    // Tests that exhaust retries on purpose would each print the SDK's warn line; the logger's
    // own tests put the default level back (test/core/logger.test.ts).
    env: { GATEWAY_LOG: 'off' },
    restoreMocks: true,
    unstubEnvs: true,
  },
});
