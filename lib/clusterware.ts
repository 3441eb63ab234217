import * as crypto from 'crypto';
import * as path from 'path';
import { Aws, Token, Validations } from 'aws-cdk-lib';
import type * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledgeCompliance } from './compliance';
import { describe } from './sizing/describe';
import { heredocBody, readScript } from './script-file';

/** File name of the join script under lib/scripts. */
export const CLUSTERWARE_JOIN_SCRIPT_NAME = 'clusterware-join.sh';

/** Where clusterware reads its configuration. */
export const CLUSTERWARE_CONFIG_PATH = '/opt/clusterware/etc/config.yml';

/** Serf's gossip port, TCP and UDP, the same on every member of the ring. */
export const CLUSTERWARE_GOSSIP_PORT = 7946;

/** Namespace of the name-based, version 5 cluster uuids derived from the cluster name. */
const UUID_NAMESPACE = '5b0f3a2e-8d1c-4f57-9a34-6e2b7c1d9f40';
const HEREDOC_END = 'STORAGE_SERVER_CLUSTERWARE_JOIN_SH';
const INSTALL_PATH = '/usr/local/sbin/storage-server-clusterware-join';

/** Properties of a {@link ClusterwareRing}. */
export interface ClusterwareRingProps {
  /** The clusterware cluster name, `name` in config.yml: `[A-Za-z0-9_.-]`, 1-64 characters. */
  readonly clusterName: string;
  /** IPv4 address of the clusterware master, the login node. */
  readonly loginIp: string;
  /**
   * Secret whose value is the cluster token, a plain string. Pass the secret that holds your master's token to join an
   * existing ring.
   * @default - a new secret with a generated 32-character token; configure the master with it
   */
  readonly tokenSecret?: secretsmanager.ISecret;
  /**
   * The cluster uuid, as in the master's config.yml.
   * @default - a name-based uuid derived from clusterName by `clusterUuid`; configure the master with it
   */
  readonly clusterUuid?: string;
}

// StorageServerProps' `clusterware`: a ring membership without the cluster name, which is the server's.
/** Membership of an Alces Flight clusterware ring. */
export interface ClusterwareOptions {
  /** IPv4 address of the clusterware master, the login node. */
  readonly loginIp: string;
  /**
   * Secret whose value is the cluster token. The server reads it at boot with its instance role; the token is never in
   * user data or the template.
   * @default - a new secret with a generated token; configure the master with it
   */
  readonly tokenSecret?: secretsmanager.ISecret;
  /**
   * The cluster uuid, as in the master's config.yml.
   * @default - a name-based uuid derived from the cluster name
   */
  readonly clusterUuid?: string;
}

/**
 * Membership of an Alces Flight clusterware ring, clusterware's HashiCorp serf gossip ring. Members write
 * `/opt/clusterware/etc/config.yml` at boot with the token their instance role reads from Secrets Manager, so the token
 * is never in user data or the template.
 *
 * The clusterware side must have clusterware installed on the member, as the Alces Flight image does; the file is inert
 * without it. It must have a master at `loginIp` configured with the same cluster name, uuid and token. Serf's port,
 * TCP and UDP 7946, must be open between all members; {@link join} opens it from the master only.
 */
export class ClusterwareRing extends Construct {
  /** The secret holding the cluster token. */
  public readonly tokenSecret: secretsmanager.ISecret;
  /** The cluster uuid members write. */
  public readonly clusterUuid: string;
  /** The clusterware cluster name members write, `name` in config.yml. */
  public readonly clusterName: string;
  /** IPv4 address of the clusterware master; {@link join} admits serf gossip from it. */
  public readonly loginIp: string;

  constructor(scope: Construct, id: string, props: ClusterwareRingProps) {
    super(scope, id);
    validateClusterName(props.clusterName);
    validateLoginIp(props.loginIp);
    if (props.clusterUuid !== undefined) validateUuid(props.clusterUuid);

    this.clusterName = props.clusterName;
    this.loginIp = props.loginIp;
    this.clusterUuid = props.clusterUuid ?? deriveClusterUuid(props.clusterName);
    this.tokenSecret = props.tokenSecret ?? this.newTokenSecret();
  }

  /**
   * Makes `member` join the ring at boot: grants its role read of the token secret, writes config.yml from its user
   * data, and admits serf gossip from the master.
   */
  public join(member: ec2.Instance | autoscaling.AutoScalingGroup): void {
    member.addUserData(...this.joinCommands(member));
  }

