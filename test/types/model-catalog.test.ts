import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { modelCatalogDeclaration } from '../../src/cli/model-catalog-declaration.js';

// A user's project with and without the file `unified-gateway models --typescript` writes,
// checked against the BUILT declarations (npm test builds first) through the package's
// exports map, as an ESM project (dist/index.d.ts) and as a CommonJS one (dist/index.d.cts):
// what an editor offers inside `model: '|'` (TypeScript's language service, the one editors
// run) and what the compiler reports.

/**
 * Ids a gateway could list (none of them a documented image or video id), each with the text
 * an editor offers for it inside single quotes: escaped where the id needs it.
 */
const LISTED: Array<[id: string, offered: string]> = [
  ['gpt-4o-mini', 'gpt-4o-mini'],
  ['text-embedding-3-small', 'text-embedding-3-small'],
  ['whisper-1', 'whisper-1'],
  ['a"quote', 'a"quote'],
  ["it's", "it\\'s"],
  ['back\\slash', 'back\\\\slash'],
  ['with space', 'with space'],
  ['line\nbreak', 'line\\nbreak'],
  ['__proto__', '__proto__'],
  ['123', '123'],
  ['vendor/model:tag', 'vendor/model:tag'],
];
const CATALOG = LISTED.map(([id]) => id);
const OFFERED = LISTED.map(([, offered]) => offered);
const DOCUMENTED = { image: ['dall-e-3', 'dall-e-2', 'gpt-image-1'], video: ['vendor_video2', 'vendor_video2-landscape'] };

/** Every `model` field of every resource, and the AI SDK provider's model ids, each with a marker `@@name` where the editor is asked. */
const USER = `import type { Gateway, ChatCompletionCreateParamsNonStreaming, CompletionCreateParamsNonStreaming, EmbeddingCreateParams, EmbeddingCreateManyParams, ImageGenerateParams, ImageEditParams, TranscriptionCreateParams, ResponseCreateParamsNonStreaming, VideoCreateParams, ModelId } from 'unified-gateway';
import { createUnifiedGateway, unifiedGateway } from 'unified-gateway/ai-sdk';
declare const client: Gateway;
declare const file: Blob;
export const chat: ChatCompletionCreateParamsNonStreaming = { model: '@@chat', messages: [] };
export const completion: CompletionCreateParamsNonStreaming = { model: '@@completion', prompt: 'x' };
export const embedding: EmbeddingCreateParams = { model: '@@embedding', input: 'x' };
export const embeddings: EmbeddingCreateManyParams = { model: '@@embeddings', input: ['x'] };
export const image: ImageGenerateParams = { model: '@@image', prompt: 'x' };
export const edit: ImageEditParams = { model: '@@edit', prompt: 'x', image: file };
export const transcription: TranscriptionCreateParams = { model: '@@transcription', file };
export const response: ResponseCreateParamsNonStreaming = { model: '@@response', input: 'x' };
export const video: VideoCreateParams = { model: '@@video', prompt: 'x', duration: 5 };
export const own: ModelId = '@@own';
export const call = () => client.chat.completions.create({ model: '@@call', messages: [] });
export const imageCall = () => client.images.generate({ model: '@@imageCall', prompt: 'x' });
export const aisdk = createUnifiedGateway()('@@aisdk');
export const aisdkEmbedding = unifiedGateway.embeddingModel('@@aisdkEmbedding');
`;

/** The same fields with ids no catalogue lists: they must compile with or without one. */
const UNKNOWN = USER.replace(/@@\w+/g, 'not-in-any-catalogue');

/** `keyof ModelCatalog` holds exactly the listed ids: one is accepted, another is not. */
const CONTROL = `import type { ModelCatalog } from 'unified-gateway';
export const listed: keyof ModelCatalog = 'gpt-4o-mini';
export const unlisted: keyof ModelCatalog = 'not-in-any-catalogue';
`;

interface Project {
  /** What the editor offers at each marker, by marker name. */
  completions: Record<string, string[]>;
  /** The compiler's messages, as `file: message`. */
  diagnostics: string[];
}

