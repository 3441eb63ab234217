import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as logs from 'aws-cdk-lib/aws-logs';
import { cfnLint } from '../support/cfn-lint';
import { GATE_PACKS, cdkJsonContext, nagFindings } from '../support/nag';
import { VARIANTS, appStack } from '../support/stacks';

// Quality gates over every variant the app is documented to synthesize.
describe.each(VARIANTS)('$name', ({ context }) => {
  test('cfn-lint reports no error, warning or informational finding', () => {
    const template = Template.fromStack(appStack(context)).toJSON();
    expect(cfnLint(template)).toEqual([]);
  });

  // Synthesized with cdk.json's feature flags, as `cdk synth` builds the app (one of them,
  // @aws-cdk/aws-ec2:restrictDefaultSecurityGroup, is what closes the new VPC's default security group).
  test('cdk-nag AwsSolutions, NIST 800-53 R5 and HIPAA Security report no unacknowledged finding', () => {
    expect(nagFindings((app) => appStack(context, app), { packs: GATE_PACKS, context: cdkJsonContext() })).toEqual([]);
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
    'HIPAA.Security-EC2EBSInBackupPlan StorageServer/StorageServer/DataVolume0/Resource',
    'NIST.800.53.R5-EC2EBSInBackupPlan StorageServer/StorageServer/DataVolume0/Resource',
  ]);
});
