import { defineConfig } from 'vitest/config';

// npm run test:browser: real Chromium; .ci/run installs Debian's chromium when it is missing.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
