/**
 * What the published package may hold and must hold. `npm run pack:check`, test/support/pack-check.ts, applies it to
 * `npm pack --dry-run --json`'s file list, and the consumer test, test/consumer/run.ts, to the real tarball.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * The only files the package may hold, as globs, where `*` stays within one path segment and `**` crosses segments.
 * They are the compiled library and its declarations, the shell scripts it renders and their Python parts, the compiled
 * Lambda contracts the library imports, each Lambda's prebuilt bundle and source map, jsii's assembly (`.jsii`, which
 * jsii-pacmak and the Python runtime read) and the documents. The contracts
 * are `dist/lambda/<name>/*.js`, the backend descriptors of the update guard and the registration in `backends/`, and
 * the registration's rules for existing storage in `existing/`.
 */
export const ALLOWED_FILES: readonly string[] = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  '.jsii',
  'dist/lib/**/*.js',
  'dist/lib/**/*.d.ts',
  'dist/lib/scripts/*.sh',
  'dist/lib/scripts/*.py',
  'dist/lambda/*/*.js',
  'dist/lambda/*/*.d.ts',
  'dist/lambda/*/backends/*.js',
  'dist/lambda/*/backends/*.d.ts',
  'dist/lambda/*/existing/*.js',
  'dist/lambda/*/existing/*.d.ts',
  'dist/lambda/*/bundle/index.js',
  'dist/lambda/*/bundle/index.js.map',
];

/** The subset of package.json the checks read. */
export interface PackageManifest {
  /** Entry point, e.g. `dist/lib/index.js`. */
  readonly main: string;
  /** Declarations of the entry point. */
  readonly types: string;
  /** Conditional exports: `"."` and `"./package.json"`, each a path or a map of conditions to paths. */
  readonly exports: Record<string, string | Record<string, string>>;
}

/**
 * The files the package must hold, derived from the repository so that a new module, script or Lambda is required
 * without editing a list: package.json's entry points and export targets, the compiled JavaScript and declarations of
 * every `lib/**\/*.ts`, every file of `lib/scripts`, the bundle and source map of every `lambda/<name>/index.ts`, jsii's
 * assembly and the documents.
 */
export function requiredFiles(root: string, pkg: PackageManifest): string[] {
  const exportTargets = Object.values(pkg.exports).flatMap((t) =>
    typeof t === 'string' ? [t] : Object.values(t),
  );
  const libModules = filesUnder(path.join(root, 'lib'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .flatMap((f) => [`dist/lib/${f.replace(/\.ts$/, '.js')}`, `dist/lib/${f.replace(/\.ts$/, '.d.ts')}`]);
  const scripts = filesUnder(path.join(root, 'lib', 'scripts')).map((f) => `dist/lib/scripts/${f}`);
  const bundles = fs
    .readdirSync(path.join(root, 'lambda'))
    .filter((d) => fs.existsSync(path.join(root, 'lambda', d, 'index.ts')))
    .flatMap((d) => [`dist/lambda/${d}/bundle/index.js`, `dist/lambda/${d}/bundle/index.js.map`]);
  const documents = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', '.jsii'];
  const all = [...documents, pkg.main, pkg.types, ...exportTargets, ...libModules, ...scripts, ...bundles];
  return [...new Set(all.map((f) => f.replace(/^\.\//, '')))];
}

/**
 * What is wrong with a package's file list: one message per file outside `allowed` and one per `required`
 * file missing, each naming the file; empty when the list is right.
 */
export function packProblems(
  files: readonly string[],
  required: readonly string[],
  allowed: readonly string[] = ALLOWED_FILES,
): string[] {
  const patterns = allowed.map(globPattern);
  const present = new Set(files);
  return [
    ...files.filter((f) => !patterns.some((p) => p.test(f))).map((f) => `not allowed in the package: ${f}`),
    ...required.filter((f) => !present.has(f)).map((f) => `missing from the package: ${f}`),
  ];
}

/**
 * A glob as an anchored RegExp: `**\/` stands for any directories, none included, and `*` for any characters but `/`.
 */
export function globPattern(glob: string): RegExp {
  const source = glob
    .split(/(\*\*\/|\*)/)
    .map((part) =>
      part === '**/' ? '(?:[^/]+/)*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

/** Every file under `dir`, as paths relative to it with `/` separators; none when `dir` does not exist. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name],
    );
}
