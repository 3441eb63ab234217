// A stack with one EBS-backed instance and a SnapshotPolicy on it, and the readers of its template, for the snapshot
// tests snapshot-policy.test.ts and snapshot-freeze.test.ts.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { SnapshotPolicy, type SnapshotPolicyProps } from '../../lib/snapshot-policy';

export const SERVICE_ROLE = 'service-role/AWSDataLifecycleManagerServiceRole';
export const SSM_ACCESS = 'service-role/AWSDataLifecycleManagerSSMFullAccess';
export const CMK = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

/** A stack in us-east-1 with one EBS-backed instance, as the StorageServer hands it over. */
export function serverStack(app = new App(), id = 'TestStack'): { stack: Stack; instance: ec2.Instance } {
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

export function build(props: Partial<SnapshotPolicyProps> = {}) {
  const { stack, instance } = serverStack();
  const snapshots = new SnapshotPolicy(stack, 'Snapshots', {
    instance,
    dataMountPath: '/export/data',
    ...props,
  });
  return { stack, instance, snapshots, template: Template.fromStack(stack) };
}

/** The managed policy ARN as CDK renders it. */
export function managed(name: string) {
  return { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:iam::aws:policy/${name}`]] };
}

/** The parts of the policy's only schedule the tests read. */
export interface Schedule {
  readonly CreateRule: { readonly Scripts?: unknown };
  readonly RetainRule: unknown;
  readonly CrossRegionCopyRules?: unknown;
}

export function dlmSchedule(template: Template): Schedule {
  const policies = Object.values(template.findResources('AWS::DLM::LifecyclePolicy'));
  expect(policies).toHaveLength(1);
  return policies[0].Properties.PolicyDetails.Schedules[0];
}
