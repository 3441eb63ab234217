import { ArnFormat, Duration, Fn, Stack, Token, Validations } from 'aws-cdk-lib';
import type * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct, IDependable } from 'constructs';
import {
  DEFAULT_PARAMETER_PREFIX,
  type FsType,
  fstabLine,
  storagePath,
  validateName,
  validatePrefix,
} from '../lambda/register/contract';
import { heredocBody, linuxShellDocument, readScript } from './script-file';
import { validateConcrete } from './registration';
import { DEFAULT_MOUNT_ROOTS, MAX_READ_AHEAD_KIB, mountRootProblem } from './validation';
import { DEFAULT_READ_AHEAD_KIB } from './sizing/nfs-client';

/** File name of the client mount script under lib/scripts. */
export const CLIENT_MOUNT_SCRIPT_NAME = 'client-mount.sh';

/** Default EC2 tag key that selects a cluster's client nodes (the value is the cluster name). */
export const DEFAULT_CLIENT_TAG_KEY = 'cluster';

/** Default re-run interval of the association (also the shortest State Manager accepts). */
export const DEFAULT_MOUNT_SCHEDULE = Duration.minutes(30);

/** The SSM actions a client needs to read its cluster's mount configs. */
export const MOUNT_READ_ACTIONS = ['ssm:GetParametersByPath', 'ssm:GetParameter', 'ssm:GetParameters'];

/**
 * Mount options added to every client mount, whatever the record says: no setuid programs and no device
 * files from a storage server (the client script adds the same two; see {@link hardenMountOptions}).
 */
export const FORCED_MOUNT_OPTIONS = ['nosuid', 'nodev'] as const;

/**
 * An IPv4 CIDR as the client script accepts it in `--allowed-servers`: a canonical dotted quad (no leading
 * zeros, each number 0-255) and a prefix of 1-32 bits. The document's allowedPattern repeats it.
 */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const CIDR = `${OCTET}(\\.${OCTET}){3}/(3[0-2]|[12][0-9]|[1-9])`;
const ALLOWED_SERVERS_PATTERN = `^${CIDR}(,${CIDR})*$`;

/**
 * The mountRoots parameter: a comma list of absolute paths of `[A-Za-z0-9_.-]` segments (no quote, space or shell
 * character reaches the command line); the script refuses `.`/`..` segments and system directories itself.
 */
const MOUNT_ROOTS_PATTERN = '^(/[A-Za-z0-9_.-]+)+(,(/[A-Za-z0-9_.-]+)+)*$';

/**
 * The readAheadKiB parameter: plain decimal digits, at most 7 (no sign, no leading zero); the script checks the range,
 * 0 to MAX_READ_AHEAD_KIB, itself.
 */
const READ_AHEAD_PATTERN = '^(0|[1-9][0-9]{0,6})$';

/** Heredoc delimiter that embeds the script in the document's shell step. */
const HEREDOC_END = 'STORAGE_SERVER_CLIENT_MOUNT_SH';
const NAME_PATTERN = '^[A-Za-z0-9_.-]{1,64}$';

