// The consumer test's checks of the README's library example: compiled, synthesized, and its template.
import * as fs from 'fs';
import * as path from 'path';
import { fstabLine } from '../../lambda/register/contract';
import { REPO_ROOT, libraryExample } from '../support/readme';
import { SERVER_TYPE, appDir, assert, cdk, check, installed, pkg, run, state, tsc } from './harness';
import { CfnResource, CfnTemplate, flatten, resourcesOfType, stackTemplate } from './template';

/** Compiles and synthesizes the example app, then checks the server, its network, its mounts and its documents. */
export function appChecks(): void {
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
      ({ stackName: state.stackName, template: state.template } = stackTemplate(path.join(appDir, 'cdk.out')));
    },
    true,
  );

  check(`the server is the planned ${SERVER_TYPE} with one encrypted 5120 GiB st1 volume it attaches itself`, () => {
    const servers = Object.entries(resourcesOfType(state.template, 'AWS::EC2::Instance')).filter(
      ([, r]) => r.Properties.InstanceType === SERVER_TYPE,
    );
    assert(servers.length === 1, `expected one ${SERVER_TYPE} instance, found ${servers.length}`);
    const volumes = Object.entries(resourcesOfType(state.template, 'AWS::EC2::Volume'));
    assert(volumes.length === 1, `expected one data volume, found ${volumes.length}`);
    const [volumeId, volume] = volumes[0];
    const p = volume.Properties;
    assert(
      p.VolumeType === 'st1' && p.Size === 5120 && p.Encrypted === true,
      `data volume: ${JSON.stringify(p)}`,
    );
    // Kept on update and deletion, and deleted only when the first creation rolls back, while they are blank.
    assert(volume.DeletionPolicy === 'RetainExceptOnCreate', `data volume DeletionPolicy is ${volume.DeletionPolicy}`);
    // No VolumeAttachment, since a replacement instance would collide with it: the server's apply step attaches the
    // volumes it is told about, tagged as this server's.
    const attachments = Object.keys(resourcesOfType(state.template, 'AWS::EC2::VolumeAttachment'));
    assert(attachments.length === 0, `unexpected VolumeAttachment resources: ${attachments.join(', ')}`);
    const apply = Object.values(resourcesOfType(state.template, 'AWS::SSM::Document'))
      .map((d) => flatten(d.Properties.Content))
      .find((c) => c.includes('applyStorageSettings'));
    assert(apply?.includes(`STORAGE_EBS_VOLUMES='{Ref:${volumeId}}:/dev/sdf:5120'`), `the apply step does not name ${volumeId}`);
    const tags = flatten(p.Tags);
    assert(tags.includes('storage-server:id'), `volume ${volumeId} is not tagged storage-server:id: ${tags}`);
  });

  check(
    "every other security group of the app (compute node's, login nodes') may reach TCP 2049 on the server's",
    () => {
      // Clients reach the server at its stable interface, which carries the server's group, as the instance does.
      const serverGroups = (storageInterface(state.template).resource.Properties.GroupSet as unknown[]).map(flatten);
      const instanceGroups = (storageInstance(state.template).resource.Properties.SecurityGroupIds as unknown[]).map(flatten);
      assert(JSON.stringify(instanceGroups) === JSON.stringify(serverGroups), `instance groups ${instanceGroups} differ from the interface's ${serverGroups}`);
      const others = Object.keys(resourcesOfType(state.template, 'AWS::EC2::SecurityGroup'))
        .map((id) => `{GetAtt:${id}.GroupId}`)
        .filter((g) => !serverGroups.includes(g));
      assert(
        others.length >= 2,
        `expected the compute node's and the login nodes' security groups, found ${others.join(', ')}`,
      );
      const rules = Object.values(resourcesOfType(state.template, 'AWS::EC2::SecurityGroupIngress')).map(
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
    const server = storageInstance(state.template);
    const compute = Object.entries(resourcesOfType(state.template, 'AWS::EC2::Instance')).filter(
      ([id]) => id !== server.id,
    );
    assert(compute.length === 1, `expected one compute instance, found ${compute.length}`);
    const [computeId, computeInstance] = compute[0];
    const registration = Object.values(resourcesOfType(state.template, 'Custom::StorageServerRegistration'))[0]
      ?.Properties;
    assert(registration, 'no registration custom resource');
    const [exportPath, mountPoint, options] = [
      registration.ExportPath,
      registration.MountPoint,
      registration.MountOptions,
    ];
    const tag = `${String(registration.ClusterName)}/${String(registration.ServerName)}`;
    const line = fstabLine(
      `{GetAtt:${storageInterface(state.template).id}.PrimaryPrivateIpAddress}`,
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
    // The export is live when the server's settings association succeeds, and CloudFormation waits for it.
    const waits = Object.keys(resourcesOfType(state.template, 'AWS::SSM::Association')).filter((id) =>
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
    const docs = Object.values(resourcesOfType(state.template, 'AWS::SSM::Document')).map((d) =>
      flatten(d.Properties.Content),
    );
    // The bootstrap travels in the server's apply document, never in user data: a setting change must not change user
    // data, which would stop the instance.
    const applyDoc = new Set(docs.filter((d) => d.includes('applyStorageSettings')).join('\n').split('\n'));
    // The bootstrap is lib/scripts/storage-bootstrap.sh and the parts it reads from beside itself,
    // storage-bootstrap-*.sh, each in place of the line that reads it by lib/script-parts.ts: that line is not carried.
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
    const userData = flatten(storageInstance(state.template).resource.Properties.UserData);
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
      const registrations = Object.values(resourcesOfType(state.template, 'Custom::StorageServerRegistration'));
      assert(registrations.length === 1, `expected one registration, found ${registrations.length}`);
      const p = registrations[0].Properties;
      assert(p.ClusterName === 'hpc1' && p.ServerName === 'storage1', `registration: ${JSON.stringify(p)}`);
      const token = flatten(p.ServiceToken);
      const framework = Object.keys(resourcesOfType(state.template, 'AWS::Lambda::Function')).find((id) =>
        token.includes(id),
      );
      assert(framework, `the service token ${token} names no Lambda function of the stack`);
      assert(
        state.template.Outputs?.MountConfigParameter?.Value === '/storage-server/hpc1/storage/storage1/mount',
        `MountConfigParameter output: ${JSON.stringify(state.template.Outputs?.MountConfigParameter)}`,
      );
    },
  );

}

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
