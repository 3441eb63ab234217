import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { DEFAULT_PARAMETER_PREFIX, clusterPath, storagePath, validateName, validatePrefix } from '../lambda/register/contract';
import { validateConcrete } from './registration';
import { DEFAULT_MOUNT_ROOTS } from './validation';
import { DEFAULT_READ_AHEAD_KIB } from './sizing/nfs-client';
import { loadClientMountScript, renderClientMountDocument } from './client-mount/document';
import {
  allowedServersParameter,
  rateExpression,
  validateMountRoots,
  validateReadAhead,
  DEFAULT_READY_TIMEOUT_MINUTES,
  validateReadyTimeout,
  validateTagKey,
} from './client-mount/validation';

/**
 * The client mount: State Manager mounts a cluster's storage servers on its client nodes with {@link ClientMount}. The
 * pieces it is made of live beside it in lib/client-mount/ and are re-exported here, where the app, the facade and the
 * tests import them: the document in document.ts, the checks of its props in validation.ts, and the mount of one server
 * through user data, `StorageServer.mountOn`, in mount-on.ts and user-data.ts.
 */
export { loadClientMountScript, renderClientMountDocument } from './client-mount/document';
export { rateExpression } from './client-mount/validation';
export { mountStorageOn } from './client-mount/mount-on';
export type { MountOnOptions, MountableStorageServer } from './client-mount/mount-on';
export {
  FORCED_MOUNT_OPTIONS,
  LUSTRE_CLIENT_INSTALL,
  hardenMountOptions,
  renderFstabUpdate,
  renderMountUserData,
} from './client-mount/user-data';

/** Default EC2 tag key that selects a cluster's client nodes; the value is the cluster name. */
export const DEFAULT_CLIENT_TAG_KEY = 'cluster';

/** Default re-run interval of the association, which is also the shortest State Manager accepts. */
export const DEFAULT_MOUNT_SCHEDULE = Duration.minutes(30);

/** The SSM actions a client needs to read its cluster's mount configs. */
export const MOUNT_READ_ACTIONS = ['ssm:GetParametersByPath', 'ssm:GetParameter', 'ssm:GetParameters'];

/** Properties of a {@link ClientMount}. */
export interface ClientMountProps {
  /** The cluster whose storage servers the clients mount: `[A-Za-z0-9_.-]`, 1-64 characters. */
  readonly clusterName: string;
  /**
   * IPv4 CIDRs that a mount config's `server` address must lie in for a node to mount it. Give the VPC's CIDR,
   * `[vpc.vpcCidrBlock]`, and every secondary block of the VPC where a server may be: a subnet of it, or a Multi-AZ
   * OpenZFS endpoint, which FSx takes from any of the VPC's blocks. Each is a canonical dotted quad and a prefix of
   * 1-32 bits; tokens are passed on unchecked. Whoever can write a cluster's mount configs in Parameter Store chooses
   * what every node mounts as root. This allowance, set on the nodes' side, keeps a forged config from mounting a
   * server outside it. The client script refuses a config outside it, reporting the parameter, and mounts the others.
   */
  readonly allowedServerCidrs: string[];
  /**
   * The directories a mount config may mount on or below: the nodes' allowlist, which is the document parameter
   * `mountRoots` and the script's `--mount-roots`. A config whose `mountPoint` is elsewhere, such as `/opt/aws`,
   * `/snap`, `/nix` or `/mnt`, is refused on the node and reported with its parameter name; the others are mounted.
   *
   * Each root is an absolute directory of `[A-Za-z0-9_.-]` segments outside the system directories of
   * `SYSTEM_DIRECTORIES`, such as `/`, `/etc`, `/usr` and `/home`. None of `/media`, `/mnt`, `/opt` and `/srv` is a
   * root itself, though a directory below one may be, such as `/opt/ohpc/pub`. A mount point may be a root itself or
   * any directory below one.
   *
   * On the node, every directory on the way from `/` must also be a directory, not a symbolic link, owned by root and
   * writable by no one else, so that no user can redirect the mount. Root makes the missing ones, 0755. No mount may
   * hide anything, so these are refused: a mount point at or above files an installed package owns, by `dpkg-query -S`
   * or `rpm -qa`; one holding files or with a mount below it; and both of a nested pair of configs. Give each
   * StorageServer of the cluster the same `mountRoots`, which checks its `mountPoint` at synth.
   * @default DEFAULT_MOUNT_ROOTS: /data, /scratch, /shared, /fsx
   */
  readonly mountRoots?: string[];
  /**
   * Add `/home` to the mount roots, for home directories on NFS: a mount config may then mount on `/home` or below it.
   * @default false
   */
  readonly allowHomeMountPoint?: boolean;
  /**
   * NFS read-ahead every node sets for its NFS mounts, KiB: the document parameter `readAheadKiB` and the script's
   * `--read-ahead-kib`. It is a whole number from 0 to `MAX_READ_AHEAD_KIB`, 1 GiB. Since Linux 5.4 the NFS client
   * reads ahead 128 KiB, which starves sequential reads. AWS recommends 15 MiB [EFS-PERF-2023], which its efs-utils
   * sets as 15 x rsize [EFSUTILS-CODE]. The script sets it on each mount's bdi at once. It also installs a udev rule,
   * and an `[nfsrahead]` section for nfs-utils' own rule, that sets it again at every later NFS mount, reboots
   * included. `0` leaves the kernel's value to later mounts and removes that rule and section. See docs/design.md,
   * section 9, and the sources in docs/sources/nconnect.md.
   * @default DEFAULT_READ_AHEAD_KIB: 15360, 15 MiB
   */
  readonly readAheadKiB?: number;
  /**
   * How long the first run on a node's boot retries failed mounts, in whole minutes from 1 to
   * `MAX_READY_TIMEOUT_MINUTES` (2865): the document parameter `readyTimeoutMinutes` and the script's
   * `--ready-timeout-minutes`. Until every mount of the cluster is in place the node's `storage-server-mounts.target`,
   * which a scheduler's daemon is ordered after (README, "Node readiness"), is not started. After the bound the run
   * prints `storage-server: ATTENTION NOT-READY <cluster>/<server>` and fails (exit 2). Later runs try once more each.
   * The SSM step's timeout is this bound plus 15 minutes; the largest is what SSM's 48-hour step limit leaves.
   * @default 10
   */
  readonly readyTimeoutMinutes?: number;
  /**
   * EC2 tag key that marks the cluster's client nodes; the association targets `<clientTagKey>=<clusterName>`.
   * @default 'cluster'
   */
  readonly clientTagKey?: string;
  /**
   * SSM Parameter Store prefix of the mount configs (docs/design.md, section 6).
   * @default '/storage-server'
   */
  readonly parameterPrefix?: string;
  /**
   * Mount only this server's config.
   * @default - every storage server of the cluster
   */
  readonly serverName?: string;
  /**
   * How often State Manager re-runs the mount on every tagged node, in whole minutes, at least State Manager's shortest
   * rate of 30. New nodes run it at once.
   * @default Duration.minutes(30)
   */
  readonly schedule?: Duration;
}

