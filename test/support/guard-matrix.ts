/**
 * The engine of the update guard's change matrix, test/unit/guard-matrix-*.test.ts, with its rows in
 * test/unit/guard-matrix.cases.ts. It takes two synthesized templates, `cdk diff`'s own engine,
 * @aws-cdk/cloudformation-diff, to say what CloudFormation would replace or delete, and the guard's handler run on the
 * guard properties of both templates as CloudFormation would resolve them.
 *
 * What replaces a resource is the guard's own rule: CloudFormation's resource specification corrected where AWS's
 * reference says otherwise, `EFFECTIVE_RULES` of lambda/update-guard/spec-overrides.ts. `cdk diff`'s engine reads the
 * specification too, stale entries and all, but only its top level. For each changed top-level property it takes that
 * property's `causesReplacement`, and never looks inside. So a nested override, such as FSx's
 * `LustreConfiguration.PerUnitStorageThroughput`, never changes its verdict: it says WILL_UPDATE for a change of
 * `LustreConfiguration`, whatever changed inside, and the nested paths are judged below from `EFFECTIVE_RULES`. A
 * top-level override is applied to the per-property verdict of the diff before its resource verdict is read, by
 * {@link followOverrides}. Where the diff says WILL_REPLACE or MAY_REPLACE only because of an overridden property, the
 * engine follows the override.
 *
 * The resolution model: a Ref or GetAtt of a resource is a value that names the resource and its generation. A resource
 * the diff replaces, or may replace, is of a new generation in the second template, so everything that references it
 * changes too, as in CloudFormation. A launch template's LatestVersionNumber is new whenever the launch template
 * changes at all. Pseudo parameters and Fn::GetAZs are fixed for one account and region.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { App, NestedStack, Stack, Stage } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { fullDiff, ResourceImpact, type ResourceDifference } from '@aws-cdk/cloudformation-diff';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { handler } from '../../lambda/update-guard';
import { RESOURCE_TYPE } from '../../lambda/update-guard/contract';
import { HELD_TYPES, type HeldDescription, type HeldResource, type HeldType } from '../../lambda/update-guard/held';
import { SERVER_ID_TAG, type TaggedResource } from '../../lambda/update-guard/wire';
import { EFFECTIVE_RULES, SPEC_OVERRIDES, type SpecOverride, type UpdateImpact } from '../../lambda/update-guard/spec-overrides';
import { WATCHED_TYPES, type WatchedType } from '../../lambda/update-guard/watched-types';
import { valueAt } from '../../lib/update-guard';
import { type ContextKey, parseContext } from '../../lib/context';
import { StorageServer, type StorageServerProps } from '../../lib/storage-server';
import { StorageServerStack } from '../../lib/storage-server-stack';
import { MATRIX_AWS } from './guard-matrix-aws';

export type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
/**
 * A deploy's templates, as CloudFormation holds them: the root stack's, and each nested stack's by its path from the
 * root, nested stack logical ids joined by `/`.
 */
export interface Synthesized {
  readonly template: Template;
  readonly stackName: string;
  readonly nested?: Readonly<Record<string, Template>>;
}
export type Context = Partial<Record<ContextKey, string>>;

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const AZS = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
/** The looked-up VPC of the `vpc` family: two private subnets in us-east-1a, one in us-east-1b. */
export const LOOKED_UP_VPC = {
  vpcId: 'vpc-0123456789abcdef0',
  cidr: '10.1.0.0/16',
  subnets: [
    { subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: '10.1.0.0/24', availabilityZone: 'us-east-1a' },
    { subnetId: 'subnet-0aaaaaaaaaaaaaaa2', cidr: '10.1.1.0/24', availabilityZone: 'us-east-1a' },
    { subnetId: 'subnet-0bbbbbbbbbbbbbbb1', cidr: '10.1.2.0/24', availabilityZone: 'us-east-1b' },
  ],
};

function synth(stack: Stack): Synthesized {
  // A stack in a Stage is in the Stage's own assembly.
  const assembly = (Stage.of(stack) as Stage).synth();
  const nested: Record<string, Template> = {};
  for (const c of stack.node.findAll()) {
    if (!(c instanceof NestedStack)) continue;
    nested[nestedPath(c)] = JSON.parse(fs.readFileSync(path.join(assembly.directory, c.templateFile), 'utf8')) as Template;
  }
  const template = assembly.getStackByName(stack.stackName).template as Template;
  return Object.keys(nested).length === 0 ? { template, stackName: stack.stackName } : { template, stackName: stack.stackName, nested };
}

