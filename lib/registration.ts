import { ArnFormat, CustomResource, Duration, Fn, Stack, Token, Validations } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { addHandlerProvider, stackSingleton } from './handler-provider';
import {
  DEFAULT_PARAMETER_PREFIX,
  FSX_PROP,
  OPTIONAL_PROP,
  PROP,
  clusterPath,
  isFsxBackend,
  mountParameterName,
  recordsMeet,
  ringParameterName,
  tombstoneParameterName,
  validateBackend,
  validateFsxTarget,
  validateMountOptions,
  validateName,
  validatePath,
  validatePrefix,
  validateServerNames,
  type FsxTarget,
  type RecordBackend,
  type ServerRecordNames,
} from '../lambda/register/contract';
import { FSX_TARGETS } from '../lambda/register/fsx-targets';
import { EXISTING_PROP, existingValueProblem, isExistingKind, type ExistingKind } from '../lambda/register/existing/target';

/**
 * Storage that exists already, as a {@link ServerRegistration} names it: an FSx or EFS file system by id, checked at
 * deploy against the cluster's VPC and clients, or an NFS server by address. Values may be tokens.
 */
export interface ExistingRegistration {
  readonly kind: ExistingKind;
  /** `fs-...`, for the file systems. */
  readonly fileSystemId?: string;
  /** The NFS server's private IPv4 address, for `nfs`. */
  readonly address?: string;
  /** The cluster's VPC, for the file systems. */
  readonly vpcId?: string;
  /** The clients' CIDRs, whom the file system's groups must admit. */
  readonly clientCidrs?: string[];
  /** The clients' security group ids, likewise. */
  readonly clientGroupIds?: string[];
}

/** Properties of a {@link ServerRegistration}. */
export interface ServerRegistrationProps {
  /**
   * The storage server instance on the EC2 backends; the custom resource depends on it and passes its id. Give exactly
   * one of `instance`, `fileSystem` and `existing`.
   * @default - none: `fileSystem` is registered
   */
  readonly instance?: ec2.Instance;
  /**
   * The FSx file system. Backend `fsx-lustre` registers it by its id, DNS name and mount name; `fsx-openzfs` by its id
   * and DNS name, with mount name `''`.
   * @default - none: `instance` or `existing` is registered
   */
  readonly fileSystem?: FsxTarget;
  /**
   * Storage that exists already; `backend` is its kind.
   * @default - none: `instance` or `fileSystem` is registered
   */
  readonly existing?: ExistingRegistration;
  /** The cluster the server serves: `[A-Za-z0-9_.-]`, 1-64 characters, one SSM path level. */
  readonly clusterName: string;
  /** The server's name in the ring: same charset as `clusterName`. */
  readonly serverName: string;
  /**
   * SSM path under which the cluster's records live.
   * @default '/storage-server'
   */
  readonly parameterPrefix?: string;
  /** The server's NFS export, e.g. '/export/data'. */
  readonly exportPath: string;
  /** Where clients mount the export, e.g. '/data'. */
  readonly mountPoint: string;
  /** Client mount options, e.g. 'nfsvers=4.1,rsize=1048576,...'. */
  readonly mountOptions: string;
  /** The server's storage backend, recorded in the ring record: for existing storage, its kind. */
  readonly backend: RecordBackend;
  /**
   * The server's stable network interface, `eni-...`, which the server attaches to itself. When it is given, the
   * records carry its address instead of the instance's, and registration fails while the interface is not attached to
   * the instance.
   * @default - the instance's own primary private address
   */
  readonly networkInterfaceId?: string;
}

/**
 * Registers a storage server in SSM Parameter Store (docs/design.md, sections 6 and 7): its ring member record and its
 * clients' mount config. A custom resource writes them after the instance exists and removes them with it.
 *
 * All registrations of a stack share one Lambda function and one Provider.
 */
