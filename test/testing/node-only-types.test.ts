import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

// Checks the built dist/testing.d.ts and .d.cts (npm test builds first) from a project without
// the DOM lib and with skipLibCheck off: a DOM-only name in the declarations fails here.
describe('unified-gateway/testing types', () => {
  it('type-check in a Node-only project (lib ES2022, types node, skipLibCheck false)', () => {
    const run = () =>
      execFileSync(process.execPath, [tsc, '-p', 'test/fixtures/testing-node-only/tsconfig.json'], { cwd: root, encoding: 'utf8', timeout: 60_000, stdio: 'pipe' });
    let output = '';
    try {
      run();
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 60_000);
});