/** Properties of a {@link ClientMount}. */
export interface ClientMountProps {
  /** The cluster whose storage servers the clients mount: `[A-Za-z0-9_.-]`, 1-64 characters. */
  readonly clusterName: string;
  /**
   * IPv4 CIDRs a mount config's `server` address must lie in for a node to mount it, e.g. the VPC's CIDR
   * (`[vpc.vpcCidrBlock]`): a canonical dotted quad and a prefix of 1-32 bits each (tokens are passed on
   * unchecked). Whoever can write a cluster's mount configs in Parameter Store chooses what every node mounts
   * as root; this allowance, set on the nodes' side, keeps a forged config from mounting a server outside it.
   * The client script refuses a config outside it, reporting the parameter, and mounts the others.
   */
  readonly allowedServerCidrs: string[];
  /**
   * The directories a mount config may mount on or below: the nodes' allowlist (the document parameter
   * `mountRoots`, the script's `--mount-roots`). A config whose `mountPoint` is elsewhere (`/opt/aws`, `/snap`,
   * `/nix`, `/mnt`, ...) is refused on the node, reported with its parameter name, and the others are mounted.
   * Each root is an absolute directory of `[A-Za-z0-9_.-]` segments outside the system directories (`/`, `/etc`,
   * `/usr`, `/home`, ...: `SYSTEM_DIRECTORIES`). A mount point may be a root itself or any directory below one. On
   * the node, every directory on the way from `/` must also be a directory (not a symbolic link) owned by root and
   * writable by no one else, so that no user can redirect the mount; missing ones are made by root, 0755. Give
   * each StorageServer of the cluster the same `mountRoots`, which checks its `mountPoint` at synth.
   * @default DEFAULT_MOUNT_ROOTS: /data, /scratch, /shared, /fsx
   */
  readonly mountRoots?: string[];
  /**
   * Add `/home` to the mount roots: a mount config may mount on `/home` or below it (home directories on NFS).
   * @default false
   */
  readonly allowHomeMountPoints?: boolean;
  /**
   * NFS read-ahead every node sets for its NFS mounts, KiB (the document parameter `readAheadKiB`, the script's
   * `--read-ahead-kib`): a whole number from 0 to `MAX_READ_AHEAD_KIB` (1 GiB). Since Linux 5.4 the NFS client reads
   * ahead 128 KiB, which starves sequential reads; AWS recommends 15 MiB [EFS-PERF-2023], which its efs-utils sets
   * as 15 x rsize [EFSUTILS-CODE]. The script sets it on each mount's bdi at once and installs a udev rule (and an
   * `[nfsrahead]` section for nfs-utils' own rule) that sets it again at every later NFS mount, reboots included.
   * `0` leaves the kernel's value to later mounts and removes that rule and section (docs/design.md, section 9;
   * sources: docs/sources/nconnect.md).
   * @default DEFAULT_READ_AHEAD_KIB: 15360 (15 MiB)
   */
  readonly readAheadKiB?: number;
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
   * How often State Manager re-runs the mount on every tagged node (new nodes run it at once): whole
   * minutes, at least 30 (State Manager's shortest rate).
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
  /** The SSM Command document (run it by hand with Run Command as well). */
  public readonly document: ssm.CfnDocument;
  /** The State Manager association. */
  public readonly association: ssm.CfnAssociation;
  /** `<prefix>/<cluster>/storage/`: where the mount configs are read. */
  public readonly storagePath: string;
  /**
   * A managed policy with what {@link grantMount} grants, for node roles made outside CDK (ParallelCluster's
   * `AdditionalIamPolicies`, a Slurm cluster's launch template role).
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
    const allowHome = props.allowHomeMountPoints ?? false;
    const mountRoots = props.mountRoots ?? [...DEFAULT_MOUNT_ROOTS];
    const readAheadKiB = props.readAheadKiB ?? DEFAULT_READ_AHEAD_KIB;

    // The names become SSM paths and IAM resources at synth time, so they must be concrete.
    validateConcrete('clusterName', props.clusterName, validateName);
    validateConcrete('parameterPrefix', prefix, validatePrefix);
    if (props.serverName !== undefined) validateConcrete('serverName', props.serverName, validateName);
    validateTagKey(clientTagKey);
    validateMountRoots(mountRoots);
    validateReadAhead(readAheadKiB);
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
    this.parameterArns = [base, `${base}/*`];

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
        ...(props.serverName !== undefined ? { serverName: [props.serverName] } : {}),
      },
      scheduleExpression,
      // Run at once on creation and on every node that becomes a target, then on the schedule.
      applyOnlyAtCronInterval: false,
    });
  }

  /**
   * Lets `grantee` (a client node's instance role, instance or Auto Scaling group) read the cluster's
   * mount configs: `ssm:GetParametersByPath`/`GetParameter(s)` on `<prefix>/<cluster>/storage` and below.
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

  /** The one wildcard: `<prefix>/<cluster>/storage/*`, acknowledged where the statement lands. */
  private acknowledgeWildcard(scope: Construct): void {
    Validations.of(scope).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagArn(Stack.of(this), this.parameterArns[1])}]`,
      reason:
        `A client reads every storage server's mount config under ${this.storagePath}; servers join ` +
        "and leave, so the policy names the cluster's storage path, not single parameters.",
    });
  }
}