function nestedPath(s: Stack): string {
  const parent = s.nestedStackParent;
  if (!(s instanceof NestedStack) || parent === undefined || s.nestedStackResource === undefined) return '';
  const up = nestedPath(parent);
  return `${up === '' ? '' : `${up}/`}${parent.resolve(s.nestedStackResource.logicalId)}`;
}

/** The app's feature flags, cdk.json's context: the app runs with them, so the matrix does. */
const APP_FLAGS = (JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

const quietApp = (context: Record<string, unknown> = {}): App =>
  new App({ stackTraces: false, treeMetadata: false, context: { ...APP_FLAGS, ...context } });

/** The app's stack for context values, named as bin/storage-server.ts names it. */
export function appTemplate(context: Context): Synthesized {
  const ctx = parseContext((key) => context[key]);
  // The app's name: the stackName key, or StorageServer-<cluster>-<server> for names no other pair shares.
  const name = ctx.stackName;
  if (context.vpcId === undefined) {
    return synth(new StorageServerStack(quietApp(), 'StorageServer', { context: ctx, stackName: name }));
  }
  // A looked-up VPC: the first pass asks for the lookup, and the second gets the answer, as the CLI does.
  const env = { account: ACCOUNT, region: REGION };
  const first = quietApp();
  new StorageServerStack(first, 'StorageServer', { context: ctx, env, stackName: name });
  const missing = (first.synth().manifest.missing ?? []).find((m) => m.provider === 'vpc-provider');
  if (!missing) throw new Error('the first pass did not ask for the VPC lookup');
  const v = LOOKED_UP_VPC;
  const vpc = {
    vpcId: context.vpcId,
    vpcCidrBlock: v.cidr,
    availabilityZones: [...new Set(v.subnets.map((s) => s.availabilityZone))],
    subnetGroups: [{ name: 'Private', type: 'Private', subnets: v.subnets.map((s) => ({ ...s, routeTableId: 'rtb-0123456789abcdef0' })) }],
  };
  return synth(new StorageServerStack(quietApp({ [missing.key]: vpc }), 'StorageServer', { context: ctx, env, stackName: name }));
}

/**
 * A StorageServer with `props` under `path` in a bare stack with its own VPC. `path` gives construct ids from the stack
 * down, and an id `nested:<Id>` is a NestedStack.
 */
export function constructTemplate(
  base: Partial<StorageServerProps>,
  props: Partial<StorageServerProps> | ((stack: Stack, vpc: ec2.IVpc) => Partial<StorageServerProps>) = {},
  path: readonly string[] = ['Storage'],
  mutate?: (server: StorageServer) => void,
  stage?: string,
): Synthesized {
  const app = quietApp();
  // In a Stage the stack keeps its name, given explicitly as the app gives it, so CloudFormation sees the same stack.
  const stack = new Stack(stage === undefined ? app : new Stage(app, stage), 'ConstructStack', {
    env: { account: ACCOUNT, region: REGION }, stackName: 'ConstructStack',
  });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  let scope: Construct = stack;
  for (const id of path.slice(0, -1)) scope = id.startsWith('nested:') ? new NestedStack(scope, id.slice('nested:'.length)) : new Construct(scope, id);
  const given = typeof props === 'function' ? props(stack, vpc) : props;
  const server = new StorageServer(scope, path[path.length - 1], { vpc, clusterName: 'cluster', serverName: 'storage1', ...base, ...given });
  mutate?.(server);
  return synth(stack);
}

/** What the diff engine says of one change, and what the guard did. */
export interface Verdict {
  /** The data-holding resources CloudFormation would replace, or may replace, or delete, with how. */
  readonly lost: string[];
  /** The guard's decision. */
  readonly guard: 'accepted' | 'refused';
  /** The guard's message when it refused. */
  readonly message?: string;
  /** Replacements and removals of other resources, for the reader of a failure. */
  readonly other: string[];
}

const EMPTY: Template = { Resources: {} };

/** The templates of a deploy by stack path; `''` is the root. */
function stacksOf(s: Synthesized): Record<string, Template> {
  return { '': s.template, ...(s.nested ?? {}) };
}

/** A stack path as the prefix of its resources' paths. */
const prefixOf = (stackPath: string): string => (stackPath === '' ? '' : `${stackPath}/`);

/**
 * Diffs `before` and `after`, stack by stack, the root and every nested stack of either, and runs the guard: an Update
 * when the guard keeps its path, a Create when it is new. CloudFormation holds the first deploy's resources: the
 * guard's held-resources call answers them, with each resource's tags as its Describe call would give them. The tag
 * search finds the first deploy's resources tagged as the server.
 */
export async function judge(before: Synthesized, after: Synthesized): Promise<Verdict> {
  const stacksBefore = stacksOf(before);
  const stacksAfter = stacksOf(after);
  const lost: string[] = [];
  const other: string[] = [];
  const backend = guardIn(stacksBefore)?.props.Backend;
  const resolveBefore: Record<string, (v: unknown) => unknown> = {};
  const resolveAfter: Record<string, (v: unknown) => unknown> = {};
  // Parents first: a nested stack's parameters are its parent's values, resolved by the parent's resolver.
  const paths = [...new Set([...Object.keys(stacksBefore), ...Object.keys(stacksAfter)])].sort((x, y) => x.split('/').length - y.split('/').length || x.localeCompare(y));
  const parametersOf = (stacks: Record<string, Template>, resolvers: Record<string, (v: unknown) => unknown>, stackPath: string) => {
    if (stackPath === '') return {};
    const cut = stackPath.lastIndexOf('/');
    const parent = cut < 0 ? '' : stackPath.slice(0, cut);
    const own = stackPath.slice(cut + 1);
    const parameters = stacks[parent]?.Resources[own]?.Properties?.Parameters ?? {};
    return resolvers[parent] === undefined ? {} : resolvers[parent](parameters) as Record<string, unknown>;
  };
  for (const stackPath of paths) {
    const b = stacksBefore[stackPath] ?? EMPTY;
    const a = stacksAfter[stackPath] ?? EMPTY;
    const prefix = prefixOf(stackPath);
    const diff = fullDiff(b as never, a as never);
    const replaced = new Set<string>();
    const changed = new Set<string>();
    diff.resources.forEachDifference((id, r) => {
      followOverrides(r);
      if (r.isRemoval || r.changeImpact === ResourceImpact.WILL_REPLACE || r.changeImpact === ResourceImpact.MAY_REPLACE ||
        r.changeImpact === ResourceImpact.WILL_DESTROY || r.changeImpact === ResourceImpact.WILL_ORPHAN) {
        replaced.add(id);
        const type = b.Resources[id]?.Type;
        const how = `${prefix}${id} (${type ?? r.newResourceType}) ${r.isRemoval ? 'REMOVED' : r.changeImpact}`;
        if (type !== undefined && holdsData(type, backend)) lost.push(how);
        else if (type !== undefined) other.push(how);
      }
      if (r.isDifferent) changed.add(id);
    });
    // cdk diff compares template text at the top level. Two things it does not see replace a resource as surely. One is
    // a nested property the rules mark as replacing, such as FSx's LustreConfiguration.DeploymentType. The other is a
    // replacing property whose text is unchanged but whose value is new at deploy time: the instance's
    // LaunchTemplate.Version, a GetAtt of the launch template's LatestVersionNumber, is a new number whenever the
    // launch template changes. So every replacing property of a data resource is compared once resolved.
    const stackName = (s: Synthesized) => (stackPath === '' ? s.stackName : `${s.stackName}-${stackPath.replace(/\//g, '-')}`);
    resolveBefore[stackPath] = resolver({ template: b, stackName: stackName(before) }, () => 0, prefix,
      parametersOf(stacksBefore, resolveBefore, stackPath));
    resolveAfter[stackPath] = resolver({ template: a, stackName: stackName(after) }, (id, attr) =>
      (attr === 'LatestVersionNumber' ? changed.has(id) : replaced.has(id)) || !(id in b.Resources) ? 1 : 0, prefix,
      parametersOf(stacksAfter, resolveAfter, stackPath));
    for (const [id, r] of Object.entries(b.Resources)) {
      const next = a.Resources[id];
      if (!next || replaced.has(id) || !holdsData(r.Type, backend) || !(WATCHED_TYPES as readonly string[]).includes(r.Type)) continue;
      const rules = EFFECTIVE_RULES[r.Type as WatchedType];
      for (const p of [...rules.replaces, ...rules.mayReplace]) {
        const o = JSON.stringify(valueAt(resolveBefore[stackPath](r.Properties ?? {}) as Record<string, unknown>, p));
        const n = JSON.stringify(valueAt(resolveAfter[stackPath](next.Properties ?? {}) as Record<string, unknown>, p));
        if (o !== n) lost.push(`${prefix}${id} (${r.Type}) ${p} resolves to a new value: replaces`);
      }
    }
  }
  const oldGuard = guardIn(stacksBefore);
  const newGuard = guardIn(stacksAfter);
  if (!newGuard) throw new Error('the second deploy has no update guard');
  const newProps = resolveAfter[newGuard.stackPath](newGuard.props) as Record<string, unknown>;
  let event: CdkCustomResourceEvent;
  const stackId = `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${after.stackName}${newGuard.stackPath === '' ? '' : `-${newGuard.stackPath}`}/1`;
  const base = {
    ServiceToken: 'token', ResponseURL: 'https://example.invalid/', StackId: stackId,
    RequestId: 'r', LogicalResourceId: newGuard.id, ResourceType: RESOURCE_TYPE,
  };
  // The first deployment: nothing of the server exists yet.
  Object.assign(MATRIX_AWS, { lookup: () => [], held: [], described: [] });
  if (oldGuard && oldGuard.stackPath === newGuard.stackPath && oldGuard.id === newGuard.id) {
    const oldProps = resolveBefore[oldGuard.stackPath](oldGuard.props) as Record<string, unknown>;
    const created = await handler({ ...base, RequestType: 'Create', ResourceProperties: { ...oldProps, ServiceToken: 'token' } } as never);
    event = {
      ...base, RequestType: 'Update', PhysicalResourceId: String(created.PhysicalResourceId),
      ResourceProperties: { ...newProps, ServiceToken: 'token' }, OldResourceProperties: { ...oldProps, ServiceToken: 'token' },
    } as never;
  } else {
    event = { ...base, RequestType: 'Create', ResourceProperties: { ...newProps, ServiceToken: 'token' } } as never;
  }
  // CloudFormation now holds the first deploy's resources; EC2 and FSx describe them with their tags.
  const held: (HeldResource & { serverId?: string; fileSystemType?: unknown })[] = [];
  for (const [stackPath, t] of Object.entries(stacksBefore)) {
    const prefix = prefixOf(stackPath);
    for (const [id, r] of Object.entries(t.Resources)) {
      if (!(HELD_TYPES as readonly string[]).includes(r.Type)) continue;
      const tags = resolveBefore[stackPath](r.Properties?.Tags ?? []) as { Key: string; Value: string }[];
      const serverId = Array.isArray(tags) ? tags.find((tag) => tag.Key === SERVER_ID_TAG)?.Value : undefined;
      held.push({
        path: `${prefix}${id}`, type: r.Type as HeldType, physicalId: physical(r.Type, `${prefix}${id}@0`), serverId,
        fileSystemType: r.Properties?.FileSystemType,
      });
    }
  }
  const described: HeldDescription[] = held.filter((h) => h.type !== RESOURCE_TYPE).map((h) => ({
    physicalId: h.physicalId, serverId: h.serverId,
    ...(h.type === 'AWS::EC2::Instance' ? { instanceStore: backend === 'instance-store' } : {}),
    ...(h.type === 'AWS::FSx::FileSystem' ? { fileSystemType: String(h.fileSystemType) } : {}),
  }));
  const lookup = (serverId: string): TaggedResource[] => held
    .filter((h) => h.serverId === serverId && (WATCHED_TYPES as readonly string[]).includes(h.type))
    .map((h) => ({ kind: KIND[h.type as WatchedType], id: h.physicalId }));
  Object.assign(MATRIX_AWS, { lookup, held: held.map(({ path: p, type, physicalId }) => ({ path: p, type, physicalId })), described });
  try {
    await handler(event);
    return { lost, guard: 'accepted', other };
  } catch (err) {
    return { lost, guard: 'refused', message: (err as Error).message, other };
  }
}

const KIND: Record<WatchedType, TaggedResource['kind']> = {
  'AWS::EC2::Instance': 'instance', 'AWS::EC2::Volume': 'volume', 'AWS::EC2::NetworkInterface': 'network-interface',
  'AWS::FSx::FileSystem': 'file-system',
};

const DIFF_IMPACT: { readonly [I in UpdateImpact]: ResourceImpact } = {
  replaces: ResourceImpact.WILL_REPLACE,
  mayReplace: ResourceImpact.MAY_REPLACE,
  updates: ResourceImpact.WILL_UPDATE,
};

/**
 * Sets, in `cdk diff`'s verdict on one resource of a watched type, the impact of each changed top-level property that
 * an override names to the override's; the resource's `changeImpact` is the worst of its properties'. Nested rows
 * change nothing here, since the diff never read their paths.
 */
export function followOverrides(r: ResourceDifference, overrides: readonly SpecOverride[] = SPEC_OVERRIDES): void {
  if (r.isAddition || r.isRemoval || r.resourceTypeChanged) return;
  const changed = r.propertyUpdates;
  for (const o of overrides) {
    if (o.type === r.resourceType && !o.path.includes('.') && changed[o.path]) changed[o.path].changeImpact = DIFF_IMPACT[o.reference];
  }
}

/** The resources whose replacement or deletion loses data or the clients' address; an EBS server's instance may go. */
function holdsData(type: string, backend: unknown): boolean {
  if (type === 'AWS::EC2::Instance') return backend === 'instance-store';
  return type === 'AWS::EC2::Volume' || type === 'AWS::EC2::NetworkInterface' || type === 'AWS::FSx::FileSystem';
}

function guardIn(stacks: Record<string, Template>): { stackPath: string; id: string; props: Record<string, unknown> } | undefined {
  const found = Object.entries(stacks).flatMap(([stackPath, t]) => Object.entries(t.Resources)
    .filter(([, r]) => r.Type === RESOURCE_TYPE).map(([id, r]) => ({ stackPath, id, props: r.Properties ?? {} })));
  if (found.length > 1) throw new Error('more than one update guard');
  return found[0];
}

const PREFIX: Record<string, string> = {
  'AWS::EC2::Subnet': 'subnet-', 'AWS::EC2::SecurityGroup': 'sg-', 'AWS::EC2::Volume': 'vol-', 'AWS::EC2::NetworkInterface': 'eni-',
  'AWS::EC2::Instance': 'i-', 'AWS::EC2::VPC': 'vpc-', 'AWS::FSx::FileSystem': 'fs-',
};

/** A physical id in the form AWS gives the type, since the guard validates some; unique per resource and generation. */
function physical(type: string | undefined, name: string): string {
  const prefix = type === undefined ? undefined : PREFIX[type];
  return prefix === undefined ? name : `${prefix}${hex17(name)}`;
}

function hex17(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 17);
}

