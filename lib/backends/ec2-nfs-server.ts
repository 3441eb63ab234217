import { ArnFormat, Aws, CfnResource, RemovalPolicy, Size, Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { BootstrapConfig, renderLoaderUserData } from '../bootstrap';
import { ClusterwareRing } from '../clusterware';
import { DEFAULT_PARAMETER_PREFIX, storagePath } from '../../lambda/register/contract';
import { iam5 } from '../handler-function';
import { RecoveryAlarm } from '../recovery-alarm';
import { SERVER_METRIC_NAMESPACE, renderAgentConfig } from '../server-metrics';
import { ServerSettings } from '../server-settings';
import { UpdateGuard } from '../update-guard';
import type { MonitoredStorage } from '../monitoring';
import { type RegistrationTarget, SERVER_ID_TAG, type StorageBackend } from './backend';
import { SnapshotPolicy } from '../snapshot-policy';
import { dataVolumeLayout, dataVolumeType } from './data-volumes';
import { InstanceStoreSpec, OVERRIDE_INSTANCE_STORE_TYPES, StoragePlan, instanceTypeSpec, instanceTypesFor, knownInstanceType } from '../sizing';
import { warnAboutTypeTier } from '../plan-warnings';
import type { Ec2NfsServerProps, Ec2NfsServerRequest } from './ec2-nfs-server-props';

export type { Ec2NfsServerProps } from './ec2-nfs-server-props';

/**
 * The EC2 NFS server backend (EBS st1 or gp3 volumes, or instance store): the instance, its data volumes, its stable
 * network interface, the instance role, the settings document that bootstraps it, the day-2 guard of its
 * layout, and for EBS its recover alarm and snapshot policy. Built by {@link StorageServer} with the id
 * `Default`, so that its resources keep the logical ids they had when the facade made them itself.
 */
export class Ec2NfsServer extends Construct implements StorageBackend {
  /** Always `nfs4`. */
  public readonly fsType = 'nfs4' as const;
  /** The stable interface's private IP ({@link privateIp}). */
  public readonly mountAddress: string;
  /** The directory the server exports. */
  public readonly exportPath: string;
  /** The client mount options the server publishes. */
  public readonly mountOptions: string;
  /** The instance and its stable interface. */
  public readonly registrationTarget: RegistrationTarget;
  /** What the dashboard and alarms watch: the instance, its EBS volumes or its instance-store disks. */
  public readonly monitored: MonitoredStorage;
  /** The server's EC2 instance (replaced by a new one on an image, key pair or placement group change). */
  public readonly instance: ec2.Instance;
  /** NFS (TCP 2049) from the clients, on both the stable interface and the instance's own. */
  public readonly connections: ec2.Connections;
  /** The stable network interface's private IP: the address clients mount. */
  public readonly privateIp: string;
  /** The stable network interface (tagged with the server's identity; the server attaches it to itself). */
  public readonly networkInterfaceId: string;
  /** The EBS data volumes (st1 or gp3, as planned) in stripe order; none for instance store. */
  public readonly dataVolumes: ec2.Volume[];
  /** The State Manager association that applies the settings; CloudFormation waits for its first run. */
  public readonly ready: ssm.CfnAssociation;
  /** The DLM snapshot policy of the data volumes (EBS with snapshots on). */
  public readonly snapshotPolicy?: SnapshotPolicy;
  /** The clusterware ring membership, when the server joins one. */
  public readonly clusterware?: ClusterwareRing;
  /** The day-2 guard of the server's storage layout. */
  public readonly updateGuard: UpdateGuard;

  constructor(scope: Construct, id: string, p: Ec2NfsServerProps) {
    super(scope, id);
    const { server: props, plan, capacityTiB, clusterName, serverName, exportPath, subnet } = p;
    if (plan.backend === 'fsx-lustre') throw new Error('Ec2NfsServer builds the ebs and instance-store backends; fsx-lustre is FsxLustreServer');
    const backend = plan.backend;
    this.exportPath = exportPath;
    this.mountOptions = p.mountOptions;
    const exportMode = props.nfs?.exportMode ?? 'sync';
    // Retained on update and delete, not when the stack's creation rolls back: blank volumes of a failed first deploy
    // would otherwise stay tagged as this server's, and the update guard's Create refuses to start beside them.
    const removalPolicy = props.dataVolumeRemovalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
    const instanceType = props.instanceType ?? new ec2.InstanceType(plan.instanceType);
    const machineImage = serverImage(props, instanceType);
    const store = instanceStoreOf(plan, capacityTiB, instanceType);
    const instanceStoreDisks = store?.disks ?? 0;
    const instanceStore = plan.backend === 'instance-store';
    // The server encrypts instance store the platform leaves unencrypted (d2's HDDs), unless told otherwise; d3 and
    // d3en's HDDs the platform encrypts (XTS-AES-256, catalog-d3.ts): no LUKS there, and nothing to acknowledge.
    const encryptInstanceStore = store !== undefined && (props.encryptInstanceStore ?? !store.platformEncrypted);
    if (props.encryptInstanceStore === true && !store) {
      throw new Error(`encryptInstanceStore: true applies to the instance-store backend only (this server's backend is ` +
        `${plan.backend}, whose volumes EBS encrypts); leave it unset`);
    }
    const terminationProtection = props.terminationProtection ?? instanceStore;
    if (props.instanceType === undefined) {
      warnAboutTypeTier(scope, {
        capacityTiB,
        backend: props.backend ?? 'auto',
        dataVolumeCount: props.dataVolumeCount,
        throughputMBps: props.throughputMBps,
        generation: props.generation,
      });
    }

    const securityGroup = new ec2.SecurityGroup(this, 'SecurityGroup', {
      vpc: props.vpc,
      description: `NFS storage server ${serverName} of cluster ${clusterName}`,
      // NFSv4.1 needs no connection from the server to its clients (callbacks share the client's connection):
      // the server only calls AWS endpoints and package repositories, all over HTTPS.
      allowAllOutbound: false,
    });
    securityGroup.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS to AWS APIs (SSM, EC2, CloudFormation) and package repositories');
    // One group on both of the server's interfaces: the stable one clients mount, and the instance's own, so that
    // clients that mounted the instance's address before the server had a stable one keep working.
    this.connections = new ec2.Connections({ securityGroups: [securityGroup], defaultPort: ec2.Port.tcp(2049) });
    const exportCidrs = props.clientCidrs ?? [props.vpc.vpcCidrBlock];
    if (props.clientCidrs !== undefined || props.clientPeers === undefined) {
      for (const cidr of exportCidrs) this.connections.allowDefaultPortFrom(ec2.Peer.ipv4(cidr), 'NFSv4 from cluster clients');
    }
    for (const peer of props.clientPeers ?? []) this.connections.allowDefaultPortFrom(peer, 'NFSv4 from cluster clients');
    if (exportCidrs.some((c) => Token.isUnresolved(c))) {
      // cdk-nag cannot evaluate a CIDR that is a token (the new VPC's own CIDR) and reports the rule as failed.
      Validations.of(securityGroup).acknowledge({
        id: 'AwsSolutions-EC23',
        reason: 'The only token CIDR is the VPC\'s own CIDR block (Fn::GetAtt of the VPC); every literal client CIDR is validated at synth and /0 is refused.',
      });
    }

    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
      description: `Instance role of NFS storage server ${serverName}`,
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('AmazonSSMManagedInstanceCore')],
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/AmazonSSMManagedInstanceCore]',
      reason: 'AmazonSSMManagedInstanceCore is the AWS-maintained minimum for Session Manager and Run Command, which replace SSH and run the snapshot freeze scripts.',
    });
    // The managed policy lets the instance read every SSM parameter of the account. The server reads none
    // (its settings arrive in its apply document), so parameter reads are denied outside its own path, and
    // an explicit deny wins over the managed policy's allow.
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      sid: 'ParameterReadsOnlyOwnPath',
      effect: iam.Effect.DENY,
      actions: ['ssm:GetParameter', 'ssm:GetParameters', 'ssm:GetParametersByPath', 'ssm:GetParameterHistory'],
      notResources: [Stack.of(this).formatArn({
        service: 'ssm',
        resource: 'parameter',
        resourceName: `${storagePath(props.parameterPrefix ?? DEFAULT_PARAMETER_PREFIX, clusterName).slice(1)}${serverName}/*`,
        arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
      })],
    }));
    // The CloudWatch agent publishes the server's own metrics (lib/server-metrics.ts), in their namespace only.
    // PutMetricData has no resource to scope; the namespace condition is what scopes it.
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      sid: 'PublishOwnMetricsOnly',
      actions: ['cloudwatch:PutMetricData'],
      resources: ['*'],
      conditions: { StringEquals: { 'cloudwatch:namespace': SERVER_METRIC_NAMESPACE } },
    }));

    // The server's identity lives outside the instance: its data volumes and its stable interface carry it
    // (tag storage-server:id), and a replacement instance of the same server takes them over.
    const identity = `${Aws.STACK_NAME}/${serverName}`;
    const iface = new ec2.CfnNetworkInterface(this, 'Interface', {
      subnetId: subnet.subnetId,
      groupSet: [securityGroup.securityGroupId],
      description: `Stable address of NFS storage server ${serverName} of cluster ${clusterName}`,
      tags: [{ key: SERVER_ID_TAG, value: identity }],
    });
    this.networkInterfaceId = iface.ref;

    // One mapping name per disk: on Xen (d2) the mapping places each disk; on Nitro (d3, d3en) EC2 presents every NVMe
    // disk whatever the mapping says, and the bootstrap takes the names' count as the number of disks to wait for.
    // Instance store is no attachment: an instance-store server attaches its root volume and, beside the primary
    // interface, its stable one, and nothing else (no EBS data volume), within the three attachments d3.8xlarge and
    // d3en.12xlarge allow "including the root volume" (EC2 User Guide, storage optimized instances).
    const instanceStoreDevices = range(instanceStoreDisks).map((i) => `/dev/sd${letter(1 + i)}`);
    this.instance = new ec2.Instance(this, 'Instance', {
      // The Name tag the instance had when the facade made it (CDK's default is the construct path).
      instanceName: `${scope.node.path}/Instance`,
      vpc: props.vpc,
      vpcSubnets: { subnets: [subnet] },
      instanceType,
      machineImage,
      securityGroup,
      role,
      keyPair: props.keyPair,
      placementGroup: props.placementGroup,
      requireImdsv2: true,
      detailedMonitoring: true,
      ebsOptimized: true,
      disableApiTermination: terminationProtection,
      propagateTagsToVolumeOnCreation: true,
      userDataCausesReplacement: false,
      blockDevices: [
        {
          deviceName: '/dev/xvda',
          volume: ec2.BlockDeviceVolume.ebs(16, { encrypted: true, kmsKey: props.encryptionKey, volumeType: ec2.EbsDeviceVolumeType.GP3 }),
        },
        ...instanceStoreDevices.map((deviceName, i) => ({ deviceName, volume: ec2.BlockDeviceVolume.ephemeral(i) })),
      ],
    });
    this.privateIp = iface.attrPrimaryPrivateIpAddress;
    this.mountAddress = this.privateIp;
    Tags.of(this.instance).add(SERVER_ID_TAG, identity);
    // Created before the instance and deleted after it (an attached interface or volume cannot be deleted).
    this.instance.instance.node.addDependency(iface);
    if (props.machineImage === undefined && props.machineImageId === undefined) {
      Validations.of(this.instance).acknowledge({
        id: 'CloudFormation-Validate::E1152',
        reason: 'The image id is resolve:ssm:<public AL2023 parameter>, which EC2 resolves at launch (RunInstances accepts it); ' +
          'CloudFormation sees the same string at every update, so a new release never replaces the server.',
      });
      // cfn-lint knows only ami-... ids for ImageId (E1152); EC2 resolves resolve:ssm: itself at launch.
      this.instance.instance.addMetadata('cfn-lint', { config: { ignore_checks: ['E1152'] } });
    } else if (props.machineImageId !== undefined) {
      Validations.of(this.instance).acknowledge({
        id: 'CloudFormation-Validate::W9010',
        reason: 'machineImageId is a deliberate pin of one image (an AMI id belongs to one region); a parameter that ' +
          'CloudFormation re-resolves would replace the server at each new release.',
      });
    }
    // cdk-nag flags every instance-store mapping (it has no EBS encryption setting). Acknowledged only where the
    // disks are encrypted: by the server (LUKS2) or by the platform. An opt-out on d2 stays reported.
    if (store && (encryptInstanceStore || store.platformEncrypted)) {
      Validations.of(this.instance).acknowledge({
        id: 'AwsSolutions-EC26',
        reason: 'The root EBS volume is encrypted; the flagged mappings are ephemeral instance-store disks, which have no ' +
          'EBS encryption setting: ' + (encryptInstanceStore
          ? 'the server encrypts their striped volume with LUKS2 (dm-crypt, aes-xts-plain64) under a key kept on the encrypted root volume.'
          : `${instanceType.toString()}'s instance store is encrypted at rest by the platform (XTS-AES-256; EC2 User Guide, ` +
            'data protection: "The data on HDD instance store volumes on H1, D3, and D3en instances is encrypted").'),
      });
    }
    if (!terminationProtection) {
      Validations.of(this.instance).acknowledge({
        id: 'AwsSolutions-EC29',
        reason: 'The data lives on separate EBS volumes retained on update and deletion (RetainExceptOnCreate), not on the instance; termination protection is a prop (terminationProtection) for sites that want it.',
      });
    }

    this.dataVolumes = plan.dataVolumes.map((v, i) => {
      const volume = new ec2.Volume(this, `DataVolume${i}`, {
        availabilityZone: subnet.availabilityZone,
        size: Size.gibibytes(v.sizeGiB),
        ...dataVolumeType(v, i),
        encrypted: true,
        encryptionKey: props.encryptionKey,
        snapshotId: props.dataVolumeSnapshotIds?.[i],
        removalPolicy,
      });
      // Copied onto every snapshot: which stripe member a snapshot restores.
      Tags.of(volume).add('storage-server:data-volume', String(i));
      // No AWS::EC2::VolumeAttachment: the server attaches its volumes itself (storage-attach), so that a
      // replacement instance can take them from the one it replaces instead of colliding with it.
      Tags.of(volume).add(SERVER_ID_TAG, identity);
      this.instance.instance.node.addDependency(volume);
      return volume;
    });
    grantTakeOver(role, identity, iface, this.dataVolumes, props.encryptionKey);
    // The first step of the upgrade from stack-attached volumes: the attachments as they were, retained.
    const legacyAttachments = props.legacyVolumeAttachments && !instanceStore
      ? this.dataVolumes.map((volume, i) => {
        const attachment = new ec2.CfnVolumeAttachment(this, `DataVolume${i}Attachment`, {
          instanceId: this.instance.instanceId,
          volumeId: volume.volumeId,
          device: ebsDeviceName(i),
        });
        attachment.applyRemovalPolicy(RemovalPolicy.RETAIN);
        return attachment;
      })
      : [];

    let clusterwareCommands: string[] = [];
    if (props.clusterware) {
      this.clusterware = new ClusterwareRing(this, 'Clusterware', { clusterName, ...props.clusterware });
      clusterwareCommands = this.clusterware.joinCommands(this.instance);
      // serf gossips both ways: the server must also reach the master.
      const master = ec2.Peer.ipv4(`${props.clusterware.loginIp}/32`);
      securityGroup.addEgressRule(master, ec2.Port.tcp(7946), 'clusterware gossip (serf) to the master');
      securityGroup.addEgressRule(master, ec2.Port.udp(7946), 'clusterware gossip (serf) to the master');
    }

    // Every setting reaches the server through its settings document, applied by a State Manager association
    // that CloudFormation waits for (at creation, and at every update that changes a setting). User data is
    // a constant loader: a setting change never stops the instance. The association exists only after every
    // volume is attached (a Ref to each attachment's volume below, and the explicit dependency).
    // d2 is Xen: a disk mapped as /dev/sdb is the kernel's xvdb (the agent's diskio and the dashboard name it so). On
    // Nitro (d3, d3en) the kernel names the NVMe disks nvme<N>n1 in the order it finds them, the root volume among
    // them: nvme0n1 to nvme<disks>n1 are the root volume and every instance-store disk, in an order AWS does not fix.
    const diskNames = store?.nvme
      ? range(instanceStoreDisks + 1).map((i) => `nvme${i}n1`)
      : instanceStoreDevices.map((d) => d.replace(/^\/dev\/sd/, 'xvd'));
    const bootstrap: BootstrapConfig = {
      backend,
      ebsVolumes: this.dataVolumes.map((v, i) => ({
        volumeId: v.volumeId,
        device: ebsDeviceName(i),
        sizeGiB: plan.dataVolumes[i].sizeGiB,
      })),
      instanceStoreDevices,
      exportPath: exportPath,
      clientCidrs: exportCidrs,
      nfsThreads: props.nfs?.threads,
      exportMode,
      nfsVersions: ['4.1', '4.2'],
      stripeSizeKiB: 256,
      volumeWaitSeconds: 900,
      // The array's owner: this stack's server. A server created from snapshots adopts the array they hold.
      identity,
      restored: props.dataVolumeSnapshotIds !== undefined,
      networkInterfaceId: iface.ref,
      encryption: encryptInstanceStore ? 'luks2' : 'none',
      metrics: {
        clusterName,
        serverName,
        agentConfig: renderAgentConfig({ clusterName, serverName, instanceStoreDisks: diskNames }),
      },
    };
    this.instance.userData.addCommands(...renderLoaderUserData());
    const settings = new ServerSettings(this, 'Settings', {
      instance: this.instance,
      config: bootstrap,
      extraCommands: clusterwareCommands,
    });
    settings.association.node.addDependency(...legacyAttachments);
    denyOtherDocuments(role, settings.document);
    this.ready = settings.association;
    this.registrationTarget = { instance: this.instance, networkInterfaceId: this.networkInterfaceId };
    this.monitored = {
      instance: this.instance, dataVolumes: this.dataVolumes, dataVolumePlans: plan.dataVolumes, instanceStoreDisks: diskNames,
    };

    // The day-2 guard holds the storage layout. Everything that holds data, or applies settings to it, depends
    // on it: CloudFormation updates the guard first, and a refused change fails before anything else changed.
    const cfnInstance = this.instance.node.defaultChild as ec2.CfnInstance;
    this.updateGuard = new UpdateGuard(this, 'UpdateGuard', {
      layout: {
        backend: plan.backend,
        instanceStoreType: instanceStore ? instanceType.toString() : '',
        dataVolumes: plan.dataVolumes.map((v, index) => dataVolumeLayout(index, v)),
        snapshotIds: props.dataVolumeSnapshotIds ?? [],
        encryptionKey: props.encryptionKey?.keyArn ?? 'aws/ebs',
        availabilityZone: subnet.availabilityZone,
        imageId: cfnInstance.imageId ?? '',
        keyPair: cfnInstance.keyName ?? '',
        placementGroup: cfnInstance.placementGroupName ?? '',
        volumeAttachment: legacyAttachments.length > 0 ? 'retained' : 'server',
        fileSystemType: '',
        perUnitStorageThroughput: '',
        storageCapacityGiB: '',
        subnetId: '',
        instanceStoreEncryption: encryptInstanceStore ? 'luks2' : '',
      },
      acceptDataLoss: props.acceptDataLoss,
      // What holds the data and the address, watched by CloudFormation's replacement rules: the instance (an
      // instance-store server's disks; on EBS its replacement is allowed), the stable interface, each volume.
      watch: [
        { role: 'Instance', resource: cfnInstance },
        { role: 'Interface', resource: iface },
        ...this.dataVolumes.map((v, i) => ({ role: `DataVolume${i}`, resource: v.node.defaultChild as CfnResource })),
      ],
      identity: { clusterName, serverName, serverId: identity },
    });
    // The CfnInstance, not the Instance construct: its launch template and instance profile hold no data, and
    // the guard records the launch template version the instance references (a dependency the other way).
    for (const dependent of [cfnInstance, ...this.dataVolumes, iface, ...legacyAttachments, settings]) {
      dependent.node.addDependency(this.updateGuard.resource);
    }

    // The instance-store data-loss warning is the facade's (lib/plan-warnings.ts), with the plan's other warnings.
    if (!instanceStore) {
      new RecoveryAlarm(this, 'Recovery', { instance: this.instance });
      const retain = props.snapshots?.retain ?? 7;
      if (retain > 0) {
        this.snapshotPolicy = new SnapshotPolicy(this, 'Snapshots', {
          instance: this.instance,
          dataMountPath: exportPath,
          retain,
          intervalHours: props.snapshots?.intervalHours,
          startTimeUtc: props.snapshots?.startTimeUtc,
          applicationConsistent: props.snapshots?.applicationConsistent,
          crossRegionCopy: props.snapshots?.crossRegionCopy,
        });
      }
    }

  }
}

