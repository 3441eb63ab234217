/**
 * Writes the template of every app variant, VARIANTS and EXISTING_VARIANTS of test/support/stacks.ts, and of a few
 * library stacks, as JSON with its keys sorted, one file a variant, into the directory given. It is the check that a
 * change of the code's shape leaves every template as it was.
 *
 *   npm run build:lambda
 *   STORAGE_SERVER_HANDLER_BUNDLES=dist/lambda bash test/support/tools.sh ts-node --transpile-only \
 *     test/support/template-variants.ts /tmp/before
 *   (change the code; the same again into /tmp/after)
 *   diff -r /tmp/before /tmp/after
 *
 * The handlers' bundles are part of the templates, by their asset hashes. A change to lambda/ that moves code between
 * files changes the bundle's bytes and so those hashes. `--scrub-asset-hashes` replaces them, as the snapshot
 * serializer does, to compare the rest.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import { ClientMount } from '../../lib/client-mount';
import { ContextKey } from '../../lib/context';
import { StorageServer } from '../../lib/storage-server';
import { appStack, existingAppStack, EXISTING_VARIANTS, VARIANTS } from './stacks';

/** The keys that VARIANTS, which other tests iterate, leave at their defaults. */
const MORE: { name: string; context: Partial<Record<ContextKey, string>> }[] = [
  { name: 'gp3 current 1 TiB at 250 MBps', context: { generation: 'current', backend: 'ebs', capacityTiB: '1', throughputMBps: '250' } },
  { name: 'arm64 by instanceType c8gb', context: { generation: 'current', instanceType: 'c8gb.12xlarge', capacityTiB: '10' } },
  { name: 'nconnect 1 readahead 0', context: { nconnect: '1', clientReadAheadKiB: '0' } },
  {
    name: 'snapshots retain restore keypair placement',
    context: {
      snapshotRetain: '30', restoreSnapshotIds: 'snap-0123456789abcdef0,snap-0123456789abcdef1', keyPair: 'ops',
      placementGroup: 'pg1', dataVolumeCount: '2', terminationProtection: 'false', clientTagKey: 'hpc-client',
    },
  },
  { name: 'instance store unencrypted legacy', context: { capacityTiB: '20', encryptInstanceStore: 'false', mountPoint: '/data', mountRoots: '/data,/scratch' } },
  { name: 'fsx hdd with root squash off', context: { backend: 'fsx-lustre', capacityTiB: '24', fsxDeploymentType: 'PERSISTENT_1', fsxStorageType: 'HDD', fsxRootSquash: 'false' } },
];

/**
 * Library stacks, built by props rather than context: the props a rename touches (0.3.0 renamed `kmsKey`,
 * `removalPolicy` and ClientMount's `allowHomeMountPoint`) are set here, so that a rename's before and after compare.
 */
const LIBRARY: { name: string; build: () => Stack }[] = [
  {
    name: 'library kmsKey removalPolicy home mount',
    build: () => {
      const stack = new Stack(new App(), 'Lib', { env: { account: '123456789012', region: 'us-east-1' } });
      const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 1 });
      const kmsKey = new kms.Key(stack, 'Key', { enableKeyRotation: true });
      new StorageServer(stack, 'Storage', {
        vpc, capacityTiB: 4, clusterName: 'hpc1', mountPoint: '/home', allowHomeMountPoint: true, kmsKey,
        removalPolicy: RemovalPolicy.SNAPSHOT,
      });
      new ClientMount(stack, 'Mount', { clusterName: 'hpc1', allowedServerCidrs: [vpc.vpcCidrBlock], allowHomeMountPoint: true });
      return stack;
    },
  },
];

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  }
  return value;
}

function main(argv: string[]): void {
  const scrub = argv.includes('--scrub-asset-hashes');
  const dir = argv.find((a) => !a.startsWith('--'));
  if (!dir) throw new Error('usage: template-variants.ts [--scrub-asset-hashes] DIR');
  process.env.CDK_VALIDATION = 'false';
  fs.mkdirSync(dir, { recursive: true });
  const stacks = [
    ...[...VARIANTS, ...MORE].map((v) => ({ name: v.name, build: () => appStack(v.context) })),
    ...LIBRARY,
    ...EXISTING_VARIANTS.map((v) => ({ name: v.name, build: () => existingAppStack(v.context) })),
  ];
  for (const variant of stacks) {
    let text = JSON.stringify(sorted(Template.fromStack(variant.build()).toJSON()), null, 1);
    if (scrub) text = text.replace(/[0-9a-f]{64}/g, '[ASSET-HASH]');
    const file = variant.name.replace(/[^A-Za-z0-9=.-]+/g, '_').slice(0, 80) + '.json';
    fs.writeFileSync(path.join(dir, file), text + '\n');
  }
  console.log(`${stacks.length} templates written to ${dir}`);
}

main(process.argv.slice(2));
