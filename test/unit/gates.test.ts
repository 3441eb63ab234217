import { App, Fn, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { cfnLintAll } from '../support/cfn-lint';
import { GATE_PACKS, NagFinding, cdkJsonContext, nagFindings, nagSynth } from '../support/nag';
import { EXISTING_VARIANTS, VARIANTS, appStack, existingAppStack, lookedUpAppStack, lookedUpExistingStack } from '../support/stacks';
import { StorageServer } from '../../lib/storage-server';
import { Backend } from '../../lib/backend-enum';

// Quality gates over every variant the app is documented to synthesize. Each variant is synthesized once, with the
// cdk-nag packs attached and with cdk.json's feature flags, as `cdk synth` builds the app. One of the flags,
// @aws-cdk/aws-ec2:restrictDefaultSecurityGroup, is what closes the new VPC's default security group. cfn-lint then
// reads all the templates in two runs side by side.
const gates = new Map<string, { findings: NagFinding[]; lint?: string[] }>();

/**
 * Variants of a VPC the app looks up with -c vpcId, which VARIANTS cannot hold, since a lookup's answer is the App's
 * context.
 */
const LOOKED_UP = [{
  name: 'vpcId=vpc-0123456789abcdef0 backend=fsx-openzfs (the VPC CIDRs custom resource)',
  context: { vpcId: 'vpc-0123456789abcdef0', backend: 'fsx-openzfs', capacityTiB: '1' },
}];

/** Existing storage registered by the app, with a looked-up VPC, which EXISTING_VARIANTS cannot hold. */
const EXISTING_LOOKED_UP = [{
  name: 'existingStorage=efs vpcId=vpc-0123456789abcdef0 clientMount=true (the VPC CIDRs custom resource)',
  context: { existingStorage: 'efs:fs-0123456789abcdef0', vpcId: 'vpc-0123456789abcdef0', serverName: 'projects', mountPoint: '/data/projects', clientMount: 'true' },
}];

/**
 * A library stack per backend with `securityGroup` given, a mutable imported group, in an imported VPC: the rules the
 * server adds land on the group as rule resources of their own, which the gates read.
 */
const GIVEN_GROUP = [Backend.EBS, Backend.FSX_LUSTRE, Backend.FSX_OPENZFS].map((backend) => ({
  name: `securityGroup given, backend=${backend}`,
  // The zone by Fn::GetAZs, as the app's own VPC has it: a literal one is cfn-lint's W3010.
  build: (app: App) => {
    const stack = new Stack(app, 'GivenGroup', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = ec2.Vpc.fromVpcAttributes(stack, 'Vpc', {
      vpcId: 'vpc-0123456789abcdef0', vpcCidrBlock: '10.0.0.0/16', availabilityZones: [Fn.select(0, Fn.getAzs())],
      privateSubnetIds: ['subnet-0aaaaaaaaaaaaaaa1'], privateSubnetRouteTableIds: ['rtb-0123456789abcdef0'],
    });
    const securityGroup = ec2.SecurityGroup.fromSecurityGroupId(stack, 'Given', 'sg-0123456789abcdef0', { allowAllOutbound: false });
    new StorageServer(stack, 'Storage', { vpc, backend, capacityTiB: 4, securityGroup, clientCidrs: ['10.0.0.0/16'] });
    return stack;
  },
}));

beforeAll(async () => {
  const templates: Record<string, unknown> = {};
  const builds = [
    ...VARIANTS.map(({ name, context }) => ({ name, build: (app: App) => appStack(context, app) })),
    ...LOOKED_UP.map(({ name, context }) => ({
      name,
      build: (app: App) => lookedUpAppStack(context, '10.0.0.0/16', [{ subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: '10.0.0.0/24', availabilityZone: 'us-east-1a' }],
        (lookup) => { for (const [key, value] of Object.entries(lookup)) app.node.setContext(key, value); return app; }),
    })),
    ...GIVEN_GROUP,
    ...EXISTING_VARIANTS.map(({ name, context }) => ({ name, build: (app: App) => existingAppStack(context, app) })),
    ...EXISTING_LOOKED_UP.map(({ name, context }) => ({
      name,
      build: (app: App) => lookedUpExistingStack(context, '10.0.0.0/16',
        (lookup) => { for (const [key, value] of Object.entries(lookup)) app.node.setContext(key, value); return app; }),
    })),
  ];
  for (const { name, build } of builds) {
    const synth = nagSynth(build, { packs: GATE_PACKS, context: cdkJsonContext() });
    const stacks = Object.values(synth.templates);
    // A variant whose synth failed on findings has no template to lint, so its lint stays undefined and fails the lint
    // test; its nag test says why.
    if (stacks.length === 1) templates[name] = stacks[0];
    gates.set(name, { findings: synth.findings });
  }
  for (const [name, lint] of Object.entries(await cfnLintAll(templates))) gates.get(name)!.lint = lint;
}, 300_000);

describe.each([...VARIANTS, ...LOOKED_UP, ...GIVEN_GROUP, ...EXISTING_VARIANTS, ...EXISTING_LOOKED_UP])('$name', ({ name }) => {
  test('cfn-lint reports no error, warning or informational finding', () => {
    expect(gates.get(name)!.lint).toEqual([]);
  });

  test('cdk-nag AwsSolutions, NIST 800-53 R5 and HIPAA Security report no unacknowledged finding', () => {
    expect(gates.get(name)!.findings).toEqual([]);
  });
});

test('every gate pack is wired: an unencrypted log group is reported by each compliance pack', () => {
  const findings = nagFindings(
    (app) => new logs.LogGroup(new Stack(app, 'Bare'), 'Logs', { retention: logs.RetentionDays.ONE_DAY }),
    { packs: GATE_PACKS },
  );
  expect(findings.map((f) => f.ruleId).sort()).toEqual([
    'HIPAA.Security-CloudWatchLogGroupEncrypted',
    'NIST.800.53.R5-CloudWatchLogGroupEncrypted',
  ]);
});

test('an acknowledgement holds only where its reason does: with snapshots off, the data volume is reported as not backed up', () => {
  const findings = nagFindings((app) => appStack({ snapshotRetain: '0' }, app), {
    packs: GATE_PACKS,
    context: cdkJsonContext(),
  });
  expect(findings.map((f) => `${f.ruleId} ${f.resource}`).sort()).toEqual([
    'HIPAA.Security-EC2EBSInBackupPlan StorageServer/StorageServer/Default/DataVolume0/Resource',
    'NIST.800.53.R5-EC2EBSInBackupPlan StorageServer/StorageServer/Default/DataVolume0/Resource',
  ]);
});
