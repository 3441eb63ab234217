import { CfnOutput, CfnResource, Fn, Stack, StackProps, Token } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { ClientMount } from './client-mount';
import { vpcIpv4Cidrs } from './client-mount/vpc-cidrs';
import { applyStackCompliance } from './compliance';
import { type ContextKey, StorageServerContext, backendProps, contextError } from './context';
import { quotasOf } from './context/quotas';
import { StorageServer, type StorageServerProps } from './storage-server';
import { type PlannedRequest, handDownPlan } from './storage-server/planned';
import { addStackOutputs, stackDescription } from './stack-outputs';
import { isLookupPlaceholder } from './validation';
import { backendOrAuto } from './backend-enum';
import { generationOf } from './sizing/enums';
import { DEFAULT_NCONNECT } from './sizing/nfs-client';
import { namesSettingsByContext } from './setting-names';

/** Properties of the deployable {@link StorageServerStack}. */
export interface StorageServerStackProps extends StackProps {
  /** Validated context parameters: see `parseContext`. */
  readonly context: StorageServerContext;
  /**
   * The plan `parseContextAndPlan` checked the context against, with its request: the server takes it rather than
   * plan the same request again.
   * @default - the server plans its props itself
   */
  readonly planned?: PlannedRequest;
  /**
   * The context keys the user gave, as `parseContextAndPlan` lists them: a key left out is a prop left out, whose
   * default is the key's, so that the server notes only what was stated.
   * @default - every key: each value is passed as a prop
   */
  readonly statedKeys?: readonly ContextKey[];
}

/**
 * The deployable app's stack: a VPC (looked up by `vpcId`, or a new one), one {@link StorageServer}, and
 * outputs that tell an administrator what was built and how clients mount it.
 */
export class StorageServerStack extends Stack {
  /** The storage server. */
  public readonly server: StorageServer;
  /**
   * The cluster's client-mount association; absent with `clientMount=false`, when another stack of the cluster has it.
   */
  public readonly clientMount?: ClientMount;

