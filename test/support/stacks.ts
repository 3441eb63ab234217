import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ContextKey, parseAppContext, parseContext, parseContextAndPlan } from '../../lib/context';
import { ExistingStorageStack } from '../../lib/existing-storage-stack';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { StorageServerStack } from '../../lib/storage-server-stack';

/** The context reader parseContext takes, over the values given; a key not given is unset. */
export const readContext = (values: Partial<Record<ContextKey, unknown>>) => (key: ContextKey): unknown => values[key];

/** The app's stack for a set of context values, as `cdk synth -c key=value ...` would build it. */
export function appStack(context: Partial<Record<ContextKey, string>> = {}, app = new App()): StorageServerStack {
  const { context: ctx, planned, stated } = parseContextAndPlan((key) => context[key]);
  return new StorageServerStack(app, 'StorageServer', { context: ctx, planned, statedKeys: stated });
}

/** The app's stack for `existingStorage` and the keys beside it, as `cdk synth -c key=value ...` would build it. */
export function existingAppStack(
  context: Partial<Record<ContextKey, string>>,
  app = new App(),
  env?: { account: string; region: string },
): ExistingStorageStack {
  const { existing } = parseAppContext((key) => context[key]);
  if (existing === undefined) throw new Error('no existingStorage in the context');
  return new ExistingStorageStack(app, existing.stackName, { context: existing, env });
}

/**
 * {@link existingAppStack} with `vpcId`, synthesized as `cdk synth` does it: a first pass asks for the VPC lookup, the
 * second has its answer, a VPC of `vpcCidr`, in the App's context, made by `app`.
 */
export function lookedUpExistingStack(
  context: Partial<Record<ContextKey, string>> & { vpcId: string },
  vpcCidr: string,
  app: (lookup: Record<string, unknown>) => App = (lookup) => new App({ context: lookup }),
): ExistingStorageStack {
  const env = { account: '123456789012', region: 'us-east-1' };
  const missing = (existingAppStack(context, new App(), env).node.root as App).synth().manifest.missing?.find((m) => m.provider === 'vpc-provider');
  if (!missing) throw new Error('the first pass did not ask for the VPC lookup');
  const subnets = [{ subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: vpcCidr, availabilityZone: 'us-east-1a', routeTableId: 'rtb-0123456789abcdef0' }];
  const vpc = { vpcId: context.vpcId, vpcCidrBlock: vpcCidr, availabilityZones: ['us-east-1a'], subnetGroups: [{ name: 'Private', type: 'Private', subnets }] };
  return existingAppStack(context, app({ [missing.key]: vpc }), env);
}

/** One subnet of a looked-up VPC: id, CIDR and AZ. */
export interface LookedUpSubnet {
  readonly subnetId: string;
  readonly cidr: string;
  readonly availabilityZone: string;
}

/**
 * The app's stack with `vpcId` in its context, in account 123456789012 and us-east-1, synthesized as `cdk synth` does
 * it. A first pass asks for the VPC lookup. The second runs with the looked-up VPC, `vpcCidr` and its private
 * `subnets`, in the App's context, as the CLI would have cached it in cdk.context.json. `app` is the second pass's App,
 * made with the given context, the lookup's answer among it, for a harness that makes its own, such as cdk-nag's.
 */
export function lookedUpAppStack(
  context: Partial<Record<ContextKey, string>> & { vpcId: string },
  vpcCidr: string,
  subnets: LookedUpSubnet[],
  app: (lookup: Record<string, unknown>) => App = (lookup) => new App({ context: lookup }),
): StorageServerStack {
  const ctx = parseContext((key) => context[key]);
  const env = { account: '123456789012', region: 'us-east-1' };
  const first = new App();
  new StorageServerStack(first, 'StorageServer', { context: ctx, env });
  const missing = (first.synth().manifest.missing ?? []).find((m) => m.provider === 'vpc-provider');
  if (!missing) throw new Error('the first pass did not ask for the VPC lookup');
  const vpc = {
    vpcId: context.vpcId,
    vpcCidrBlock: vpcCidr,
    availabilityZones: [...new Set(subnets.map((s) => s.availabilityZone))],
    subnetGroups: [{ name: 'Private', type: 'Private', subnets: subnets.map((s) => ({ ...s, routeTableId: 'rtb-0123456789abcdef0' })) }],
  };
  return new StorageServerStack(app({ [missing.key]: vpc }), 'StorageServer', { context: ctx, env });
}

/** A StorageServer in a bare stack with its own VPC, for construct-level assertions. */
export function serverStack(props: Partial<StorageServerProps> = {}): { stack: Stack; server: StorageServer; template: Template } {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  const server = new StorageServer(stack, 'Storage', { vpc, ...props });
  return { stack, server, template: Template.fromStack(stack) };
}