/** A storage server as {@link mountStorageOn} needs it (the public attributes of `StorageServer`). */
export interface MountableStorageServer extends ec2.IConnectable {
  /** The cluster the server serves; with `serverName` it tags the fstab line (`<cluster>/<server>`). */
  readonly clusterName: string;
  /** The server's name in the cluster ring; with `clusterName` it tags the fstab line. */
  readonly serverName: string;
  /** What clients mount: the NFS server's private IP, or the FSx for Lustre file system's DNS name (tokens until deploy). */
  readonly mountAddress: string;
  /**
   * How to mount it: `nfs4`, or `lustre` (the user data then installs the Lustre client where it is missing).
   * @default 'nfs4'
   */
  readonly fsType?: FsType;
  /** The directory the server exports, e.g. `/export/data`. */
  readonly exportPath: string;
  /** The directory clients mount the export on unless {@link MountOnOptions.mountPoint} says otherwise. */
  readonly mountPoint: string;
  /** NFS mount options for the fstab line, e.g. `nfsvers=4.1,rsize=1048576,...`. */
  readonly mountOptions: string;
  /**
   * Completes when the export is live; the target is created after it so its first boot can mount.
   * @default - no dependency: the target may boot before the export is live, and its user data retries the
   * mount (10 attempts, 30 s apart)
   */
  readonly ready?: IDependable;
}

/** Options of {@link StorageServer.mountOn}. */
export interface MountOnOptions {
  /**
   * Directory to mount the export on.
   * @default - the server's mountPoint
   */
  readonly mountPoint?: string;
}

/**
 * Mounts `server`'s export on an EC2 instance or on every instance of an Auto Scaling group: adds the
 * mount point, an idempotent fstab line (tagged like the client mount script's, so the two never
 * duplicate it) and a mount with retries to the target's user data, using the server's private IP
 * directly (no SSM lookup, so no IAM is needed), and admits the target to the server's NFS port.
 */
export function mountStorageOn(
  server: MountableStorageServer,
  target: ec2.Instance | autoscaling.AutoScalingGroup,
  options: MountOnOptions = {},
): void {
  const mountPoint = options.mountPoint ?? server.mountPoint;
  if (!Token.isUnresolved(mountPoint)) validateMountPoint('mountPoint', mountPoint);
  if (target.osType !== ec2.OperatingSystemType.LINUX) {
    throw new Error(
      `target ${target.node.path} must run Linux (its osType is ${ec2.OperatingSystemType[target.osType]}); ` +
        'the mount is added to its user data as shell commands.',
    );
  }
  target.addUserData(
    ...renderMountUserData({
      server: server.mountAddress,
      fsType: server.fsType,
      exportPath: server.exportPath,
      mountPoint,
      options: server.mountOptions,
      tag: `${server.clusterName}/${server.serverName}`,
    }),
  );
  server.connections.allowDefaultPortFrom(target, `${server.fsType === 'lustre' ? 'Lustre' : 'NFSv4'} from ${target.node.path}`);
  if (server.ready) target.node.addDependency(server.ready);
}

/** Inputs of {@link renderClientMountDocument}. */
export interface ClientMountDocumentOptions {
  /** Full text of lib/scripts/client-mount.sh. */
  readonly script: string;
  /** Default of the document's clusterName parameter. */
  readonly clusterName: string;
  /** Default of the document's prefix parameter. */
  readonly parameterPrefix: string;
  /** Default of the document's allowedServers parameter: comma-separated CIDRs (may be a token). */
  readonly allowedServers: string;
  /**
   * Default of the document's allowHome parameter.
   * @default false
   */
  readonly allowHome?: boolean;
  /**
   * Default of the document's mountRoots parameter.
   * @default DEFAULT_MOUNT_ROOTS
   */
  readonly mountRoots?: readonly string[];
  /**
   * Default of the document's readAheadKiB parameter.
   * @default DEFAULT_READ_AHEAD_KIB
   */
  readonly readAheadKiB?: number;
}

/**
 * The SSM Command document content (schema 2.2): parameters clusterName, prefix, serverName, allowedServers,
 * mountRoots, allowHome, readAheadKiB; one shell step.
 */
