import { Names, Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import * as dlm from 'aws-cdk-lib/aws-dlm';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { DLM_DOCUMENT_TAG, loadFreezeScript, renderFreezeDocument } from './snapshot-document';

/** Hours between snapshots that DLM accepts for an interval schedule (CreateRule.Interval). */
export const SNAPSHOT_INTERVAL_HOURS = [1, 2, 3, 4, 6, 8, 12, 24] as const;

/** Tag key that marks the instance this policy snapshots; the value is unique to the server. */
export const SNAPSHOT_TARGET_TAG_KEY = 'storage-server:snapshot-target';

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
   * Encrypt copies of unencrypted snapshots (copies of encrypted snapshots are always encrypted).
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
   * Snapshot sets kept, 1 to 1000. (Keeping none means no policy: do not create this construct.)
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
   * Freeze the data file system around each snapshot (SSM pre/post scripts; needs the SSM agent and
   * an instance role that lets it register). Without it, snapshots are crash-consistent.
   * @default true
   */
  readonly applicationConsistent?: boolean;
  /**
   * Copy each snapshot set to another region.
   * @default - no copy
   */
  readonly crossRegionCopy?: CrossRegionCopy;
  /**
   * Longest the file system may stay frozen (clients' writes block meanwhile) before the freeze
   * script thaws it by itself, 10 to 600 seconds.
   * @default 60
   */
  readonly maxFreezeSeconds?: number;
}

/**
 * Scheduled, multi-volume EBS snapshot sets of the storage server (DLM, resource type INSTANCE, boot
 * volume excluded), optionally application-consistent (fsfreeze pre/post scripts run through SSM)
 * and copied to another region.
 */
export class SnapshotPolicy extends Construct {
  /** The DLM lifecycle policy. */
  public readonly policy: dlm.CfnLifecyclePolicy;
  /** The SSM Command document with the freeze/thaw script; present when applicationConsistent. */
  public readonly document?: ssm.CfnDocument;
  /** The role DLM assumes to run the policy. */
  public readonly role: iam.Role;
  /** The instance tag the policy targets. */
  public readonly targetTag: {
    /** The tag key, {@link SNAPSHOT_TARGET_TAG_KEY}. */
    key: string;
    /** The tag value, unique to this server: `<stack name>/<unique name of this construct>`. */
    value: string;
  };