/**
 * What the instance role needs for a server to take over its own volumes and interface (storage-attach):
 * attach them to itself only (ec2:SourceInstanceARN equal to the target instance, the pattern of AWS's managed
 * policy AWSEC2VssSnapshotPolicy), and stop a previous instance of the same server and detach them from it
 * (instances tagged with this server's identity). Volumes and interface are named by ARN; describing them has no
 * resource-level permissions in EC2.
 */
function grantTakeOver(
  role: iam.Role,
  identity: string,
  iface: ec2.CfnNetworkInterface,
  volumes: ec2.Volume[],
  encryptionKey: kms.IKey | undefined,
): void {
  const stack = Stack.of(role);
  const arn = (resource: string, resourceName: string): string => stack.formatArn({ service: 'ec2', resource, resourceName });
  const anyInstance = arn('instance', '*');
  const interfaceArn = arn('network-interface', iface.ref);
  const ebs = volumes.length > 0;
  const attach = [...(ebs ? ['ec2:AttachVolume'] : []), 'ec2:AttachNetworkInterface'];
  const detach = [...(ebs ? ['ec2:DetachVolume'] : []), 'ec2:DetachNetworkInterface'];
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'AttachToSelfOnly',
    actions: attach,
    resources: [anyInstance],
    conditions: { ArnLike: { 'ec2:SourceInstanceARN': arn('instance', '${ec2:InstanceId}') } },
  }));
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'ReleaseFromPreviousInstanceOfThisServer',
    actions: ['ec2:StopInstances', ...detach],
    resources: [anyInstance],
    conditions: { StringEquals: { [`aws:ResourceTag/${SERVER_ID_TAG}`]: identity } },
  }));
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'OwnVolumesAndInterface',
    actions: [...attach, ...detach],
    resources: [interfaceArn, ...volumes.map((v) => arn('volume', v.volumeId))],
  }));
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'DescribeWhatItTakesOver',
    actions: [...(ebs ? ['ec2:DescribeVolumes'] : []), 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstances'],
    resources: ['*'],
  }));
  // Attaching a volume encrypted with a customer managed key lets EC2 create a grant on the key for it.
  encryptionKey?.grant(role, 'kms:CreateGrant').principalStatement?.addCondition('Bool', { 'kms:GrantIsForAWSResource': true });
  Validations.of(role).acknowledge({
    id: iam5(role, anyInstance),
    reason: 'Instance ids are not known before the instance exists: attach is limited to the calling instance itself ' +
      '(ec2:SourceInstanceARN), stop and detach to instances tagged as this same server.',
  });
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'ec2:DescribeVolumes, DescribeNetworkInterfaces and DescribeInstances support no resource-level permissions.',
  });
}