  constructor(scope: Construct, id: string, props: StorageServerStackProps) {
    super(scope, id, props);
    namesSettingsByContext(this);
    const ctx = props.context;
    if (props.planned !== undefined) handDownPlan(this, props.planned);

    if (ctx.vpcId !== undefined) requireLookupEnvironment(this, ctx.vpcId);
    const vpc = ctx.vpcId ? ec2.Vpc.fromLookup(this, 'Vpc', { vpcId: ctx.vpcId })
      : ctx.vpcFrom ? importSharedVpc(this, ctx.vpcFrom)
        : this.newVpc(ctx.availabilityZone);
    // Before the VPC lookup has run, the VPC is CDK's placeholder, which has no subnet of that id. The subnet is
    // selected on the synth after the lookup, since refusing here would stop the CLI before it could look the VPC up.
    const subnet = (subnetId: string, key: string): ec2.ISubnet | undefined =>
      isLookupPlaceholder(vpc.vpcCidrBlock) ? undefined : subnetById(vpc, subnetId, key);
    const serverSubnet = ctx.subnetId ? subnet(ctx.subnetId, 'subnetId') : undefined;
    const vpcSubnets: ec2.SubnetSelection | undefined = serverSubnet ? { subnets: [serverSubnet] } : undefined;
    const clientPeers = ctx.clientSecurityGroupId
      ? [ec2.SecurityGroup.fromSecurityGroupId(this, 'ClientSecurityGroup', ctx.clientSecurityGroupId, { mutable: false })]
      : undefined;

    // A key left out is a prop left out, whose default is the key's (lib/server-defaults.ts, lib/context/keys.ts).
    const stated = (key: ContextKey) => props.statedKeys?.includes(key) ?? true;
    this.server = new StorageServer(this, 'StorageServer', {
      vpc,
      vpcSubnets,
      capacityTiB: stated('capacityTiB') ? ctx.capacityTiB : undefined,
      backend: backendOrAuto(ctx.backend),
      clusterName: ctx.clusterName,
      serverName: ctx.serverName,
      clientCidrs: ctx.clientCidrs,
      rootClientCidrs: ctx.rootClientCidrs,
      allowPublicClientCidrs: ctx.allowPublicClientCidrs,
      clientPeers,
      keyPair: ctx.keyPair ? ec2.KeyPair.fromKeyPairName(this, 'KeyPair', ctx.keyPair) : undefined,
      placementGroup: ctx.placementGroup
        ? ec2.PlacementGroup.fromPlacementGroupName(this, 'PlacementGroup', ctx.placementGroup)
        : undefined,
      snapshots: { retain: stated('snapshotRetain') ? ctx.snapshotRetain : undefined },
      quotas: quotasOf(ctx),
      clientTagKey: ctx.clientTagKey,
      terminationProtection: ctx.terminationProtection,
      encryptInstanceStore: ctx.encryptInstanceStore,
      alarmEmail: ctx.alarmEmail,
      alarmTopic: ctx.alarmTopicArn ? sns.Topic.fromTopicArn(this, 'AlarmTopic', ctx.alarmTopicArn) : undefined,
      dataVolumeSnapshotIds: ctx.restoreSnapshotIds,
      machineImageId: ctx.machineImageId,
      acceptDataLoss: ctx.acceptDataLoss,
      acceptFewerSnapshots: ctx.acceptFewerSnapshots,
      deleteDataOnDestroy: ctx.deleteDataOnDestroy,
      legacyVolumeAttachments: ctx.legacyVolumeAttachments,
      dataVolumeCount: ctx.dataVolumeCount,
      throughputMBps: ctx.throughputMBps,
      generation: generationOf(ctx.generation),
      instanceType: ctx.instanceType !== undefined ? new ec2.InstanceType(ctx.instanceType) : undefined,
      // The backend's own keys, by its descriptor: its values are the context's, enums as their strings.
      ...backendProps(ctx, { subnet }) as Partial<StorageServerProps>,
      mountPoint: ctx.mountPoint,
      allowHomeMountPoint: ctx.allowHomeMountPoint,
      mountRoots: ctx.mountRoots,
      // Only when it differs from the construct's default: FSx for Lustre takes no nfs options at all.
      nfs: ctx.nconnect !== DEFAULT_NCONNECT ? { nconnect: ctx.nconnect } : undefined,
      clusterware: ctx.loginIp ? { loginIp: ctx.loginIp } : undefined,
    });
    // Nodes tagged <clientTagKey>=<clusterName> mount every storage server of the cluster, now and at first boot. There
    // is one association per cluster, so a second server's stack leaves it out with clientMount=false.
    this.clientMount = ctx.clientMount ? new ClientMount(this, 'ClientMount', {
      clusterName: ctx.clusterName,
      clientTagKey: ctx.clientTagKey,
      // The server's address is in the VPC, and nodes refuse a mount config naming any address outside it. A looked-up
      // VPC may have secondary blocks the lookup does not name, so they are read from EC2 at deploy:
      // OPENZFS-ENDPOINT-CIDR.
      allowedServerCidrs: [ctx.vpcId !== undefined ? vpcIpv4Cidrs(this, 'VpcCidrs', vpc.vpcId) : vpc.vpcCidrBlock],
      allowHomeMountPoint: ctx.allowHomeMountPoint,
      mountRoots: ctx.mountRoots,
      readAheadKiB: ctx.clientReadAheadKiB,
    }) : undefined;

    if (vpc instanceof ec2.Vpc) exportSharedVpc(this, vpc, this.server.subnet);
    // The description names what the backend deploys, since under backend=auto the plan may be FSx for Lustre.
    if (props.description === undefined) this.templateOptions.description = stackDescription(this.server);
    addStackOutputs(this, this.server, `${ctx.clientTagKey}=${ctx.clusterName}`, this.clientMount);
    applyStackCompliance(this);
    // CDK's own provider that closes the default security group carries a DependsOn on its role as well as a GetAtt of
    // it, which cfn-lint reports as W3005, as for the project's own functions.
    const restrictDefaultSg = this.node.tryFindChild('Custom::VpcRestrictDefaultSGCustomResourceProvider');
    const handler = restrictDefaultSg?.node.tryFindChild('Handler');
    if (handler instanceof CfnResource) handler.addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });
  }

  /**
   * Two AZs, or the one chosen, and one NAT gateway, since the server needs egress for packages, SSM and CloudFormation
   * signals. Its attributes are exported for the stacks that join it with `vpcFrom`.
   */
  private newVpc(availabilityZone: string | undefined): ec2.Vpc {
    // The zone is the user's deliberate choice, for a type not offered in the region's first zone. So cfn-lint's advice
    // against a literal zone, W3010, does not apply to this template.
    if (availabilityZone) this.templateOptions.metadata = { ...this.templateOptions.metadata, 'cfn-lint': { config: { ignore_checks: ['W3010'] } } };
    const vpc = new ec2.Vpc(this, 'Vpc', {
      ...(availabilityZone ? { availabilityZones: [availabilityZone] } : { maxAzs: 2 }),
      natGateways: 1,
      // Close the default security group whatever the app's feature flags say, for the NIST and HIPAA packs.
      restrictDefaultSecurityGroup: true,
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'private', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 20 },
      ],
    });
    const flowLogGroup = new logs.LogGroup(this, 'VpcFlowLogs', { retention: logs.RetentionDays.THREE_MONTHS });
    vpc.addFlowLog('FlowLog', { destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogGroup) });
    return vpc;
  }
}

