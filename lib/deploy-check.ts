import { AspectPriority, Aspects, CfnResource, CustomResource, Duration, IAspect, Stack } from 'aws-cdk-lib';
import { Construct, IConstruct } from 'constructs';
import { PROP, RESOURCE_TYPE, wireCheck, type CheckOptions, type ValueToCheck } from '../lambda/value-check/contract';
import { addHandlerProvider, stackSingleton } from './handler-provider';

/** The stack's single value-check Lambda + Provider, found or created by a fixed id on the Stack. */
class ValueCheckProvider extends Construct {
  static readonly ID = 'StorageServerValueCheckProvider';

  static of(scope: Construct): ValueCheckProvider {
    return stackSingleton(scope, ValueCheckProvider.ID, (found) => found instanceof ValueCheckProvider, (stack, id) => new ValueCheckProvider(stack, id));
  }

  public readonly serviceToken: string;

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    const provider = addHandlerProvider(this, {
      handler: 'value-check',
      roleDescription: 'Checks StorageServer values resolved at deploy (value-check custom resource): writes its own logs only',
      functionDescription: 'StorageServer value check: refuses values resolved at deploy that the synth-time rules refuse',
      frameworkDescription: 'Provider framework of the StorageServer value-check custom resource',
      timeout: Duration.seconds(10),
      memorySize: 128,
      runtimeReason:
        'Pinned to nodejs22.x deliberately: the handler is tested on Node 22; moving to a newer runtime is ' +
        'a reviewed change, not an automatic one.',
      policyReason:
        "The function's only permission (writing its own log group), in a policy that belongs to this role alone and lives and " +
        "dies with it, the IAM guide's case for an inline policy; a managed policy could be attached to other principals.",
      apis: 'no AWS API: it checks the values in its own event',
    });
    this.serviceToken = provider.serviceToken;
  }
}

/**
 * Checks at deploy the values a synth could not see, the tokens, by the rules their literal forms meet at synth. No
 * resource is made when every value is literal. Every resource of the stack whose properties carry one of the values
 * depends on the check, found in its resolved template so that none is missed by name. A refused value then fails the
 * deploy before anything that carries it is created or changed: security groups with inline rules, the launch template,
 * the settings, the file system, and the update guard after them.
 */
export class DeployTimeCheck extends Construct {
  /** The check, or undefined when there was nothing to check. */
  public static addTo(scope: Construct, id: string, checks: readonly ValueToCheck[], options: CheckOptions): DeployTimeCheck | undefined {
    return checks.length === 0 ? undefined : new DeployTimeCheck(scope, id, checks, options);
  }

  /** The custom resource. */
  public readonly resource: CustomResource;

  private constructor(scope: Construct, id: string, checks: readonly ValueToCheck[], options: CheckOptions) {
    super(scope, id);
    // A value that only looks like a token, its text typed by hand, cannot be resolved: refused by its name.
    const expressions = checks.map((c) => {
      try {
        return JSON.stringify(Stack.of(scope).resolve(c.value));
      } catch (e) {
        throw new Error(`${c.name} is not a value this app made or a token it knows, got '${c.value}': ${(e as Error).message}.`);
      }
    });
    const provider = ValueCheckProvider.of(this);
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: RESOURCE_TYPE,
      properties: {
        [PROP.CHECKS]: checks.map(wireCheck),
        [PROP.ALLOW_PUBLIC]: String(options.allowPublic),
      },
    });
    const stack = Stack.of(this);
    // Read-only priority runs last, once every rule of every group is in place; a resolved Lazy is cached.
    Aspects.of(stack).add(new DependOnCheck(this, provider, expressions), { priority: AspectPriority.READONLY });
  }
}

/** Makes every resource whose resolved properties hold one of the checked expressions depend on the check. */
class DependOnCheck implements IAspect {
  constructor(
    private readonly check: DeployTimeCheck,
    private readonly provider: Construct,
    private readonly expressions: readonly string[],
  ) {}

  public visit(node: IConstruct): void {
    if (!(node instanceof CfnResource) || Stack.of(node) !== Stack.of(this.check)) return;
    // The check and its provider carry the values or run before them.
    const path = node.node.path;
    if ([this.check.node.path, this.provider.node.path].some((p) => path === p || path.startsWith(`${p}/`))) return;
    const rendered = JSON.stringify(Stack.of(node).resolve(node._toCloudFormation()));
    if (this.expressions.some((e) => rendered.includes(e))) {
      node.addResourceDependency(this.check.resource.node.defaultChild as CfnResource);
    }
  }
}