/**
 * AmazonSSMManagedInstanceCore lets the instance read every SSM document of the account. Its agent reads the
 * document of the association that targets it (the server's settings) and AWS's own documents (the agent's plugins,
 * Session Manager), whose ARNs carry no account; an explicit deny wins over the managed policy's allow for the rest.
 */
function denyOtherDocuments(role: iam.Role, settingsDocument: ssm.CfnDocument): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    sid: 'DocumentReadsOnlyOwnSettings',
    effect: iam.Effect.DENY,
    actions: ['ssm:GetDocument', 'ssm:DescribeDocument'],
    notResources: [
      Stack.of(role).formatArn({ service: 'ssm', resource: 'document', resourceName: settingsDocument.ref }),
      `arn:${Aws.PARTITION}:ssm:*::document/*`,
    ],
  }));
}

/** The public parameter EC2 resolves at launch for the default image: the latest Amazon Linux 2023 on x86_64. */
export const DEFAULT_IMAGE_PARAMETER = '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64';
/**
 * The same for an arm64 (AWS Graviton) instance type: the parameter aws-cdk-lib's `MachineImage.latestAmazonLinux2023`
 * names for `InstanceArchitecture.ARM_64` (aws-ec2/lib/machine-image/amazon-linux-2023.ts).
 */