  /**
   * Like {@link join}, but returns the bash lines that write config.yml instead of adding them to the member's user
   * data. The storage server runs them from its SSM apply document, since a change of its user data would stop the
   * instance.
   */
  public joinCommands(member: ec2.Instance | autoscaling.AutoScalingGroup): string[] {
    if (member.osType !== ec2.OperatingSystemType.LINUX) {
      throw new Error(
        `member ${member.node.path} must run Linux (clusterware is Linux software), got ${ec2.OperatingSystemType[member.osType]}.`,
      );
    }
    this.tokenSecret.grantRead(member);
    const master = ec2.Peer.ipv4(`${this.loginIp}/32`);
    member.connections.allowFrom(
      master,
      ec2.Port.tcp(CLUSTERWARE_GOSSIP_PORT),
      'clusterware gossip (serf) from the master',
    );
    member.connections.allowFrom(
      master,
      ec2.Port.udp(CLUSTERWARE_GOSSIP_PORT),
      'clusterware gossip (serf) from the master',
    );
    return renderClusterwareJoin({
      script: loadClusterwareJoinScript(),
      secretArn: this.tokenSecret.secretArn,
      region: Aws.REGION,
      clusterName: this.clusterName,
      loginIp: this.loginIp,
      clusterUuid: this.clusterUuid,
    });
  }

  private newTokenSecret(): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, 'Token', {
      description: `Alces clusterware token of cluster ${this.clusterName} (master ${this.loginIp})`,
      // Generated by Secrets Manager at deploy: the value is never in the template.
      generateSecretString: { passwordLength: 32, excludePunctuation: true, includeSpace: false },
    });
    const noRotation =
      "The clusterware token is shared with the master's config.yml, which no rotation function can " +
      'update; rotating it alone would split the ring. Rotate by hand on the master and here together.';
    Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: noRotation });
    acknowledgeCompliance(secret, 'SecretsManagerRotationEnabled', noRotation);
    acknowledgeCompliance(secret, 'SecretsManagerUsingKMSKey',
      "Encrypted with the account's AWS managed key for Secrets Manager and readable only by the members granted " +
        "GetSecretValue; the same token sits in plain text in the master's config.yml, so a customer key ($1 a month) " +
        'would not narrow who can learn it. A site that wants one passes its own secret as tokenSecret.');
    return secret;
  }
}

/** Inputs of {@link renderClusterwareJoin}. */
export interface ClusterwareJoinOptions {
  /** Full text of lib/scripts/clusterware-join.sh. */
  readonly script: string;
  /** ARN of the token secret, usually a token resolving to it. */
  readonly secretArn: string;
  /** Region of the secret, usually `Aws.REGION`. */
  readonly region: string;
  /** The clusterware cluster name written to config.yml. */
  readonly clusterName: string;
  /** IPv4 address of the clusterware master written to config.yml. */
  readonly loginIp: string;
  /** The cluster uuid written to config.yml. */
  readonly clusterUuid: string;
}

/** User-data lines: install the join script and run it with the secret's ARN, never the token. */
export function renderClusterwareJoin(o: ClusterwareJoinOptions): string[] {
  // User data, not an SSM document: `{{` is plain text there.
  const body = heredocBody(CLUSTERWARE_JOIN_SCRIPT_NAME, o.script, HEREDOC_END, { ssm: false });
  return [
    `# storage-server: join the clusterware ring of ${o.clusterName} (master ${o.loginIp})`,
    `install -d -m 0755 ${path.posix.dirname(INSTALL_PATH)}`,
    `cat >${INSTALL_PATH} <<'${HEREDOC_END}'`,
    body,
    HEREDOC_END,
    `chmod 0755 ${INSTALL_PATH}`,
    `${INSTALL_PATH} --secret-id '${o.secretArn}' --region '${o.region}' --cluster '${o.clusterName}' ` +
      `--master '${o.loginIp}' --uuid '${o.clusterUuid}' || echo "storage-server: clusterware join failed" >&2`,
  ];
}

/** Reads lib/scripts/clusterware-join.sh next to this module, or from a compiled copy one or two levels down. */
export function loadClusterwareJoinScript(baseDir: string = __dirname): string {
  return readScript(CLUSTERWARE_JOIN_SCRIPT_NAME, baseDir);
}

/** A stable, name-based uuid for a cluster name: RFC 9562 version 5. */
export function deriveClusterUuid(clusterName: string): string {
  const namespace = Buffer.from(UUID_NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = crypto.createHash('sha1').update(namespace).update(clusterName, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function validateClusterName(value: string): void {
  if (Token.isUnresolved(value))
    throw new Error(
      'clusterName must be a concrete string (it is written into user data and derives the uuid), got a token.',
    );
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(value)) {
    throw new Error(
      `clusterName must be 1-64 characters from A-Z a-z 0-9 _ . -, got ${describe(value)}.`,
    );
  }
}

function validateLoginIp(value: string): void {
  if (Token.isUnresolved(value)) return;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (!m || m.slice(1).some((o) => Number(o) > 255)) {
    throw new Error(
      `loginIp must be the clusterware master's IPv4 address (four numbers 0-255), got ${describe(value)}.`,
    );
  }
}

function validateUuid(value: string): void {
  if (Token.isUnresolved(value)) return;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) {
    throw new Error(
      `clusterUuid must be a lower-case UUID such as '7b4249e8-637a-11e5-a343-7831c1c0e63c', got ${describe(value)}.`,
    );
  }
}
