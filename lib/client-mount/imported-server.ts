import { Token } from 'aws-cdk-lib';
import type * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { Construct, type IConstruct } from 'constructs';
import { DEFAULT_PARAMETER_PREFIX, FS_TYPES, mountParameterName } from '../../lambda/register/contract';
import { ValueRule, type ValueToCheck, valueProblem, ruleText } from '../../lambda/value-check/contract';
import { FsType } from './fs-type';
import { type MountOnOptions, mountStorageOn } from './mount-on';
import { grantServerMountRead } from './grant';
import { DeployTimeCheck } from '../deploy-check';
import { describe } from '../sizing/describe';

/**
 * A storage server that clients can mount and be granted: a `StorageServer` of this app, or one another stack or app
 * deployed, imported by {@link StorageServer.fromStorageServerAttributes}.
 */
export interface IStorageServer extends IConstruct, ec2.IConnectable {
  /** The cluster the server serves. */
  readonly clusterName: string;
  /** The server's name in its cluster. */
  readonly serverName: string;
  /** How clients mount it: `nfs4`, or `lustre`. */
  readonly fsType: FsType;
  /** What clients mount: an IP address or a DNS name. */
  readonly mountAddress: string;
  /** The path the server exports. */
  readonly exportPath: string;
  /** Where clients mount it unless told otherwise. */
  readonly mountPoint: string;
  /** The clients' mount options. */
  readonly mountOptions: string;
  /** The SSM parameter that holds the server's mount record. */
  readonly mountParameterName: string;

  /** Mounts the server on an instance, or on every instance of an Auto Scaling group, from its user data. */
  mountOn(target: ec2.Instance | autoscaling.AutoScalingGroup, options?: MountOnOptions): void;

  /** Lets `grantee` read the server's mount record. */
  grantMount(grantee: iam.IGrantable): iam.Grant;
}

/**
 * A server another stack or app deployed, as {@link StorageServer.fromStorageServerAttributes} takes it. The values
 * are its mount record's (`aws ssm get-parameter --name <its MountParameterName output>`) and its security group.
 */
export interface StorageServerAttributes {
  /** The cluster the server serves: `[A-Za-z0-9_.-]`, 1-64 characters, not a token. */
  readonly clusterName: string;
  /** The server's name in its cluster: `[A-Za-z0-9_.-]`, 1-64 characters, not a token. */
  readonly serverName: string;
  /**
   * The SSM prefix its records are under; not a token.
   * @default '/storage-server'
   */
  readonly parameterPrefix?: string;
  /**
   * The record's `address`: the NFS server's IPv4 address or the FSx file system's DNS name (only that for Lustre); a
   * token is checked at deploy.
   */
  readonly mountAddress: string;
  /**
   * The record's `fsType`.
   * @default FsType.NFS4
   */
  readonly fsType?: FsType;
  /**
   * The record's `exportPath`, such as `/export/data`, or `/` and the mount name for Lustre; a token is checked at
   * deploy.
   */
  readonly exportPath: string;
  /**
   * The record's `mountPoint`, where clients mount it unless told otherwise: outside the system directories; not a
   * token.
   */
  readonly mountPoint: string;
  /**
   * The record's `options`, the clients' mount options, each on the client mount script's allowlist; a token is checked
   * at deploy.
   */
  readonly mountOptions: string;
  /**
   * The server's security group, which `mountOn` and `connections` add the clients' rules to. Import a Lustre server's
   * with `allowAllOutbound: false`, as this project makes it, so that `mountOn` adds the rules by which its file
   * servers call the clients back.
   */
  readonly securityGroup: ec2.ISecurityGroup;
}

/** How one string attribute is checked: its value-check rule by fsType, and why a token is refused, if it is. */
export interface AttributeCheck {
  /** The rule, for an NFS server and for an FSx for Lustre file system. */
  readonly rule: Readonly<Record<FsType, ValueRule>>;
  /** Why the value must be literal; a token is checked at deploy when this is absent. */
  readonly literalOnly?: string;
}

const both = (rule: ValueRule): Readonly<Record<FsType, ValueRule>> => ({ [FsType.NFS4]: rule, [FsType.LUSTRE]: rule });
const PATHS_AND_IAM = 'it forms SSM parameter paths and IAM resources at synth time';

