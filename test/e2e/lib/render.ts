/**
 * Renders what the e2e server VMs run, with the same code the construct uses:
 * - the constant loader user data, by renderLoaderUserData through ec2.UserData.forLinux, byte for byte what EC2
 *   would get;
 * - per scenario, the shell step of the server's apply document, by renderApplyCommand. The SSM agent runs it for
 *   the State Manager association, at creation and at every update.
 *
 * Only deploy-time values differ: the volume ids and the client CIDR are the VMs'.
 *
 * Usage: ts-node test/e2e/lib/render.ts <out-dir>
 *   -> <out-dir>/loader.sh, <out-dir>/<scenario>.sh for each scenario below, and <out-dir>/mount-options: the
 *      client mount options the construct publishes as clientMountOptions, which the client VM mounts with.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { BootstrapConfig, renderApplyCommand, renderLoaderUserData } from '../../../lib/bootstrap';
import { renderAgentConfig } from '../../../lib/server-metrics';
import { clientMountOptions } from '../../../lib/backends/ec2/mount-options';

/** The VM's stand-ins for deploy-time values. The guest stages check against these literally. */
const common = {
  exportPath: '/export/data',
  clientCidrs: ['192.168.77.0/28'],
  stripeSizeKiB: 256,
  identity: 'e2e-stack/storage1',
  restored: false,
};
const instanceStore: BootstrapConfig = {
  ...common,
  backend: 'instance-store',
  ebsVolumes: [],
  instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd'],
  nfsThreads: 16,
  exportMode: 'sync',
  nfsVersions: ['4.1', '4.2'],
  volumeWaitSeconds: 60,
  identity: 'e2e-is/storage1',
  // As the construct sets it for d2, whose instance store the platform does not encrypt.
  encryption: 'luks2',
  // As the construct sets them: storage-metrics every minute. The agent is absent here, as Debian does not package it.
  metrics: {
    clusterName: 'e2e',
    serverName: 'storage1',
    agentConfig: renderAgentConfig({ clusterName: 'e2e', serverName: 'storage1', instanceStoreDisks: ['xvdb', 'xvdc', 'xvdd'] }),
  },
};
const ebs = (sizeGiB: number): BootstrapConfig => ({
  ...common,
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: [
    { volumeId: 'vol-0e2e0000000000001', device: '/dev/sdf', sizeGiB },
    { volumeId: 'vol-0e2e0000000000002', device: '/dev/sdg', sizeGiB },
  ],
  exportMode: 'async',
  nfsVersions: ['3', '4.1', '4.2'],
  volumeWaitSeconds: 40,
  identity: 'e2e-ebs/storage1',
  // No EC2 here: the bootstrap finds no instance metadata and leaves attaching to the harness, which plays EC2.
  networkInterfaceId: 'eni-0e2e0000000000001',
});
// One EBS volume on a Xen instance (m4): found by its attachment name, /dev/sdf showing as /dev/xvdf.
const ebsXen = (sizeGiB: number): BootstrapConfig => ({
  ...common,
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: [{ volumeId: 'vol-0e2e0000000000009', device: '/dev/sdf', sizeGiB }],
  nfsThreads: 8,
  exportMode: 'sync',
  nfsVersions: ['4.1', '4.2'],
  volumeWaitSeconds: 40,
  identity: 'e2e-xen/storage1',
});
// A new server restored from snapshots, volumes 0e2e...11 and ...12. 'restore-mixed' is given one restored
// disk of the instance-store server and one of the Xen server: two arrays, which it must refuse.
const restore = (first: string, second: string): BootstrapConfig => ({
  ...common,
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: [
    { volumeId: first, device: '/dev/sdf', sizeGiB: 1 },
    { volumeId: second, device: '/dev/sdg', sizeGiB: 1 },
  ],
  nfsThreads: 8,
  exportMode: 'sync',
  nfsVersions: ['4.1', '4.2'],
  volumeWaitSeconds: 20,
  identity: 'e2e-restored/storage2',
  restored: true,
});

/** Three volumes striped, then three more: growth by added volumes (issue 46); then all six enlarged. */
const ebsAdd = (count: number, sizeGiB = 1): BootstrapConfig => ({
  ...common,
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: Array.from({ length: count }, (_, i) => ({
    volumeId: `vol-0e2e000000000002${i + 1}`, device: `/dev/sd${'fghijk'[i]}`, sizeGiB,
  })),
  nfsThreads: 8,
  exportMode: 'sync',
  nfsVersions: ['4.1', '4.2'],
  volumeWaitSeconds: 60,
  identity: 'e2e-add/storage1',
});

