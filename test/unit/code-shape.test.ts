import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { builtinModules } from 'module';
import * as path from 'path';
import * as ts from 'typescript';

/**
 * The code's shape (docs/design.md, "Layout"): imports run one way and every file stays small.
 *
 * - No import circle among the TypeScript of lib/, lambda/ and bin/. Type-only imports count: a circle of types is
 *   still two files that cannot be read apart. TypeScript's own pre-processor reads the imports and its module
 *   resolution resolves them, so every form is seen: import, import type, export ... from, import().
 * - Layers: lambda/, the handlers and the contracts they share with the construct, imports nothing from lib/ or bin/;
 *   lib/ imports nothing from bin/.
 * - No file in lib/, lambda/ or bin/ is over MAX_LINES, whether TypeScript, the JavaScript launcher, shell or Python,
 *   except those named in EXCEPTIONS with the reason. An exception that does not apply fails too, so the list cannot go
 *   stale.
 * - The tests are held to the same size: no file under test/ over MAX_LINES.
 */
const ROOT = path.join(__dirname, '..', '..');
const DIRS = ['lib', 'lambda', 'bin'];
const MAX_LINES = 400;
/** File, relative to the repository -> why it may be longer than MAX_LINES. */
const EXCEPTIONS: Record<string, string> = {};

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'bundle') out.push(...filesUnder(rel));
    } else {
      out.push(rel);
    }
  }
  return out;
}

const FILES = DIRS.flatMap(filesUnder).filter((f) => /\.(ts|mjs|sh|py)$/.test(f)).sort();
const TS_FILES = FILES.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));

/** What one TypeScript file imports: files of this repository, relative to it, and packages by name. */
interface Imports {
  readonly files: string[];
  readonly packages: string[];
  /** Files only a `require` inside a function loads: when it is called, after every module has loaded. */
  readonly lazy: string[];
}

/** The specifiers of the `require` calls inside a function of `source`. */
function lazyRequires(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node, inFunction: boolean): void => {
    if (inFunction && ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' &&
      node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    node.forEachChild((child) => visit(child, inFunction || ts.isFunctionLike(node)));
  };
  visit(source, false);
  return found;
}

/** Each TypeScript file's imports, read once by TypeScript's pre-processor and resolved by its module resolution. */
function readImports(): Map<string, Imports> {
  const options: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
  const imports = new Map<string, Imports>();
  for (const file of TS_FILES) {
    const abs = path.join(ROOT, file);
    const text = fs.readFileSync(abs, 'utf8');
    const names = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
    const resolve = (name: string): string => {
      const resolved = ts.resolveModuleName(name, abs, options, ts.sys).resolvedModule;
      if (!resolved) throw new Error(`${file}: cannot resolve ${name}`);
      return path.relative(ROOT, resolved.resolvedFileName).split(path.sep).join('/');
    };
    const files = names.filter((name) => name.startsWith('.')).map(resolve);
    const source = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest);
    // A file both imported and lazily required is loaded by the import.
    const declared = new Set(source.statements.flatMap((st) =>
      (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier ? [(st.moduleSpecifier as ts.StringLiteral).text] : []));
    const lazy = lazyRequires(source).filter((name) => name.startsWith('.') && !declared.has(name)).map(resolve);
    const packages = names
      .filter((name) => !name.startsWith('.'))
      .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]));
    imports.set(file, { files: [...new Set(files)].sort(), packages: [...new Set(packages)].sort(), lazy: [...new Set(lazy)].sort() });
  }
  return imports;
}

/**
 * The packages the files reachable from lib/ import, each with the first file that imports it. That is the package's
 * compiled code: tsconfig.build.json compiles lib/ and what it imports, lambda/'s contracts among them.
 */
function packagesOfTheLibrary(imports: Map<string, Imports>): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = TS_FILES.filter((f) => f.startsWith('lib/'));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { files, packages: named } = imports.get(file)!;
    queue.push(...files);
    for (const name of named) if (!packages.has(name)) packages.set(name, file);
  }
  return packages;
}

/** The strongly connected components of more than one file, or of one file importing itself, by Tarjan's algorithm. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const lineCount = (file: string): number => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;

describe('code shape', () => {
  const imports = readImports();
  const graph = new Map([...imports].map(([file, { files }]) => [file, files]));

  test('the files are found (the walk and the import reader see the tree)', () => {
    expect(TS_FILES).toContain('lib/storage-server.ts');
    expect(FILES.some((f) => f.endsWith('.sh'))).toBe(true);
    expect(graph.get('bin/storage-server.ts')).toContain('lib/storage-server-stack.ts');
  });

  test('no import circle (a lazy require orders no load, so it draws no edge)', () => {
    const loadGraph = new Map([...imports].map(([file, { files, lazy }]) => [file, files.filter((f) => !lazy.includes(f))]));
    expect(circles(loadGraph)).toEqual([]);
    // The planner's descriptors load their plugins lazily; an edge that would close a circle is one of them.
    expect([...imports.values()].some(({ lazy }) => lazy.includes('lib/backends/fsx-openzfs.ts'))).toBe(true);
  });

  test('the circle finder finds a circle (a check that cannot fail is no check)', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']], ['e', ['e']]]);
    expect(circles(g)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  test('lambda/ imports nothing from lib/ or bin/; lib/ nothing from bin/', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((t) => (file.startsWith('lambda/') && /^(lib|bin)\//.test(t)) || (file.startsWith('lib/') && t.startsWith('bin/')))
        .map((t) => `${file} -> ${t}`));
    expect(upward).toEqual([]);
  });

  test('the library imports only Node built-ins and the packages package.json gives it (never the handlers\' AWS SDK)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
    const packages = packagesOfTheLibrary(imports);
    expect(packages.has('aws-cdk-lib')).toBe(true);
    const stray = [...packages]
      .filter(([name]) => !allowed.has(name) && !builtinModules.includes(name.replace(/^node:/, '')))
      .map(([name, file]) => `${file} -> ${name}`);
    expect(stray).toEqual([]);
  });

  test(`no file in ${DIRS.join('/, ')}/ over ${MAX_LINES} lines but the named exceptions`, () => {
    const over = FILES.filter((f) => lineCount(f) > MAX_LINES && !(f in EXCEPTIONS)).map((f) => `${f}: ${lineCount(f)}`);
    expect(over).toEqual([]);
  });

  test('every exception is still over the limit (a stale exception is removed)', () => {
    const stale = Object.keys(EXCEPTIONS).filter((f) => !FILES.includes(f) || lineCount(f) <= MAX_LINES);
    expect(stale).toEqual([]);
  });
});

describe('test size', () => {
  // The tracked test sources, snapshots and JSON fixtures aside, as git lists them, so no cache or VM image is walked.
  const tests = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'test'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n').filter((f) => /\.(ts|sh|py)$/.test(f) && !f.includes('__snapshots__') && fs.existsSync(path.join(ROOT, f)));

  test(`no test file over ${MAX_LINES} lines`, () => {
    expect(tests).toContain('test/unit/code-shape.test.ts');
    const over = tests.filter((f) => lineCount(f) > MAX_LINES).map((f) => `${f}: ${lineCount(f)}`);
    expect(over).toEqual([]);
  });
});