  constructor(scope: Construct, id: string, props: SnapshotPolicyProps) {
    super(scope, id);
    const retain = props.retain ?? 7;
    const intervalHours = props.intervalHours ?? 24;
    const startTimeUtc = props.startTimeUtc ?? '03:00';
    const applicationConsistent = props.applicationConsistent ?? true;
    const maxFreezeSeconds = props.maxFreezeSeconds ?? 60;
    const copy = props.crossRegionCopy;
    const stack = Stack.of(this);

    validateWholeNumber(
      'retain',
      retain,
      1,
      1000,
      '; keeping 0 snapshots means not creating a SnapshotPolicy',
    );
    validateIntervalHours(intervalHours);
    validateStartTime(startTimeUtc);
    validateWholeNumber('maxFreezeSeconds', maxFreezeSeconds, 10, 600);
    validateMountPath(props.dataMountPath);
    if (copy) validateCrossRegionCopy(copy, stack.region);

    this.targetTag = {
      key: SNAPSHOT_TARGET_TAG_KEY,
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

    let scripts: dlm.CfnLifecyclePolicy.ScriptProperty[] | undefined;
    if (applicationConsistent) {
      this.document = new ssm.CfnDocument(this, 'FreezeDocument', {
        documentType: 'Command',
        documentFormat: 'JSON',
        targetType: '/AWS::EC2::Instance',
        content: renderFreezeDocument({
          script: loadFreezeScript(),
          mountPath: props.dataMountPath,
          maxFreezeSeconds,
        }),
        tags: [{ ...DLM_DOCUMENT_TAG }],
      });
      this.useManagedPolicy(
        'AWSDataLifecycleManagerSSMFullAccess',
        'The managed policy DLM documents for pre/post scripts: SendCommand only with SSM documents ' +
          'tagged DLMScriptsAccess=true (ours is); any instance, because DLM selects its targets by tag ' +
          'when the policy runs.',
      );
      scripts = [
        {
          stages: ['PRE', 'POST'],
          executionHandlerService: 'AWS_SYSTEMS_MANAGER',
          executionHandler: this.document.ref,
          executeOperationOnScriptFailure: true,
          executionTimeout: SCRIPT_TIMEOUT_SECONDS,
          maximumRetryCount: SCRIPT_RETRIES,
        },
      ];
    }

    if (copy?.cmkArn) this.grantKmsKeyUse(copy.cmkArn);

    this.policy = new dlm.CfnLifecyclePolicy(this, 'Policy', {
      description: `Storage server snapshots every ${Token.asString(intervalHours)} h keeping ${Token.asString(retain)}`,
      state: 'ENABLED',
      executionRoleArn: this.role.roleArn,
      policyDetails: {
        policyType: 'EBS_SNAPSHOT_MANAGEMENT',
        resourceTypes: ['INSTANCE'],
        targetTags: [this.targetTag],
        parameters: { excludeBootVolume: true },
        schedules: [
          {
            name: `Every ${Token.asString(intervalHours)} h`,
            copyTags: true,
            // The target tag marks the set as this server's; instance-id ties the set to its source.
            tagsToAdd: [this.targetTag],
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
      },
    });
  }

  /**
   * Lets DLM use a customer managed KMS key the way EBS needs it for snapshots and copies (the
   * permissions the EBS user guide lists for encryption): the target key of a cross-region copy is
   * granted automatically; call this for the key of the data volumes if they use one.
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

function validateWholeNumber(prop: string, value: number, min: number, max: number, hint = ''): void {
  if (Token.isUnresolved(value)) return;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${prop} must be a whole number from ${min} to ${max}, got ${value}${hint}`);
  }
}

function validateIntervalHours(hours: number): void {
  if (Token.isUnresolved(hours)) return;
  if (!(SNAPSHOT_INTERVAL_HOURS as readonly number[]).includes(hours)) {
    throw new Error(`intervalHours must be one of ${SNAPSHOT_INTERVAL_HOURS.join(', ')} (DLM), got ${hours}`);
  }
}

function validateStartTime(time: string): void {
  if (Token.isUnresolved(time)) return;
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
    throw new Error(`startTimeUtc must be HH:MM in UTC, 00:00 to 23:59, got '${time}'`);
  }
}

function validateMountPath(mountPath: string): void {
  if (Token.isUnresolved(mountPath)) return;
  const segments = mountPath.split('/').slice(1);
  if (!/^(\/[A-Za-z0-9._-]+)+$/.test(mountPath) || segments.some((s) => s === '.' || s === '..')) {
    throw new Error(
      `dataMountPath must be an absolute path of [A-Za-z0-9._-] segments, without '.', '..' or a ` +
        `trailing '/', and not '/', got '${mountPath}'`,
    );
  }
}

const REGION = /^([a-z]+-){2,3}\d$/;
const KMS_KEY_ARN = /^arn:aws(-[a-z]{1,3}){0,2}:kms:(([a-z]+-){2,3}\d):\d+:key\//;

function validateCrossRegionCopy(copy: CrossRegionCopy, stackRegion: string): void {
  const { targetRegion, cmkArn } = copy;
  if (!Token.isUnresolved(targetRegion)) {
    if (!REGION.test(targetRegion)) {
      throw new Error(
        `crossRegionCopy.targetRegion must be a region name like eu-west-1, got '${targetRegion}'`,
      );
    }
    if (!Token.isUnresolved(stackRegion) && targetRegion === stackRegion) {
      throw new Error(
        `crossRegionCopy.targetRegion must differ from the stack's region, got '${targetRegion}' for both`,
      );
    }
  }
  validateWholeNumber('crossRegionCopy.retainDays', copy.retainDays ?? 7, 1, 36500);
  if (cmkArn === undefined || Token.isUnresolved(cmkArn)) return;
  const match = KMS_KEY_ARN.exec(cmkArn);
  if (!match) {
    throw new Error(
      `crossRegionCopy.cmkArn must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<id>), got '${cmkArn}'`,
    );
  }
  if (!Token.isUnresolved(targetRegion) && match[2] !== targetRegion) {
    throw new Error(
      `crossRegionCopy.cmkArn must be a key in the target region ${targetRegion}, got a key in ${match[2]}: '${cmkArn}'`,
    );
  }
  if (copy.encrypted === false) {
    throw new Error(
      `crossRegionCopy.encrypted is false but cmkArn is set ('${cmkArn}'); a key implies encryption`,
    );
  }
}
