import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// scripts/check-types.mjs compiles test/types/consumer/consumer.ts against the BUILT
// declarations (npm test builds first) with this repo's TypeScript; `npm run
// check:types-latest` runs it with typescript@latest in CI.
describe('built declarations', () => {
  it('compile for an ESM and a CJS user, and reject value imports of type-only exports', { timeout: 120_000 }, () => {
    const out = execFileSync(process.execPath, ['scripts/check-types.mjs'], { encoding: 'utf8', timeout: 120_000 });
    expect(out).toMatch(/the built declarations compile as ESM and CJS; value imports of the 13 type-only classes do not/);
  });
});
