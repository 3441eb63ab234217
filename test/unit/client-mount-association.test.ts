/** ClientMount's State Manager association, with its targets, schedule and parameters, and the props it refuses. */
import { Duration, Token } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { ClientMountProps, rateExpression } from '../../lib/client-mount';
import { clientMountStack } from '../support/client-mount-stacks';

describe('ClientMount association', () => {
  test('targets the cluster tag, runs at once and every 30 minutes by default', () => {
    const { stack } = clientMountStack();
    const template = Template.fromStack(stack);
    const docId = Object.keys(template.findResources('AWS::SSM::Document'))[0];

    template.resourceCountIs('AWS::SSM::Association', 1);
    template.hasResourceProperties('AWS::SSM::Association', {
      Name: { Ref: docId },
      Targets: [{ Key: 'tag:cluster', Values: ['hpc1'] }],
      ScheduleExpression: 'rate(30 minutes)',
      ApplyOnlyAtCronInterval: false,
      Parameters: {
        clusterName: ['hpc1'],
        prefix: ['/storage-server'],
        allowedServers: ['10.0.0.0/16'],
        allowHome: ['false'],
        mountRoots: ['/data,/scratch,/shared,/fsx'],
        readAheadKiB: ['15360'],
        readyTimeoutMinutes: ['10'],
        serverName: Match.absent(),
      },
    });
  });

  test('honours clientTagKey, serverName, parameterPrefix and schedule', () => {
    const { stack } = clientMountStack({
      clientTagKey: 'parallelcluster:cluster-name',
      serverName: 'fast1',
      parameterPrefix: '/site',
      schedule: Duration.hours(2),
    });
    Template.fromStack(stack).hasResourceProperties('AWS::SSM::Association', {
      Targets: [{ Key: 'tag:parallelcluster:cluster-name', Values: ['hpc1'] }],
      ScheduleExpression: 'rate(2 hours)',
      Parameters: {
        clusterName: ['hpc1'],
        prefix: ['/site'],
        serverName: ['fast1'],
        allowedServers: ['10.0.0.0/16'],
        allowHome: ['false'],
        mountRoots: ['/data,/scratch,/shared,/fsx'],
        readAheadKiB: ['15360'],
        readyTimeoutMinutes: ['10'],
      },
    });
  });

  test.each([
    [Duration.minutes(30), 'rate(30 minutes)'],
    [Duration.minutes(90), 'rate(90 minutes)'],
    [Duration.hours(1), 'rate(1 hour)'],
    [Duration.hours(12), 'rate(12 hours)'],
    [Duration.days(1), 'rate(1 day)'],
    [Duration.days(7), 'rate(7 days)'],
  ])('schedule %s renders %s', (schedule, expected) => {
    expect(rateExpression(schedule)).toBe(expected);
  });
});

describe('ClientMount validation', () => {
  test.each<[string, Partial<ClientMountProps>, RegExp]>([
    [
      'clusterName charset',
      { clusterName: 'my cluster' },
      /clusterName must be 1-64 characters .* got "my cluster"/,
    ],
    [
      'clusterName token',
      { clusterName: Token.asString({ Ref: 'X' }) },
      /clusterName must be a concrete string, not a token/,
    ],
    [
      'parameterPrefix',
      { parameterPrefix: 'storage' },
      /parameterPrefix must start with '\/', got "storage"/,
    ],
    ['parameterPrefix reserved', { parameterPrefix: '/aws/x' }, /parameterPrefix must not start with 'aws'/],
    ['serverName', { serverName: 'a/b' }, /serverName must be 1-64 characters .* got "a\/b"/],
    [
      'clientTagKey reserved',
      { clientTagKey: 'aws:autoscaling:groupName' },
      /clientTagKey must be an EC2 tag key that State Manager can target: .* not starting with 'aws:', got "aws:autoscaling:groupName"/,
    ],
    ['clientTagKey empty', { clientTagKey: '' }, /clientTagKey must be an EC2 tag key/],
    ['clientTagKey with +', { clientTagKey: 'a+b' }, /clientTagKey must be an EC2 tag key .* got "a\+b"/],
    [
      'schedule too short',
      { schedule: Duration.minutes(29) },
      /schedule must be whole minutes, at least 30 .* got 29 minutes/,
    ],
    ['schedule not whole minutes', { schedule: Duration.seconds(1830) }, /schedule must be whole minutes/],
    [
      'allowedServerCidrs empty',
      { allowedServerCidrs: [] },
      /allowedServerCidrs must name at least one IPv4 CIDR .* got \[\]/,
    ],
    [
      'allowedServerCidrs without a prefix',
      { allowedServerCidrs: ['10.0.0.0'] },
      /allowedServerCidrs must be IPv4 CIDRs such as 10.0.0.0\/16 .* got "10.0.0.0"/,
    ],
    [
      'allowedServerCidrs /0',
      { allowedServerCidrs: ['10.0.0.0/16', '0.0.0.0/0'] },
      /prefix \/1-\/32\), got "0.0.0.0\/0"/,
    ],
    ['allowedServerCidrs leading zero', { allowedServerCidrs: ['10.0.01.0/24'] }, /got "10.0.01.0\/24"/],
    // The registries' never-a-host blocks: a wide CIDR would let a forged record point every node at them.
    ['allowedServerCidrs holding the metadata address', { allowedServerCidrs: ['169.254.169.254/32'] }, /allowedServerCidrs "169.254.169.254\/32" holds addresses of 169.254.0.0\/16, "Link Local"/],
    ['allowedServerCidrs of loopback', { allowedServerCidrs: ['127.0.0.0/8'] }, /allowedServerCidrs "127.0.0.0\/8" holds addresses of 127.0.0.0\/8, "Loopback"/],
    ['allowedServerCidrs half of all space', { allowedServerCidrs: ['0.0.0.0/1', '128.0.0.0/1'] }, /allowedServerCidrs "0.0.0.0\/1" holds addresses of .*which are no storage server's/],
    ['allowedServerCidrs with a space', { allowedServerCidrs: ['10.0.0.0/16 '] }, /got "10.0.0.0\/16 "/],
  ])('%s', (_name, props, message) => {
    expect(() => clientMountStack(props)).toThrow(message);
  });
});
