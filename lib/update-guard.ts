import { CustomResource, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { acknowledgeCompliance, acknowledgeCustomResourceFunctions, logEncryptionKey } from './compliance';
import { handlerFunction, iam5, ignoreRoleDependsOnLint } from './handler-function';
import {
  RESOURCE_TYPE,
  guardProperties,
  validateLayout,
  type StorageLayout,
} from '../lambda/update-guard/contract';

export type { DataVolumeLayout, StorageLayout } from '../lambda/update-guard/contract';

/** Properties of an {@link UpdateGuard}. */
export interface UpdateGuardProps {
  /**
   * The storage layout this deployment asks for. On a stack update the guard compares it with the layout
   * of the last accepted deployment and refuses changes that would lose or strand data.
   */
  readonly layout: StorageLayout;
  /**
   * Let refused changes pass: the update goes ahead and loses the data it loses (each accepted loss is
   * logged by the guard function). For scratch data only.
   * @default false
   */
  readonly acceptDataLoss?: boolean;
}

/**
 * Refuses stack updates that would lose or strand a storage server's data (DESIGN.md, "Day 2"): a backend
 * change, an instance-store type change, fewer, more, replaced, reordered or smaller EBS volumes, other
 * snapshots, another KMS key or Availability Zone, or a change that replaces an instance-store instance (or an EBS
 * instance whose volumes CloudFormation still attaches: legacyVolumeAttachments). The policy of
 * each layout field is one table, `UPDATE_POLICIES` in lambda/update-guard/contract.ts.
 *
 * Make everything that holds data depend on {@link UpdateGuard.resource}: CloudFormation then updates the
 * guard first, and a refusal fails the update before anything else changed. A refusal names each change,
 * why it is refused and the safe path. The guard never refuses the rollback to its last accepted layout.
 *
 * All guards of a stack share one Lambda function and one Provider.
 */
export class UpdateGuard extends Construct {
  /** The custom resource; its PhysicalResourceId (`Ref`) is `storage-layout-` and a hash of the layout. */
  public readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: UpdateGuardProps) {
    super(scope, id);
    const acceptDataLoss = props.acceptDataLoss ?? false;

    // The same checks the handler makes at deploy time, on the values known now (tokens are skipped).
    validateLayout(props.layout, (field) => `layout.${field}`, Token.isUnresolved);

    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: UpdateGuardProvider.of(this).serviceToken,
      resourceType: RESOURCE_TYPE,
      properties: guardProperties(props.layout, acceptDataLoss),
    });
  }
}

/** The stack's single update-guard Lambda + Provider, found or created by a fixed id on the Stack. */
class UpdateGuardProvider extends Construct {
  static readonly ID = 'StorageServerUpdateGuardProvider';

  static of(scope: Construct): UpdateGuardProvider {
    const stack = Stack.of(scope);
    const existing = stack.node.tryFindChild(UpdateGuardProvider.ID);
    return existing instanceof UpdateGuardProvider
      ? existing
      : new UpdateGuardProvider(stack, UpdateGuardProvider.ID);
  }

  public readonly serviceToken: string;

  private constructor(scope: Construct, id: string) {
    super(scope, id);
    // The guard calls no AWS API: its role may only write its own logs.
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Checks StorageServer layout changes (update-guard custom resource); writes its logs only',
    });
    const logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_YEAR,
      encryptionKey: logEncryptionKey(this),
    });
    const policy = new iam.Policy(this, 'Policy', {
      statements: [
        new iam.PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [logGroup.logGroupArn],
        }),
      ],
    });
    role.attachInlinePolicy(policy);

    const functionProps = {
      runtime: lambda.Runtime.NODEJS_22_X,
      description: 'StorageServer update guard: refuses layout changes that would lose or strand data',
      role,
      logGroup,
      timeout: Duration.seconds(30),
      memorySize: 128,
      environment: { NODE_OPTIONS: '--enable-source-maps' },
    };
    const fn = handlerFunction(this, 'Handler', 'update-guard', functionProps);
    // The role's policy must exist before the function runs, including on the first Create.
    fn.node.addDependency(policy);
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to nodejs22.x deliberately: the handler is tested on Node 22; moving to a newer runtime is ' +
        'a reviewed change, not an automatic one.',
    });

    const frameworkRole = new iam.Role(this, 'FrameworkRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Provider framework of the StorageServer update-guard custom resource',
    });
    const frameworkLogs = new logs.LogGroup(this, 'FrameworkLogs', {
      retention: logs.RetentionDays.ONE_YEAR,
      encryptionKey: logEncryptionKey(this),
    });
    frameworkLogs.grantWrite(frameworkRole);
    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: fn,
      frameworkOnEventRole: frameworkRole,
      logGroup: frameworkLogs,
    });
    this.serviceToken = provider.serviceToken;
    Validations.of(frameworkRole.node.findChild('DefaultPolicy')).acknowledge({
      id: iam5(this, `${fn.functionArn}:*`),
      reason: 'Granted by the CDK Provider framework so it can invoke any version of the onEvent function.',
    });
    acknowledgeCompliance(policy, 'IAMNoInlinePolicy',
      "The function's only permission (writing its own log group), in a policy that belongs to this role alone and " +
        "lives and dies with it, the IAM guide's case for an inline policy; a managed policy could be attached to " +
        'other principals.');
    acknowledgeCompliance(frameworkRole.node.findChild('DefaultPolicy'), 'IAMNoInlinePolicy',
      'Written by the CDK Provider framework (invoke and GetFunction of the onEvent function) and by grantWrite of ' +
        "its own log group, into its role's own policy; a hand-copied managed policy would silently miss permissions " +
        'a later aws-cdk-lib adds.');
    acknowledgeCustomResourceFunctions(fn, provider, 'no AWS API: it compares the requested layout with the last accepted one');
    ignoreRoleDependsOnLint(this);
  }
}

