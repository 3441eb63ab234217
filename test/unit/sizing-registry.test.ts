import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { BACKENDS } from '../../lambda/register/contract';
import { BACKEND_SIZING, SEARCH_ORDER } from '../../lib/sizing/registry';

/**
 * Backends as plugins, the planner's part, as CONTRIBUTING.md's "Adding a backend" describes. The shared planner asks
 * each backend through lib/sizing/registry.ts, so that a backend's planning lives in its own folder and the shared
 * files name it nowhere. And the registry stays pure, so that `npm run plan` never loads the CDK.
 */
const ROOT = path.join(__dirname, '..', '..');

/** The backends whose plans stay in lib/sizing: EC2's, which the capacity rule of `auto` chooses between. */
const EC2_BACKENDS: readonly string[] = ['ebs', 'instance-store'];
/** Every other backend plans in its own folder, its descriptor in the registry. */
const FOLDER_BACKENDS = BACKENDS.filter((b) => !EC2_BACKENDS.includes(b));
/** The words of their identifiers: `fsx-openzfs` -> `openzfs`, `fsx-lustre` -> `lustre`. */
const FOLDER_WORDS = FOLDER_BACKENDS.map((b) => b.replace(/^fsx-/, ''));

/** The shared planner: every file of lib/sizing and the CLI's. */
const SHARED = [
  ...fs.readdirSync(path.join(ROOT, 'lib', 'sizing')).filter((f) => f.endsWith('.ts')).map((f) => `lib/sizing/${f}`),
  'bin/plan.ts',
  'bin/client-options.ts',
].sort();

/** Shared files that may import from lib/backends/, or name a backend's own identifiers, and why. */
const EXCEPTIONS: Record<string, string> = {
  'lib/sizing/registry.ts': 'the registry: one line per backend',
  'lib/sizing/plan-types.ts': "the request and the plan carry each FSx backend's options and file system (public API)",
  'lib/sizing/index.ts': "passes on FSx for Lustre's plan type and its client ceiling, which the EC2 client's planner reads",
  'lib/sizing/client-ceiling.ts': "one file's ceiling on FSx for Lustre reads its capacity steps (the client ceiling is not on the descriptor)",
};

/**
 * What a file imports, as module specifiers, its string literals and its identifiers, as TypeScript's parser reads
 * them.
 */
function read(file: string): { imports: string[]; literals: string[]; identifiers: string[] } {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const imports: string[] = [];
  const literals: string[] = [];
  const identifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      imports.push(path.posix.join(path.posix.dirname(file), node.moduleSpecifier.text));
    } else if (ts.isStringLiteralLike(node)) {
      literals.push(node.text);
    } else if (ts.isIdentifier(node)) {
      identifiers.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { imports, literals, identifiers };
}

/**
 * The repository files `file` imports for their values, resolved, and the packages it so imports by name. Type-only
 * imports load nothing, and a `require` in a function loads only when called: the run below sees what does load.
 */
function importsOf(file: string): { files: string[]; packages: string[] } {
  const abs = path.join(ROOT, file);
  const source = ts.createSourceFile(abs, fs.readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest);
  const names = source.statements.flatMap((s) => {
    if (ts.isImportDeclaration(s) && !s.importClause?.isTypeOnly) return [(s.moduleSpecifier as ts.StringLiteral).text];
    if (ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined && !s.isTypeOnly) return [(s.moduleSpecifier as ts.StringLiteral).text];
    return [];
  });
  const options: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };
  return {
    files: names.filter((n) => n.startsWith('.')).map((n) => {
      const resolved = ts.resolveModuleName(n, abs, options, ts.sys).resolvedModule;
      if (!resolved) throw new Error(`${file}: cannot resolve ${n}`);
      return path.relative(ROOT, resolved.resolvedFileName).split(path.sep).join('/');
    }),
    packages: names.filter((n) => !n.startsWith('.')).map((n) => (n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0])),
  };
}

