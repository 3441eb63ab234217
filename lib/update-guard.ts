import { Aws, CfnResource, CustomResource, Duration, Lazy, NestedStack, Stack, Token, Validations, type IResolveContext } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { iam5 } from './handler-function';
import { addHandlerProvider, stackSingleton } from './handler-provider';
import {
  RESOURCE_TYPE,
  WATCH_PROP,
  guardProperties,
  validateLayout,
  type StorageLayout,
} from '../lambda/update-guard/contract';
import { HELD_TYPES, KEPT_PROP, keptWire, type HeldType, type Kept } from '../lambda/update-guard/held';
import { INSTANCE_INTERRUPTING } from '../lambda/update-guard/instance-updates';
import { EFFECTIVE_RULES } from '../lambda/update-guard/spec-overrides';
import { WATCHED_TYPES, type WatchedType } from '../lambda/update-guard/watched-types';

/** Properties of an {@link UpdateGuard}. */
export interface UpdateGuardProps {
  /**
   * The storage layout this deployment asks for. On a stack update the guard compares it with the layout
   * of the last accepted deployment and refuses changes that would lose or strand data.
   */
  readonly layout: StorageLayout;
  /**
   * Let refused changes pass: the update goes ahead and loses the data it loses. The guard function logs each accepted
   * loss. For scratch data only.
   * @default false
   */
  readonly acceptDataLoss?: boolean;
  /**
   * Let a lower snapshot retention, `layout.snapshotRetain`, pass, and the older snapshot sets or backups it deletes
   * go. This narrower opt-in is for that change only: see lambda/update-guard/retention-rules.ts.
   * @default false
   */
  readonly acceptFewerSnapshots?: boolean;
  /**
   * The resources that hold the server's data or its clients' address, by role: `Instance`, `Interface`, `DataVolume0`,
   * `FileSystem` and so on. The guard records each one's logical id and every property whose change replaces it by
   * CloudFormation's resource specification, corrected where AWS's reference says otherwise. For an instance it also
   * records the properties whose change stops and starts it. It refuses a change to any of them unless the resource's
   * policy allows it.
   * @default none
   */
  readonly watch?: WatchedResourceSpec[];
  /** The server's names; a rename is refused, and a Create looks for resources already tagged `serverId`. @default none */
  readonly identity?: GuardIdentity;
}

/** One resource the guard watches. */
export interface WatchedResourceSpec {
  /** Its role, the name refusals use: a letter, then letters and digits. */
  readonly role: string;
  /** The resource; its type must be one of the watched types of lambda/update-guard/watched-types.ts. */
  readonly resource: CfnResource;
}

/** The names that make a server's identity. */
export interface GuardIdentity {
  /** The cluster the server serves; a change is refused, since the server would move to another cluster. */
  readonly clusterName: string;
  /** The server's name in its cluster; a change is refused. */
  readonly serverName: string;
  /** The `storage-server:id` tag value of its resources. */
  readonly serverId: string;
}

/**
 * The properties the guard watches on a resource of `type`: those CloudFormation's specification marks as replacing,
 * yes or maybe, corrected where AWS's reference says otherwise in lambda/update-guard/spec-overrides.ts. For an
 * instance they include those whose update stops and starts it.
 */
export function watchedPropertyNames(type: WatchedType): string[] {
  const rules = EFFECTIVE_RULES[type];
  const extra: readonly string[] = type === 'AWS::EC2::Instance' ? INSTANCE_INTERRUPTING : [];
  return [...new Set([...rules.replaces, ...rules.mayReplace, ...extra])].sort();
}

/**
 * Refuses stack updates that would lose or strand a storage server's data, as the README's "Changing a deployed server"
 * says:
 * - a change of the layout fields, by one policy table, `UPDATE_POLICIES` in lambda/update-guard/contract.ts: a backend
 *   change, an instance-store type change, fewer, more, replaced, reordered or smaller EBS volumes, other snapshots,
 *   another KMS key or Availability Zone;
 * - any change that replaces a watched resource, `watch`, by CloudFormation's resource specification, corrected where
 *   AWS's reference says otherwise in lambda/update-guard/spec-overrides.ts;
 * - a rename of the server, `identity`;
 * - at Create, resources already tagged with the server's id: see lambda/update-guard/watched.ts and aws.ts.
 *
 * Make everything that holds data depend on {@link UpdateGuard.resource}. CloudFormation then updates the guard first,
 * and a refusal fails the update before anything else changed. A refusal names each change, why it is refused and the
 * safe path. The guard never refuses the rollback to its last accepted layout.
 *
 * All guards of a stack share one Lambda function and one Provider.
 */
