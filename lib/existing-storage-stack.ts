import { CfnOutput, Stack, StackProps } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';
import { ClientMount } from './client-mount';
import { vpcIpv4Cidrs } from './client-mount/vpc-cidrs';
import type { ExistingStorageContext } from './context';
import { EXISTING_STORAGE_WHAT, ExistingStorage, existingStorageSource } from './existing-storage';
import { namesSettingsByContext } from './setting-names';
import { isLookupPlaceholder } from './validation';
import { importSharedVpc, requireLookupEnvironment } from './storage-server-stack';

/** Properties of the deployable {@link ExistingStorageStack}. */
export interface ExistingStorageStackProps extends StackProps {
  /** Validated context parameters: see `parseAppContext`. */
  readonly context: ExistingStorageContext;
}

/**
 * The deployable app's stack for `-c existingStorage=...`: one {@link ExistingStorage}, which registers storage that
 * exists already into the cluster's records, and the cluster's client-mount association only with `clientMount=true`.
 * No VPC is made, no server planned or built.
 */
export class ExistingStorageStack extends Stack {
  /** The registration of the existing storage; absent only before the VPC lookup has answered. */
  public readonly storage?: ExistingStorage;
  /** The cluster's client-mount association; absent unless `clientMount=true`, since the server stack has it. */
  public readonly clientMount?: ClientMount;

  constructor(scope: Construct, id: string, props: ExistingStorageStackProps) {
    super(scope, id, props);
    namesSettingsByContext(this);
    const ctx = props.context;
    const spec = ctx.existingStorage;
    if (ctx.vpcId !== undefined) requireLookupEnvironment(this, ctx.vpcId);
    const vpc = ctx.vpcId !== undefined ? ec2.Vpc.fromLookup(this, 'Vpc', { vpcId: ctx.vpcId })
      : ctx.vpcFrom !== undefined ? importSharedVpc(this, ctx.vpcFrom) : undefined;
    // Before the lookup has answered, the VPC is CDK's placeholder, whose id and CIDR the registration would refuse; the
    // CLI synthesizes again with the answer, so nothing is built on this pass.
    if (vpc !== undefined && isLookupPlaceholder(vpc.vpcCidrBlock)) return;
    const clientPeers = ctx.clientSecurityGroupId
      ? [ec2.SecurityGroup.fromSecurityGroupId(this, 'ClientSecurityGroup', ctx.clientSecurityGroupId, { mutable: false })]
      : undefined;
    // As a server's stack admits them: the VPC's CIDR unless the clients' group or CIDRs are given.
    const clientCidrs = vpc === undefined ? undefined : ctx.clientCidrs ?? (clientPeers ? undefined : [vpc.vpcCidrBlock]);

    const storage = new ExistingStorage(this, 'ExistingStorage', {
      clusterName: ctx.clusterName,
      serverName: ctx.serverName,
      storage: existingStorageSource(spec.kind, spec.id, spec.path, spec.tls),
      mountPoint: ctx.mountPoint,
      allowHomeMountPoint: ctx.allowHomeMountPoint,
      vpc,
      clientCidrs,
      clientPeers,
      storageSecurityGroup: ctx.storageSecurityGroupId === undefined ? undefined
        : ec2.SecurityGroup.fromSecurityGroupId(this, 'StorageSecurityGroup', ctx.storageSecurityGroupId),
    });
    this.storage = storage;
    this.clientMount = ctx.clientMount ? new ClientMount(this, 'ClientMount', {
      clusterName: ctx.clusterName,
      clientTagKey: ctx.clientTagKey,
      // The nodes mount only servers inside these: a file system's addresses are in the VPC (all its blocks, read at
      // deploy for a looked-up VPC), and an NFS server is its own address.
      allowedServerCidrs: [vpc === undefined ? `${spec.id}/32`
        : ctx.vpcId !== undefined ? vpcIpv4Cidrs(this, 'VpcCidrs', vpc.vpcId) : vpc.vpcCidrBlock],
      allowHomeMountPoint: ctx.allowHomeMountPoint,
      mountRoots: ctx.mountRoots,
      readAheadKiB: ctx.clientReadAheadKiB,
    }) : undefined;

    const what = `${EXISTING_STORAGE_WHAT[spec.kind]} ${spec.id}`;
    if (props.description === undefined) {
      this.templateOptions.description = `${what} registered as ${ctx.serverName} of HPC cluster ${ctx.clusterName}`;
    }
    new CfnOutput(this, 'RingParameterName', { description: `SSM parameter with the ring record of the ${what}`, value: storage.ringParameterName });
    new CfnOutput(this, 'MountParameterName', { description: 'SSM parameter with the mount configuration clients read', value: storage.mountParameterName });
    new CfnOutput(this, 'ClientTag', {
      description: this.clientMount ? 'Nodes with this tag mount the cluster\'s storage (this stack\'s association)'
        : 'Nodes with this tag mount the cluster\'s storage, by the association of the cluster\'s server stack',
      value: `${ctx.clientTagKey}=${ctx.clusterName}`,
    });
  }
}