export function renderClientMountDocument(options: ClientMountDocumentOptions): Record<string, unknown> {
  const body = heredocBody(CLIENT_MOUNT_SCRIPT_NAME, options.script, HEREDOC_END, { ssm: true });
  const runCommand = [
    '#!/bin/sh',
    `# Rendered by the StorageServer CDK app from lib/scripts/${CLIENT_MOUNT_SCRIPT_NAME}.`,
    'script=$(mktemp) || exit 1',
    `trap 'rm -f "$script"' EXIT`,
    `cat >"$script" <<'${HEREDOC_END}' || exit 1`,
    body,
    HEREDOC_END,
    'rc=0',
    'set --',
    `if [ '{{ allowHome }}' = true ]; then set -- --allow-home; fi`,
    // The allowed patterns and values below keep quotes and spaces out of the substituted values.
    `bash "$script" --cluster '{{ clusterName }}' --prefix '{{ prefix }}' --server '{{ serverName }}' ` +
      `--allowed-servers '{{ allowedServers }}' --mount-roots '{{ mountRoots }}' --read-ahead-kib '{{ readAheadKiB }}' "$@" || rc=$?`,
    'exit "$rc"',
    '',
  ].join('\n');
  return linuxShellDocument(
    "Mounts the cluster's storage servers (NFS, and FSx for Lustre with its client installed where missing), as " +
      'their mount configs in SSM Parameter Store say (<prefix>/<clusterName>/storage/<server>/mount): one tagged fstab ' +
      'line per server, updated in place. Only servers inside allowedServers, mount points at or below mountRoots on ' +
      'a path only root can change, allowlisted options, always nosuid,nodev. Any failure of one config skips that one. Exit 2 reports a refused or vanished config, a conflicting fstab ' +
      'line, a missing Lustre client or a failed mount.',
    { name: 'mountStorage', runCommand: [runCommand], timeoutSeconds: 900 },
    {
      clusterName: {
        type: 'String',
        default: options.clusterName,
        description: 'The cluster whose storage servers are mounted.',
        allowedPattern: NAME_PATTERN,
      },
      prefix: {
        type: 'String',
        default: options.parameterPrefix,
        description: 'SSM Parameter Store prefix of the records.',
        allowedPattern: '^(/[A-Za-z0-9_.-]+){1,11}$',
      },
      serverName: {
        type: 'String',
        default: '',
        description: 'Mount only this server; empty mounts every server of the cluster.',
        allowedPattern: '^([A-Za-z0-9_.-]{1,64})?$',
      },
      allowedServers: {
        type: 'String',
        default: options.allowedServers,
        description:
          "Comma-separated IPv4 CIDRs a mount config's server must lie in (e.g. the VPC's); others are refused.",
        allowedPattern: ALLOWED_SERVERS_PATTERN,
      },
      mountRoots: {
        type: 'String',
        default: (options.mountRoots ?? DEFAULT_MOUNT_ROOTS).join(','),
        description:
          "Comma-separated directories a mount config's mountPoint must be or lie below (never /, a system directory " +
          'or one below it); others are refused.',
        allowedPattern: MOUNT_ROOTS_PATTERN,
      },
      allowHome: {
        type: 'String',
        default: String(options.allowHome ?? false),
        description: "'true' adds /home to the mount roots (home directories on NFS).",
        allowedValues: ['true', 'false'],
      },
      readAheadKiB: {
        type: 'String',
        default: String(options.readAheadKiB ?? DEFAULT_READ_AHEAD_KIB),
        description:
          `NFS read-ahead to set on every NFS mount, KiB, 0 to ${MAX_READ_AHEAD_KIB} (at once, and at every later mount by ` +
          "a udev rule); 0 leaves the kernel's own (128 KiB since Linux 5.4) and removes the rule.",
        allowedPattern: READ_AHEAD_PATTERN,
      },
    },
  );
}

