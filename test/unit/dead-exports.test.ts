/**
 * No re-export that nothing imports. A name a module passes on from another, by `export { x } from`, must be imported
 * from it by some file of the repository, or be the package's public API, lib/index.ts, which the API report holds. A
 * re-export nobody reads is a second path to the same name, and the comment that justifies it goes stale.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');
/** The package's entry point: its re-exports are the public API, read by consumers outside the repository. */
const PUBLIC_ENTRY = 'lib/index.ts';

/** A module's text by path relative to the repository. */
type Sources = ReadonlyMap<string, string>;

/** Every name each module is asked for, by resolved path; `*` stands for a namespace import or a whole re-export. */
function importedNames(sources: Sources, resolve: (spec: string, from: string) => string | undefined): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false);
    sf.forEachChild((node) => {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier) return;
      const target = resolve((node.moduleSpecifier as ts.StringLiteral).text, file);
      if (target === undefined) return;
      const names = used.get(target) ?? new Set<string>();
      used.set(target, names);
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        if (clause?.name) names.add('default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.add('*');
        if (bindings && ts.isNamedImports(bindings)) bindings.elements.forEach((e) => names.add((e.propertyName ?? e.name).text));
        if (clause === undefined) names.add('*'); // import './module' for its effect
      } else if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        node.exportClause.elements.forEach((e) => names.add((e.propertyName ?? e.name).text));
      } else {
        names.add('*');
      }
    });
  }
  return used;
}

/** `file: name` for each re-export in `modules` that no file imports from it. */
function deadReExports(sources: Sources, modules: readonly string[], resolve: (spec: string, from: string) => string | undefined): string[] {
  const used = importedNames(sources, resolve);
  const dead: string[] = [];
  for (const file of modules) {
    const sf = ts.createSourceFile(file, sources.get(file) as string, ts.ScriptTarget.ES2022, false);
    const names = used.get(file) ?? new Set<string>();
    sf.forEachChild((node) => {
      if (!ts.isExportDeclaration(node) || !node.moduleSpecifier || !node.exportClause || !ts.isNamedExports(node.exportClause)) return;
      for (const e of node.exportClause.elements) if (!names.has(e.name.text) && !names.has('*')) dead.push(`${file}: ${e.name.text}`);
    });
  }
  return dead;
}

/** The repository's TypeScript, tracked and new files alike, by relative path. */
function repositorySources(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.ts'], { cwd: ROOT, encoding: 'utf8' });
  const files = listed.split('\n').filter((f) => f !== '' && !f.endsWith('.d.ts') && fs.existsSync(path.join(ROOT, f)));
  return new Map(files.map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]));
}

const OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, resolveJsonModule: true };

function resolveInRepository(spec: string, from: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const resolved = ts.resolveModuleName(spec, path.join(ROOT, from), OPTIONS, ts.sys).resolvedModule;
  return resolved && path.relative(ROOT, resolved.resolvedFileName).split(path.sep).join('/');
}

test('every re-export in lib/ and lambda/ is imported by some file (lib/index.ts, the public API, aside)', () => {
  const sources = repositorySources();
  const modules = [...sources.keys()].filter((f) => /^(lib|lambda)\//.test(f) && f !== PUBLIC_ENTRY);
  expect(modules).toContain('lib/sizing/index.ts');
  expect(deadReExports(sources, modules, resolveInRepository)).toEqual([]);
});

test('the finder finds a re-export nobody imports, and not one somebody does (a check that cannot fail is no check)', () => {
  const sources = new Map([
    ['a.ts', "export { used, unused } from './b';\nexport type { T } from './b';\n"],
    ['b.ts', 'export const used = 1; export const unused = 2; export type T = number;\n'],
    ['c.ts', "import { used } from './a';\nimport type { T } from './a';\n"],
  ]);
  const resolve = (spec: string) => `${spec.replace('./', '')}.ts`;
  expect(deadReExports(sources, ['a.ts'], resolve)).toEqual(['a.ts: unused']);
  expect(deadReExports(new Map([...sources, ['d.ts', "import * as a from './a';\n"]]), ['a.ts'], resolve)).toEqual([]);
});