export class ServerRegistration extends Construct {
  /** `<prefix>/<cluster>/ring/<server>`. */
  public readonly ringParameterName: string;
  /** `<prefix>/<cluster>/storage/<server>/mount`. */
  public readonly mountParameterName: string;
  /** The custom resource; `getAttString('PrivateIp')` gives the registered private IP. */
  public readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: ServerRegistrationProps) {
    super(scope, id);
    const prefix = props.parameterPrefix ?? DEFAULT_PARAMETER_PREFIX;
    const names = { prefix, clusterName: props.clusterName, serverName: props.serverName };
    validateRecordNames(names);
    skipTokens('exportPath', props.exportPath, validatePath);
    skipTokens('mountPoint', props.mountPoint, validatePath);
    skipTokens('mountOptions', props.mountOptions, validateMountOptions);
    if (props.existing === undefined) skipTokens('backend', props.backend, validateBackend);

    const targets = [props.instance, props.fileSystem, props.existing].filter((t) => t !== undefined);
    if (targets.length !== 1) {
      throw new Error(
        'ServerRegistration needs exactly one of instance (an EC2 NFS server), fileSystem (an FSx file system) and ' +
          'existing (storage that exists already).',
      );
    }
    if (props.existing !== undefined) {
      if (props.existing.kind !== props.backend || !isExistingKind(props.backend)) {
        throw new Error(`backend '${props.backend}' does not match the existing storage's kind '${props.existing.kind}'.`);
      }
    } else if ((props.fileSystem !== undefined) !== isFsxBackend(props.backend)) {
      throw new Error(`backend '${props.backend}' does not match the registered ${props.fileSystem ? 'file system' : 'instance'}.`);
    }
    if (props.fileSystem) {
      const t = props.fileSystem;
      const concrete = Object.values(t).every((v) => !Token.isUnresolved(v));
      if (concrete && isFsxBackend(props.backend)) validateFsxTarget((key) => `fileSystem.${key}`, t, props.backend);
    }

    validateRecordsInApp(this, names);
    REGISTERED.set(this, names);

    this.ringParameterName = ringParameterName(prefix, props.clusterName, props.serverName);
    this.mountParameterName = mountParameterName(prefix, props.clusterName, props.serverName);

    const provider = RegistrationProvider.of(this);
    provider.allowRecords(this.ringParameterName, this.mountParameterName, tombstoneParameterName(prefix, props.clusterName, props.serverName));
    if (props.instance !== undefined) provider.allowInstances();
    if (props.networkInterfaceId !== undefined) provider.allowInterfaces();
    if (props.existing !== undefined) provider.allowDescribing(props.existing);

    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::StorageServerRegistration',
      properties: {
        // The instance id makes a replaced instance re-register through an Update. Its Ref makes CloudFormation create
        // this resource only after the instance; an explicit DependsOn on top would be redundant, cfn-lint W3005. For
        // FSx the file system's Ref and attributes do the same.
        ...(props.existing
          ? existingProperties(props.existing)
          : props.instance
          ? { [PROP.instanceId]: props.instance.instanceId }
          : {
            [FSX_PROP.fileSystemId]: props.fileSystem?.fileSystemId,
            [FSX_PROP.dnsName]: props.fileSystem?.dnsName,
            [FSX_PROP.mountName]: props.fileSystem?.mountName,
            [FSX_PROP.availabilityZone]: props.fileSystem?.availabilityZone,
            [FSX_PROP.deployment]: props.fileSystem?.deployment,
          }),
        [PROP.clusterName]: props.clusterName,
        [PROP.serverName]: props.serverName,
        [PROP.parameterPrefix]: prefix,
        [PROP.exportPath]: props.exportPath,
        [PROP.mountPoint]: props.mountPoint,
        [PROP.mountOptions]: props.mountOptions,
        [PROP.backend]: props.backend,
        ...(props.networkInterfaceId !== undefined ? { [OPTIONAL_PROP.networkInterfaceId]: props.networkInterfaceId } : {}),
      },
    });
  }
}

/**
 * The ResourceProperties of existing storage, with each literal value checked at synth by the rule the handler applies
 * at deploy (existing/target.ts); tokens are checked there.
 */
function existingProperties(e: ExistingRegistration): Record<string, string> {
  const list = (values: string[] | undefined): string | undefined =>
    values === undefined ? undefined : Token.isUnresolved(values) ? Fn.join(',', values) : values.join(',');
  const values: Record<string, string | undefined> = {
    [EXISTING_PROP.fileSystemId]: e.fileSystemId,
    [EXISTING_PROP.address]: e.address,
    [EXISTING_PROP.vpcId]: e.vpcId,
    [EXISTING_PROP.clientCidrs]: list(e.clientCidrs),
    [EXISTING_PROP.clientGroupIds]: list(e.clientGroupIds),
  };
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const why = Token.isUnresolved(value) ? undefined : existingValueProblem(key, value);
    if (why !== undefined) throw new Error(`${key} ${why}, got ${JSON.stringify(value)}`);
    out[key] = value;
  }
  return out;
}

/** The names of each registration made so far, which those made later in the app are checked against. */
const REGISTERED = new WeakMap<Construct, ServerRecordNames>();

/** The stack's single registration Lambda + Provider, found or created by a fixed id on the Stack. */
class RegistrationProvider extends Construct {
  static readonly ID = 'StorageServerRegistrationProvider';