/** Inputs of {@link renderMountUserData}. */
export interface MountUserDataOptions {
  /** The server's address; may be a token (its private IP, or the FSx file system's DNS name). */
  readonly server: string;
  /**
   * `nfs4`, or `lustre`: the fstab line is then `<dns>@tcp:/<mountName> ... lustre ...`, and the Lustre client is
   * installed first where it is missing.
   * @default 'nfs4'
   */
  readonly fsType?: FsType;
  /** The directory the server exports. */
  readonly exportPath: string;
  /** The directory to mount the export on; created if missing. */
  readonly mountPoint: string;
  /** Client mount options; `nosuid,nodev` are added (see {@link hardenMountOptions}). */
  readonly options: string;
  /** `<cluster>/<server>`: the fstab line ends with ` # storage-server:<tag>`, as the client mount script's do. */
  readonly tag: string;
  /**
   * The fstab file to edit (tests point it elsewhere).
   * @default '/etc/fstab'
   */
  readonly fstab?: string;
  /**
   * Mount attempts, 30 s apart (the server may still be booting).
   * @default 10
   */
  readonly attempts?: number;
}

/**
 * User-data lines that install the Lustre client where `mount.lustre` is missing: the distribution's package on
 * Amazon Linux 2023 (`lustre-client`, dnf), the kernel-matching client modules with apt (Ubuntu, from AWS's FSx
 * for Lustre client repository when it is configured), or an ATTENTION line naming the kernel.
 */
export const LUSTRE_CLIENT_INSTALL: readonly string[] = [
  'if ! PATH="$PATH:/sbin:/usr/sbin" command -v mount.lustre >/dev/null; then',
  '  if command -v dnf >/dev/null; then dnf install -y -q lustre-client',
  '  elif command -v apt-get >/dev/null; then',
  '    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "lustre-client-modules-$(uname -r)" ||',
  '      echo "storage-server: ATTENTION no Lustre client package for kernel $(uname -r): configure the AWS FSx for Lustre client repository for this distribution and kernel, or run a kernel it has packages for" >&2',
  '  else echo "storage-server: ATTENTION no Lustre client (mount.lustre) and no dnf or apt-get to install one" >&2; fi',
  'fi',
];

/** The fstab edit alone: replaces the tagged line in place (dropping repeats) or appends it. */
export function renderFstabUpdate(o: MountUserDataOptions): string[] {
  const fstab = o.fstab ?? '/etc/fstab';
  const tag = ` # storage-server:${o.tag}`;
  const line = `${fstabLine(o.server, o.exportPath, o.mountPoint, hardenMountOptions(o.options), o.fsType)}${tag}`;
  const next = shellQuote(`${fstab}.storage-server.new`);
  // awk reads the values from the environment: `-v` would interpret backslashes in them.
  const program =
    'BEGIN { line = ENVIRON["STORAGE_SERVER_LINE"]; tag = ENVIRON["STORAGE_SERVER_TAG"] } ' +
    '{ n = length($0); t = length(tag) } ' +
    'n >= t && substr($0, n - t + 1) == tag { if (!done) print line; done = 1; next } ' +
    '{ print } END { if (!done) print line }';
  return [
    `# storage-server: mount ${o.server}:${o.exportPath} on ${o.mountPoint} (${o.tag})`,
    `mkdir -p ${shellQuote(o.mountPoint)}`,
    `STORAGE_SERVER_LINE=${shellQuote(line)} STORAGE_SERVER_TAG=${shellQuote(tag)} awk '${program}' ${shellQuote(fstab)} >${next} && ` +
      `cat ${next} >${shellQuote(fstab)} && rm -f ${next}`,
  ];
}

/**
 * User-data lines: the fstab edit, then the mount, retried while the server may still be starting. A kernel that
 * refuses `nconnect` (mount.nfs exit 32, "an incorrect mount option was specified": docs/sources/nconnect.md) gets the
 * tagged line rewritten without it, says so, and mounts at once without it, so that no later boot fails on it.
 */
