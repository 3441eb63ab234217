// The StorageServer's validation, durability wiring, and several servers of one cluster in one app.
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';

import { appStack, serverStack } from '../support/stacks';

describe('validation', () => {
  test.each<[string, object, RegExp]>([
    ['clusterName', { clusterName: 'bad name' }, /clusterName must be 1-64 characters .* got 'bad name'/],
    ['serverName', { serverName: '' }, /serverName must be 1-64 characters .* got ''/],
    ['clientCidrs', { clientCidrs: ['10.0.0.0/33'] }, /clientCidrs: each entry must be .*, got '10.0.0.0\/33': the prefix length must be 1-32/],
    ['clientCidrs /0', { clientCidrs: ['0.0.0.0/0'] }, /clientCidrs: .*refused/],
    ['nfs.threads', { nfs: { threads: 0 } }, /nfs.threads must be a whole number from 1 to 1024, got 0/],
    ['exportPath', { exportPath: 'data' }, /exportPath must be an absolute directory path .* got 'data'/],
    ['mountPoint', { mountPoint: '/a/../etc' }, /mountPoint must be an absolute directory path .* got '\/a\/..\/etc'/],
    ['capacityTiB', { capacityTiB: -1 }, /capacityTiB/],
  ])('%s is validated before anything is created', (_name, props, message) => {
    expect(() => serverStack(props)).toThrow(message);
  });
});

describe('durability wiring (EBS snapshots, recovery)', () => {
  test.each([
    ['5', undefined],
    ['30', 'ebs'],
  ])('EBS capacityTiB=%s backend=%s: exactly one DLM policy targeting this instance, and a recovery alarm', (capacityTiB, backend) => {
    const stack = appStack({ capacityTiB, ...(backend ? { backend } : {}) });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::DLM::LifecyclePolicy', 1);
    const policy = Object.values(template.findResources('AWS::DLM::LifecyclePolicy'))[0].Properties;
    expect(policy.PolicyDetails.ResourceTypes).toEqual(['INSTANCE']);
    expect(policy.PolicyDetails.Parameters).toEqual(expect.objectContaining({ ExcludeBootVolume: true }));
    expect(policy.PolicyDetails.Schedules[0].RetainRule).toEqual({ Count: 7 });
    expect(policy.PolicyDetails.Schedules[0].CreateRule.Scripts.map((s: { Stages: string[] }) => s.Stages)).toEqual([['PRE', 'POST']]);
    // The target tag is on the storage instance and on nothing else that DLM could snapshot.
    const [target] = policy.PolicyDetails.TargetTags;
    const instance = Object.values(template.findResources('AWS::EC2::Instance'))[0];
    expect(instance.Properties.Tags).toEqual(expect.arrayContaining([target]));
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'StatusCheckFailed_System',
      AlarmActions: [{ 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':automate:'), ':ec2:recover'])] }],
    });
  });

  test('every data volume is tagged with its stripe position, so a snapshot says what it restores', () => {
    const template = Template.fromStack(appStack({ backend: 'ebs', capacityTiB: '30' }));
    const tags = Object.values(template.findResources('AWS::EC2::Volume')).map((v) =>
      v.Properties.Tags.find((t: { Key: string }) => t.Key === 'storage-server:data-volume')?.Value);
    expect(tags).toEqual(['0', '1']);
  });

  test.each(['20', '40'])('instance store capacityTiB=%s: no DLM policy, no recovery alarm', (capacityTiB) => {
    const template = Template.fromStack(appStack({ capacityTiB }));
    template.resourceCountIs('AWS::DLM::LifecyclePolicy', 0);
    // The only SSM document is the client mount one; no fsfreeze document for DLM.
    const documents = Object.values(template.findResources('AWS::SSM::Document'));
    expect(documents.filter((d) => JSON.stringify(d).includes('fsfreeze'))).toEqual([]);
    // No recover alarm, since EC2 cannot recover an instance with instance store; the monitoring alarms only.
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.filter((a) => JSON.stringify(a.Properties.AlarmActions ?? []).includes(':recover'))).toEqual([]);
    const metricOf = (p: { MetricName?: string; Metrics?: { MetricStat: { Metric: { MetricName: string } } }[] }) =>
      p.MetricName ?? p.Metrics![0].MetricStat.Metric.MetricName;
    expect(alarms.map((a) => metricOf(a.Properties)).sort()).toEqual(['StatusCheckFailed', 'disk_used_percent', 'disk_used_percent', 'export_live']);
  });

  test('snapshotRetain=0 disables snapshots; snapshotRetain=14 keeps 14', () => {
    Template.fromStack(appStack({ snapshotRetain: '0' })).resourceCountIs('AWS::DLM::LifecyclePolicy', 0);
    Template.fromStack(appStack({ snapshotRetain: '14' })).hasResourceProperties('AWS::DLM::LifecyclePolicy', {
      PolicyDetails: Match.objectLike({ Schedules: [Match.objectLike({ RetainRule: { Count: 14 } })] }),
    });
  });

  test('cross-region copy renders when set', () => {
    const { template } = serverStack({ snapshots: { crossRegionCopy: { targetRegion: 'eu-west-1', retainDays: 30 } } });
    template.hasResourceProperties('AWS::DLM::LifecyclePolicy', {
      PolicyDetails: Match.objectLike({
        Schedules: [Match.objectLike({ CrossRegionCopyRules: [Match.objectLike({ Target: 'eu-west-1', Encrypted: true, RetainRule: { Interval: 30, IntervalUnit: 'DAYS' } })] })],
      }),
    });
  });

  test('restore: volumes are created from the snapshot set, one per stripe member', () => {
    const template = Template.fromStack(appStack({ backend: 'ebs', capacityTiB: '30', restoreSnapshotIds: 'snap-0123456789abcdef0,snap-0123456789abcdef1' }));
    const volumes = Object.values(template.findResources('AWS::EC2::Volume'));
    expect(volumes.map((v) => v.Properties.SnapshotId)).toEqual(['snap-0123456789abcdef0', 'snap-0123456789abcdef1']);
    expect(volumes.map((v) => v.Properties.Size)).toEqual([15360, 15360]);
  });

  test.each<[object, RegExp]>([
    [{ capacityTiB: 5, dataVolumeSnapshotIds: ['snap-01234567', 'snap-89abcdef'] }, /the plan has 1 data volume\(s\), so give exactly 1 snapshot id\(s\) in stripe order, got 2/],
    [{ capacityTiB: 5, dataVolumeSnapshotIds: ['vol-01234567'] }, /snapshot id such as 'snap-0123456789abcdef0', got 'vol-01234567'/],
    [{ capacityTiB: 20, dataVolumeSnapshotIds: ['snap-01234567'] }, /only the EBS backend has data volumes, but the plan is instance-store/],
  ])('dataVolumeSnapshotIds is validated: %j', (props, message) => {
    expect(() => serverStack(props)).toThrow(message);
  });
});