  static of(scope: Construct): RegistrationProvider {
    return stackSingleton(scope, RegistrationProvider.ID, (found) => found instanceof RegistrationProvider, (stack, id) => new RegistrationProvider(stack, id));
  }

  public readonly serviceToken: string;
  private readonly parameterAccess: iam.PolicyStatement;
  private describe?: iam.PolicyStatement;
  private readonly policy: iam.Policy;

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    // SSM access is filled in per server by allowRecords(). GetParameter lets Create, Update and Delete check
    // whom the records belong to before they write or remove them.
    this.parameterAccess = new iam.PolicyStatement({
      actions: ['ssm:PutParameter', 'ssm:GetParameter', 'ssm:DeleteParameters'],
    });
    const provider = addHandlerProvider(this, {
      handler: 'register',
      roleDescription: 'Registers storage servers in SSM Parameter Store (StorageServer custom resource)',
      functionDescription: 'StorageServer registration: ring record and mount config in SSM Parameter Store',
      frameworkDescription: 'Provider framework of the StorageServer registration custom resource',
      timeout: Duration.minutes(5),
      memorySize: 256,
      statements: [this.parameterAccess],
      runtimeReason:
        'Pinned to nodejs22.x deliberately: the bundled SDK and the handler are tested on Node 22; ' +
        'moving to a newer runtime is a reviewed change, not an automatic one.',
      policyReason:
        "The function's only permissions (its servers' records in SSM, DescribeInstances, its own log group), in a " +
        'policy that belongs to this role alone and lives and dies with it, the IAM guide\'s case for an inline ' +
        'policy; a managed policy could be attached to other principals.',
      apis: 'SSM Parameter Store and EC2 DescribeInstances',
    });
    this.serviceToken = provider.serviceToken;
    this.policy = provider.policy;
  }

  /**
   * Lets the function describe instances, for the registration of an EC2 NFS server. An FSx registration calls no EC2
   * API, so a stack with only FSx grants none.
   */
  allowInstances(): void {
    this.allowAnyResource('ec2:DescribeInstances');
  }

  /** Lets the function read network interfaces, for a registration with a stable interface. */
  allowInterfaces(): void {
    this.allowAnyResource('ec2:DescribeInstances', 'ec2:DescribeNetworkInterfaces');
  }

  /**
   * Lets the function describe existing storage of one kind, as existing/describe.ts does: FSx's file systems and their
   * interfaces' groups, EFS's one file system by its ARN, and the groups' rules. An NFS server is described by nothing.
   */
  allowDescribing(e: ExistingRegistration): void {
    if (e.kind !== 'nfs') {
      // A group rule may name a prefix list, read as its entries: any owner's list (AWS-managed ones are account "aws").
      const stack = Stack.of(this);
      const lists = stack.formatArn({ service: 'ec2', account: '*', resource: 'prefix-list', resourceName: '*' });
      this.policy.addStatements(new iam.PolicyStatement({ actions: ['ec2:GetManagedPrefixListEntries'], resources: [lists] }));
      // cdk-nag names a pseudo parameter as <AWS::Name> in the finding it reports.
      const shown = (value: string, name: string) => (Token.isUnresolved(value) ? `<AWS::${name}>` : value);
      Validations.of(this.policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:${shown(stack.partition, 'Partition')}:ec2:${shown(stack.region, 'Region')}:*:prefix-list/*]`,
        reason: "Which prefix lists the storage's group rules name is known only at deploy; the action only reads their entries.",
      });
    }
    if (isFsxBackend(e.kind)) {
      this.allowAnyResource('fsx:DescribeFileSystems', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeSecurityGroupRules');
      // OPENZFS-NFS-EXPORT-CLIENTS: a backend that checks its volumes reads them.
      if (FSX_TARGETS[e.kind].existing.volumeProblems) this.allowAnyResource('fsx:DescribeVolumes');
    } else if (e.kind === 'efs') {
      this.policy.addStatements(new iam.PolicyStatement({
        actions: ['elasticfilesystem:DescribeFileSystems', 'elasticfilesystem:DescribeMountTargets', 'elasticfilesystem:DescribeMountTargetSecurityGroups'],
        resources: [Stack.of(this).formatArn({ service: 'elasticfilesystem', resource: 'file-system', resourceName: e.fileSystemId })],
      }));
      // EFS-MOUNT-TARGET-ZONES: the zones of the subnets that hold clients.
      this.allowAnyResource('ec2:DescribeSecurityGroupRules', 'ec2:DescribeSubnets');
    }
  }

  /**
   * Adds `actions` to the function's one statement on Resource "*", made on first use: the EC2 describes and
   * fsx:DescribeFileSystems and DescribeVolumes take no resource (the Service Authorization Reference lists none for them).
   */
  private allowAnyResource(...actions: string[]): void {
    if (this.describe === undefined) {
      this.describe = new iam.PolicyStatement({ resources: ['*'] });
      this.policy.addStatements(this.describe);
      Validations.of(this.policy).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'The EC2 describes and fsx:DescribeFileSystems and DescribeVolumes support no resource-level permissions; they require Resource "*".',
      });
    }
    for (const action of actions) if (!this.describe.actions.includes(action)) this.describe.addActions(action);
  }

  /**
   * Lets the function write, read and delete the records of one server by name, its ring record, its mount config and
   * its tombstone, and no other record of the cluster. The ARNs are `arn:<partition>:ssm:<region>:<account>:parameter<name>`.
   */
  allowRecords(...names: string[]): void {
    for (const name of names) {
      const arn = Stack.of(this).formatArn({
        service: 'ssm',
        resource: 'parameter',
        resourceName: name.slice(1),
        arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
      });
      if (!this.parameterAccess.resources.includes(arn)) this.parameterAccess.addResources(arn);
    }
  }
}