export class UpdateGuard extends Construct {
  /** The custom resource. Its PhysicalResourceId, its `Ref`, is `storage-layout-` and a hash of the layout. */
  public readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: UpdateGuardProps) {
    super(scope, id);
    const acceptDataLoss = props.acceptDataLoss ?? false;

    // The same checks the handler makes at deploy time, on the values known now; tokens are skipped. Before a VPC
    // lookup has run, CDK's placeholder VPC, aws-ec2's dummy VPC, names its subnets p-<digits>. Such an id is not known
    // yet, like a token, and the synth after the lookup checks the real one.
    validateLayout(props.layout, (field) => `layout.${field}`, (v) => Token.isUnresolved(v) || (typeof v === 'string' && /^p-\d+$/.test(v)));

    const watched: Record<string, unknown> = {};
    for (const w of props.watch ?? []) {
      if (!/^[A-Za-z][A-Za-z0-9]{0,63}$/.test(w.role) || w.role in watched) {
        throw new Error(`watch: role ${JSON.stringify(w.role)} must be a letter then letters and digits, and unique`);
      }
      const type = w.resource.cfnResourceType;
      if (!(WATCHED_TYPES as readonly string[]).includes(type)) {
        throw new Error(`watch: ${w.role} is a ${type}; the guard watches ${WATCHED_TYPES.join(', ')}`);
      }
      watched[w.role] = watchedEntry(w.resource, type as WatchedType);
    }
    const extra: Record<string, unknown> = {};
    if (props.watch !== undefined) extra[WATCH_PROP.watched] = watched;
    if (props.identity !== undefined) {
      extra[WATCH_PROP.identity] = {
        StackName: Aws.STACK_NAME,
        ClusterName: props.identity.clusterName,
        ServerName: props.identity.serverName,
        ServerId: props.identity.serverId,
      };
    }

    // What this deploy keeps, read from the finished construct tree at synth: the template CloudFormation receives.
    const stack = Stack.of(this);
    extra[KEPT_PROP] = Lazy.any({ produce: () => keptWire(keptResources(stack)) });

    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: UpdateGuardProvider.of(this).serviceToken,
      resourceType: RESOURCE_TYPE,
      properties: { ...guardProperties(props.layout, acceptDataLoss, props.acceptFewerSnapshots === true ? ['AcceptFewerSnapshots'] : []), ...extra },
    });
  }
}

/**
 * The resources of held types in the whole stack tree of `stack`, its root stack and every nested stack. They are given
 * as paths from the root, as CloudFormation will hold them: nested stack logical ids, then the resource's own. `stack`
 * gives the guard's own prefix.
 */
function keptResources(stack: Stack): Kept {
  const prefix = (s: Stack): string => {
    if (!(s instanceof NestedStack) || s.nestedStackParent === undefined) return '';
    const parent = s.nestedStackParent;
    const cfn = s.nestedStackResource;
    if (cfn === undefined) return '';
    return `${prefix(parent)}${parent.resolve(cfn.logicalId)}/`;
  };
  let root = stack;
  while (root.nestedStackParent !== undefined) root = root.nestedStackParent;
  const resources = Object.fromEntries(HELD_TYPES.map((t) => [t, [] as string[]])) as Record<HeldType, string[]>;
  for (const c of root.node.findAll()) {
    if (!CfnResource.isCfnResource(c) || !(HELD_TYPES as readonly string[]).includes(c.cfnResourceType)) continue;
    const owner = Stack.of(c);
    resources[c.cfnResourceType as HeldType].push(`${prefix(owner)}${owner.resolve(c.logicalId)}`);
  }
  return { stack: prefix(stack), resources };
}

/**
 * One watched resource as the guard records it: its logical id, the watched names, and their values as the template
 * renders them after overrides. The values are taken from the resource itself when the template is resolved.
 */
function watchedEntry(resource: CfnResource, type: WatchedType): Record<string, unknown> {
  const watching = watchedPropertyNames(type);
  return {
    Type: type,
    LogicalId: resource.logicalId,
    Watching: watching,
    Properties: Lazy.uncachedAny({
      produce: (context: IResolveContext) => {
        // The resource's own rendering, resolved here: CfnResource._toCloudFormation, with properties, tags and
        // overrides.
        const rendered = (resource as unknown as { _toCloudFormation(): { Resources: Record<string, unknown> } })._toCloudFormation();
        const definition = context.resolve(Object.values(rendered.Resources)[0]) as { Properties?: Record<string, unknown> };
        const properties = definition.Properties ?? {};
        const values = watching.map((p) => [p, valueAt(properties, p)] as const);
        return Object.fromEntries(values.filter(([, v]) => v !== undefined));
      },
    }),
  };
}

