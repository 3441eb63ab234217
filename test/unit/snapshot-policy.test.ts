
import * as fs from 'fs';
import * as path from 'path';
import { App, CfnParameter, Stack, Validations } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { FREEZE_SCRIPT_NAME } from '../../lib/snapshot-document';
import { SnapshotPolicy, SnapshotPolicyProps } from '../../lib/snapshot-policy';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';
import { CMK, SERVICE_ROLE, SSM_ACCESS, build, dlmSchedule, managed, serverStack } from '../support/snapshot-stack';

const SCRIPT = path.join(__dirname, '..', '..', 'lib', 'scripts', FREEZE_SCRIPT_NAME);

describe('SnapshotPolicy', () => {
  test('defaults: one INSTANCE policy on the server tag, boot volume excluded, daily at 03:00, keep 7', () => {
    // GIVEN / WHEN
    const { snapshots, template } = build();
    const { key, value } = snapshots.targetTag;

    // THEN
    template.resourceCountIs('AWS::DLM::LifecyclePolicy', 1);
    expect(key).toBe(SnapshotPolicy.TARGET_TAG_KEY);
    expect(value).toMatch(/^TestStack\//);
    template.hasResourceProperties('AWS::EC2::Instance', {
      Tags: Match.arrayWith([{ Key: key, Value: value }]),
    });
    template.hasResourceProperties('AWS::DLM::LifecyclePolicy', {
      State: 'ENABLED',
      ExecutionRoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SnapshotsRole'), 'Arn'] },
      PolicyDetails: {
        PolicyType: 'EBS_SNAPSHOT_MANAGEMENT',
        ResourceTypes: ['INSTANCE'],
        TargetTags: [{ Key: key, Value: value }],
        Parameters: { ExcludeBootVolume: true },
        Schedules: [
          Match.objectLike({
            CopyTags: true,
            TagsToAdd: [{ Key: key, Value: value }],
            VariableTags: [{ Key: 'instance-id', Value: '$(instance-id)' }],
            CreateRule: Match.objectLike({ Interval: 24, IntervalUnit: 'HOURS', Times: ['03:00'] }),
            RetainRule: { Count: 7 },
            CrossRegionCopyRules: Match.absent(),
          }),
        ],
      },
    });
  });

  test('PRE and POST scripts point at the freeze document and fall back to crash-consistent', () => {
    const { template } = build();
    const documents = template.findResources('AWS::SSM::Document');
    const [documentId] = Object.keys(documents);
    expect(Object.keys(documents)).toHaveLength(1);

    expect(dlmSchedule(template).CreateRule.Scripts).toEqual([
      {
        Stages: ['PRE', 'POST'],
        ExecutionHandlerService: 'AWS_SYSTEMS_MANAGER',
        ExecutionHandler: { Ref: documentId },
        ExecuteOperationOnScriptFailure: true,
        ExecutionTimeout: 120,
        MaximumRetryCount: 2,
      },
    ]);
  });

  test('the document is a tagged Command document embedding the freeze script for the data mount', () => {
    const { template } = build({ dataMountPath: '/export/data', maxFreezeSeconds: 90 });
    template.hasResourceProperties('AWS::SSM::Document', {
      DocumentType: 'Command',
      TargetType: '/AWS::EC2::Instance',
      Tags: [{ Key: 'DLMScriptsAccess', Value: 'true' }],
    });
    const [document] = Object.values(template.findResources('AWS::SSM::Document'));
    const content = document.Properties.Content;
    expect(content.parameters.command.allowedValues).toEqual(['pre-script', 'post-script', 'dry-run']);
    expect(content.parameters.executionId.default).toBe('None');
    const [command] = content.mainSteps[0].inputs.runCommand;
    expect(command).toContain(fs.readFileSync(SCRIPT, 'utf8').trimEnd());
    expect(command).toContain(`bash "$script" '{{ command }}' '/export/data' '90'`);
  });

  test('the role trusts DLM and has only the two managed policies DLM documents', () => {
    const { template } = build();
    template.resourceCountIs('AWS::IAM::Policy', 0);
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [
          { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'dlm.amazonaws.com' } },
        ],
      },
      ManagedPolicyArns: [managed(SERVICE_ROLE), managed(SSM_ACCESS)],
    });
  });

  test('applicationConsistent false: no document, no scripts, no SSM policy', () => {
    const { snapshots, template } = build({ applicationConsistent: false });
    expect(snapshots.document).toBeUndefined();
    template.resourceCountIs('AWS::SSM::Document', 0);
    expect(dlmSchedule(template).CreateRule.Scripts).toBeUndefined();
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({}),
      ManagedPolicyArns: [managed(SERVICE_ROLE)],
    });
  });

  test('schedule and retention come from the props', () => {
    const { template } = build({ retain: 30, intervalHours: 6, startTimeUtc: '22:15' });
    const schedule = dlmSchedule(template);
    expect(schedule.CreateRule).toMatchObject({ Interval: 6, IntervalUnit: 'HOURS', Times: ['22:15'] });
    expect(schedule.RetainRule).toEqual({ Count: 30 });
  });

  test('cross-region copy renders with retention, encryption and tags', () => {
    const { template } = build({ crossRegionCopy: { targetRegion: 'eu-west-1' } });
    expect(dlmSchedule(template).CrossRegionCopyRules).toEqual([
      {
        Target: 'eu-west-1',
        Encrypted: true,
        CopyTags: true,
        RetainRule: { Interval: 7, IntervalUnit: 'DAYS' },
      },
    ]);
    template.resourceCountIs('AWS::IAM::Policy', 0);
  });

  test('cross-region copy with a key: the key is used and the role may use it the way EBS needs', () => {
    const { template } = build({
      crossRegionCopy: { targetRegion: 'eu-west-1', retainDays: 30, cmkArn: CMK },
    });
    expect(dlmSchedule(template).CrossRegionCopyRules).toEqual([
      {
        Target: 'eu-west-1',
        Encrypted: true,
        CmkArn: CMK,
        CopyTags: true,
        RetainRule: { Interval: 30, IntervalUnit: 'DAYS' },
      },
    ]);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Resource: CMK,
            Action: [
              'kms:Decrypt',
              'kms:DescribeKey',
              'kms:GenerateDataKeyWithoutPlaintext',
              'kms:ReEncryptFrom',
              'kms:ReEncryptTo',
            ],
          },
          {
            Effect: 'Allow',
            Resource: CMK,
            Action: 'kms:CreateGrant',
            Condition: { Bool: { 'kms:GrantIsForAWSResource': true } },
          },
        ],
      },
    });
  });

  test('two servers in one stack: each policy targets its own instance only', () => {
    // GIVEN two servers side by side in one stack, where a stack-wide tag would make each policy snapshot both
    const stack = new Stack(new App(), 'TestStack', { env: { region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const servers = ['Home', 'Scratch'].map((id) => {
      const scope = new Construct(stack, id);
      const instance = new ec2.Instance(scope, 'Server', {
        vpc,
        vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
        instanceType: new ec2.InstanceType('m4.xlarge'),
        machineImage: ec2.MachineImage.latestAmazonLinux2023(),
      });
      const policy = new SnapshotPolicy(scope, 'Snapshots', { instance, dataMountPath: '/export/data' });
      return { instance, policy };
    });
    const template = Template.fromStack(stack);
    const [home, scratch] = servers;
    expect(home.policy.targetTag.value).not.toEqual(scratch.policy.targetTag.value);

    for (const { instance, policy } of servers) {
      // THEN each instance carries exactly one target tag, its own policy's
      const tags = template.findResources('AWS::EC2::Instance')[stack.getLogicalId(instance.instance)].Properties.Tags as {
        Key: string;
        Value: string;
      }[];
      expect(tags.filter((t) => t.Key === SnapshotPolicy.TARGET_TAG_KEY)).toEqual([{ Key: SnapshotPolicy.TARGET_TAG_KEY, Value: policy.targetTag.value }]);
      // AND each lifecycle policy selects by exactly that tag
      const dlm = template.findResources('AWS::DLM::LifecyclePolicy')[stack.getLogicalId(policy.policy)];
      expect(dlm.Properties.PolicyDetails.TargetTags).toEqual([{ Key: SnapshotPolicy.TARGET_TAG_KEY, Value: policy.targetTag.value }]);
    }
  });

  describe('validation', () => {
    test.each([
      [
        { retain: 0 },
        /retain must be a whole number from 1 to 1000, got 0; keeping 0 snapshots means not creating/,
      ],
      [{ retain: 1001 }, /retain must be a whole number from 1 to 1000, got 1001/],
      [{ retain: 2.5 }, /retain must be a whole number from 1 to 1000, got 2.5/],
      [{ intervalHours: 5 }, /intervalHours must be one of 1, 2, 3, 4, 6, 8, 12, 24 \(DLM\), got 5/],
      [{ startTimeUtc: '24:00' }, /startTimeUtc must be HH:MM in UTC, 00:00 to 23:59, got '24:00'/],
      [{ startTimeUtc: '3:00' }, /startTimeUtc must be HH:MM in UTC, 00:00 to 23:59, got '3:00'/],
      [{ maxFreezeSeconds: 5 }, /maxFreezeSeconds must be a whole number from 10 to 600, got 5/],
      [{ maxFreezeSeconds: 601 }, /maxFreezeSeconds must be a whole number from 10 to 600, got 601/],
      [{ dataMountPath: '/' }, /dataMountPath must be an absolute path .* got '\/'/],
      [{ dataMountPath: 'export/data' }, /dataMountPath must be an absolute path .* got 'export\/data'/],
      [
        { dataMountPath: '/export/../etc' },
        /dataMountPath must be an absolute path .* got '\/export\/..\/etc'/,
      ],
      [
        { dataMountPath: '/export/data/' },
        /dataMountPath must be an absolute path .* got '\/export\/data\/'/,
      ],
      [{ dataMountPath: "/export/it's" }, /dataMountPath must be an absolute path .* got '\/export\/it's'/],
      [
        { crossRegionCopy: { targetRegion: 'Ireland' } },
        /crossRegionCopy.targetRegion must be a region name like eu-west-1, got 'Ireland'/,
      ],
      [
        { crossRegionCopy: { targetRegion: 'us-east-1' } },
        /crossRegionCopy.targetRegion must differ from the stack's region, got 'us-east-1'/,
      ],
      [
        { crossRegionCopy: { targetRegion: 'eu-west-1', retainDays: 0 } },
        /crossRegionCopy.retainDays must be a whole number from 1 to 36500, got 0/,
      ],
      [
        { crossRegionCopy: { targetRegion: 'eu-west-1', cmkArn: 'alias/ebs' } },
        /crossRegionCopy.cmkArn must be a KMS key ARN .* got 'alias\/ebs'/,
      ],
      [
        { crossRegionCopy: { targetRegion: 'eu-west-2', cmkArn: CMK } },
        /crossRegionCopy.cmkArn must be a key in the target region eu-west-2, got a key in eu-west-1/,
      ],
      [
        { crossRegionCopy: { targetRegion: 'eu-west-1', cmkArn: CMK, encrypted: false } },
        /crossRegionCopy.encrypted is false but cmkArn is set/,
      ],
    ])('%j is rejected', (props, message) => {
      expect(() => build(props as Partial<SnapshotPolicyProps>)).toThrow(message);
    });

    test('nothing is created when a prop is invalid', () => {
      const { stack, instance } = serverStack();
      expect(
        () => new SnapshotPolicy(stack, 'Snapshots', { instance, dataMountPath: '/x', retain: 0 }),
      ).toThrow();
      expect(Template.fromStack(stack).findResources('AWS::DLM::LifecyclePolicy')).toEqual({});
    });

    test('unresolved tokens are not validated', () => {
      const { stack, instance } = serverStack();
      const retain = new CfnParameter(stack, 'Retain', { type: 'Number' }).valueAsNumber;
      const region = new CfnParameter(stack, 'CopyRegion').valueAsString;
      expect(
        () =>
          new SnapshotPolicy(stack, 'Snapshots', {
            instance,
            dataMountPath: '/export/data',
            retain,
            crossRegionCopy: { targetRegion: region },
          }),
      ).not.toThrow();
      expect(dlmSchedule(Template.fromStack(stack)).RetainRule).toEqual({ Count: { Ref: 'Retain' } });
    });
  });

  describe('gates', () => {
    const variants: [string, Partial<SnapshotPolicyProps>][] = [
      ['defaults', {}],
      ['crash-consistent', { applicationConsistent: false }],
      [
        'cross-region copy with a key',
        { retain: 14, crossRegionCopy: { targetRegion: 'eu-west-1', cmkArn: CMK } },
      ],
    ];

    test.each(variants)(
      '%s: no unacknowledged cdk-nag finding on the snapshot constructs',
      (_name, props) => {
        const findings = nagFindings((app) => {
          const { stack, instance } = serverStack(app);
          new SnapshotPolicy(stack, 'Snapshots', { instance, dataMountPath: '/export/data', ...props });
        });
        expect(findings.filter((f) => f.resource.includes('/Snapshots/'))).toEqual([]);
      },
    );

    test('the acknowledgements are exactly the two managed policies, on the role, each with a reason', () => {
      const { snapshots } = build();
      const acknowledged = snapshots.role.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.entries(m.data as Record<string, string>));
      // aws-cdk-lib records them with an 'Annotation::' prefix, which cdk-nag strips when it reads them.
      expect(acknowledged.map(([id]) => id.replace(/^annotation::/i, '')).sort()).toEqual([
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSDataLifecycleManagerSSMFullAccess]',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSDataLifecycleManagerServiceRole]',
      ]);
      for (const [, reason] of acknowledged) expect(reason).toMatch(/managed policy DLM documents/);
    });

    test.each(variants)('%s: cfn-lint is clean', (_name, props) => {
      expect(cfnLint(build(props).template.toJSON())).toEqual([]);
    });
  });
});