/** Each package reachable from `entry` through the repository's imports, with the first file that imports it. */
function packagesReachable(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const { files, packages: named } = importsOf(file);
    queue.push(...files);
    for (const name of named) if (!packages.has(name)) packages.set(name, file);
  }
  return packages;
}

describe('the sizing registry', () => {
  test('every backend the records know has a descriptor, and the search weighs each once', () => {
    expect(Object.keys(BACKEND_SIZING).sort()).toEqual([...BACKENDS].sort());
    expect([...SEARCH_ORDER].sort()).toEqual([...BACKENDS].sort());
  });

  test('the shared planner files are found, and the folder backends are the FSx ones', () => {
    expect(SHARED).toEqual(expect.arrayContaining(['lib/sizing/cheapest-plan.ts', 'lib/sizing/plan-table.ts', 'bin/plan.ts']));
    expect(FOLDER_BACKENDS).toEqual(['fsx-lustre', 'fsx-openzfs']);
  });

  test.each(SHARED.filter((f) => !(f in EXCEPTIONS)))('%s imports no backend folder: it asks the registry', (file) => {
    // The plugin's interface is every backend's, which the descriptor's type names.
    expect(read(file).imports.filter((i) => i.startsWith('lib/backends/') && i !== 'lib/backends/plugin')).toEqual([]);
  });

  test.each(SHARED.filter((f) => f !== 'lib/sizing/registry.ts'))('%s names no folder backend in code', (file) => {
    const { literals, identifiers } = read(file);
    expect(literals.filter((l) => (FOLDER_BACKENDS as readonly string[]).includes(l))).toEqual([]);
    if (file in EXCEPTIONS) return;
    const named = identifiers.filter((id) => FOLDER_WORDS.some((w) => id.toLowerCase().includes(w)));
    expect([...new Set(named)]).toEqual([]);
  });

  test('every exception still imports a backend folder or names a folder backend (a stale exception is removed)', () => {
    const needed = (f: string) => read(f).imports.some((i) => i.startsWith('lib/backends/')) ||
      read(f).identifiers.some((id) => FOLDER_WORDS.some((w) => id.toLowerCase().includes(w)));
    const stale = Object.keys(EXCEPTIONS).filter((f) => !needed(f));
    expect(stale).toEqual([]);
  });

  test('npm run plan loads no CDK: nothing bin/plan.ts reaches imports aws-cdk-lib or constructs', () => {
    const packages = packagesReachable('bin/plan.ts');
    expect([...packages].filter(([name]) => name === 'aws-cdk-lib' || name === 'constructs').map(([n, f]) => `${f} -> ${n}`)).toEqual([]);
    // The walk reaches each backend's descriptor, so the check covers them.
    const reached = (f: string) => importsOf('lib/sizing/registry.ts').files.includes(f);
    expect(['lib/backends/fsx/sizing.ts', 'lib/backends/openzfs/sizing.ts'].filter(reached)).toHaveLength(2);
  });

  test('npm run plan loads no CDK when it runs: a plan and a comparison load neither package', () => {
    const script = [
      "const { main } = require('./bin/plan.ts');",
      'const quiet = { out: () => undefined, err: () => undefined };',
      "const codes = [main(['10'], quiet), main(['10', '--throughput', '500'], quiet)];",
      "const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](aws-cdk-lib|constructs)[\\\\/]/.test(f));",
      'process.stdout.write(JSON.stringify({ codes, loaded: loaded.length, descriptors: Object.keys(require.cache).filter((f) => f.endsWith("sizing.ts")).length }));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--require', 'esbuild-register', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout);
    expect(result).toEqual({ codes: [0, 0], loaded: 0, descriptors: expect.any(Number) });
    // The plan ran through every backend's descriptor, so each one's lazy plugin was there not to be called.
    expect(result.descriptors).toBeGreaterThanOrEqual(3);
  });
});
