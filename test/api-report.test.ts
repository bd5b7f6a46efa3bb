import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// npm test checks the built declarations against api/*.api.md (scripts/api-report.mjs): a
// changed public type fails until the report is updated (docs/releasing.md). This proves the
// check can fail, on a copy of the built declarations with one exported type changed.
const root = new URL('..', import.meta.url).pathname;
const check = (dts: string) => spawnSync(process.execPath, ['scripts/api-report.mjs', `--dts=unified-gateway=${dts}`], { cwd: root, encoding: 'utf8', timeout: 80_000 });

// API Extractor takes seconds, minutes on a loaded 2-core machine: the tests wait longer than the default 10 s.
describe('the public API report', () => {
  it('matches the built declarations', () => {
    const result = check(join(root, 'dist/index.d.ts'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 90_000);

  it('fails, showing the diff, when an exported type changes without its report', () => {
    // A copy of the built declarations (the entry and the chunks it imports), one exported type changed.
    const dir = mkdtempSync(join(tmpdir(), 'ug-api-'));
    let changed = false;
    for (const name of readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.d.ts'))) {
      const text = readFileSync(join(root, 'dist', name), 'utf8');
      const edited = text.replace('readonly retryAfterMs: number | null;', 'readonly retryAfterMs: number;');
      changed ||= edited !== text;
      writeFileSync(join(dir, name), edited);
    }
    expect(changed).toBe(true);
    const file = join(dir, 'index.d.ts');
    const result = check(file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('-    readonly retryAfterMs: number | null;');
    expect(result.stderr).toContain('+    readonly retryAfterMs: number;');
    expect(result.stderr).toContain('npm run api:update');
  }, 90_000);
});