/** The value at a watched path: `A.B` is property B of A, `A[].B` the list of B of each element of A. */
export function valueAt(properties: Readonly<Record<string, unknown>>, path: string): unknown {
  const step = (value: unknown, parts: string[]): unknown => {
    if (parts.length === 0 || value === undefined || value === null) return value;
    const [head, ...rest] = parts;
    const list = head.endsWith('[]');
    const key = list ? head.slice(0, -2) : head;
    const next = typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (!list) return step(next, rest);
    return Array.isArray(next) ? next.map((e) => step(e, rest)) : step(next, rest);
  };
  return step(properties, path.split('.'));
}

/** The stack's single update-guard Lambda + Provider, found or created by a fixed id on the Stack. */
class UpdateGuardProvider extends Construct {
  static readonly ID = 'StorageServerUpdateGuardProvider';

  static of(scope: Construct): UpdateGuardProvider {
    return stackSingleton(scope, UpdateGuardProvider.ID, (found) => found instanceof UpdateGuardProvider, (stack, id) => new UpdateGuardProvider(stack, id));
  }

  public readonly serviceToken: string;

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const rootArns = rootStackArns(stack);
    const provider = addHandlerProvider(this, {
      handler: 'update-guard',
      statements: [
        // Which resources are a server's, by their tag, and whether an instance has instance store. The Describe calls
        // take no resource-level permission in EC2 or FSx.
        new iam.PolicyStatement({
          sid: 'DescribeServerResources',
          actions: [
            'ec2:DescribeInstances', 'ec2:DescribeVolumes', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstanceTypes',
            'fsx:DescribeFileSystems',
          ],
          resources: ['*'],
        }),
        // Before a refusal: is this stack rolling back? And which stack is its root?
        new iam.PolicyStatement({
          sid: 'ReadOwnStackStatus',
          actions: ['cloudformation:DescribeStacks'],
          resources: [stack.stackId],
        }),
        // What the root stack and its nested stacks hold now. Nested stacks are named <root>-<logical id>-<suffix>.
        new iam.PolicyStatement({
          sid: 'ListResourcesOfRootStack',
          actions: ['cloudformation:ListStackResources'],
          resources: rootArns,
        }),
      ],
      roleDescription: 'Checks StorageServer layout changes (update-guard custom resource): reads its own stack status and which resources carry a server id',
      functionDescription: 'StorageServer update guard: refuses layout changes that would lose or strand data',
      frameworkDescription: 'Provider framework of the StorageServer update-guard custom resource',
      // ListStackResources over the root and its nested stacks, then a Describe per kind: more calls than before.
      timeout: Duration.seconds(60),
      memorySize: 128,
      runtimeReason:
        'Pinned to nodejs22.x deliberately: the handler is tested on Node 22; moving to a newer runtime is ' +
        'a reviewed change, not an automatic one.',
      policyReason:
        "The function's permissions (describe calls, its own stack's status, writing its own log group), in a policy that belongs to this role alone and " +
        "lives and dies with it, the IAM guide's case for an inline policy; a managed policy could be attached to " +
        'other principals.',
      apis: 'EC2 and FSx Describe calls (resources tagged with the server id), CloudFormation DescribeStacks (its own stack) ' +
        'and ListStackResources (its root stack and nested stacks)',
    });
    this.serviceToken = provider.serviceToken;
    for (const arn of rootArns) {
      Validations.of(provider.policy).acknowledge({
        id: iam5(provider.policy, arn),
        reason: 'A stack ARN ends in a unique id CloudFormation assigns, and nested stacks get a suffix of its choosing: ' +
          'the root stack and the stacks named after it, for ListStackResources only.',
      });
    }
    Validations.of(provider.policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ec2:DescribeInstances, DescribeVolumes, DescribeNetworkInterfaces, DescribeInstanceTypes and ' +
        'fsx:DescribeFileSystems support no resource-level permissions; the function only reads which resources carry a ' +
        'server id and whether an instance type has instance store.',
    });
  }
}


/**
 * The root stack of `stack` and its nested stacks, as ARNs: CloudFormation names a nested stack
 * `<parent name>-<logical id>-<suffix>`, so every stack below the root starts with the root's name and a hyphen.
 */
function rootStackArns(stack: Stack): string[] {
  let root = stack;
  while (root.nestedStackParent !== undefined) root = root.nestedStackParent;
  const name = Token.isUnresolved(root.stackName) ? '*' : root.stackName;
  const arn = (n: string) => `arn:${Aws.PARTITION}:cloudformation:${Aws.REGION}:${Aws.ACCOUNT_ID}:stack/${n}/*`;
  return name === '*' ? [arn('*')] : [arn(name), arn(`${name}-*`)];
}
