import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnParameter, Stack, Validations } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import {
  DLM_SCRIPT_COMMANDS,
  FREEZE_SCRIPT_NAME,
  loadFreezeScript,
  renderFreezeCommand,
  renderFreezeDocument,
} from '../../lib/snapshot-document';
import { SNAPSHOT_TARGET_TAG_KEY, SnapshotPolicy, SnapshotPolicyProps } from '../../lib/snapshot-policy';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';

const SCRIPT = path.join(__dirname, '..', '..', 'lib', 'scripts', FREEZE_SCRIPT_NAME);
const SERVICE_ROLE = 'service-role/AWSDataLifecycleManagerServiceRole';
const SSM_ACCESS = 'service-role/AWSDataLifecycleManagerSSMFullAccess';
const CMK = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

/** A stack in us-east-1 with one EBS-backed instance, as the StorageServer hands it over. */
function serverStack(app = new App(), id = 'TestStack'): { stack: Stack; instance: ec2.Instance } {
  const stack = new Stack(app, id, { env: { region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
  const instance = new ec2.Instance(stack, 'Server', {
    vpc,
    vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
    instanceType: new ec2.InstanceType('m4.xlarge'),
    machineImage: ec2.MachineImage.latestAmazonLinux2023(),
  });
  return { stack, instance };
}

function build(props: Partial<SnapshotPolicyProps> = {}) {
  const { stack, instance } = serverStack();
  const snapshots = new SnapshotPolicy(stack, 'Snapshots', {
    instance,
    dataMountPath: '/export/data',
    ...props,
  });
  return { stack, instance, snapshots, template: Template.fromStack(stack) };
}

/** The managed policy ARN as CDK renders it. */
function managed(name: string) {
  return { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::aws:policy/${name}`]] };
}

/** The parts of the policy's only schedule the tests read. */
interface Schedule {
  readonly CreateRule: { readonly Scripts?: unknown };
  readonly RetainRule: unknown;
  readonly CrossRegionCopyRules?: unknown;
}

function dlmSchedule(template: Template): Schedule {
  const policies = Object.values(template.findResources('AWS::DLM::LifecyclePolicy'));
  expect(policies).toHaveLength(1);
  return policies[0].Properties.PolicyDetails.Schedules[0];
}

describe('SnapshotPolicy', () => {
  test('defaults: one INSTANCE policy on the server tag, boot volume excluded, daily at 03:00, keep 7', () => {
    // GIVEN / WHEN
    const { snapshots, template } = build();
    const { key, value } = snapshots.targetTag;

    // THEN
    template.resourceCountIs('AWS::DLM::LifecyclePolicy', 1);
    expect(key).toBe(SNAPSHOT_TARGET_TAG_KEY);
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
    // GIVEN two servers side by side in one stack (a stack-wide tag would make each policy snapshot both)
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
      expect(tags.filter((t) => t.Key === SNAPSHOT_TARGET_TAG_KEY)).toEqual([{ Key: SNAPSHOT_TARGET_TAG_KEY, Value: policy.targetTag.value }]);
      // AND each lifecycle policy selects by exactly that tag
      const dlm = template.findResources('AWS::DLM::LifecyclePolicy')[stack.getLogicalId(policy.policy)];
      expect(dlm.Properties.PolicyDetails.TargetTags).toEqual([{ Key: SNAPSHOT_TARGET_TAG_KEY, Value: policy.targetTag.value }]);
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

describe('freeze document rendering', () => {
  const script = loadFreezeScript();

  test('loads the script next to the module or from lib/scripts of a compiled copy', () => {
    expect(script).toBe(fs.readFileSync(SCRIPT, 'utf8'));
    const compiled = path.join(__dirname, '..', '..', 'dist', 'lib');
    expect(loadFreezeScript(compiled)).toBe(script);
    expect(() => loadFreezeScript(os.tmpdir())).toThrow(/snapshot-freeze.sh not found; looked in: /);
  });

  test('the script holds nothing SSM would substitute and the command passes DLM parameters through', () => {
    expect(script).not.toContain('{{');
    const command = renderFreezeCommand({ script, mountPath: '/export/data', maxFreezeSeconds: 60 });
    expect(command.match(/\{\{ command \}\}/g)).toHaveLength(2);
    expect(command).toContain('{{ executionId }}');
    const doc = renderFreezeDocument({ script, mountPath: '/export/data', maxFreezeSeconds: 60 }) as {
      parameters: { command: { allowedValues: string[] }; executionId: { allowedPattern: string } };
    };
    expect(doc.parameters.command.allowedValues).toEqual([...DLM_SCRIPT_COMMANDS]);
    expect(doc.parameters.executionId.allowedPattern).toBe(
      '^(None|[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12})$',
    );
  });

  test.each([
    [{ script: 'echo {{ssm:x}}' }, /must not contain '\{\{'/],
    [
      { script: 'x\nSTORAGE_SERVER_SNAPSHOT_FREEZE_SH\ny' },
      /must not contain a line 'STORAGE_SERVER_SNAPSHOT_FREEZE_SH'/,
    ],
    [{ mountPath: "/a'b" }, /mountPath '\/a'b' must be an absolute path/],
    [{ maxFreezeSeconds: 0 }, /maxFreezeSeconds 0 must be a positive whole number/],
  ])('rejects %j', (override, message) => {
    expect(() =>
      renderFreezeCommand({ script, mountPath: '/export/data', maxFreezeSeconds: 60, ...override }),
    ).toThrow(message);
  });
});

/**
 * The freeze script run for real with bash, with stubs in front of fsfreeze, sync, systemd-run and
 * systemctl (so the host's file systems are never frozen) and, where a mounted XFS file system is
 * simulated, findmnt. The fsfreeze stub keeps a frozen flag and answers like the kernel does: EBUSY
 * when freezing a frozen file system, EINVAL when thawing one that is not frozen.
 */
describe('snapshot-freeze.sh', () => {
  let dir: string;
  let safeBin: string;
  let mountBin: string;
  const MOUNT = '/srv/storage-data';

  const stub = (bin: string, name: string, body: string) =>
    fs.writeFileSync(path.join(bin, name), `#!/bin/bash\necho "${name} $*" >>"$STUB_DIR/calls"\n${body}\n`, {
      mode: 0o755,
    });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freeze-'));
    safeBin = path.join(dir, 'safe-bin');
    mountBin = path.join(dir, 'mount-bin');
    fs.mkdirSync(safeBin);
    fs.mkdirSync(mountBin);
    stub(
      safeBin,
      'fsfreeze',
      [
        'flag="$STUB_DIR/frozen"',
        'case $1 in',
        '  -f) [[ -n ${STUB_FREEZE_ERROR:-} ]] && { echo "fsfreeze: $2: freeze failed: $STUB_FREEZE_ERROR" >&2; exit 1; }',
        '      [[ -e $flag ]] && { echo "fsfreeze: $2: freeze failed: Device or resource busy" >&2; exit 1; }',
        '      touch "$flag" ;;',
        '  -u) [[ -n ${STUB_THAW_ERROR:-} ]] && { echo "fsfreeze: $2: unfreeze failed: $STUB_THAW_ERROR" >&2; exit 1; }',
        '      [[ -e $flag ]] || { echo "fsfreeze: $2: unfreeze failed: Invalid argument" >&2; exit 1; }',
        '      rm "$flag" ;;',
        'esac',
      ].join('\n'),
    );
    stub(safeBin, 'sync', '');
    stub(safeBin, 'systemd-run', 'exit "${STUB_SYSTEMD_RUN_EXIT:-0}"');
    stub(safeBin, 'systemctl', '');
    stub(
      mountBin,
      'findmnt',
      [
        'for ((i = 1; i <= $#; i++)); do [[ ${!i} == --mountpoint ]] && { j=$((i + 1)); mp=${!j}; }; done',
        `[[ $mp == "${MOUNT}" ]] && { echo "\${STUB_FSTYPE:-xfs}"; exit 0; }`,
        'exit 1',
      ].join('\n'),
    );
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Runs the script; `mounted` puts the findmnt stub (an XFS file system at MOUNT) on the PATH. */
  function run(args: string[], { mounted = true, env = {} as Record<string, string> } = {}) {
    const bins = mounted ? [safeBin, mountBin] : [safeBin];
    const result = spawnSync('bash', [SCRIPT, ...args], {
      encoding: 'utf8',
      env: {
        PATH: [...bins, process.env.PATH].join(':'),
        STUB_DIR: dir,
        SNAPSHOT_FREEZE_STATE_DIR: path.join(dir, 'state'),
        SNAPSHOT_FREEZE_WATCHDOG: 'detached',
        ...env,
      },
    });
    return { status: result.status, out: result.stdout + result.stderr };
  }
  const calls = () =>
    fs.existsSync(path.join(dir, 'calls')) ? fs.readFileSync(path.join(dir, 'calls'), 'utf8') : '';
  const freezeCalls = () =>
    calls()
      .split('\n')
      .filter((l) => /^(fsfreeze|sync|systemd-run|systemctl) /.test(l));
  const frozen = () => fs.existsSync(path.join(dir, 'frozen'));
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  describe('arguments', () => {
    test.each([
      [[], /expected 2 or 3 arguments, got 0/],
      [['dry-run'], /expected 2 or 3 arguments, got 1/],
      [['freeze', MOUNT], /command 'freeze' is not one of pre-script, post-script, dry-run/],
      [['pre-script', '/'], /mount path '\/' must be an absolute path/],
      [['pre-script', 'srv/data'], /mount path 'srv\/data' must be an absolute path/],
      [['pre-script', '/srv/../etc'], /mount path '\/srv\/..\/etc' must be an absolute path/],
      [['pre-script', '/srv/data/'], /mount path '\/srv\/data\/' must be an absolute path/],
      [['pre-script', MOUNT, '0'], /max-freeze-seconds '0' must be a whole number from 1 to 3600/],
      [['pre-script', MOUNT, '3601'], /max-freeze-seconds '3601' must be a whole number from 1 to 3600/],
      [['pre-script', MOUNT, '1m'], /max-freeze-seconds '1m' must be a whole number from 1 to 3600/],
      [['pre-script', MOUNT, '60', 'extra'], /expected 2 or 3 arguments, got 4/],
    ])('%j exits 2 with usage and touches nothing', (args, message) => {
      const { status, out } = run(args as string[]);
      expect(status).toBe(2);
      expect(out).toMatch(/usage: snapshot-freeze.sh <pre-script\|post-script\|dry-run> <mount-path>/);
      expect(out).toMatch(message);
      expect(freezeCalls()).toEqual([]);
    });
  });

  describe('dry-run', () => {
    test('an unmounted directory fails clearly (real findmnt)', () => {
      const unmounted = fs.mkdtempSync(path.join(os.tmpdir(), 'not-mounted-'));
      const { status, out } = run(['dry-run', unmounted], { mounted: false });
      fs.rmSync(unmounted, { recursive: true });
      expect(status).toBe(206);
      expect(out).toContain(`ERROR: ${unmounted} is not a mount point: the data file system is not mounted`);
      expect(freezeCalls()).toEqual([]);
    });

    test('a mounted file system that is not XFS fails clearly (real findmnt, /proc)', () => {
      const { status, out } = run(['dry-run', '/proc'], { mounted: false });
      expect(status).toBe(206);
      expect(out).toContain('ERROR: /proc is proc, not xfs: refusing to freeze it');
      expect(freezeCalls()).toEqual([]);
    });

    test('a mounted XFS file system passes without freezing anything', () => {
      const { status, out } = run(['dry-run', MOUNT, '45']);
      expect(status).toBe(0);
      expect(out).toContain(`dry-run: ${MOUNT} is a mounted xfs file system`);
      expect(out).toContain('held for at most 45s (watchdog: detached)');
      expect(freezeCalls()).toEqual([]);
    });
  });

  describe('pre-script and post-script', () => {
    test('pre-script syncs then freezes; post-script thaws and disarms the watchdog', async () => {
      const pre = run(['pre-script', MOUNT, '2']);
      expect(pre.status).toBe(0);
      expect(pre.out).toMatch(
        /froze \/srv\/storage-data; it thaws by itself in 2s unless post-script runs first \(detached:\d+\)/,
      );
      expect(frozen()).toBe(true);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`]);

      const post = run(['post-script', MOUNT, '2']);
      expect(post.status).toBe(0);
      expect(post.out).toContain(`thawed ${MOUNT}`);
      expect(post.out).toMatch(/auto-thaw watchdog disarmed \(detached:\d+\)/);
      expect(frozen()).toBe(false);
      expect(fs.readdirSync(path.join(dir, 'state'))).toEqual([]);

      // The disarmed watchdog never thaws.
      await sleep(3500);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`, `fsfreeze -u ${MOUNT}`]);
    });

    test('the watchdog thaws by itself when post-script never comes, and post-script then warns', async () => {
      expect(run(['pre-script', MOUNT, '1']).status).toBe(0);
      expect(frozen()).toBe(true);
      await sleep(3500);
      expect(frozen()).toBe(false);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`, `fsfreeze -u ${MOUNT}`]);

      const post = run(['post-script', MOUNT, '1']);
      expect(post.status).toBe(0);
      expect(post.out).toContain('WARNING: /srv/storage-data was already thawed before post-script ran');
    });

    test('pre-script on a frozen file system exits 204 and leaves it frozen', () => {
      expect(run(['pre-script', MOUNT, '30']).status).toBe(0);
      const state = fs.readdirSync(path.join(dir, 'state'));
      const second = run(['pre-script', MOUNT, '30']);
      expect(second.status).toBe(204);
      expect(second.out).toContain('ERROR: /srv/storage-data is already frozen');
      expect(frozen()).toBe(true);
      // The first freeze's record (and so its watchdog) is kept for its post-script.
      expect(fs.readdirSync(path.join(dir, 'state'))).toEqual(state);
      expect(run(['post-script', MOUNT]).status).toBe(0);
      expect(frozen()).toBe(false);
    });

    test('a failed freeze exits 201 and disarms the watchdog it armed', async () => {
      const pre = run(['pre-script', MOUNT, '1'], { env: { STUB_FREEZE_ERROR: 'Operation not supported' } });
      expect(pre.status).toBe(201);
      expect(pre.out).toContain(
        'ERROR: fsfreeze -f /srv/storage-data failed: fsfreeze: /srv/storage-data: freeze failed: Operation not supported',
      );
      expect(pre.out).toMatch(/auto-thaw watchdog disarmed/);
      await sleep(2000);
      expect(freezeCalls()).toEqual([`sync -f ${MOUNT}`, `fsfreeze -f ${MOUNT}`]);
    });

    test('pre-script refuses a file system that is not XFS or not mounted, before touching it', () => {
      const ext4 = run(['pre-script', MOUNT], { env: { STUB_FSTYPE: 'ext4' } });
      expect(ext4.status).toBe(206);
      expect(ext4.out).toContain('/srv/storage-data is ext4, not xfs');
      const unmounted = run(['pre-script', '/srv/elsewhere']);
      expect(unmounted.status).toBe(206);
      expect(freezeCalls()).toEqual([]);
    });

    test('post-script on a file system that is not frozen succeeds', () => {
      const post = run(['post-script', MOUNT]);
      expect(post.status).toBe(0);
      expect(post.out).toContain(`${MOUNT} is not frozen; nothing to thaw`);
    });

    test('post-script never runs fsfreeze on a path that is not a mount point', () => {
      const post = run(['post-script', '/srv/elsewhere']);
      expect(post.status).toBe(0);
      expect(post.out).toContain('/srv/elsewhere is not a mount point; nothing to thaw');
      expect(freezeCalls()).toEqual([]);
    });

    test('a failed thaw exits 202 and keeps the watchdog armed to retry', async () => {
      expect(run(['pre-script', MOUNT, '2']).status).toBe(0);
      const post = run(['post-script', MOUNT], { env: { STUB_THAW_ERROR: 'Input/output error' } });
      expect(post.status).toBe(202);
      expect(post.out).toContain('ERROR: fsfreeze -u /srv/storage-data failed');
      expect(post.out).not.toContain('disarmed');
      await sleep(3000);
      expect(frozen()).toBe(false);
    });
  });

  describe('systemd watchdog', () => {
    test('is a transient timer that runs fsfreeze -u, stopped by post-script', () => {
      const env = { SNAPSHOT_FREEZE_WATCHDOG: 'systemd' };
      expect(run(['pre-script', MOUNT, '75'], { env }).status).toBe(0);
      const [arm] = freezeCalls().filter((l) => l.startsWith('systemd-run '));
      const unit = /--unit=(storage-server-thaw-\d+-\d+) /.exec(arm)?.[1];
      expect(unit).toBeDefined();
      expect(arm).toContain('--on-active=75s');
      expect(arm).toContain(`${path.join(safeBin, 'fsfreeze')} -u ${MOUNT}`);

      expect(run(['post-script', MOUNT, '75'], { env }).status).toBe(0);
      expect(freezeCalls()).toContain(`systemctl stop ${unit}.timer`);
      expect(frozen()).toBe(false);
    });

    test('falls back to a detached watchdog when systemd-run fails', () => {
      const env = { SNAPSHOT_FREEZE_WATCHDOG: 'systemd', STUB_SYSTEMD_RUN_EXIT: '1' };
      const pre = run(['pre-script', MOUNT, '30'], { env });
      expect(pre.status).toBe(0);
      expect(pre.out).toContain('systemd-run could not arm the watchdog; falling back to a detached process');
      expect(pre.out).toMatch(/\(detached:\d+\)/);
      expect(run(['post-script', MOUNT], { env }).status).toBe(0);
    });
  });

  describe('as the SSM document runs it', () => {
    /** The document's shell step with the parameters substituted as SSM does, run with /bin/sh. */
    function runDocument(command: string, mountPath = MOUNT) {
      const step = renderFreezeCommand({ script: loadFreezeScript(), mountPath, maxFreezeSeconds: 30 })
        .replace(/\{\{ command \}\}/g, command)
        .replace(/\{\{ executionId \}\}/g, '8f1e4a52-1b2c-4d3e-9f00-0123456789ab');
      const file = path.join(dir, '_script.sh');
      fs.writeFileSync(file, step);
      const result = spawnSync('sh', [file], {
        encoding: 'utf8',
        env: {
          PATH: [safeBin, mountBin, process.env.PATH].join(':'),
          STUB_DIR: dir,
          SNAPSHOT_FREEZE_STATE_DIR: path.join(dir, 'state'),
          SNAPSHOT_FREEZE_WATCHDOG: 'detached',
        },
      });
      return { status: result.status, out: result.stdout + result.stderr };
    }

    test.each([...DLM_SCRIPT_COMMANDS])('%s succeeds on the data mount', (command) => {
      const { status, out } = runDocument(command);
      expect(out).toContain(`DLM command ${command}, execution 8f1e4a52-1b2c-4d3e-9f00-0123456789ab`);
      expect(status).toBe(0);
      run(['post-script', MOUNT]);
    });

    test("the script's exit code reaches DLM", () => {
      expect(runDocument('dry-run', '/srv/not-mounted').status).toBe(206);
      expect(runDocument('pre-script').status).toBe(0);
      expect(runDocument('pre-script').status).toBe(204);
      expect(runDocument('post-script').status).toBe(0);
      expect(frozen()).toBe(false);
    });
  });
});
