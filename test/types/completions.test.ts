import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// What an editor offers inside `model: '|'`, asked of TypeScript's language service (the one
// editors run) against the built declarations (npm test builds first).
function completionsAt(code: string): string[] {
  const file = resolve('.tmp/completions/user.ts');
  const text = code.replace('|', '');
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], strict: true, noEmit: true };
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => (name === file ? ts.ScriptSnapshot.fromString(text) : ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(readFileSync(name, 'utf8')) : undefined),
    getCurrentDirectory: () => process.cwd(),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => (name === file ? text : ts.sys.readFile(name)),
  };
  const service = ts.createLanguageService(host);
  const entries = service.getCompletionsAtPosition(file, code.indexOf('|'), {})?.entries ?? [];
  return entries.map((e) => e.name);
}

describe('editor completions', () => {
  it('offer the documented video models', { timeout: 60_000 }, () => {
    const dist = resolve('dist/index.js');
    const names = completionsAt(`import type { VideoCreateParams } from ${JSON.stringify(dist)};\nexport const p: VideoCreateParams = { model: '|', prompt: 'x', duration: 5 };\n`);
    expect(names).toEqual(expect.arrayContaining(['vendor_video2', 'vendor_video2-landscape']));
  });
});
