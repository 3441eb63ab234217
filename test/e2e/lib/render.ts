/**
 * Renders the user data the e2e VMs run, with the same code the construct uses (renderUserData through
 * ec2.UserData.forLinux, byte for byte what EC2 would get). Only deploy-time values differ: the volume ids,
 * the stack, the region and the client CIDR are the VMs'.
 *
 * Usage: ts-node test/e2e/lib/render.ts <out-dir>
 *   -> <out-dir>/<scenario>.sh for each scenario below, and <out-dir>/mount-options: the client mount
 *      options the construct publishes (clientMountOptions), which the client VM mounts with.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { BootstrapConfig, renderUserData, SignalConfig } from '../../../lib/bootstrap';
import { clientMountOptions } from '../../../lib/storage-server';

/** The VM's stand-ins for deploy-time values. The guest stages check against these literally. */
const signal: SignalConfig = { stackName: 'e2e-stack', logicalId: 'StorageReadyE2E', region: 'e2e-local-1' };
const common = { exportPath: '/export/data', clientCidrs: ['192.168.77.0/28'], stripeSizeKiB: 256 };

export const scenarios: Record<string, BootstrapConfig> = {
  // Scenarios 1-3 and 5: three instance-store disks as a d2.xlarge maps them.
  'instance-store': {
    ...common,
    backend: 'instance-store',
    ebsVolumes: [],
    instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd'],
    nfsThreads: 16,
    exportMode: 'sync',
    nfsVersions: ['4.1', '4.2'],
    volumeWaitSeconds: 60,
  },
  // Scenario 4: one blank disk next to three with foreign content.
  foreign: {
    ...common,
    backend: 'instance-store',
    ebsVolumes: [],
    instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd', '/dev/sde'],
    nfsThreads: 16,
    exportMode: 'sync',
    nfsVersions: ['4.1', '4.2'],
    volumeWaitSeconds: 60,
  },
  // Scenario 6: two EBS volumes found by id among decoys; default threads, async, NFSv3 enabled too.
  ebs: {
    ...common,
    backend: 'ebs',
    instanceStoreDevices: [],
    ebsVolumes: [
      { volumeId: 'vol-0e2e0000000000001', device: '/dev/sdf' },
      { volumeId: 'vol-0e2e0000000000002', device: '/dev/sdg' },
    ],
    exportMode: 'async',
    nfsVersions: ['3', '4.1', '4.2'],
    volumeWaitSeconds: 40,
  },
  // The benchmark: the construct's defaults on three instance-store disks.
  bench: {
    ...common,
    backend: 'instance-store',
    ebsVolumes: [],
    instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd'],
    exportMode: 'sync',
    nfsVersions: ['4.1', '4.2'],
    volumeWaitSeconds: 60,
  },
};

function main(outDir: string): void {
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, config] of Object.entries(scenarios)) {
    const userData = ec2.UserData.forLinux();
    userData.addCommands(...renderUserData(config, signal));
    fs.writeFileSync(path.join(outDir, `${name}.sh`), userData.render(), { mode: 0o755 });
  }
  fs.writeFileSync(path.join(outDir, 'mount-options'), `${clientMountOptions('4.1')}\n`);
}

if (require.main === module) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: render.ts <out-dir>');
  main(out);
}
