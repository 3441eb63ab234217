/**
 * Consumer test (`npm run test:consumer`): uses the package the way another CDK app would.
 *
 * 1. `npm pack` (its prepack runs `npm run build`) makes the tarball; its file list is checked against the
 *    package's allowlist and required files (test/support/pack-files.ts, as `npm run pack:check` does).
 * 2. A fresh CDK app in a temporary directory outside the repository, depending on the aws-cdk-lib and constructs
 *    versions this repository pins, installs the tarball the way the README's install commands do:
 *    `npm install <path>/<tarball>` (the package is not on a registry).
 * 3. The app is the README's "Use as a library" example: compiled with `tsc` against the installed package's
 *    declarations, synthesized with the `cdk` CLI, and its template checked.
 * 4. The registration Lambda of the package is compared with the one the sources build (esbuild's JS API, bin/handler-bundle.ts).
 *
 * Prints one line per check and a closing `N passed, M failed`; exits 1 if any check failed. A check that
 * cannot run because an earlier step failed counts as failed. KEEP_CONSUMER_DIR=1 keeps the temporary
 * directory for inspection.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { builtinModules } from 'module';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { fstabLine } from '../../lambda/register/contract';
import { useCachedHandlerBundles } from '../../bin/handler-bundle';
import { StorageServer } from '../../lib/storage-server';
import { PackageManifest, packProblems, requiredFiles } from '../support/pack-files';
import { REPO_ROOT, installedTarball, libraryExample, tarballName } from '../support/readme';
import {
  CfnResource,
  CfnTemplate,
  assetDir,
  filesUnder,
  flatten,
  resourcesOfType,
  stackTemplate,
  withoutAssetLocations,
} from './template';

interface PackageJson extends PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** What the planner's capacity rule gives the example's 5 TiB (docs/design.md, section 3): one st1 volume on this type. */
const SERVER_TYPE = 'm4.2xlarge';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-server-consumer-'));
const appDir = path.join(work, 'app');
const results: { name: string; error?: string }[] = [];
let blockedBy: string | undefined;

/** Runs one check; a thrown error fails it. A failed `step` blocks every later check. */
function check(name: string, fn: () => void, step = false): void {
  const started = Date.now();
  let error: string | undefined;
  if (blockedBy) {
    error = `not run: ${blockedBy} failed`;
  } else {
    try {
      fn();
    } catch (e) {
      error = (e as Error).message;
      if (step) blockedBy = `"${name}"`;
    }
  }
  results.push({ name, error });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `${error ? 'FAIL' : 'PASS'} ${name} (${seconds} s)${error ? `\n     ${error.split('\n').join('\n     ')}` : ''}`,
  );
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/**
 * Runs a command; throws with its output when it exits non-zero. What `npm run` adds to the environment about
 * this repository (its package, its lifecycle, its root as local prefix) is not passed on: an npm started in
 * the app's directory would otherwise work on this repository. The user's npm settings are kept.
 */
function run(command: string, args: string[], cwd: string): string {
  const ownedByNpmRun = /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_local_prefix$)/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ownedByNpmRun.test(k)));
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${path.basename(command)} ${args.join(' ')} exited ${r.status ?? r.signal}:\n${output}`);
  }
  return r.stdout;
}

const bin = (name: string, ...rel: string[]): string => path.join(REPO_ROOT, 'node_modules', name, ...rel);
const tsc = bin('typescript', 'bin', 'tsc');
const cdk = bin('aws-cdk', 'bin', 'cdk');
const installed = path.join(appDir, 'node_modules', pkg.name);

let tarball = '';
let entries: string[] = [];
let template: CfnTemplate = { Resources: {} };
let stackName = '';

check(
  'npm pack builds and packs the package',
  () => {
    const packDir = path.join(work, 'pack');
    fs.mkdirSync(packDir);
    run('npm', ['pack', '--pack-destination', packDir, '--loglevel', 'error'], REPO_ROOT);
    const made = fs.readdirSync(packDir).filter((f) => f.endsWith('.tgz'));
    assert(made.length === 1, `expected one tarball in ${packDir}, found ${made.join(', ') || 'none'}`);
    assert(made[0] === tarballName(), `npm pack made ${made[0]}; the README's install commands name ${tarballName()}`);
    tarball = path.join(packDir, made[0]);
    entries = run('tar', ['-tzf', tarball], work)
      .split('\n')
      .filter((l) => l && !l.endsWith('/'))
      .map((l) => l.replace(/^package\//, ''));
  },
  true,
);

