import { Token, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';
import { clientEgressPorts, clientPorts } from '../lambda/register/existing/access';
import { existingFsType, existingPathProblem } from '../lambda/register/existing/record-values';
import { allowedOptionsProblem } from '../lambda/value-check/mount-options';
import { directoryProblem } from '../lambda/value-check/mounts';
import { clientMountOptions } from './backends/ec2/mount-options';
import { LUSTRE_MOUNT_OPTIONS } from './backends/fsx-lustre';
import { openZfsMountOptions } from './backends/openzfs/mount-options';
import { acknowledgeCompliance } from './compliance';
import { ServerRegistration } from './registration';

/** What kind of storage an {@link ExistingStorageSource} names; each is a `backend` of the records. */
export enum ExistingStorageKind {
  /** An Amazon FSx for Lustre file system, mounted with the Lustre client. */
  FSX_LUSTRE = 'fsx-lustre',
  /** An Amazon FSx for OpenZFS file system, mounted over NFS by its DNS name. */
  FSX_OPENZFS = 'fsx-openzfs',
  /** An Amazon EFS file system, mounted over NFS by its DNS name. */
  EFS = 'efs',
  /** An NFS server this project did not deploy, mounted by its IPv4 address. */
  NFS = 'nfs',
}

/** Options of {@link ExistingStorageSource.fsxOpenZfs}. */
export interface FsxOpenZfsSourceOptions {
  /**
   * The volume to mount: `/fsx`, the root volume, or a child volume's path below it.
   * @default '/fsx'
   */
  readonly volumePath?: string;
}

/** Options of {@link ExistingStorageSource.efs}. */
export interface EfsSourceOptions {
  /**
   * The directory of the file system to mount.
   * @default '/' (the file system's root)
   */
  readonly path?: string;
  /**
   * Mount over TLS (encryption in transit, which AWS recommends for EFS) through amazon-efs-utils' mount helper: the
   * record's fsType is `efs` and its options carry `tls`. A node without the helper (`mount.efs`) does not mount the file
   * system at all, and says so (`ATTENTION NO-EFS-UTILS`): Amazon Linux has the package in its repositories, other
   * distributions build it from source. Off by default, so that a file system mounts on every node with an NFS client;
   * turn it on where the nodes have amazon-efs-utils or the data must not cross the network in the clear.
   * @default false
   */
  readonly tls?: boolean;
}

/**
 * Storage that exists already, for an {@link ExistingStorage} to register: made by one of the static methods, one per
 * kind. A file system is named by its id, described at deploy; an NFS server by its address and export.
 */
export class ExistingStorageSource {
  /** An Amazon FSx for Lustre file system, `fs-...`, mounted at its root (its mount name, which FSx gives). */
  public static fsxLustre(fileSystemId: string): ExistingStorageSource {
    return new ExistingStorageSource(ExistingStorageKind.FSX_LUSTRE, fileSystemId, '/');
  }

  /** An Amazon FSx for OpenZFS file system, `fs-...`, mounted over NFS v4.1. */
  public static fsxOpenZfs(fileSystemId: string, options: FsxOpenZfsSourceOptions = {}): ExistingStorageSource {
    return new ExistingStorageSource(ExistingStorageKind.FSX_OPENZFS, fileSystemId, options.volumePath ?? '/fsx');
  }

  /**
   * An Amazon EFS file system, `fs-...`, mounted over NFS v4.1 as the EFS guide mounts it, or with `tls` by the EFS
   * mount helper over TLS.
   */
  public static efs(fileSystemId: string, options: EfsSourceOptions = {}): ExistingStorageSource {
    return new ExistingStorageSource(ExistingStorageKind.EFS, fileSystemId, options.path ?? '/', options.tls ?? false);
  }

  /** An NFS server at a private IPv4 `address`, exporting `exportPath`. */
  public static nfs(address: string, exportPath: string): ExistingStorageSource {
    return new ExistingStorageSource(ExistingStorageKind.NFS, address, exportPath);
  }

  /**
   * @param kind what the storage is
   * @param id the file system's id, or the NFS server's address
   * @param exportPath the path mounted: FSx for Lustre's is `/`, its root
   * @param tls whether the nodes mount it over TLS: EFS only
   */
  private constructor(
    public readonly kind: ExistingStorageKind,
    public readonly id: string,
    public readonly exportPath: string,
    public readonly tls: boolean = false,
  ) {}
}

/** Properties of an {@link ExistingStorage}. */
export interface ExistingStorageProps {
  /** The cluster whose nodes mount it: the records' cluster, as a `StorageServer`'s `clusterName`. */
  readonly clusterName: string;
  /** Its name in the cluster's records: `[A-Za-z0-9_.-]`, 1-64 characters, unique in the cluster. */
  readonly serverName: string;
  /** What to register. */
  readonly storage: ExistingStorageSource;
  /** Where the nodes mount it: below one of the client mount document's mount roots. */
  readonly mountPoint: string;
  /**
   * Allow a `mountPoint` of `/home` or below, for home directories on shared storage; the client mount document needs
   * the same opt-in (`ClientMountProps.allowHomeMountPoint`).
   * @default false
   */
  readonly allowHomeMountPoint?: boolean;
  /**
   * The cluster's VPC: a file system must be reachable in it (FSx: in it; EFS: a mount target in it). Required for
   * the file systems; an NFS server's address is checked by the nodes against their allowed servers instead.
   * @default - none: only for `ExistingStorageSource.nfs`
   */
  readonly vpc?: ec2.IVpc;
  /**
   * The clients' CIDRs. At deploy the file system's security groups must admit each on the kind's ports, or the
   * registration fails saying which rule is missing. For an NFS server, only with `storageSecurityGroup`.
   * @default - none; `clientPeers` names the clients
   */
  readonly clientCidrs?: string[];
  /**
   * The clients' security groups, checked likewise.
   * @default - none; `clientCidrs` names the clients
   */
  readonly clientPeers?: ec2.ISecurityGroup[];
  /**
   * A security group of the storage (of an FSx file system's interfaces, of an EFS file system's mount targets, or of
   * the NFS server) to which this stack adds ingress from `clientCidrs` and `clientPeers` on the kind's ports: FSx for
   * Lustre TCP 988 and 1018-1023 (and egress to them on the same ports, LUSTRE-EGRESS), the others TCP 2049. The
   * registration is made after the rules, so its check at deploy finds them. The rules are resources of this stack,
   * also where the group is another stack's, and go with it.
   * @default - none: the storage's groups must admit the clients already, and the registration refuses it otherwise
   */
  readonly storageSecurityGroup?: ec2.ISecurityGroup;
  /**
   * The nodes' mount options, held at synth and on every node to the client's option allowlist.
   * @default - by kind: FSx for Lustre `relatime,flock`; EFS the EFS guide's NFS options with `noresvport` (and `tls`
   * first with `tls: true`); FSx for OpenZFS NFS v4.1 with 256 KiB transfers, which every throughput capacity accepts;
   * NFS this project's NFS options
   */
  readonly mountOptions?: string;
  /**
   * SSM path under which the cluster's records live.
   * @default '/storage-server'
   */
  readonly parameterPrefix?: string;
}

/**
 * Registers storage that exists already into a cluster's records, so that every node mounts it by the same
 * association and checks as a deployed server (docs/design.md, section 9). Nothing of the storage is created or
 * changed: the registration describes it at deploy, refuses it with the reason when the cluster's clients could not
 * reach it, and removes its records when this construct is removed.
 */
export class ExistingStorage extends Construct {
  /** `<prefix>/<cluster>/ring/<server>`. */
  public readonly ringParameterName: string;
  /** `<prefix>/<cluster>/storage/<server>/mount`. */
  public readonly mountParameterName: string;

  constructor(scope: Construct, id: string, props: ExistingStorageProps) {
    super(scope, id);
    const { kind } = props.storage;
    const isFileSystem = kind !== ExistingStorageKind.NFS;
    if (isFileSystem && props.vpc === undefined) throw new Error(`vpc is required for existing storage of kind ${kind}: the file system must be reachable in the cluster's VPC`);
    const clientsGiven = props.clientCidrs !== undefined || props.clientPeers !== undefined;
    if (!isFileSystem && (props.vpc !== undefined || (clientsGiven && props.storageSecurityGroup === undefined))) {
      throw new Error(
        'vpc, clientCidrs and clientPeers name what an existing file system is checked against; an NFS server ' +
          '(ExistingStorageSource.nfs) is checked by the nodes against their allowed servers, and takes clientCidrs ' +
          'and clientPeers only as the sources of storageSecurityGroup\'s rules',
      );
    }
    if (isFileSystem && (props.clientCidrs ?? []).length + (props.clientPeers ?? []).length === 0) {
      throw new Error("clientCidrs or clientPeers must name the cluster's clients, whom the file system's security groups must admit");
    }
    const { tls } = props.storage;
    const mountOptions = props.mountOptions ?? `${tls ? 'tls,' : ''}${defaultMountOptions(kind)}`;
    checkLiteral('storage path', props.storage.exportPath, (v) => existingPathProblem(kind, v));
    // The registration writes fsType efs for options with tls (EFS-TLS-TYPE), and the nodes take tls on efs alone: the
    // prop says which is meant, so tls in the options without it, or it without tls, is refused.
    checkLiteral('mountOptions', mountOptions, (v) => allowedOptionsProblem(v, tls ? 'efs' : existingFsType(kind), kind));
    if (tls && Token.isUnresolved(mountOptions)) {
      throw new Error('mountOptions must be a literal with tls: true: the records mount over TLS only options that carry "tls", which a token hides until deploy');
    }
    checkLiteral('mountPoint', props.mountPoint, (v) => directoryProblem(v, { allowHome: props.allowHomeMountPoint ?? false }));
    const registration = new ServerRegistration(this, 'Registration', {
      existing: {
        kind,
        ...(isFileSystem ? { fileSystemId: props.storage.id } : { address: props.storage.id }),
        ...(isFileSystem ? {
          vpcId: props.vpc?.vpcId,
          clientCidrs: props.clientCidrs,
          clientGroupIds: props.clientPeers?.map((g) => g.securityGroupId),
        } : {}),
      },
      clusterName: props.clusterName,
      serverName: props.serverName,
      parameterPrefix: props.parameterPrefix,
      exportPath: props.storage.exportPath,
      mountPoint: props.mountPoint,
      mountOptions,
      backend: kind,
    });
    this.ringParameterName = registration.ringParameterName;
    this.mountParameterName = registration.mountParameterName;
    if (props.storageSecurityGroup !== undefined) {
      registration.resource.node.addDependency(admitToStorage(this, kind, props.storageSecurityGroup, props));
    }
  }
}

/**
 * The ingress rules of `storageSecurityGroup`, each a resource of this construct's stack: the group's own
 * addIngressRule would put them inline in the group's stack where it is another, where they would outlive this one.
 */
function admitToStorage(scope: Construct, kind: ExistingStorageKind, group: ec2.ISecurityGroup, props: ExistingStorageProps): Construct {
  const cidrs = props.clientCidrs ?? [];
  const peers = props.clientPeers ?? [];
  if (cidrs.length + peers.length === 0) throw new Error('storageSecurityGroup is given, but no clientCidrs or clientPeers to admit to it');
  const rules = new Construct(scope, 'StorageIngress');
  // An NFS server is mounted over NFS v4.1 alone: TCP 2049, as EFS is.
  const ports = clientPorts(kind === ExistingStorageKind.NFS ? ExistingStorageKind.EFS : kind);
  const description = `Clients of ${props.clusterName}/${props.serverName} (storage-server)`;
  const sources = [
    ...cidrs.map((cidrIp) => ({ cidrIp })),
    ...peers.map((peer) => ({ sourceSecurityGroupId: peer.securityGroupId })),
  ];
  sources.forEach((source, i) => ports.forEach((p) => new ec2.CfnSecurityGroupIngress(rules, `Client${i}Tcp${p.from}`, {
    groupId: group.securityGroupId, ipProtocol: 'tcp', fromPort: p.from, toPort: p.to, description, ...source,
  })));
  // LUSTRE-EGRESS: a group that does not allow all outbound traffic must let Lustre's servers call the clients.
  const egress = kind === ExistingStorageKind.NFS ? [] : clientEgressPorts(kind);
  const destinations = [
    ...cidrs.map((cidrIp) => ({ cidrIp })),
    ...peers.map((peer) => ({ destinationSecurityGroupId: peer.securityGroupId })),
  ];
  destinations.forEach((destination, i) => egress.forEach((p) => new ec2.CfnSecurityGroupEgress(rules, `Client${i}EgressTcp${p.from}`, {
    groupId: group.securityGroupId, ipProtocol: 'tcp', fromPort: p.from, toPort: p.to, description, ...destination,
  })));
  // cdk-nag cannot evaluate a token CIDR and reports these rules as failed; literal CIDRs are evaluated as usual.
  if (cidrs.some((c) => Token.isUnresolved(c))) {
    const reason = "A token client CIDR is a VPC's CIDR block, read from its stack; the rules open only the storage's " +
      `ports (${ports.map((p) => p.from === p.to ? p.from : `${p.from}-${p.to}`).join(', ')}), never SSH or the common ports, and literal CIDRs are validated at synth.`;
    Validations.of(rules).acknowledge({ id: 'AwsSolutions-EC23', reason });
    acknowledgeCompliance(rules, 'EC2RestrictedSSH', reason);
    acknowledgeCompliance(rules, 'EC2RestrictedCommonPorts', reason);
  }
  return rules;
}

/** Throws naming `prop` where a literal value has the problem `problem` finds; a token is checked on the nodes. */
function checkLiteral(prop: string, value: string, problem: (v: string) => string | undefined): void {
  const why = Token.isUnresolved(value) ? undefined : problem(value);
  if (why !== undefined) throw new Error(`${prop} ${JSON.stringify(value)} is refused by the nodes' client: ${why}`);
}

/**
 * The mount options of each kind when the props give none. EFS: the EFS User Guide's "Mount settings used by EFS mount
 * helper" (EFS-MOUNT-OPTIONS), `noresvport` included, which EFS takes; OpenZFS: its guide's, at the transfer size of
 * its smallest throughput, since the file system's is known only at deploy.
 */
function defaultMountOptions(kind: ExistingStorageKind): string {
  switch (kind) {
    case ExistingStorageKind.FSX_LUSTRE:
      return LUSTRE_MOUNT_OPTIONS;
    case ExistingStorageKind.FSX_OPENZFS:
      return openZfsMountOptions(64);
    case ExistingStorageKind.EFS:
      return 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev,nosuid,nodev';
    case ExistingStorageKind.NFS:
      return clientMountOptions('4.1');
  }
}

/** The app's `-c existingStorage=<kind>:<target>` forms, one per kind, for its messages. */
export const EXISTING_STORAGE_FORMS = 'fsx-lustre:fs-<id>, fsx-openzfs:fs-<id>[:<volume path>], efs:fs-<id>[:<directory>] ' +
  '(efs+tls:... over TLS) or nfs:<private IPv4>:<export path>';

/** What each kind is, in words for the app stack's description and outputs. */
export const EXISTING_STORAGE_WHAT: Record<ExistingStorageKind, string> = {
  [ExistingStorageKind.FSX_LUSTRE]: 'Existing FSx for Lustre file system',
  [ExistingStorageKind.FSX_OPENZFS]: 'Existing FSx for OpenZFS file system',
  [ExistingStorageKind.EFS]: 'Existing EFS file system',
  [ExistingStorageKind.NFS]: 'Existing NFS server',
};


/**
 * The source of `kind` at `id` with `path` as typed after it, which existingPathProblem passed; absent: the kind's
 * default. `tls`: EFS over TLS.
 */
export function existingStorageSource(kind: ExistingStorageKind, id: string, path: string | undefined, tls = false): ExistingStorageSource {
  switch (kind) {
    case ExistingStorageKind.FSX_LUSTRE:
      return ExistingStorageSource.fsxLustre(id);
    case ExistingStorageKind.FSX_OPENZFS:
      return ExistingStorageSource.fsxOpenZfs(id, { volumePath: path });
    case ExistingStorageKind.EFS:
      return ExistingStorageSource.efs(id, { path, tls });
    case ExistingStorageKind.NFS:
      return ExistingStorageSource.nfs(id, path!);
  }
}