/** Another stack's export, for `vpcFrom`, in the form AWS gives the exported value. */
function imported(exportName: string): string {
  const kind = exportName.slice(exportName.lastIndexOf(':') + 1);
  if (kind === 'VpcCidr') return '10.1.0.0/16';
  if (kind === 'AvailabilityZone') return AZS[0];
  const type = { VpcId: 'AWS::EC2::VPC', SubnetId: 'AWS::EC2::Subnet' }[kind];
  return physical(type, `import:${exportName}`);
}

/** Resolves intrinsics as CloudFormation would for a custom resource's properties; scalars become strings. */
function resolver(
  t: { template: Template; stackName: string }, generation: (id: string, attr?: string) => number, prefix = '',
  parameters: Record<string, unknown> = {},
) {
  const pseudo: Record<string, string> = {
    'AWS::StackName': t.stackName, 'AWS::Region': REGION, 'AWS::AccountId': ACCOUNT, 'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com', 'AWS::StackId': `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${t.stackName}/1`,
  };
  const resolve = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(resolve);
    if (v === null || typeof v !== 'object') return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'))) {
      const arg = o[keys[0]];
      switch (keys[0]) {
        case 'Ref': {
          const id = arg as string;
          if (id in pseudo) return pseudo[id];
          if (id in parameters) return parameters[id];
          return physical(t.template.Resources[id]?.Type, `${prefix}${id}@${generation(id)}`);
        }
        case 'Fn::GetAtt': {
          const [id, attr] = arg as [string, string];
          const value = `${prefix}${id}.${attr}@${generation(id, attr)}`;
          return attr === 'GroupId' ? `sg-${hex17(value)}` : attr === 'Arn' && t.template.Resources[id]?.Type === 'AWS::KMS::Key'
            ? `arn:aws:kms:${REGION}:${ACCOUNT}:key/${hex17(value)}` : value;
        }
        case 'Fn::GetAZs': return AZS;
        case 'Fn::Select': {
          const [i, list] = arg as [unknown, unknown];
          return (resolve(list) as unknown[])[Number(resolve(i))];
        }
        case 'Fn::Join': {
          const [sep, list] = arg as [string, unknown[]];
          return (resolve(list) as unknown[]).join(sep);
        }
        case 'Fn::Base64': return Buffer.from(String(resolve(arg))).toString('base64');
        case 'Fn::ImportValue': return imported(String(resolve(arg)));
        default: throw new Error(`the matrix cannot resolve ${keys[0]}`);
      }
    }
    return Object.fromEntries(keys.map((k) => [k, resolve(o[k])]));
  };
  return resolve;
}