/** The variants the issue names: every one must synthesize, lint clean and carry the planner's choice. */
export const VARIANTS: { name: string; context: Partial<Record<ContextKey, string>> }[] = [
  { name: 'defaults', context: {} },
  { name: 'capacityTiB=2', context: { capacityTiB: '2' } },
  { name: 'capacityTiB=5', context: { capacityTiB: '5' } },
  { name: 'capacityTiB=10', context: { capacityTiB: '10' } },
  { name: 'capacityTiB=16', context: { capacityTiB: '16' } },
  { name: 'capacityTiB=20', context: { capacityTiB: '20' } },
  { name: 'capacityTiB=40', context: { capacityTiB: '40' } },
  { name: 'backend=ebs capacityTiB=30', context: { backend: 'ebs', capacityTiB: '30' } },
  { name: 'backend=instance-store capacityTiB=3', context: { backend: 'instance-store', capacityTiB: '3' } },
  {
    name: 'backend=instance-store deleteDataOnDestroy=true (no termination protection: a destroy deletes the disks)',
    context: { backend: 'instance-store', capacityTiB: '3', deleteDataOnDestroy: 'true' },
  },
  { name: 'loginIp=10.0.1.10 clientCidrs=10.0.0.0/16', context: { loginIp: '10.0.1.10', clientCidrs: '10.0.0.0/16' } },
  { name: 'alarmEmail=ops@example.com (an encrypted alarm topic)', context: { alarmEmail: 'ops@example.com' } },
  { name: 'generation=current capacityTiB=10 (m6i)', context: { generation: 'current', capacityTiB: '10' } },
  { name: 'generation=current capacityTiB=20 (d3en: instance store the platform encrypts)', context: { generation: 'current', capacityTiB: '20' } },
  { name: 'backend=fsx-lustre capacityTiB=12', context: { backend: 'fsx-lustre', capacityTiB: '12' } },
  { name: 'availabilityZone=us-east-1b (a new VPC in one chosen zone)', context: { availabilityZone: 'us-east-1b' } },
  {
    name: 'vpcFrom=StorageServer-hpc1-home (the README\'s scratch, in the home stack\'s VPC)',
    context: {
      clusterName: 'hpc1', serverName: 'scratch', backend: 'fsx-lustre', capacityTiB: '24', fsxDeploymentType: 'SCRATCH_2',
      mountPoint: '/scratch', clientMount: 'false', vpcFrom: 'StorageServer-hpc1-home',
    },
  },
  { name: 'backend=fsx-lustre capacityTiB=100', context: { backend: 'fsx-lustre', capacityTiB: '100' } },
  { name: 'capacityTiB=100 (auto: FSx PERSISTENT_1 HDD)', context: { capacityTiB: '100' } },
  {
    name: 'backend=fsx-lustre SCRATCH_2 with an S3 repository',
    context: { backend: 'fsx-lustre', capacityTiB: '4', fsxDeploymentType: 'SCRATCH_2', fsxDataRepositoryPath: 's3://hpc-inputs/run1' },
  },
  {
    name: 'backend=fsx-lustre PERSISTENT_2 500 with an S3 repository',
    context: { backend: 'fsx-lustre', capacityTiB: '2', fsxPerUnitStorageThroughput: '500', fsxDataRepositoryPath: 's3://hpc-inputs' },
  },
  { name: 'backend=fsx-openzfs capacityTiB=4 throughputMBps=1000 (issue 30 acceptance)', context: { backend: 'fsx-openzfs', capacityTiB: '4', throughputMBps: '1000' } },
  {
    name: 'backend=fsx-openzfs MULTI_AZ_1 with client CIDRs and root squash off',
    context: { backend: 'fsx-openzfs', capacityTiB: '2', openZfsDeploymentType: 'MULTI_AZ_1', clientCidrs: '10.0.0.0/16', openZfsRootSquash: 'false' },
  },
  // The FSx options of compression, version, Metadata IOPS and SSD IOPS: every one in a variant the gates read.
  {
    name: 'backend=fsx-lustre PERSISTENT_2 LZ4, Lustre 2.15, 24000 Metadata IOPS',
    context: { backend: 'fsx-lustre', capacityTiB: '2', fsxDataCompressionType: 'LZ4', fsxFileSystemTypeVersion: '2.15', fsxMetadataIops: '24000' },
  },
  {
    name: 'backend=fsx-openzfs SINGLE_AZ_HA_1 with 20000 SSD IOPS',
    context: { backend: 'fsx-openzfs', capacityTiB: '1', openZfsDeploymentType: 'SINGLE_AZ_HA_1', openZfsThroughputCapacityMBps: '512', openZfsProvisionedIops: '20000' },
  },
];

/**
 * The existing storage the app registers, one variant per kind (the file systems in another stack's VPC, offline), and
 * one stack that makes the cluster's association: every one must synthesize and lint clean.
 */
export const EXISTING_VARIANTS: { name: string; context: Partial<Record<ContextKey, string>> }[] = [
  ...[
    'fsx-lustre:fs-0123456789abcdef0', 'fsx-openzfs:fs-0123456789abcdef0:/fsx/projects', 'efs:fs-0123456789abcdef0:/projects',
  ].map((existingStorage) => ({
    name: `existingStorage=${existingStorage} vpcFrom=StorageServer-hpc1-home`,
    context: { existingStorage, clusterName: 'hpc1', serverName: 'projects', mountPoint: '/data/projects', vpcFrom: 'StorageServer-hpc1-home' },
  })),
  {
    name: 'existingStorage=nfs:10.0.1.20:/export/projects clientMount=true (the association allows that address)',
    context: { existingStorage: 'nfs:10.0.1.20:/export/projects', clusterName: 'hpc1', serverName: 'projects', mountPoint: '/data/projects', clientMount: 'true' },
  },
  {
    name: 'existingStorage=fsx-lustre:fs-0123456789abcdef0 storageSecurityGroupId (the stack adds the clients\' rules)',
    context: { existingStorage: 'fsx-lustre:fs-0123456789abcdef0', clusterName: 'hpc1', serverName: 'scratch', mountPoint: '/scratch',
      vpcFrom: 'StorageServer-hpc1-home', storageSecurityGroupId: 'sg-0123456789abcdef0' },
  },
];