export function renderMountUserData(o: MountUserDataOptions): string[] {
  const attempts = o.attempts ?? 10;
  const mountPoint = shellQuote(o.mountPoint);
  const fstab = shellQuote(o.fstab ?? '/etc/fstab');
  const next = shellQuote(`${o.fstab ?? '/etc/fstab'}.storage-server.new`);
  // The tagged line less nconnect=N (awk reads the tag from the environment); exit 1 when that line has none.
  const dropNconnect =
    'BEGIN { tag = ENVIRON["STORAGE_SERVER_TAG"] } { n = length($0); t = length(tag) } ' +
    'n >= t && substr($0, n - t + 1) == tag && /nconnect=/ { sub(/,nconnect=[0-9]+/, ""); sub(/ nconnect=[0-9]+,/, " "); done = 1 } ' +
    '{ print } END { exit !done }';
  return [
    ...(o.fsType === 'lustre' ? LUSTRE_CLIENT_INSTALL : []),
    ...renderFstabUpdate(o),
    'systemctl daemon-reload 2>/dev/null || true',
    `for attempt in $(seq ${attempts}); do`,
    `  rc=0; findmnt -rn --mountpoint ${mountPoint} >/dev/null || out=$(mount -T ${fstab} ${mountPoint} 2>&1) || rc=$?`,
    '  if [ "$rc" -eq 0 ]; then',
    `    echo "storage-server: ${o.server}:${o.exportPath} mounted on ${o.mountPoint}"; break`,
    '  fi',
    `  printf '%s\\n' "$out" >&2`,
    '  if [ "$rc" -eq 32 ] && case "$out" in *"incorrect mount option"*) true ;; *) false ;; esac &&',
    `    STORAGE_SERVER_TAG=${shellQuote(` # storage-server:${o.tag}`)} awk '${dropNconnect}' ${fstab} >${next}; then`,
    `    cat ${next} >${fstab} && rm -f ${next}`,
    `    echo "storage-server: nconnect dropped for ${o.mountPoint}: this kernel ($(uname -r)) refuses it (mount.nfs exit 32: $out); its fstab line has no nconnect"`,
    '    continue',
    '  fi',
    `  rm -f ${next}`,
    `  echo "storage-server: mounting ${o.mountPoint} failed (attempt $attempt of ${attempts})" >&2`,
    `  if [ "$attempt" -lt ${attempts} ]; then sleep 30; fi`,
    'done',
  ];
}

/**
 * `options` with {@link FORCED_MOUNT_OPTIONS} (`nosuid,nodev`) at the end, each once: the options the
 * client script writes for a mount config with these options, so that both write the same fstab line. A
 * token is passed on with the two appended (a repeated flag is harmless to mount).
 */
export function hardenMountOptions(options: string): string {
  const forced: readonly string[] = FORCED_MOUNT_OPTIONS;
  if (Token.isUnresolved(options)) return `${options},${forced.join(',')}`;
  return [...options.split(',').filter((o) => o !== '' && !forced.includes(o)), ...forced].join(',');
}

/**
 * Reads lib/scripts/client-mount.sh: next to this module (lib/*.ts under ts-node or jest, or a compiled
 * lib/*.js), else relative to a compiled copy one or two levels down (dist/lib/*.js, dist/*.js).
 */
export function loadClientMountScript(baseDir: string = __dirname): string {
  return readScript(CLIENT_MOUNT_SCRIPT_NAME, baseDir);
}

/** `rate(...)` for a State Manager schedule: whole minutes, at least 30. */
export function rateExpression(schedule: Duration): string {
  if (Token.isUnresolved(schedule.toSeconds()))
    throw new Error('schedule must be a concrete Duration, got a token.');
  const seconds = schedule.toSeconds();
  if (seconds % 60 !== 0 || seconds < 30 * 60) {
    throw new Error(
      `schedule must be whole minutes, at least 30 (State Manager's shortest rate), got ${schedule.toHumanString()}.`,
    );
  }
  const minutes = seconds / 60;
  const [value, unit] =
    minutes % 1440 === 0
      ? [minutes / 1440, 'day']
      : minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : [minutes, 'minute'];
  return `rate(${value} ${unit}${value === 1 ? '' : 's'})`;
}

/**
 * One association per cluster in an app: two would run the mount script twice on every node, each judging the
 * other's lines. A second server of the cluster (another StorageServer, in this stack or another) needs none: the
 * association mounts every server of the cluster. Associations for one server each (`serverName`) may coexist.
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

/**
 * An EC2 tag key (1-128 characters, not starting with 'aws:') that a State Manager target accepts: its
 * `tag:<key>` must match `^[\p{L}\p{Z}\p{N}_.:/=\-@]*$` (SSM API, Target.Key), so no '+' and no tab.
 */