check('the tarball holds only allowlisted files and every required one (entry points, declarations, scripts, bundles)', () => {
  const problems = packProblems(entries, requiredFiles(REPO_ROOT, pkg));
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
    // The README's command names the tarball by a path of its own (where its clone is); here it is in packDir.
    const readmeTarball = installedTarball(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
    assert(path.basename(readmeTarball) === path.basename(tarball), `the README installs ${readmeTarball}`);
    // Only quieter and offline-first: the install itself is the README's.
    const quiet = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'];
    run('npm', ['install', path.relative(appDir, tarball), ...quiet], appDir);
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
    // The Lambda bundles are checked by loading them (below): the SDK in them has optional requires in try/catch.
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

check(
  "the README's library example compiles against the installed package's declarations",
  () => {
    const example = libraryExample(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
    fs.mkdirSync(path.join(appDir, 'bin'));
    fs.writeFileSync(path.join(appDir, 'bin', 'app.ts'), `${example.code}\n`);
    // Strict, and without skipLibCheck: the package's .d.ts files are checked too. No @types/node: the
    // declarations must not need it. ESNext.Disposable: aws-cdk-lib's own declarations use it.
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        lib: ['ES2022', 'ESNext.Disposable'],
        strict: true,
        skipLibCheck: false,
        types: [],
      },
      include: ['bin'],
    };
    fs.writeFileSync(path.join(appDir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
    const files = run(process.execPath, [tsc, '-p', '.', '--listFiles'], appDir).split('\n');
    const types = path.join(installed, pkg.types);
    assert(files.includes(types), `the example did not resolve ${pkg.name} to ${types}`);
  },
  true,
);

check(
  'cdk synth synthesizes the app',
  () => {
    const args = ['synth', '--app', 'node bin/app.js', '--output', 'cdk.out', '--quiet', '--no-notices'];
    run(process.execPath, [cdk, ...args, '--no-version-reporting'], appDir);
    ({ stackName, template } = stackTemplate(path.join(appDir, 'cdk.out')));
  },
  true,
);

check(`the server is the planned ${SERVER_TYPE} with one encrypted 5120 GiB st1 volume it attaches itself`, () => {
  const servers = Object.entries(resourcesOfType(template, 'AWS::EC2::Instance')).filter(
    ([, r]) => r.Properties.InstanceType === SERVER_TYPE,
  );
  assert(servers.length === 1, `expected one ${SERVER_TYPE} instance, found ${servers.length}`);
  const volumes = Object.entries(resourcesOfType(template, 'AWS::EC2::Volume'));
  assert(volumes.length === 1, `expected one data volume, found ${volumes.length}`);
  const [volumeId, volume] = volumes[0];
  const p = volume.Properties;
  assert(
    p.VolumeType === 'st1' && p.Size === 5120 && p.Encrypted === true,
    `data volume: ${JSON.stringify(p)}`,
  );
  // Kept on update and deletion; deleted only when the first creation rolls back (blank then).
  assert(volume.DeletionPolicy === 'RetainExceptOnCreate', `data volume DeletionPolicy is ${volume.DeletionPolicy}`);
  // No VolumeAttachment (a replacement instance would collide with it): the server's apply step attaches the
  // volumes it is told about, tagged as this server's.
  const attachments = Object.keys(resourcesOfType(template, 'AWS::EC2::VolumeAttachment'));
  assert(attachments.length === 0, `unexpected VolumeAttachment resources: ${attachments.join(', ')}`);
  const apply = Object.values(resourcesOfType(template, 'AWS::SSM::Document'))
    .map((d) => flatten(d.Properties.Content))
    .find((c) => c.includes('applyStorageSettings'));
  assert(apply?.includes(`STORAGE_EBS_VOLUMES='{Ref:${volumeId}}:/dev/sdf:5120'`), `the apply step does not name ${volumeId}`);
  const tags = flatten(p.Tags);
  assert(tags.includes('storage-server:id'), `volume ${volumeId} is not tagged storage-server:id: ${tags}`);
});

check(
  "every other security group of the app (compute node's, login nodes') may reach TCP 2049 on the server's",
  () => {
    // Clients reach the server at its stable interface, which carries the server's group (the instance too).
    const serverGroups = (storageInterface(template).resource.Properties.GroupSet as unknown[]).map(flatten);
    const instanceGroups = (storageInstance(template).resource.Properties.SecurityGroupIds as unknown[]).map(flatten);
    assert(JSON.stringify(instanceGroups) === JSON.stringify(serverGroups), `instance groups ${instanceGroups} differ from the interface's ${serverGroups}`);
    const others = Object.keys(resourcesOfType(template, 'AWS::EC2::SecurityGroup'))
      .map((id) => `{GetAtt:${id}.GroupId}`)
      .filter((g) => !serverGroups.includes(g));
    assert(
      others.length >= 2,
      `expected the compute node's and the login nodes' security groups, found ${others.join(', ')}`,
    );
    const rules = Object.values(resourcesOfType(template, 'AWS::EC2::SecurityGroupIngress')).map(
      (r) => r.Properties,
    );
    const admitted = (group: string): boolean =>
      rules.some(
        (r) =>
          r.IpProtocol === 'tcp' &&
          r.FromPort === 2049 &&
          r.ToPort === 2049 &&
          serverGroups.includes(flatten(r.GroupId)) &&
          flatten(r.SourceSecurityGroupId) === group,
      );
    const missing = others.filter((g) => !admitted(g));
    assert(missing.length === 0, `no TCP 2049 rule from ${missing.join(', ')} to ${serverGroups.join(', ')}`);
  },
);

check("mountOn: the compute node's user data mounts the export at boot, once the export is live", () => {
  const server = storageInstance(template);
  const compute = Object.entries(resourcesOfType(template, 'AWS::EC2::Instance')).filter(
    ([id]) => id !== server.id,
  );
  assert(compute.length === 1, `expected one compute instance, found ${compute.length}`);
  const [computeId, computeInstance] = compute[0];
  const registration = Object.values(resourcesOfType(template, 'Custom::StorageServerRegistration'))[0]
    ?.Properties;
  assert(registration, 'no registration custom resource');
  const [exportPath, mountPoint, options] = [
    registration.ExportPath,
    registration.MountPoint,
    registration.MountOptions,
  ];
  const tag = `${String(registration.ClusterName)}/${String(registration.ServerName)}`;
  const line = fstabLine(
    `{GetAtt:${storageInterface(template).id}.PrimaryPrivateIpAddress}`,
    String(exportPath),
    String(mountPoint),
    String(options),
  );
  const userData = flatten(computeInstance.Properties.UserData);
  assert(
    userData.includes(`${line} # storage-server:${tag}`),
    `${computeId}'s user data lacks the fstab line "${line}"`,
  );
  assert(
    userData
      .split('\n')
      .some((l) => /\bmount\b/.test(l) && l.includes(String(mountPoint)) && !l.includes('#')),
    `${computeId}'s user data never mounts ${String(mountPoint)}`,
  );
  // The export is live when the server's settings association succeeds (CloudFormation waits for it).
  const waits = Object.keys(resourcesOfType(template, 'AWS::SSM::Association')).filter((id) =>
    /Settings/.test(id),
  );
  const dependsOn = ([] as string[]).concat(computeInstance.DependsOn ?? []);
  assert(
    waits.length === 1 && dependsOn.includes(waits[0]),
    `${computeId} does not wait for the export (${waits.join(', ')}): DependsOn ${dependsOn.join(', ')}`,
  );
});

check("the server's apply document and snapshot document carry the package's shell scripts", () => {
  const scriptLines = (file: string): string[] =>
    fs
      .readFileSync(path.join(REPO_ROOT, 'lib', 'scripts', file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !/^\s*#/.test(l));
  const docs = Object.values(resourcesOfType(template, 'AWS::SSM::Document')).map((d) =>
    flatten(d.Properties.Content),
  );
  // The bootstrap travels in the server's apply document, never in user data (a setting change must not
  // change user data, which would stop the instance).
  const applyDoc = new Set(docs.filter((d) => d.includes('applyStorageSettings')).join('\n').split('\n'));
  // The bootstrap is lib/scripts/storage-bootstrap.sh and the parts it reads from beside itself
  // (storage-bootstrap-*.sh), each in place of the line that reads it (lib/script-parts.ts): that line is not carried.
  const bootstrapFiles = fs
    .readdirSync(path.join(REPO_ROOT, 'lib', 'scripts'))
    .filter((f) => /^storage-bootstrap(-.+)?\.sh$/.test(f));
  const partLine = /^\. "\$\(dirname -- "\$\{BASH_SOURCE\[0\]\}"\)\/storage-bootstrap-.+\.sh"$/;
  const missing = bootstrapFiles
    .flatMap(scriptLines)
    .filter((l) => !partLine.test(l))
    .filter((l) => !applyDoc.has(l));
  assert(
    missing.length === 0,
    `bootstrap lines missing from the apply document: ${missing.slice(0, 5).join(' | ')}`,
  );
  const userData = flatten(storageInstance(template).resource.Properties.UserData);
  assert(!userData.includes('STORAGE_'), 'the server\'s user data carries settings');
  const docLines = new Set(
    docs
      .join('\n')
      .split('\n')
      .map((l) => l.trim()),
  );
  const freezeMissing = scriptLines('snapshot-freeze.sh').filter((l) => !docLines.has(l.trim()));
  assert(
    freezeMissing.length === 0,
    `freeze lines missing from the SSM documents: ${freezeMissing.slice(0, 5).join(' | ')}`,
  );
});

check(
  'the registration custom resource registers server storage1 of cluster hpc1 through the Provider',
  () => {
    const registrations = Object.values(resourcesOfType(template, 'Custom::StorageServerRegistration'));
    assert(registrations.length === 1, `expected one registration, found ${registrations.length}`);
    const p = registrations[0].Properties;
    assert(p.ClusterName === 'hpc1' && p.ServerName === 'storage1', `registration: ${JSON.stringify(p)}`);
    const token = flatten(p.ServiceToken);
    const framework = Object.keys(resourcesOfType(template, 'AWS::Lambda::Function')).find((id) =>
      token.includes(id),
    );
    assert(framework, `the service token ${token} names no Lambda function of the stack`);
    assert(
      template.Outputs?.MountConfigParameter?.Value === '/storage-server/hpc1/storage/storage1/mount',
      `MountConfigParameter output: ${JSON.stringify(template.Outputs?.MountConfigParameter)}`,
    );
  },
);

let consumerBundle = '';
check(
  'the registration Lambda deploys the prebuilt bundle shipped in the package (no bundling at synth)',
  () => {
    const fn = registrationFunction(template);
    assert(
      fn.Properties.Runtime === 'nodejs22.x' && fn.Properties.Handler === 'index.handler',
      `registration function: ${JSON.stringify({ Runtime: fn.Properties.Runtime, Handler: fn.Properties.Handler })}`,
    );
    const dir = assetDir(path.join(appDir, 'cdk.out'), fn);
    const files = filesUnder(dir).sort();
    assert(
      JSON.stringify(files) === JSON.stringify(['index.js', 'index.js.map']),
      `asset files: ${files.join(', ')}`,
    );
    consumerBundle = path.join(dir, 'index.js');
    const shipped = path.join(installed, 'dist', 'lambda', 'register', 'bundle', 'index.js');
    assert(
      fs.readFileSync(consumerBundle).equals(fs.readFileSync(shipped)),
      `the asset's index.js differs from ${shipped}`,
    );
  },
);

check('the update guard deploys the prebuilt bundle shipped in the package (no bundling at synth)', () => {
  const guards = Object.values(resourcesOfType(template, 'AWS::Lambda::Function')).filter((f) =>
    /update guard/i.test(String(f.Properties.Description ?? '')),
  );
  assert(guards.length === 1, `expected one update-guard function, found ${guards.length}`);
  const dir = assetDir(path.join(appDir, 'cdk.out'), guards[0]);
  const shipped = path.join(installed, 'dist', 'lambda', 'update-guard', 'bundle', 'index.js');
  assert(
    fs.readFileSync(path.join(dir, 'index.js')).equals(fs.readFileSync(shipped)),
    `the update guard's asset index.js differs from ${shipped}`,
  );
});

check('the prebuilt bundle and its function are what the sources build', () => {
  useCachedHandlerBundles();
  // The same server, built from the TypeScript sources: bin/handler-bundle.ts bundles the handler with esbuild.
  const outdir = path.join(work, 'sources.out');
  const app = new App({ outdir });
  const stack = new Stack(app, stackName);
  new StorageServer(stack, 'Storage', {
    vpc: new ec2.Vpc(stack, 'Vpc'),
    capacityTiB: 5,
    clusterName: 'hpc1',
  });
  const sources = app.synth().getStackByName(stackName).template as CfnTemplate;
  const sourceFn = registrationFunction(sources);
  const sourceBundle = path.join(assetDir(outdir, sourceFn), 'index.js');
  assert(consumerBundle, 'the consumer bundle was not found');
  assert(
    fs.readFileSync(sourceBundle).equals(fs.readFileSync(consumerBundle)),
    'the prebuilt index.js differs from the bundle the sources build: align build:lambda with the esbuild options in bin/handler-bundle.ts',
  );
  // Every resource of the shared registration provider (function, roles, policies, log groups, framework),
  // compared whole except for where each asset is stored.
  const provider = (t: CfnTemplate): string =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(t.Resources)
          .filter(([id]) => id.startsWith('StorageServerRegistrationProvider'))
          .map(([id, r]) => [id, withoutAssetLocations(r, [registrationFunctionId(t)], id)]),
      ),
      null,
      1,
    );
  const a = provider(template);
  const b = provider(sources);
  if (a !== b) {
    const al = a.split('\n');
    const bl = b.split('\n');
    const i = al.findIndex((l, k) => l !== bl[k]);
    throw new Error(
      `the registration provider differs at line ${i}: package "${al[i]}" vs sources "${bl[i]}"`,
    );
  }
});

/** The storage server's instance: the only one of SERVER_TYPE. */
function storageInstance(t: CfnTemplate): { id: string; resource: CfnResource } {
  const servers = Object.entries(resourcesOfType(t, 'AWS::EC2::Instance')).filter(
    ([, r]) => r.Properties.InstanceType === SERVER_TYPE,
  );
  assert(servers.length === 1, `expected one storage server instance, found ${servers.length}`);
  return { id: servers[0][0], resource: servers[0][1] };
}

/** The server's stable network interface: its address is what clients mount. */
function storageInterface(t: CfnTemplate): { id: string; resource: CfnResource } {
  const found = Object.entries(resourcesOfType(t, 'AWS::EC2::NetworkInterface')).filter(([, r]) =>
    String(r.Properties.Description).startsWith('Stable address of NFS storage server'),
  );
  assert(found.length === 1, `expected one stable interface of the storage server, found ${found.length}`);
  return { id: found[0][0], resource: found[0][1] };
}

function ancestors(dir: string): string[] {
  const parent = path.dirname(dir);
  return parent === dir ? [] : [parent, ...ancestors(parent)];
}

function registrationFunctionId(t: CfnTemplate): string {
  const ids = Object.entries(resourcesOfType(t, 'AWS::Lambda::Function'))
    .filter(([id]) => id.startsWith('StorageServerRegistrationProviderHandler'))
    .map(([id]) => id);
  assert(ids.length === 1, `expected one registration handler function, found ${ids.join(', ') || 'none'}`);
  return ids[0];
}

function registrationFunction(t: CfnTemplate): CfnTemplate['Resources'][string] {
  return t.Resources[registrationFunctionId(t)];
}

const failed = results.filter((r) => r.error).length;
console.log(`consumer app and tarball: ${work}${process.env.KEEP_CONSUMER_DIR === '1' ? ' (kept)' : ''}`);
if (process.env.KEEP_CONSUMER_DIR !== '1') fs.rmSync(work, { recursive: true, force: true });
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
