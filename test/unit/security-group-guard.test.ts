import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { backendOf } from '../../lib/backend-enum';
import { BASELINES } from './guard-matrix.cases';
import { constructTemplate, judge } from '../support/guard-matrix';

// A deployed server that gains `securityGroup`: its own group gives way to the given one. What CloudFormation would
// replace decides; the change matrix (test/unit/guard-matrix.cases.ts) checks the guard against it on every row.
jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-matrix-aws').matrixAwsModule());
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

const given = (stack: import('aws-cdk-lib').Stack) => ({ securityGroup: ec2.SecurityGroup.fromSecurityGroupId(stack, 'Sg', 'sg-0123456789abcdef0') });

// EBS: the interface's GroupSet updates in place, and the instance, which holds no data, may be replaced. Instance store:
// the instance's SecurityGroupIds may replace it, with its disks. FSx: SecurityGroupIds replaces the file system.
test.each([
  { backend: 'ebs', guard: 'accepted', lost: [] },
  { backend: 'instance-store', guard: 'refused', lost: [expect.stringMatching(/\(AWS::EC2::Instance\) MAY_REPLACE$/)] },
  { backend: 'fsx-lustre', guard: 'refused', lost: [expect.stringMatching(/\(AWS::FSx::FileSystem\) WILL_REPLACE$/)] },
  { backend: 'fsx-openzfs', guard: 'refused', lost: [expect.stringMatching(/\(AWS::FSx::FileSystem\) WILL_REPLACE$/)] },
] as const)('$backend: a deployed server that gains a security group is $guard', async ({ backend, guard, lost }) => {
  const base = { backend: backendOf(backend), capacityTiB: Number(BASELINES[backend].capacityTiB) };
  const verdict = await judge(constructTemplate(base), constructTemplate(base, given));
  expect(verdict).toMatchObject({ guard, lost });
  if (guard === 'refused') expect(verdict.message).toMatch(/SecurityGroupIds/);
});