/** Every string attribute and its check: a test reads the attributes from StorageServerAttributes and holds them here. */
export const ATTRIBUTE_CHECKS: Readonly<Record<string, AttributeCheck>> = {
  clusterName: { rule: both(ValueRule.RECORD_NAME), literalOnly: PATHS_AND_IAM },
  serverName: { rule: both(ValueRule.RECORD_NAME), literalOnly: PATHS_AND_IAM },
  parameterPrefix: { rule: both(ValueRule.PARAMETER_PREFIX), literalOnly: PATHS_AND_IAM },
  mountAddress: { rule: { [FsType.NFS4]: ValueRule.SERVER_ADDRESS, [FsType.LUSTRE]: ValueRule.LUSTRE_ADDRESS } },
  exportPath: { rule: { [FsType.NFS4]: ValueRule.EXPORT_PATH, [FsType.LUSTRE]: ValueRule.LUSTRE_EXPORT_PATH } },
  mountPoint: {
    rule: both(ValueRule.MOUNT_POINT),
    literalOnly: "as a StorageServer's own mountPoint: synth renders the clients' user data with it and checks it there",
  },
  mountOptions: { rule: { [FsType.NFS4]: ValueRule.MOUNT_OPTIONS, [FsType.LUSTRE]: ValueRule.LUSTRE_MOUNT_OPTIONS } },
};

/** A server deployed elsewhere: its attributes checked, literal ones now and tokens at deploy. */
export class ImportedStorageServer extends Construct implements IStorageServer {
  public readonly clusterName: string;
  public readonly serverName: string;
  public readonly fsType: FsType;
  public readonly mountAddress: string;
  public readonly exportPath: string;
  public readonly mountPoint: string;
  public readonly mountOptions: string;
  public readonly mountParameterName: string;
  public readonly connections: ec2.Connections;

  constructor(scope: Construct, id: string, attrs: StorageServerAttributes) {
    super(scope, id);
    const prefix = attrs.parameterPrefix ?? DEFAULT_PARAMETER_PREFIX;
    const fsType = attrs.fsType ?? FsType.NFS4;
    if (!(FS_TYPES as readonly string[]).includes(fsType)) {
      throw new Error(`fsType must be one of ${FS_TYPES.join(', ')}, got ${describe(fsType)}`);
    }
    if (attrs.securityGroup === undefined || attrs.securityGroup === null) {
      throw new Error('securityGroup is required: the server\'s security group, which mountOn admits the clients to');
    }
    const values: Record<string, unknown> = { ...attrs, parameterPrefix: prefix };
    const atDeploy: ValueToCheck[] = [];
    for (const [name, { rule: rules, literalOnly }] of Object.entries(ATTRIBUTE_CHECKS)) {
      const value = values[name];
      const rule = rules[fsType];
      if (typeof value === 'string' && Token.isUnresolved(value)) {
        if (literalOnly !== undefined) throw new Error(`${name} must be a concrete string, not a token: ${literalOnly}, got ${value}`);
        atDeploy.push({ name, rule, value });
        continue;
      }
      const problem = valueProblem(rule, value as string, { allowPublic: false });
      if (problem !== undefined) throw new Error(`${name} must be ${ruleText(rule, { allowPublic: false })}, got ${describe(value)}: ${problem}.`);
    }
    this.clusterName = attrs.clusterName;
    this.serverName = attrs.serverName;
    this.fsType = fsType;
    this.mountAddress = attrs.mountAddress;
    this.exportPath = attrs.exportPath;
    this.mountPoint = attrs.mountPoint;
    this.mountOptions = attrs.mountOptions;
    this.mountParameterName = mountParameterName(prefix, attrs.clusterName, attrs.serverName);
    // The ports a server of this kind listens on, as the backends' own connections have them.
    // Lustre's 988-1023, aws-fsx's LustreFileSystem's default port range, which a StorageServer's connections have too.
    const defaultPort = fsType === 'lustre' ? ec2.Port.tcpRange(988, 1023) : ec2.Port.tcp(2049);
    this.connections = new ec2.Connections({ securityGroups: [attrs.securityGroup], defaultPort });
    DeployTimeCheck.addTo(this, 'DeployTimeCheck', atDeploy, { allowPublic: false });
  }

  public mountOn(target: ec2.Instance | autoscaling.AutoScalingGroup, options: MountOnOptions = {}): void {
    mountStorageOn(this, target, options);
  }

  public grantMount(grantee: iam.IGrantable): iam.Grant {
    return grantServerMountRead(this, grantee, this.mountParameterName);
  }
}