describe('home and scratch: several servers of one cluster in one app', () => {
  const twoServers = (second: Partial<StorageServerProps>, secondStack = false) => {
    const app = new App();
    const env = { account: '123456789012', region: 'us-east-1' };
    const stack = new Stack(app, 'Home', { env });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    const home = new StorageServer(stack, 'Home', { vpc, clusterName: 'hpc1', serverName: 'home', mountPoint: '/home', allowHomeMountPoint: true });
    const scope = secondStack ? new Stack(app, 'Scratch', { env }) : stack;
    const scratchVpc = secondStack ? new ec2.Vpc(scope, 'Vpc', { maxAzs: 1, natGateways: 1 }) : vpc;
    const scratch = new StorageServer(scope, 'Scratch', { vpc: scratchVpc, clusterName: 'hpc1', ...second });
    return { stack, home, scratch };
  };

  test('durable home on EBS beside d2 scratch: distinct mount points, mount configs and servers', () => {
    const { stack, home, scratch } = twoServers({ serverName: 'scratch', mountPoint: '/scratch', capacityTiB: 20 });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::EC2::Instance', 2);
    expect([home.plan.backend, scratch.plan.backend]).toEqual(['ebs', 'instance-store']);
    expect(home.mountParameterName).not.toEqual(scratch.mountParameterName);
    const registrations = Object.values(template.findResources('Custom::StorageServerRegistration'))
      .map((r) => (r.Properties as { MountPoint: string }).MountPoint).sort();
    expect(registrations).toEqual(['/home', '/scratch']);
  });

  test.each([false, true])('the same mount point twice in one cluster is refused at synth (second stack: %p)', (secondStack) => {
    expect(() => twoServers({ serverName: 'scratch', mountPoint: '/home', allowHomeMountPoint: true }, secondStack)).toThrow(
      /mountPoint '\/home' is taken in cluster 'hpc1' by Home\/Home \(server 'home'\): give server 'scratch' another mountPoint, e\.g\. '\/scratch'/,
    );
  });

  test.each([false, true])('a mount point below another server\'s of the cluster is refused at synth (second stack: %p)', (secondStack) => {
    const nested = "mountPoint '/home/lab' (server 'lab', Scratch/Scratch) lies below mountPoint '/home' (server 'home', Home/Home) in " +
      "cluster 'hpc1': every node mounts every server of its cluster, and the outer mount would hide the inner one";
    expect(() => twoServers({ serverName: 'lab', mountPoint: '/home/lab', allowHomeMountPoint: true }, secondStack)).toThrow(
      secondStack ? nested : nested.replace('Scratch/Scratch', 'Home/Scratch'));
    // A sibling whose name starts alike is not below.
    expect(() => twoServers({ serverName: 'lab', mountPoint: '/homework', mountRoots: ['/homework'] }, secondStack)).not.toThrow();
  });

  test('the same serverName twice in one cluster is refused at synth', () => {
    expect(() => twoServers({ serverName: 'home', mountPoint: '/scratch' })).toThrow(
      "serverName 'home' is taken in cluster 'hpc1' by Home/Home: give each server of a cluster its own serverName",
    );
  });

  test('another cluster may use the same names and mount point (in one stack, one of the two without a dashboard)', () => {
    const same = { clusterName: 'hpc2', serverName: 'home', mountPoint: '/home', allowHomeMountPoint: true };
    expect(() => twoServers(same, true)).not.toThrow();
    expect(() => twoServers({ ...same, monitoring: { dashboard: false } })).not.toThrow();
    // Both with a dashboard in one stack: one name for two dashboards, see test/unit/bad-input-props.test.ts.
    expect(() => twoServers(same)).toThrow(/the dashboard name 'StorageServer-Home-home' is taken in this stack/);
  });
});
