/** ClientMount's grantMount and managed read policy: reading the cluster's storage records, nothing wider. */
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as autoscaling from 'aws-cdk-lib/aws-autoscaling';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { MOUNT_READ_ACTIONS } from '../../lib/client-mount';
import { IMAGE, clientMountStack } from '../support/client-mount-stacks';

describe('grantMount', () => {
  test("grants reading the cluster's storage path and nothing wider", () => {
    // GIVEN
    const { stack, mount } = clientMountStack({ parameterPrefix: '/site' });
    const role = new iam.Role(stack, 'NodeRole', {
      assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
    });

    // WHEN
    const grant = mount.grantMount(role);

    // THEN
    expect(grant.success).toBe(true);
    const arn = (suffix: string) => ({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':ssm:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          `:parameter/site/hpc1/${suffix}`,
        ],
      ],
    });
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('NodeRole') }],
      PolicyDocument: {
        Statement: [{ Effect: 'Allow', Action: MOUNT_READ_ACTIONS, Resource: [arn('storage'), arn('storage/*'), arn('removed/*')] }],
      },
    });
  });

  test('a managed read policy carries the same statement, for roles made outside CDK', () => {
    const { stack, mount } = clientMountStack();
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::IAM::ManagedPolicy', 1);
    template.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: MOUNT_READ_ACTIONS,
            Resource: [
              Match.objectLike({
                'Fn::Join': ['', Match.arrayWith([':parameter/storage-server/hpc1/storage'])],
              }),
              Match.objectLike({
                'Fn::Join': ['', Match.arrayWith([':parameter/storage-server/hpc1/storage/*'])],
              }),
              Match.objectLike({
                'Fn::Join': ['', Match.arrayWith([':parameter/storage-server/hpc1/removed/*'])],
              }),
            ],
          },
        ],
      },
    });
    expect(stack.resolve(mount.readPolicy.managedPolicyArn)).toEqual({
      Ref: stack.getLogicalId(mount.readPolicy.node.defaultChild as iam.CfnManagedPolicy),
    });
  });

  test('an Auto Scaling group grantee gets the statement on its instance role', () => {
    const { stack, mount } = clientMountStack();
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
    const asg = new autoscaling.AutoScalingGroup(stack, 'Nodes', {
      vpc,
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: IMAGE,
    });
    mount.grantMount(asg);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: Match.stringLikeRegexp('NodesInstanceRole') }],
      PolicyDocument: { Statement: [Match.objectLike({ Action: MOUNT_READ_ACTIONS })] },
    });
  });
});
