// The consumer test's checks that the app deploys the Lambda bundles the package ships, and that they are what the
// sources build.
import * as fs from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { useCachedHandlerBundles } from '../../bin/handler-bundle';
import { StorageServer } from '../../lib/storage-server';
import { appDir, assert, check, installed, state, work } from './harness';
import { CfnTemplate, assetDir, filesUnder, resourcesOfType, withoutAssetLocations } from './template';

/** The registration's and the guard's functions: the shipped bundles, and the same bytes as a build from the sources. */
export function bundleChecks(): void {
  check(
    'the registration Lambda deploys the prebuilt bundle shipped in the package (no bundling at synth)',
    () => {
      const fn = registrationFunction(state.template);
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
      state.consumerBundle = path.join(dir, 'index.js');
      const shipped = path.join(installed, 'dist', 'lambda', 'register', 'bundle', 'index.js');
      assert(
        fs.readFileSync(state.consumerBundle).equals(fs.readFileSync(shipped)),
        `the asset's index.js differs from ${shipped}`,
      );
    },
  );

  check('the update guard deploys the prebuilt bundle shipped in the package (no bundling at synth)', () => {
    const guards = Object.values(resourcesOfType(state.template, 'AWS::Lambda::Function')).filter((f) =>
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
    const stack = new Stack(app, state.stackName);
    new StorageServer(stack, 'Storage', {
      vpc: new ec2.Vpc(stack, 'Vpc'),
      capacityTiB: 5,
      clusterName: 'hpc1',
    });
    const sources = app.synth().getStackByName(state.stackName).template as CfnTemplate;
    const sourceFn = registrationFunction(sources);
    const sourceBundle = path.join(assetDir(outdir, sourceFn), 'index.js');
    assert(state.consumerBundle, 'the consumer bundle was not found');
    assert(
      fs.readFileSync(sourceBundle).equals(fs.readFileSync(state.consumerBundle)),
      'the prebuilt index.js differs from the bundle the sources build: align build:lambda with the esbuild options in bin/handler-bundle.ts',
    );
    // Every resource of the shared registration provider, that is function, roles, policies, log groups and framework,
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
    const a = provider(state.template);
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