/**
 * Mounts a cluster's storage servers on its client nodes, present and future: an SSM Command document that
 * reads the cluster's mount configs from Parameter Store and keeps one fstab line per server, and a State
 * Manager association that runs it on every instance tagged `<clientTagKey>=<clusterName>`, at once on a
 * node's first boot and again on a schedule. The nodes need the SSM agent, an instance role with
 * AmazonSSMManagedInstanceCore plus {@link grantMount}, and python3; the script reads the configs with the AWS
 * CLI and installs the distribution's package of it (dnf, yum or apt-get) where it is missing.
 */
export class ClientMount extends Construct {
  /** The SSM Command document; run it by hand with Run Command as well. */
  public readonly document: ssm.CfnDocument;
  /** The State Manager association. */
  public readonly association: ssm.CfnAssociation;
  /** `<prefix>/<cluster>/storage/`: where the mount configs are read. */
  public readonly storagePath: string;
  /**
   * A managed policy with what {@link grantMount} grants, for node roles made outside CDK, such as ParallelCluster's
   * `AdditionalIamPolicies` or a Slurm cluster's launch template role.
   */
  public readonly readPolicy: iam.ManagedPolicy;
  /** The cluster whose storage servers it mounts. */
  public readonly clusterName: string;
  /** The SSM prefix of the mount configs. */
  public readonly parameterPrefix: string;
  /** The one server it mounts, when it was given one. */
  public readonly serverName?: string;
  private readonly parameterArns: string[];