export const DEFAULT_ARM64_IMAGE_PARAMETER = '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-arm64';

/**
 * The server's image. The default is `resolve:ssm:<parameter>` in the template: EC2 resolves it when it launches
 * the instance, and CloudFormation sees the same string at every later update, so a new Amazon Linux release
 * never replaces the server. `machineImageId` is the deliberate change.
 */
function serverImage(props: Ec2NfsServerRequest, instanceType: ec2.InstanceType): ec2.IMachineImage {
  if (props.machineImageId !== undefined && props.machineImage !== undefined) {
    throw new Error('machineImageId and machineImage are mutually exclusive: give one of them.');
  }
  if (props.machineImage) return props.machineImage;
  const id = props.machineImageId;
  if (id === undefined) {
    return ec2.MachineImage.resolveSsmParameterAtLaunch(architectureOf(instanceType) === 'arm64' ? DEFAULT_ARM64_IMAGE_PARAMETER : DEFAULT_IMAGE_PARAMETER);
  }
  if (!Token.isUnresolved(id) && !/^ami-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id)) {
    throw new Error(`machineImageId must be an image id such as 'ami-0123456789abcdef0', got '${id}'.`);
  }
  return { getImage: () => ({ imageId: id, osType: ec2.OperatingSystemType.LINUX, userData: ec2.UserData.forLinux() }) };
}

