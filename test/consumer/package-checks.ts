// The consumer test's checks of the tarball and its install, for test/consumer/run.ts.
import * as fs from 'fs';
import { builtinModules } from 'module';
import * as path from 'path';
import { packProblems, requiredFiles } from '../support/pack-files';
import { REPO_ROOT, installedTarball, tarballName } from '../support/readme';
import { PackageJson, appDir, assert, check, installed, pkg, run, state, work } from './harness';
import { filesUnder } from './template';

/** Packs the package, checks the tarball, installs it in a fresh app and loads its Lambda bundles bare. */
export function packageChecks(): void {
  check(
    'npm pack builds and packs the package',
    () => {
      const packDir = path.join(work, 'pack');
      fs.mkdirSync(packDir);
      run('npm', ['pack', '--pack-destination', packDir, '--loglevel', 'error'], REPO_ROOT);
      const made = fs.readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
      assert(made.length === 1, `expected one tarball in ${packDir}, found ${made.join(', ') || 'none'}`);
      assert(made[0] === tarballName(), `npm pack made ${made[0]}; the README's install commands name ${tarballName()}`);
      state.tarball = path.join(packDir, made[0]);
      state.entries = run('tar', ['-tzf', state.tarball], work)
        .split('\n')
        .filter((l) => l && !l.endsWith('/'))
        .map((l) => l.replace(/^package\//, ''));
    },
    true,
  );

  check('the tarball holds only allowlisted files and every required one (entry points, declarations, scripts, bundles)', () => {
    const problems = packProblems(state.entries, requiredFiles(REPO_ROOT, pkg));
    assert(problems.length === 0, problems.join('\n'));
  });

  check(
    "a fresh CDK app installs the tarball as the README's `npm install <path>/<tarball>` does",
    () => {
      fs.mkdirSync(appDir);
      const pinned = (dep: string): string => {
        const version = pkg.devDependencies?.[dep];
        assert(version, `package.json pins no ${dep} in devDependencies`);
        return version;
      };
      const manifest = {
        name: 'storage-server-consumer',
        private: true,
        dependencies: { 'aws-cdk-lib': pinned('aws-cdk-lib'), constructs: pinned('constructs') },
      };
      fs.writeFileSync(path.join(appDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      // The README's command names the tarball by a path of its own, where its clone is; here it is in packDir.
      const readmeTarball = installedTarball(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
      assert(path.basename(readmeTarball) === path.basename(state.tarball), `the README installs ${readmeTarball}`);
      // Only quieter and offline-first: the install itself is the README's.
      const quiet = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'];
      run('npm', ['install', path.relative(appDir, state.tarball), ...quiet], appDir);
      assert(
        fs.existsSync(path.join(installed, 'package.json')),
        `${pkg.name} is not in the app's node_modules`,
      );
      const saved = (JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as PackageJson)
        .dependencies?.[pkg.name];
      assert(saved?.startsWith('file:') && saved.endsWith(tarballName()), `the app's dependency on ${pkg.name} is ${saved}`);
    },
    true,
  );

  check(
    "none of the repository's devDependencies is installed in the app (no esbuild, AWS SDK, TypeScript)",
    () => {
      const tree = JSON.parse(run('npm', ['ls', '--all', '--json'], appDir)) as {
        dependencies?: Record<string, unknown>;
      };
      const names = new Set<string>();
      const walk = (deps: Record<string, unknown> | undefined): void => {
        for (const [name, node] of Object.entries(deps ?? {})) {
          names.add(name);
          walk((node as { dependencies?: Record<string, unknown> }).dependencies);
        }
      };
      walk(tree.dependencies);
      const appDeps = ['aws-cdk-lib', 'constructs'];
      const leaked = Object.keys(pkg.devDependencies ?? {}).filter((d) => !appDeps.includes(d) && names.has(d));
      assert(leaked.length === 0, `installed in the consumer app: ${leaked.join(', ')}`);
      const sdk = [...names].filter((n) => n.startsWith('@aws-sdk/'));
      assert(sdk.length === 0, `AWS SDK packages installed in the consumer app: ${sdk.join(', ')}`);
    },
  );

  check('the packed code imports only Node built-ins, its dependencies and its peer dependencies', () => {
    const allowed = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
    ]);
    const builtins = new Set(builtinModules);
    const problems: string[] = [];
    for (const file of filesUnder(installed).filter((f) => /\.(js|d\.ts)$/.test(f))) {
      // The Lambda bundles are checked by loading them, below: the SDK in them has optional requires in try/catch.
      if (/^dist\/lambda\/[^/]+\/bundle\//.test(file)) continue;
      const text = fs.readFileSync(path.join(installed, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:require\(|from |import\()\s*["']([^"'\s]+)["']/g)].map(
        (m) => m[1],
      );
      for (const spec of specifiers) {
        if (spec.startsWith('.')) {
          const target = path.join(path.dirname(path.join(installed, file)), spec);
          const exists = ['', '.js', '.d.ts', '/index.js', '/index.d.ts'].some((ext) =>
            fs.existsSync(target + ext),
          );
          if (!exists) problems.push(`${file}: ${spec} is not in the package`);
          continue;
        }
        const bare = spec.replace(/^node:/, '');
        const root = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0];
        if (builtins.has(bare) || builtins.has(root)) continue;
        if (!allowed.has(root)) problems.push(`${file}: imports ${spec}`);
      }
    }
    assert(problems.length === 0, problems.join('\n'));
  });

  check('each Lambda bundle (every folder of lambda/ with an index.ts) loads in a bare Node process (no node_modules) and exports its handler', () => {
    const lambdaDir = path.join(__dirname, '..', '..', 'lambda');
    const handlers = fs.readdirSync(lambdaDir).filter((d) => fs.existsSync(path.join(lambdaDir, d, 'index.ts')));
    assert(handlers.length >= 3, `lambda/ holds ${handlers.length} handlers: ${handlers.join(', ')}`);
    for (const name of handlers) {
      // A directory with no node_modules above it: like Lambda, only Node's built-ins and the bundle itself.
      const sandbox = path.join(work, `lambda-${name}`);
      fs.mkdirSync(sandbox);
      for (const f of ['index.js', 'index.js.map']) {
        fs.copyFileSync(path.join(installed, 'dist', 'lambda', name, 'bundle', f), path.join(sandbox, f));
      }
      const reachable = [sandbox, ...ancestors(sandbox)].filter((d) =>
        fs.existsSync(path.join(d, 'node_modules')),
      );
      assert(reachable.length === 0, `node_modules reachable from the sandbox: ${reachable.join(', ')}`);
      const script = "process.stdout.write(typeof require('./index.js').handler)";
      const out = run(process.execPath, ['--enable-source-maps', '-e', script], sandbox);
      assert(out === 'function', `the ${name} bundle's handler export is ${out}`);
    }
  });
}

function ancestors(dir: string): string[] {
  const parent = path.dirname(dir);
  return parent === dir ? [] : [parent, ...ancestors(parent)];
}
