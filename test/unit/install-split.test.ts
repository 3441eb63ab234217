/**
 * `npm ci` installs what a synth and a deploy need, and the test tools live in test/package.json (CONTRIBUTING.md,
 * "Setup"): the root's packages are those the app's own code imports, and the few it runs rather than imports.
 */
import * as fs from 'fs';
import { builtinModules } from 'module';
import * as path from 'path';
import { REPO_ROOT } from '../support/virtual-program';

/** Packages the app runs or type-checks with rather than imports: the CDK CLI, `npm run plan`'s loader, types. */
const RUN_NOT_IMPORTED = ['aws-cdk', 'esbuild-register', '@types/node', '@types/aws-lambda'];

const manifest = (file: string): Record<string, string> => {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as { devDependencies?: Record<string, string> };
  return pkg.devDependencies ?? {};
};

/** The packages the files under `dirs` import or require, by package name. */
function importedPackages(dirs: string[]): Set<string> {
  const found = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'bundle', 'scripts'].includes(entry.name)) visit(file);
      } else if (/\.(ts|mjs)$/.test(entry.name)) {
        const text = fs.readFileSync(file, 'utf8');
        // A specifier by npm's package name grammar, as import, export or require name one.
        for (const m of text.matchAll(/(?:from\s+|require\(|import\()\s*'((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]*)?)'/g)) {
          const spec = m[1];
          if (spec.startsWith('node:')) continue;
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
          found.add(name);
        }
      }
    }
  };
  dirs.forEach((d) => visit(path.join(REPO_ROOT, d)));
  return found;
}

const BUILTINS = new Set(builtinModules);

/** Each `npx <command>` in the repository's shell scripts and CI, as file and command. */
function npxCommands(): { file: string; command: string }[] {
  const found: { file: string; command: string }[] = [];
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, rel), { withFileTypes: true })) {
      const file = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', '.cache'].includes(entry.name)) visit(file);
      } else if (entry.name.endsWith('.sh') || file === path.join('.ci', 'run')) {
        const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
        for (const m of text.matchAll(/\bnpx\s+(?:--\S+\s+)*([\w@./-]+)/g)) found.push({ file, command: m[1] });
      }
    }
  };
  ['bin', 'lib', 'lambda', 'test', '.ci'].forEach(visit);
  return found;
}

describe('the root installs only what a synth and a deploy need', () => {
  const root = manifest('package.json');
  const imported = [...importedPackages(['bin', 'lib', 'lambda'])].filter((p) => !BUILTINS.has(p));

  test('every package the app imports is the root\'s, so that npm ci alone synthesizes', () => {
    // The scan sees the imports: aws-cdk-lib is the app's first.
    expect(imported).toContain('aws-cdk-lib');
    // `aws-lambda` is a type-only import, served by @types/aws-lambda.
    expect(imported.filter((p) => root[p] === undefined && root[`@types/${p}`] === undefined)).toEqual([]);
  });

  test('every root package is imported by the app or run by it; the tools are test/package.json\'s', () => {
    const unused = Object.keys(root).filter((p) => !imported.includes(p) && !RUN_NOT_IMPORTED.includes(p)
      && !imported.includes(p.replace(/^@types\//, '')));
    expect(unused).toEqual([]);
    const tools = manifest('test/package.json');
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(['jest', 'ts-jest', 'typescript', 'jsii', 'eslint']));
    // A script's npx finds the root's binaries only: a tool is run through test/support/tools.sh, on its PATH.
    const npx = npxCommands();
    expect(npx.filter((n) => root[n.command] === undefined)).toEqual([]);
    // One version of a package both list, so that the type check and the app see the same one.
    expect(Object.keys(tools).filter((p) => root[p] !== undefined && root[p] !== tools[p])).toEqual([]);
  });
});
