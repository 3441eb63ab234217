import { Annotations, type CfnResource, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { Construct, IConstruct } from 'constructs';
import { destroyFate, isRetained } from './deletion/fate';

// What `cdk destroy` does to a server's data: docs/design.md, section 5, "What cdk destroy does", and the README's
// table. The resources that hold data are kept unless the deploy says `deleteDataOnDestroy`, and what a kept resource
// still uses is kept with it. An instance-store server's data dies with its instance, so its stack's termination
// protection guards it. The check runs at synth after every aspect, so a RemovalPolicies.destroy() from outside counts.

export { destroyFate } from './deletion/fate';

/** One resource that holds a server's data, and what it still uses while it exists. */
export interface DataHolder {
  /** In words, for messages: `EBS data volume 0`, `the FSx for Lustre file system`. */
  readonly what: string;
  /** Its CloudFormation resource. */
  readonly resource: CfnResource;
  /**
   * What the resource still uses while it exists: its security group and that group's rules among its own members, its
   * subnets, and their VPC. They are kept with it, since deleting one of them would fail with DependencyViolation or
   * cut the kept resource off.
   * @default - none
   */
  readonly companions?: readonly CfnResource[];
  /**
   * What a deletion takes with it besides the resource, in words, such as `its automatic backups`.
   * @default - nothing more
   */
  readonly takesWith?: string;
}

/** The props that say what a destroy does to the data. */
export interface DestroyProps {
  /** The removal policy the user gave the data resources. */
  readonly removalPolicy?: RemovalPolicy;
  /** The words that let a destroy delete the data. */
  readonly deleteDataOnDestroy?: boolean;
}

/** The key and prop, as messages name them. */
export const DELETE_DATA_KEY = 'deleteDataOnDestroy=true (context) or deleteDataOnDestroy: true (prop)';

/**
 * The removal policy of the resources that hold data: `removalPolicy` when given, else `DESTROY` with
 * `deleteDataOnDestroy`, else kept on update and deletion. That last is `RetainExceptOnCreate`, which deletes them only
 * when the stack's first creation rolls back, while they are new and blank.
 */
export function dataRemovalPolicy(props: DestroyProps): RemovalPolicy {
  return props.removalPolicy ?? (props.deleteDataOnDestroy === true ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE);
}

/** Gives each companion the data resource's removal policy when that policy keeps it; else they go with it. */
export function keepWith(policy: RemovalPolicy, companions: readonly CfnResource[]): void {
  if (policy !== RemovalPolicy.RETAIN && policy !== RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE) return;
  for (const companion of companions) companion.applyRemovalPolicy(policy);
}

/**
 * Turns on the termination protection of `scope`'s root stack, so that `cdk destroy` fails before it deletes anything.
 * A nested stack has none of its own: "For nested stacks, termination protection is set on the root stack", per the AWS
 * CloudFormation API reference, UpdateTerminationProtection. The CDK CLI sets it on the stack at every deploy.
 */
export function refuseDestroy(scope: Construct, why: string): void {
  rootStack(scope).terminationProtection = true;
  Annotations.of(scope).addInfo(`cdk destroy is refused: the stack's termination protection is on because ${why}.`);
}

/**
 * Checks at synth, once every aspect has run, what a destroy does to `holders`. It refuses a template whose destroy
 * would delete data the deploy did not say may go by {@link DELETE_DATA_KEY}. It also refuses one whose destroy would
 * end in DELETE_FAILED, with a companion deleted under a kept resource, or that asks for a snapshot CloudFormation
 * cannot take. With the key, a warning names what a destroy deletes.
 */
export function checkDestroy(scope: Construct, holders: readonly DataHolder[], deleteDataOnDestroy: boolean): void {
  scope.node.addValidation({ validate: () => destroyProblems(scope, holders, deleteDataOnDestroy) });
}

function destroyProblems(scope: Construct, holders: readonly DataHolder[], deleteDataOnDestroy: boolean): string[] {
  const problems: string[] = [];
  const deleted: string[] = [];
  const protectedStack = rootStack(scope).terminationProtection;
  for (const holder of holders) {
    const { resource } = holder;
    const policy = resource.cfnOptions.deletionPolicy;
    const named = `${holder.what} (${logicalIdOf(resource)}, DeletionPolicy ${policy ?? 'none: Delete'})`;
    const fate = destroyFate(policy, resource.cfnResourceType, protectedStack);
    if (fate === 'unsupported') {
      problems.push(`${named}: CloudFormation cannot snapshot a ${resource.cfnResourceType} (its DeletionPolicy reference lists ` +
        `the types it can; an EBS volume is one): give it RETAIN_ON_UPDATE_OR_DELETE, or DESTROY with ${DELETE_DATA_KEY}.`);
    } else if (fate === 'deleted' && !deleteDataOnDestroy) {
      problems.push(`${named}: cdk destroy would delete it${holder.takesWith ? ` and ${holder.takesWith}` : ''}, and the data ` +
        `with it, but the deploy does not say the data may go. Deploy with ${DELETE_DATA_KEY} to accept that, or keep it ` +
        '(a RemovalPolicy other than DESTROY on it: RemovalPolicies.destroy() from outside applies DESTROY too).');
    } else if (fate === 'deleted') {
      deleted.push(`${named}${holder.takesWith ? ` with ${holder.takesWith}` : ''}`);
    } else if (fate === 'snapshot') {
      Annotations.of(scope).addInfo(`cdk destroy snapshots ${named} and then deletes it; the snapshot stays (delete it yourself).`);
    } else if (fate === 'kept') {
      for (const companion of holder.companions ?? []) {
        if (isRetained(companion.cfnOptions.deletionPolicy)) continue;
        problems.push(`${companion.cfnResourceType} ${logicalIdOf(companion)} (DeletionPolicy ` +
          `${companion.cfnOptions.deletionPolicy ?? 'none: Delete'}): cdk destroy would delete it while ${named} still uses it, ` +
          'and end in DELETE_FAILED; give it the same RemovalPolicy.');
      }
    }
  }
  if (deleted.length > 0) {
    Annotations.of(scope).addWarningV2('storage-server:deletesDataOnDestroy',
      `deleteDataOnDestroy: cdk destroy deletes ${deleted.join('; ')}, and the data on ${deleted.length > 1 ? 'them' : 'it'}.`);
  }
  return problems;
}

function logicalIdOf(resource: CfnResource): string {
  return String(Stack.of(resource).resolve(resource.logicalId));
}

/** The stack at the root of `scope`'s nested stacks, or `scope`'s own stack when it is not nested. */
function rootStack(scope: IConstruct): Stack {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent !== undefined) stack = stack.nestedStackParent;
  return stack;
}