  constructor(scope: Construct, id: string, props: ClientMountProps) {
    super(scope, id);
    const clientTagKey = props.clientTagKey ?? DEFAULT_CLIENT_TAG_KEY;
    const prefix = props.parameterPrefix ?? DEFAULT_PARAMETER_PREFIX;
    const schedule = props.schedule ?? DEFAULT_MOUNT_SCHEDULE;
    const allowHome = props.allowHomeMountPoint ?? false;
    const mountRoots = props.mountRoots ?? [...DEFAULT_MOUNT_ROOTS];
    const readAheadKiB = props.readAheadKiB ?? DEFAULT_READ_AHEAD_KIB;
    const readyTimeoutMinutes = props.readyTimeoutMinutes ?? DEFAULT_READY_TIMEOUT_MINUTES;

    // The names become SSM paths and IAM resources at synth time, so they must be concrete.
    validateConcrete('clusterName', props.clusterName, validateName);
    validateConcrete('parameterPrefix', prefix, validatePrefix);
    if (props.serverName !== undefined) validateConcrete('serverName', props.serverName, validateName);
    validateTagKey(clientTagKey);
    validateMountRoots(mountRoots);
    validateReadAhead(readAheadKiB);
    validateReadyTimeout(readyTimeoutMinutes);
    this.clusterName = props.clusterName;
    this.parameterPrefix = prefix;
    this.serverName = props.serverName;
    validateOnePerCluster(this);
    const allowedServers = allowedServersParameter(props.allowedServerCidrs);
    const scheduleExpression = rateExpression(schedule);

    this.storagePath = storagePath(prefix, props.clusterName);
    const stack = Stack.of(this);
    const base = stack.formatArn({
      service: 'ssm',
      resource: 'parameter',
      resourceName: this.storagePath.slice(1, -1),
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    // The tombstones too, by which a node tells a removed server from one being replaced: GetParameters by name.
    const removed = stack.formatArn({
      service: 'ssm',
      resource: 'parameter',
      resourceName: `${clusterPath(prefix, props.clusterName).slice(1)}removed/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    this.parameterArns = [base, `${base}/*`, removed];

    this.readPolicy = new iam.ManagedPolicy(this, 'ReadPolicy', {
      description: `Lets a client node read the storage mount configs of cluster ${props.clusterName}`,
      statements: [new iam.PolicyStatement({ actions: MOUNT_READ_ACTIONS, resources: this.parameterArns })],
    });
    this.acknowledgeWildcard(this.readPolicy);

    this.document = new ssm.CfnDocument(this, 'Document', {
      documentType: 'Command',
      content: renderClientMountDocument({
        script: loadClientMountScript(),
        clusterName: props.clusterName,
        parameterPrefix: prefix,
        allowedServers,
        allowHome,
        mountRoots,
        readAheadKiB,
        readyTimeoutMinutes,
      }),
    });
    this.association = new ssm.CfnAssociation(this, 'Association', {
      name: this.document.ref,
      associationName: `storage-server-mount-${props.clusterName}`,
      targets: [{ key: `tag:${clientTagKey}`, values: [props.clusterName] }],
      parameters: {
        clusterName: [props.clusterName],
        prefix: [prefix],
        allowedServers: [allowedServers],
        allowHome: [String(allowHome)],
        mountRoots: [mountRoots.join(',')],
        readAheadKiB: [String(readAheadKiB)],
        readyTimeoutMinutes: [String(readyTimeoutMinutes)],
        ...(props.serverName !== undefined ? { serverName: [props.serverName] } : {}),
      },
      scheduleExpression,
      // Run at once on creation and on every node that becomes a target, then on the schedule.
      applyOnlyAtCronInterval: false,
    });
  }

  /**
   * Lets `grantee`, a client node's instance role, instance or Auto Scaling group, read the cluster's mount configs:
   * `ssm:GetParametersByPath` and `GetParameter(s)` on `<prefix>/<cluster>/storage` and below, and on the tombstones
   * `<prefix>/<cluster>/removed/*`.
   */
  public grantMount(grantee: iam.IGrantable): iam.Grant {
    const grant = iam.Grant.addToPrincipal({
      grantee,
      actions: MOUNT_READ_ACTIONS,
      resourceArns: this.parameterArns,
    });
    const principal = grantee.grantPrincipal;
    if (Construct.isConstruct(principal)) this.acknowledgeWildcard(principal);
    return grant;
  }

  /** The two wildcards, `<prefix>/<cluster>/storage/*` and `.../removed/*`, acknowledged where the statement lands. */
  private acknowledgeWildcard(scope: Construct): void {
    for (const arn of this.parameterArns.slice(1)) {
      Validations.of(scope).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${nagArn(Stack.of(this), arn)}]`,
        reason:
          `A client reads every storage server's mount config under ${this.storagePath}, and the tombstone of each ` +
          "server removed; servers join and leave, so the policy names the cluster's paths, not single parameters.",
      });
    }
  }
}

/**
 * One association per cluster in an app: two would run the mount script twice on every node, each judging the other's
 * lines. A second server of the cluster, another StorageServer in this stack or another, needs none, since the
 * association mounts every server of the cluster. Associations for one server each, by `serverName`, may coexist.
 */
function validateOnePerCluster(mount: ClientMount): void {
  for (const other of mount.node.root.node.findAll()) {
    if (other === mount || !(other instanceof ClientMount)) continue;
    if (other.clusterName !== mount.clusterName || other.parameterPrefix !== mount.parameterPrefix) continue;
    if (other.serverName === undefined || mount.serverName === undefined || other.serverName === mount.serverName) {
      throw new Error(`clusterName '${mount.clusterName}' already has a client-mount association in this app (${other.node.path}); ` +
        'it mounts every storage server of the cluster: leave this one out (the app: -c clientMount=false for the second ' +
        "server's stack).");
    }
  }
}

/** An ARN as cdk-nag prints it in finding ids: pseudo parameters as `<AWS::Region>`. */
function nagArn(stack: Stack, arn: string): string {
  const resolved = stack.resolve(arn);
  if (typeof resolved === 'string') return resolved;
  const parts: unknown[] = resolved['Fn::Join'][1];
  return parts.map((p) => (typeof p === 'string' ? p : `<${(p as { Ref: string }).Ref}>`)).join('');
}