/** The copy's target (issue 46): a second server on the second wire, 192.168.78.0/24, one volume. */
const copyTarget: BootstrapConfig = {
  ...common,
  clientCidrs: ['192.168.78.0/28'],
  backend: 'ebs',
  instanceStoreDevices: [],
  ebsVolumes: [{ volumeId: 'vol-0e2e0000000000031', device: '/dev/sdf', sizeGiB: 1 }],
  nfsThreads: 8,
  exportMode: 'sync',
  nfsVersions: ['4.1', '4.2'],
  volumeWaitSeconds: 60,
  identity: 'e2e-copy/storage2',
};

export const scenarios: Record<string, BootstrapConfig> = {
  // Scenarios 1-3 and 5: three instance-store disks as a d2.xlarge maps them.
  'instance-store': instanceStore,
  // Day 2, applied live: the client CIDR moved to where only the outsider is, and more nfsd threads.
  'instance-store-live': {
    ...instanceStore, clientCidrs: ['192.168.77.192/28'], nfsThreads: 24,
    quotas: { defaultUserGiB: 2, limits: [{ type: 'user', id: 1001, limitGiB: 1 }, { type: 'project', id: 42, limitGiB: 1, path: 'projects/p42' }] },
  },
  // Scenario 4: one blank disk next to four with foreign content: XFS, LVM, GPT, LUKS.
  foreign: {
    ...common,
    backend: 'instance-store',
    ebsVolumes: [],
    instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd', '/dev/sde', '/dev/sdf'],
    nfsThreads: 16,
    exportMode: 'sync',
    nfsVersions: ['4.1', '4.2'],
    volumeWaitSeconds: 60,
    encryption: 'luks2',
  },
  // Scenario 6: two EBS volumes found by id among decoys; default threads, async, NFSv3 enabled too.
  ebs: ebs(1),
  // Day 2 growth: the stack enlarged both volumes of the stripe from 1 to 2 GiB.
  'ebs-grown': ebs(2),
  // Day 2 growth of a single volume, live: 1 GiB, then 2 GiB.
  // The client VM is a root client (no_root_squash) at first, as for a copy; the growth's apply drops it, live.
  'ebs-xen': { ...ebsXen(1), rootClientCidrs: ['192.168.77.10/32'] },
  'ebs-xen-grown': ebsXen(2),
  'ebs-add': ebsAdd(3),
  'ebs-added': ebsAdd(6),
  // Then each of the six enlarged while the server is stopped, 1 -> 2 GiB: the LV has two segments by now.
  'ebs-added-grown': ebsAdd(6, 2),
  // The copy: both servers deployed again with the copying node as a root client, as README's "Moving data" says.
  'copy-source': { ...ebsAdd(6), rootClientCidrs: ['192.168.77.10/32'] },
  'copy-target': copyTarget,
  'copy-target-root': { ...copyTarget, rootClientCidrs: ['192.168.78.10/32'] },
  // Restore: a mixture of two servers' arrays, then the EBS server's own array restored whole.
  'restore-mixed': restore('vol-0e2e0000000000011', 'vol-0e2e0000000000012'),
  'restore-own': restore('vol-0e2e0000000000013', 'vol-0e2e0000000000014'),
  // The benchmark: the construct's defaults on three instance-store disks.
  bench: {
    ...common,
    backend: 'instance-store',
    ebsVolumes: [],
    instanceStoreDevices: ['/dev/sdb', '/dev/sdc', '/dev/sdd'],
    exportMode: 'sync',
    nfsVersions: ['4.1', '4.2'],
    volumeWaitSeconds: 60,
    encryption: 'luks2',
  },
};

function main(outDir: string): void {
  fs.mkdirSync(outDir, { recursive: true });
  const userData = ec2.UserData.forLinux();
  userData.addCommands(...renderLoaderUserData());
  fs.writeFileSync(path.join(outDir, 'loader.sh'), userData.render(), { mode: 0o755 });
  for (const [name, config] of Object.entries(scenarios)) {
    fs.writeFileSync(path.join(outDir, `${name}.sh`), renderApplyCommand(config), { mode: 0o755 });
  }
  fs.writeFileSync(path.join(outDir, 'mount-options'), `${clientMountOptions('4.1')}\n`);
}

if (require.main === module) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: render.ts <out-dir>');
  main(out);
}