/**
 * Validates the names a server's records are made of. Each must be concrete, since they form the parameter names and
 * the IAM policy at synth time. Then the contract's rules apply, to each name and to the three together.
 */
export function validateRecordNames(names: ServerRecordNames): void {
  validateConcrete('clusterName', names.clusterName, validateName);
  validateConcrete('serverName', names.serverName, validateName);
  validateConcrete('parameterPrefix', names.prefix, validatePrefix);
  validateServerNames((key) => key, names.prefix, names.clusterName, names.serverName);
}

/**
 * Refuses names whose records would meet those of a registration already in the app, by `recordsMeet`: the same
 * records, or one cluster's records below another's. Stacks of known, different accounts or regions keep their
 * parameters apart and are not compared. ServerRegistration runs it, and StorageServer too before it makes its
 * resources; the message names `scope`'s path.
 */
export function validateRecordsInApp(scope: Construct, names: ServerRecordNames): void {
  for (const other of scope.node.root.node.findAll()) {
    const theirs = other === scope ? undefined : REGISTERED.get(other);
    if (theirs === undefined || apart(Stack.of(scope), Stack.of(other))) continue;
    const meet = recordsMeet(names, theirs);
    if (meet === 'same') {
      throw new Error(
        `serverName '${names.serverName}' of clusterName '${names.clusterName}' under parameterPrefix '${names.prefix}' ` +
          `(${scope.node.path}) is registered by ${other.node.path} already: each server of an app has records of its own. ` +
          'Give this server another serverName.',
      );
    }
    if (meet === 'nested') {
      const [ours, their] = [clusterPath(names.prefix, names.clusterName), clusterPath(theirs.prefix, theirs.clusterName)];
      throw new Error(
        `parameterPrefix '${names.prefix}' with clusterName '${names.clusterName}' (${scope.node.path}) keeps its records ` +
          `below ${ours}, and parameterPrefix '${theirs.prefix}' with clusterName '${theirs.clusterName}' ` +
          `(${other.node.path}) below ${their}: in one app no cluster's records may lie among another's, where its ` +
          "clients list them and a ring record can take a mount record's name (docs/design.md, section 6). Give one " +
          'of them another parameterPrefix or clusterName.',
      );
    }
  }
}

/** Whether two stacks' parameters are apart: their accounts, or their regions, are known and differ. */
function apart(a: Stack, b: Stack): boolean {
  const differ = (x: string, y: string) => !Token.isUnresolved(x) && !Token.isUnresolved(y) && x !== y;
  return differ(a.account, b.account) || differ(a.region, b.region);
}

/**
 * Validates a name that must be known at synth time, since it forms SSM parameter paths and IAM resources. It refuses a
 * token, then applies `validate` from the registration contract. lib/client-mount.ts shares it.
 */
export function validateConcrete(
  prop: string,
  value: string,
  validate: (field: string, value: string) => void,
): void {
  if (Token.isUnresolved(value)) {
    throw new Error(
      `${prop} must be a concrete string, not a token: it forms SSM parameter paths and IAM resources at synth time, got ${value}`,
    );
  }
  validate(prop, value);
}

function skipTokens(prop: string, value: string, validate: (field: string, value: string) => void): void {
  if (!Token.isUnresolved(value)) validate(prop, value);
}
