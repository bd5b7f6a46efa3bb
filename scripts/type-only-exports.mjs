// The declaration bundler (rollup-plugin-dts inside tsup) decides `type` in the bundled
// export list by what a name is declared as, not by how the entry exported it: a class the
// entry exports with `export type { Stream }` comes out as `export { Stream }`. A user's
// `import { Stream }` then compiles and fails at start-up (the class is not in the JS).
// markTypeOnlyExports puts the entry's `type` back and fails the build when a name it
// expects is missing from the bundle.
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

/** Export specifiers of a file's local export lists (no `from`): exported name, local name, type-only or not. */
export function exportList(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specs = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) {
      specs.push({ name: element.name.text, typeOnly: statement.isTypeOnly || element.isTypeOnly, element, statement, fromModule: Boolean(statement.moduleSpecifier) });
    }
  }
  return { source, specs };
}

/** @param {string} entry a source entry (src/index.ts) @param {string[]} declarationFiles its bundled .d.ts/.d.cts */
export function markTypeOnlyExports(entry, declarationFiles) {
  const typeOnly = new Set(exportList(entry).specs.filter((s) => s.typeOnly).map((s) => s.name));
  for (const file of declarationFiles) {
    const { source, specs } = exportList(file);
    const text = source.getFullText();
    const inserts = specs.filter((s) => !s.fromModule && !s.typeOnly && typeOnly.has(s.name)).map((s) => s.element.getStart(source));
    let out = text;
    for (const at of inserts.sort((a, b) => b - a)) out = `${out.slice(0, at)}type ${out.slice(at)}`;
    if (out !== text) writeFileSync(file, out);
    const exported = new Map(exportList(file).specs.map((s) => [s.name, s.typeOnly]));
    const wrong = [...typeOnly].filter((name) => exported.get(name) !== true);
    if (wrong.length) throw new Error(`${file}: expected type-only exports of ${wrong.join(', ')}`);
  }
}