function validateTagKey(key: string): void {
  if (Token.isUnresolved(key))
    throw new Error('clientTagKey must be a concrete string (the association target), got a token.');
  if (!/^[\p{L}\p{Z}\p{N}_.:/=@-]{1,128}$/u.test(key) || /^aws:/i.test(key)) {
    throw new Error(
      'clientTagKey must be an EC2 tag key that State Manager can target: 1-128 letters, digits, spaces or ' +
        `_ . : / = @ -, not starting with 'aws:', got ${JSON.stringify(key)}.`,
    );
  }
}

/**
 * The allowedServers value: the CIDRs comma-joined, each concrete one checked against what the client
 * script accepts. Tokens (a new VPC's CIDR) pass unchecked, and so does a looked-up VPC's placeholder CIDR
 * on the synth before the lookup (`1.2.3.4/5`, which has the right form).
 */
function allowedServersParameter(cidrs: string[]): string {
  if (Token.isUnresolved(cidrs)) return Fn.join(',', cidrs);
  if (cidrs.length === 0) {
    throw new Error(
      "allowedServerCidrs must name at least one IPv4 CIDR (e.g. the VPC's, [vpc.vpcCidrBlock]), got [].",
    );
  }
  const pattern = new RegExp(`^${CIDR}$`);
  for (const cidr of cidrs) {
    if (!Token.isUnresolved(cidr) && !pattern.test(cidr)) {
      throw new Error(
        'allowedServerCidrs must be IPv4 CIDRs such as 10.0.0.0/16 (no leading zeros, each number 0-255, prefix ' +
          `/1-/32), got ${JSON.stringify(cidr)}.`,
      );
    }
  }
  return cidrs.join(',');
}

/** Each mount root concrete and outside the system directories (the script refuses the others at run time). */
function validateMountRoots(roots: string[]): void {
  if (Token.isUnresolved(roots) || roots.length === 0) {
    throw new Error(`mountRoots must name at least one concrete directory such as /data, got ${Token.isUnresolved(roots) ? 'a token' : '[]'}.`);
  }
  for (const root of roots) {
    const problem = Token.isUnresolved(root) ? 'a token' : mountRootProblem(root);
    if (problem) {
      throw new Error(`mountRoots must be absolute directories outside the system directories, got ${JSON.stringify(root)}: ${problem}.`);
    }
  }
}

/** readAheadKiB: a concrete whole number of KiB, 0 (the kernel's own) to MAX_READ_AHEAD_KIB. */
function validateReadAhead(kib: number): void {
  if (Token.isUnresolved(kib) || typeof kib !== 'number' || !Number.isInteger(kib) || kib < 0 || kib > MAX_READ_AHEAD_KIB) {
    throw new Error(`readAheadKiB must be a whole number of KiB from 0 (the kernel's own read-ahead) to ${MAX_READ_AHEAD_KIB} ` +
      `(1 GiB), got ${Token.isUnresolved(kib) ? 'a token' : JSON.stringify(kib)}.`);
  }
}

function validateMountPoint(prop: string, value: string): void {
  if (!/^(\/[A-Za-z0-9_.-]+)+$/.test(value) || value.split('/').includes('..')) {
    throw new Error(
      `${prop} must be an absolute directory path of A-Z a-z 0-9 _ . - / (not '/', no '..'), got ${JSON.stringify(value)}.`,
    );
  }
}

/** Single-quotes a value for the shell; tokens (e.g. the server's IP) resolve inside the quotes. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** An ARN as cdk-nag prints it in finding ids: pseudo parameters as `<AWS::Region>`. */
function nagArn(stack: Stack, arn: string): string {
  const resolved = stack.resolve(arn);
  if (typeof resolved === 'string') return resolved;
  const parts: unknown[] = resolved['Fn::Join'][1];
  return parts.map((p) => (typeof p === 'string' ? p : `<${(p as { Ref: string }).Ref}>`)).join('');
}
