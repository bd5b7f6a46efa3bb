import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The shape of src/ that keeps it followable (docs/architecture.md): no import circles, type
// imports and dynamic imports included, and nothing in core/ or internal/ importing from
// the layers above them.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file (static, type-only, re-export, dynamic), as src-relative paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(src, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
}

const graph = new Map(sourceFiles(src).map((file) => [relative(src, file), importsOf(file)]));

/** The import circles of the graph, each as its files in order (Tarjan's strongly connected components). */
function circles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      for (let top = stack.pop(); top !== undefined; top = top === node ? undefined : stack.pop()) component.push(top);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the shape of src/', () => {
  it('reads every source file', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('core/request/call.ts')).toContain('core/request/attempt.ts');
  });

  it('has no import circle, type-only and dynamic imports included', () => {
    expect(circles()).toEqual([]);
  });

  it('keeps core/ and internal/ below the resources, the client and the command line', () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      /^(core|internal)\//.test(file) ? imports.filter((to) => /^(resources|cli|testing)\//.test(to) || to === 'client.ts' || to === 'index.ts').map((to) => `${file} -> ${to}`) : [],
    );
    expect(upward).toEqual([]);
  });

  // src/core/README.md: each folder of core/ imports only the folders before it in this order.
  it('keeps the folders of core/ in order: nothing imports a folder after its own', () => {
    const order = ['adapt', 'policy', 'usage', 'store', 'gateway-info', 'cost', 'streams', 'uploads', 'fleet', 'cache', 'request'];
    const folderOf = (file: string) => /^core\/([^/]+)\//.exec(file)?.[1];
    const upward = [...graph].flatMap(([file, imports]) => {
      const from = folderOf(file);
      if (from === undefined) return [];
      return imports.filter((to) => {
        const target = folderOf(to);
        return target !== undefined && target !== from && order.indexOf(target) > order.indexOf(from);
      }).map((to) => `${file} -> ${to}`);
    });
    expect(order.every((folder) => [...graph.keys()].some((file) => folderOf(file) === folder))).toBe(true);
    expect(upward).toEqual([]);
  });

  it('leaves about a dozen files at the root of core/, each folder saying what it holds', () => {
    const root = [...graph.keys()].filter((file) => /^core\/[^/]+\.ts$/.test(file));
    expect(root.length).toBeLessThanOrEqual(14);
    for (const folder of new Set([...graph.keys()].map((file) => /^core\/([^/]+)\//.exec(file)?.[1]).filter(Boolean))) {
      expect(readFileSync(join(src, 'core', folder as string, 'README.md'), 'utf8')).toMatch(/^# src\/core\//);
    }
  });

  it('keeps internal/ a leaf: it imports nothing of the SDK', () => {
    const reaching = [...graph].flatMap(([file, imports]) => (file.startsWith('internal/') ? imports.filter((to) => !to.startsWith('internal/')).map((to) => `${file} -> ${to}`) : []));
    expect(reaching).toEqual([]);
  });

  // docs/architecture.md, "Loading on first use": import() only for optional features a plain
  // chat app never touches, at most ten, none on the path of a chat call to a model that
  // answers on chat/completions.
  it('loads at most ten optional features with import(), each named in docs/architecture.md', () => {
    const sites = [...graph.keys()].flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(join(src, file), 'utf8'), ts.ScriptTarget.Latest, true);
      const found: string[] = [];
      const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(`${file}: ${node.arguments[0]?.getText(source)}`);
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
    const core = sites.filter((site) => /^(core|resources)\//.test(site));
    expect(core.length).toBeGreaterThan(0);
    expect(core.length).toBeLessThanOrEqual(10);
    const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const moduleName = (site: string) => (site.split(': ')[1] ?? '').replace(/['"]/g, '').replace(/\.js$/, '').split('/').pop() ?? '';
    for (const site of core) expect(architecture, site).toContain(moduleName(site));
  });
});