/**
 * The names of the exports through which a stack's new VPC is shared with `vpcFrom`: the VPC, its CIDR, and the subnet
 * its server runs in, with that subnet's zone and route table. The CIDR is the clients' address space and the allowed
 * servers of the client-mount association. There is one subnet, so the importing stack knows the count at synth.
 */
export function sharedVpcExportNames(stackName: string): Record<'vpcId' | 'vpcCidr' | 'subnetId' | 'availabilityZone' | 'routeTableId', string> {
  return {
    vpcId: `${stackName}:VpcId`,
    vpcCidr: `${stackName}:VpcCidr`,
    subnetId: `${stackName}:SubnetId`,
    availabilityZone: `${stackName}:AvailabilityZone`,
    routeTableId: `${stackName}:RouteTableId`,
  };
}

/** Publishes the new VPC and the server's subnet under {@link sharedVpcExportNames}. */
function exportSharedVpc(stack: Stack, vpc: ec2.IVpc, subnet: ec2.ISubnet): void {
  const names = sharedVpcExportNames(stack.stackName);
  const values = {
    vpcId: vpc.vpcId,
    vpcCidr: vpc.vpcCidrBlock,
    subnetId: subnet.subnetId,
    availabilityZone: subnet.availabilityZone,
    routeTableId: subnet.routeTable.routeTableId,
  };
  for (const [key, exportName] of Object.entries(names) as [keyof typeof names, string][]) {
    new CfnOutput(stack, `Shared${key[0].toUpperCase()}${key.slice(1)}`, {
      description: 'For the stacks that join this VPC (their vpcFrom key names this stack)',
      value: values[key],
      exportName,
    });
  }
}

/** The VPC and subnet another stack of the app exported by {@link sharedVpcExportNames}: no lookup, no credentials. */
export function importSharedVpc(scope: Construct, from: string): ec2.IVpc {
  const names = sharedVpcExportNames(from);
  return ec2.Vpc.fromVpcAttributes(scope, 'Vpc', {
    vpcId: Fn.importValue(names.vpcId),
    vpcCidrBlock: Fn.importValue(names.vpcCidr),
    availabilityZones: [Fn.importValue(names.availabilityZone)],
    privateSubnetIds: [Fn.importValue(names.subnetId)],
    privateSubnetRouteTableIds: [Fn.importValue(names.routeTableId)],
  });
}

/**
 * The subnet `subnetId`, given by context `key`, of the looked-up `vpc`, whatever its type. Refused, listing the VPC's
 * subnets, if absent.
 */
function subnetById(vpc: ec2.IVpc, subnetId: string, key: string): ec2.ISubnet {
  const all = [...vpc.privateSubnets, ...vpc.isolatedSubnets, ...vpc.publicSubnets];
  const subnet = all.find((s) => s.subnetId === subnetId);
  if (subnet) return subnet;
  const listed = all.map((s) => `${s.subnetId} (${s.availabilityZone})`).join(', ') || 'none';
  throw contextError(key, subnetId, `a subnet of ${vpc.vpcId}: ${listed}`);
}

/**
 * `vpcId` is looked up at synth, which needs a concrete account and region: without them CDK's own error names
 * neither the key nor the fix.
 */
export function requireLookupEnvironment(stack: Stack, vpcId: string): void {
  const missing = [
    Token.isUnresolved(stack.account) ? 'account (CDK_DEFAULT_ACCOUNT)' : undefined,
    Token.isUnresolved(stack.region) ? 'region (CDK_DEFAULT_REGION)' : undefined,
  ].filter((m) => m !== undefined);
  if (missing.length === 0) return;
  throw new Error(`Context value vpcId=${JSON.stringify(vpcId)} needs AWS credentials with an account and a region: ` +
    'the VPC is looked up at synth, and the CDK CLI passes the account and region of your credentials to the app as ' +
    `CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION, but the ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} unknown. ` +
    'Configure credentials ' +
    '(e.g. AWS_PROFILE, or `aws configure`) and a region (AWS_REGION), or leave out vpcId to create a new VPC offline.');
}
