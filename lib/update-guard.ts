import { CustomResource, Duration, Stack, Token } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { addHandlerProvider } from './handler-provider';
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
    this.serviceToken = addHandlerProvider(this, {
      handler: 'update-guard',
      roleDescription: 'Checks StorageServer layout changes (update-guard custom resource); writes its logs only',
      functionDescription: 'StorageServer update guard: refuses layout changes that would lose or strand data',
      frameworkDescription: 'Provider framework of the StorageServer update-guard custom resource',
      timeout: Duration.seconds(30),
      memorySize: 128,
      runtimeReason:
        'Pinned to nodejs22.x deliberately: the handler is tested on Node 22; moving to a newer runtime is ' +
        'a reviewed change, not an automatic one.',
      policyReason:
        "The function's only permission (writing its own log group), in a policy that belongs to this role alone and " +
        "lives and dies with it, the IAM guide's case for an inline policy; a managed policy could be attached to " +
        'other principals.',
      apis: 'no AWS API: it compares the requested layout with the last accepted one',
    }).serviceToken;
  }
}