/** Writes a project under .tmp whose `node_modules/unified-gateway` is this repository, and asks TypeScript about it. */
function check(name: string, type: 'module' | 'commonjs', declaration: string | undefined): Project {
  const dir = resolve('.tmp/model-catalog', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(resolve('.'), join(dir, 'node_modules', 'unified-gateway'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
  const user = USER.replace(/@@\w+/g, '');
  // Each marker's offset in `user`: shifted by the markers removed before it.
  const markers: Record<string, number> = {};
  let removed = 0;
  for (const match of USER.matchAll(/@@(\w+)/g)) {
    markers[match[1] ?? ''] = match.index - removed;
    removed += match[0].length;
  }
  const files: Record<string, string> = { 'user.ts': user, 'unknown.ts': UNKNOWN, 'control.ts': CONTROL };
  if (declaration !== undefined) files['gateway-models.d.ts'] = declaration;
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
  };
  const names = Object.keys(files).map((f) => join(dir, f));
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => names,
    getScriptVersion: () => '1',
    getScriptSnapshot: (path) => (ts.sys.fileExists(path) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(path) ?? '') : undefined),
    getCurrentDirectory: () => dir,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    realpath: ts.sys.realpath,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host);
  const completions = Object.fromEntries(
    Object.entries(markers).map(([marker, at]) => [marker, (service.getCompletionsAtPosition(join(dir, 'user.ts'), at, {})?.entries ?? []).map((e) => e.name)]),
  );
  const diagnostics = names.flatMap((file) =>
    [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)].map((d) => `${file.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
  );
  // Which declarations the package name resolved to: index.d.ts for ESM, index.d.cts for CommonJS.
  const program = service.getProgram();
  const resolved = program?.getSourceFiles().find((f) => /dist[\\/]index\.d\.c?ts$/.test(f.fileName))?.fileName ?? 'none';
  diagnostics.push(`resolved: ${resolved.slice(resolved.lastIndexOf('dist'))}`);
  return { completions, diagnostics };
}

const MARKERS = ['chat', 'completion', 'embedding', 'embeddings', 'image', 'edit', 'transcription', 'response', 'video', 'own', 'call', 'imageCall', 'aisdk', 'aisdkEmbedding'];
const builtDeclarations = { module: 'dist/index.d.ts', commonjs: 'dist/index.d.cts' } as const;

describe.each(['module', 'commonjs'] as const)('ModelCatalog in a "type": "%s" project', (type) => {
  let withCatalog: Project;
  let without: Project;
  beforeAll(() => {
    withCatalog = check(`${type}-with`, type, modelCatalogDeclaration(CATALOG, { baseURL: 'https://gateway.example/v1', generatedAt: new Date(0) }));
    without = check(`${type}-without`, type, undefined);
  }, 120_000);

  it('resolves the package to its built declarations', () => {
    expect(withCatalog.diagnostics.at(-1)).toBe(`resolved: ${builtDeclarations[type]}`);
    expect(without.diagnostics.at(-1)).toBe(`resolved: ${builtDeclarations[type]}`);
  });

  it('with the generated file, every model field offers every listed id', () => {
    expect(Object.keys(withCatalog.completions).sort()).toEqual([...MARKERS].sort());
    for (const marker of MARKERS) expect({ marker, offered: withCatalog.completions[marker] }).toEqual({ marker, offered: expect.arrayContaining(OFFERED) });
  });

  it('with the generated file, the documented image and video ids are still offered', () => {
    for (const marker of ['image', 'edit', 'imageCall']) expect(withCatalog.completions[marker]).toEqual(expect.arrayContaining(DOCUMENTED.image));
    expect(withCatalog.completions.video).toEqual(expect.arrayContaining(DOCUMENTED.video));
  });

  it('with the generated file, unknown ids still compile; only the control line fails', () => {
    expect(withCatalog.diagnostics.slice(0, -1)).toEqual([`control.ts: Type '"not-in-any-catalogue"' is not assignable to type 'keyof ModelCatalog'.`]);
  });

  it('without it, nothing is offered but the documented image and video ids, and everything compiles as before', () => {
    const offered = new Set(MARKERS.flatMap((m) => without.completions[m] ?? []));
    for (const id of OFFERED) expect(offered.has(id)).toBe(false);
    for (const marker of ['chat', 'completion', 'embedding', 'embeddings', 'transcription', 'response', 'own', 'call', 'aisdk', 'aisdkEmbedding']) expect(without.completions[marker]).toEqual([]);
    for (const marker of ['image', 'edit', 'imageCall']) expect(without.completions[marker]).toEqual(expect.arrayContaining(DOCUMENTED.image));
    expect(without.completions.video).toEqual(expect.arrayContaining(DOCUMENTED.video));
    // keyof ModelCatalog is empty: even the listed id of the control file is refused.
    expect(without.diagnostics.slice(0, -1)).toEqual([
      `control.ts: Type '"gpt-4o-mini"' is not assignable to type 'never'.`,
      `control.ts: Type '"not-in-any-catalogue"' is not assignable to type 'never'.`,
    ]);
  });
});