/**
 * The image architecture of an instance type: the catalogue's `arch` for a type it knows, else aws-cdk-lib's reading
 * of the type's name (a Graviton family carries a `g` after its generation, such as m7g or c6gn). An x86_64 image
 * does not boot on Graviton, nor an arm64 one on x86_64.
 */
function architectureOf(instanceType: ec2.InstanceType): 'x86_64' | 'arm64' {
  const name = instanceType.toString();
  if (knownInstanceType(name)) return instanceTypeSpec(name).arch;
  return instanceType.architecture === ec2.InstanceArchitecture.ARM_64 ? 'arm64' : 'x86_64';
}

/**
 * The instance store the block device mapping lists (undefined for EBS): the planned type's, or an override's.
 * An instance-type override on the instance-store backend must be a d2, d3 or d3en whose disks hold the requested capacity.
 */
function instanceStoreOf(plan: StoragePlan, capacityTiB: number, instanceType: ec2.InstanceType): InstanceStoreSpec | undefined {
  if (plan.backend !== 'instance-store') return undefined;
  const name = instanceType.toString();
  const fitting = instanceTypesFor(plan, capacityTiB);
  const spec = OVERRIDE_INSTANCE_STORE_TYPES.find((t) => t.name === name && fitting.includes(name));
  if (!spec?.instanceStore) {
    throw new Error(`instanceType: for ${capacityTiB} TiB on the instance-store backend it must be one of ` +
      `${fitting.join(', ')}, got '${name}'.`);
  }
  return spec.instanceStore;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** 'a' + i: device letters. */
function letter(i: number): string {
  return String.fromCharCode('a'.charCodeAt(0) + i);
}

/** EBS data volumes attach at /dev/sdf, /dev/sdg, ... (the range AWS recommends for EBS on Xen and Nitro). */
function ebsDeviceName(i: number): string {
  return `/dev/sd${letter(5 + i)}`;
}
