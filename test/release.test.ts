import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The version a user installs says what shipped (docs/releasing.md).
const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const { version, scripts, files } = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string>; files: string[] };

describe('the release', () => {
  it("has a CHANGELOG section for package.json's version, with its date", () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(read('CHANGELOG.md')).toMatch(new RegExp(`^## ${version.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`, 'm'));
  });

  it('keeps work not yet released under "## Unreleased", above the released versions', () => {
    const headings = [...read('CHANGELOG.md').matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe('Unreleased');
    expect(headings[1]).toBe(`${version} (${/^## [\d.]+ \(([\d-]+)\)$/m.exec(read('CHANGELOG.md'))?.[1]})`);
  });

  it("names package.json's version in the README's install line", () => {
    expect(read('README.md')).toContain(`npm install unified-gateway@^${version}`);
  });

  // dist/ is not in git: without a build before packing, `npm pack` or `npm publish` from a
  // clean clone ships a package with no code in it.
  it('builds dist/ before npm packs or publishes it', () => {
    expect(files).toContain('dist');
    expect(scripts['prepack']).toMatch(/^npm run build\b/);
    expect(scripts['build']).toBe('node scripts/build.mjs');
  });
});
