import { Names, Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import * as dlm from 'aws-cdk-lib/aws-dlm';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { DLM_DOCUMENT_TAG, loadFreezeScript, renderFreezeDocument } from './snapshot-document';
import { type SnapshotSettings, snapshotSettings } from './snapshot-policy/settings';

export { SNAPSHOT_INTERVAL_HOURS } from './snapshot-policy/settings';

/**
 * DLM script settings. DLM allows a 10-120 s timeout per script and 0-3 retries; a sync of a busy
 * NFS export can take a while, so the timeout is the maximum, and retries absorb transient SSM
 * delivery failures. A failed pre script falls back to a crash-consistent snapshot.
 */
const SCRIPT_TIMEOUT_SECONDS = 120;
const SCRIPT_RETRIES = 2;

/** Copy of each snapshot set to another region. */
export interface CrossRegionCopy {
  /** The region to copy to, e.g. `eu-west-1`; must differ from the stack's region. */
  readonly targetRegion: string;
  /**
   * Days the copies are kept in the target region.
   * @default 7
   */
  readonly retainDays?: number;
  /**
   * Encrypt copies of unencrypted snapshots; copies of encrypted snapshots are always encrypted.
   * @default true
   */
  readonly encrypted?: boolean;
  /**
   * KMS key in the target region for the copies; the execution role is allowed to use it.
   * @default - the target region's default EBS key
   */
  readonly cmkArn?: string;
}

/** Properties of a {@link SnapshotPolicy}. */
export interface SnapshotPolicyProps {
  /** The EBS-backed storage server; it is tagged with a tag unique to this server, which DLM targets. */
  readonly instance: ec2.Instance;
  /** The XFS mount holding the data, frozen for application-consistent snapshots, e.g. `/export/data`. */
  readonly dataMountPath: string;
  /**
   * Snapshot sets kept, 1 to 1000. Keeping none means no policy: do not create this construct.
   * @default 7
   */
  readonly retain?: number;
  /**
   * Hours between snapshots: 1, 2, 3, 4, 6, 8, 12 or 24.
   * @default 24
   */
  readonly intervalHours?: number;
  /**
   * UTC time of the first snapshot of the day, `HH:MM`.
   * @default '03:00'
   */
  readonly startTimeUtc?: string;
  /**
   * Freeze the data file system around each snapshot with SSM pre and post scripts, which need the SSM agent and an
   * instance role that lets it register. Without it, snapshots are crash-consistent.
   * @default true
   */
  readonly applicationConsistent?: boolean;
  /**
   * Copy each snapshot set to another region.
   * @default - no copy
   */
  readonly crossRegionCopy?: CrossRegionCopy;
  /**
   * Longest the file system may stay frozen before the freeze script thaws it by itself, 10 to 600 seconds. Clients'
   * writes block meanwhile.
   * @default 60
   */
  readonly maxFreezeSeconds?: number;
}

/** The instance tag a snapshot policy targets. */
export interface SnapshotTargetTag {
  /** The tag key, {@link SnapshotPolicy.TARGET_TAG_KEY}. */
  readonly key: string;
  /** The tag value, unique to this server: `<stack name>/<unique name of this construct>`. */
  readonly value: string;
}

/**
 * Scheduled, multi-volume EBS snapshot sets of the storage server, by DLM with resource type INSTANCE and the boot
 * volume excluded. They may be application-consistent, with fsfreeze pre and post scripts run through SSM, and copied
 * to another region.
 */
export class SnapshotPolicy extends Construct {
  /** Tag key that marks the instance a policy snapshots; the value is unique to the server. */
  public static readonly TARGET_TAG_KEY: string = 'storage-server:snapshot-target';

  /** The DLM lifecycle policy. */
  public readonly policy: dlm.CfnLifecyclePolicy;
  /** The SSM Command document with the freeze/thaw script; present when applicationConsistent. */
  public readonly document?: ssm.CfnDocument;
  /** The role DLM assumes to run the policy. */
  public readonly role: iam.Role;
  /** The instance tag the policy targets. */
  public readonly targetTag: SnapshotTargetTag;

  constructor(scope: Construct, id: string, props: SnapshotPolicyProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const settings = snapshotSettings(props, stack.region);
    this.targetTag = {
      key: SnapshotPolicy.TARGET_TAG_KEY,
      value: `${stack.stackName}/${Names.uniqueResourceName(this, { maxLength: 100 })}`,
    };
    Tags.of(props.instance.instance).add(this.targetTag.key, this.targetTag.value);
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('dlm.amazonaws.com'),
      description: 'Lets Data Lifecycle Manager snapshot the storage server volumes',
    });
    this.useManagedPolicy(
      'AWSDataLifecycleManagerServiceRole',
      'The managed policy DLM documents for snapshot policies: it scopes CreateTags to snapshots and ' +
        'EventBridge to DLM-managed rules; DLM needs its ec2 snapshot actions on resources whose ids ' +
        'are not known in advance.',
    );
    this.document = settings.applicationConsistent ? this.freezeDocument(props.dataMountPath, settings.maxFreezeSeconds) : undefined;
    if (settings.copy?.cmkArn) this.grantKmsKeyUse(settings.copy.cmkArn);
    this.policy = new dlm.CfnLifecyclePolicy(this, 'Policy', {
      description: `Storage server snapshots every ${Token.asString(settings.intervalHours)} h keeping ${Token.asString(settings.retain)}`,
      state: 'ENABLED',
      executionRoleArn: this.role.roleArn,
      policyDetails: policyDetails(settings, this.targetTag, this.document),
    });
  }

  /** The SSM document DLM runs before and after each snapshot to fsfreeze, and DLM's leave to run it. */
  private freezeDocument(mountPath: string, maxFreezeSeconds: number): ssm.CfnDocument {
    const document = new ssm.CfnDocument(this, 'FreezeDocument', {
      documentType: 'Command',
      documentFormat: 'JSON',
      targetType: '/AWS::EC2::Instance',
      content: renderFreezeDocument({ script: loadFreezeScript(), mountPath, maxFreezeSeconds }),
      tags: [{ ...DLM_DOCUMENT_TAG }],
    });
    this.useManagedPolicy(
      'AWSDataLifecycleManagerSSMFullAccess',
      'The managed policy DLM documents for pre/post scripts: SendCommand only with SSM documents ' +
        'tagged DLMScriptsAccess=true (ours is); any instance, because DLM selects its targets by tag ' +
        'when the policy runs.',
    );
    return document;
  }

  /**
   * Lets DLM use a customer managed KMS key the way EBS needs it for snapshots and copies, with the permissions the EBS
   * user guide lists for encryption. The target key of a cross-region copy is granted automatically; call this for the
   * key of the data volumes if they use one.
   */
  public grantKmsKeyUse(keyArn: string): void {
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'kms:Decrypt',
          'kms:DescribeKey',
          'kms:GenerateDataKeyWithoutPlaintext',
          'kms:ReEncryptFrom',
          'kms:ReEncryptTo',
        ],
        resources: [keyArn],
      }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['kms:CreateGrant'],
        resources: [keyArn],
        conditions: { Bool: { 'kms:GrantIsForAWSResource': true } },
      }),
    );
  }

  private useManagedPolicy(name: string, reason: string): void {
    this.role.addManagedPolicy(iam.ManagedPolicy.fromAwsManagedPolicyName(`service-role/${name}`));
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/${name}]`,
      reason,
    });
  }
}

/** The policy's one schedule: every interval at the start time, kept `retain` deep, copied if asked, frozen if asked. */
function policyDetails(
  settings: SnapshotSettings, targetTag: { key: string; value: string }, document: ssm.CfnDocument | undefined,
): dlm.CfnLifecyclePolicy.PolicyDetailsProperty {
  const { intervalHours, startTimeUtc, retain, copy } = settings;
  const scripts: dlm.CfnLifecyclePolicy.ScriptProperty[] | undefined = document && [
    {
      stages: ['PRE', 'POST'],
      executionHandlerService: 'AWS_SYSTEMS_MANAGER',
      executionHandler: document.ref,
      executeOperationOnScriptFailure: true,
      executionTimeout: SCRIPT_TIMEOUT_SECONDS,
      maximumRetryCount: SCRIPT_RETRIES,
    },
  ];
  return {
    policyType: 'EBS_SNAPSHOT_MANAGEMENT',
    resourceTypes: ['INSTANCE'],
    targetTags: [targetTag],
    parameters: { excludeBootVolume: true },
    schedules: [
      {
        name: `Every ${Token.asString(intervalHours)} h`,
        copyTags: true,
        // The target tag marks the set as this server's; instance-id ties the set to its source.
        tagsToAdd: [targetTag],
        variableTags: [{ key: 'instance-id', value: '$(instance-id)' }],
        createRule: { interval: intervalHours, intervalUnit: 'HOURS', times: [startTimeUtc], scripts },
        retainRule: { count: retain },
        crossRegionCopyRules: copy
          ? [
              {
                target: copy.targetRegion,
                encrypted: copy.encrypted ?? true,
                cmkArn: copy.cmkArn,
                copyTags: true,
                retainRule: { interval: copy.retainDays ?? 7, intervalUnit: 'DAYS' },
              },
            ]
          : undefined,
      },
    ],
  };
}
