/**
 * The alarms and dashboard of an FSx for OpenZFS file system, backend `fsx-openzfs`, given to StorageMonitoring
 * directly: its ids as plain strings, or as a CfnFileSystem's tokens. What is read is AWS's published OpenZFS metrics,
 * whose page lib/backends/openzfs/monitoring-metrics.ts cites: each alarm's metrics, dimensions, statistics, thresholds and actions, and
 * the dashboard's graphs.
 */
import { App, Stack, Token } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as sns from 'aws-cdk-lib/aws-sns';
import { MonitoredOpenZfsFileSystem } from '../../lib/backends/openzfs/monitoring';
import { StorageMonitoring, type StorageMonitoringProps } from '../../lib/monitoring';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';

const FS = 'fs-0123456789abcdef0';
const ROOT = 'fsvol-0123456789abcdef0';
const OPEN_ZFS = new MonitoredOpenZfsFileSystem({
  fileSystemId: FS, rootVolumeId: ROOT, storageCapacityGiB: 4096, throughputCapacityMBps: 1280, deploymentType: 'SINGLE_AZ_2',
});

/** A stack with the monitoring of an OpenZFS file system given by its ids. */
function monitored(extra: Partial<StorageMonitoringProps> = {}, app = new App()): { template: Template; monitoring: StorageMonitoring } {
  const stack = new Stack(app, 'Test');
  const monitoring = new StorageMonitoring(stack, 'Monitoring', { identity: { clusterName: 'hpc1', serverName: 'storage1' }, storage: OPEN_ZFS, ...extra });
  return { template: Template.fromStack(stack), monitoring };
}

/**
 * A stack with a real AWS::FSx::FileSystem of type OPENZFS, whose ref and root volume attribute the monitoring reads.
 */
function monitoredFileSystem(app = new App()): Template {
  const stack = new Stack(app, 'Test');
  const fileSystem = new fsx.CfnFileSystem(stack, 'Fs', {
    fileSystemType: 'OPENZFS', storageCapacity: 4096, storageType: 'SSD', subnetIds: ['subnet-0123456789abcdef0'],
    openZfsConfiguration: { deploymentType: 'SINGLE_AZ_2', throughputCapacity: 1280 },
  });
  new StorageMonitoring(stack, 'Monitoring', {
    identity: { clusterName: 'hpc1', serverName: 'storage1' },
    storage: new MonitoredOpenZfsFileSystem({
      fileSystemId: fileSystem.ref, rootVolumeId: fileSystem.attrRootVolumeId, storageCapacityGiB: 4096, throughputCapacityMBps: 1280, deploymentType: 'SINGLE_AZ_2',
    }),
  });
  return Template.fromStack(stack);
}

interface Query { Id: string; Expression?: string; ReturnData?: boolean; MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: unknown[] }; Stat: string; Period: number } }

/** The alarms of a template, by construct id. */
function alarmsOf(template: Template): Record<string, Record<string, unknown> & { Metrics: Query[] }> {
  return Object.fromEntries(Object.entries(template.findResources('AWS::CloudWatch::Alarm')).map(([logicalId, r]) =>
    [logicalId.replace(/^Monitoring/, '').replace(/[0-9A-F]{8}$/, ''), r.Properties]));
}

/** The queries of an alarm by id, and the expression it returns. */
function queries(alarm: { Metrics: Query[] }): { returned: string | undefined; byId: Record<string, Query> } {
  return { returned: alarm.Metrics.find((q) => q.ReturnData !== false)?.Expression, byId: Object.fromEntries(alarm.Metrics.map((q) => [q.Id, q])) };
}

const fsDims = [{ Name: 'FileSystemId', Value: FS }];
const rootDims = [{ Name: 'FileSystemId', Value: FS }, { Name: 'VolumeId', Value: ROOT }];
const stat = (namespace: string, name: string, dims: unknown[], statistic: string, period: number) =>
  ({ Metric: { Namespace: namespace, MetricName: name, Dimensions: dims }, Stat: statistic, Period: period });

describe('FSx for OpenZFS alarms', () => {
  test('storage used warning and critical: the fuller of the file system and its root volume, used over the capacity FSx publishes', () => {
    const alarms = alarmsOf(monitored().template);
    expect(Object.keys(alarms).sort()).toEqual(['FileSystemUsedCritical', 'FileSystemUsedWarning', 'ThroughputUtilizationHigh']);
    for (const [id, threshold] of [['FileSystemUsedWarning', 85], ['FileSystemUsedCritical', 95]] as const) {
      expect(alarms[id]).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: threshold, EvaluationPeriods: 1, TreatMissingData: 'missing' });
      expect(alarms[id].AlarmDescription).toBe(
        `Storage server storage1: the FSx for OpenZFS file system (4096 GiB planned) or its root volume is ${threshold}% full or more.`);
      const { returned, byId } = queries(alarms[id]);
      expect(returned).toBe('MAX([a, b])');
      expect(byId.a.Expression).toBe('100 * fsUsed / fsCapacity');
      expect(byId.b.Expression).toBe('100 * rootUsed / rootCapacity');
      expect(byId.fsUsed.MetricStat).toEqual(stat('AWS/FSx', 'UsedStorageCapacity', fsDims, 'Average', 300));
      expect(byId.fsCapacity.MetricStat).toEqual(stat('AWS/FSx', 'StorageCapacity', fsDims, 'Average', 300));
      expect(byId.rootUsed.MetricStat).toEqual(stat('AWS/FSx', 'UsedStorageCapacity', rootDims, 'Average', 300));
      expect(byId.rootCapacity.MetricStat).toEqual(stat('AWS/FSx', 'StorageCapacity', rootDims, 'Average', 300));
      expect(alarms[id].Metrics).toHaveLength(7);
    }
  });

  test('throughput utilization: network or disk, whichever is higher, 80% or more for six five-minute periods in a row', () => {
    const alarm = alarmsOf(monitored().template).ThroughputUtilizationHigh;
    expect(alarm).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 80, EvaluationPeriods: 6, DatapointsToAlarm: 6, TreatMissingData: 'missing',
    });
    expect(alarm.AlarmDescription).toBe('Storage server storage1: the FSx for OpenZFS SINGLE_AZ_2 file server used 80% or more of its ' +
      '1280 MB/s throughput capacity (network or disk) for 30 minutes: raise its throughput capacity (live).');
    const { returned, byId } = queries(alarm);
    expect(returned).toBe('MAX([a, b])');
    expect(byId.a.MetricStat).toEqual(stat('AWS/FSx', 'NetworkThroughputUtilization', fsDims, 'Average', 300));
    expect(byId.b.MetricStat).toEqual(stat('AWS/FSx', 'FileServerDiskThroughputUtilization', fsDims, 'Average', 300));
    expect(alarm.Metrics).toHaveLength(3);
  });

  test('the ids of a real CfnFileSystem: its Ref and its RootVolumeId attribute as the dimensions', () => {
    const { byId } = queries(alarmsOf(monitoredFileSystem()).FileSystemUsedWarning);
    expect(byId.rootUsed.MetricStat?.Metric.Dimensions).toEqual([
      { Name: 'FileSystemId', Value: { Ref: expect.stringMatching(/^Fs/) } },
      { Name: 'VolumeId', Value: { 'Fn::GetAtt': [expect.stringMatching(/^Fs/), 'RootVolumeId'] } },
    ]);
  });

  test('thresholds are props; the throughput one is refused naming the prop when it is no percentage', () => {
    const alarms = alarmsOf(monitored({ fileSystemUsedWarningPercent: 70, fileSystemUsedCriticalPercent: 90, throughputUtilizationHighPercent: 65 }).template);
    expect([alarms.FileSystemUsedWarning.Threshold, alarms.FileSystemUsedCritical.Threshold, alarms.ThroughputUtilizationHigh.Threshold]).toEqual([70, 90, 65]);
    expect(() => monitored({ throughputUtilizationHighPercent: 100 })).toThrow(
      /^monitoring: throughputUtilizationHighPercent must be a percentage above 0 and below 100, got 100$/);
  });

  test('with a topic, every alarm notifies on ALARM and on OK; without, none', () => {
    const app = new App();
    const topicStack = new Stack(app, 'Topics', { env: { account: '123456789012', region: 'us-east-1' } });
    const topic = sns.Topic.fromTopicArn(topicStack, 'T', 'arn:aws:sns:us-east-1:123456789012:storage-alarms');
    const alarms = Object.values(alarmsOf(monitored({ alarmTopic: topic }, app).template));
    expect(alarms).toHaveLength(3);
    for (const a of alarms) {
      expect(a.AlarmActions).toEqual(['arn:aws:sns:us-east-1:123456789012:storage-alarms']);
      expect(a.OKActions).toEqual(['arn:aws:sns:us-east-1:123456789012:storage-alarms']);
    }
    for (const a of Object.values(alarmsOf(monitored().template))) expect(a.AlarmActions).toBeUndefined();
  });
});

/** The dashboard's widgets; its body has no tokens, since the ids are plain strings here. */
function widgets(template: Template): { properties: { title: string; metrics: unknown[][]; annotations?: { horizontal: { value: number }[] } } }[] {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  const body = dashboard.Properties.DashboardBody as string | { 'Fn::Join': [string, unknown[]] };
  return JSON.parse(typeof body === 'string' ? body : body['Fn::Join'][1].join('')).widgets;
}

describe('MonitoredOpenZfsFileSystem props', () => {
  const props = { fileSystemId: FS, rootVolumeId: ROOT, storageCapacityGiB: 4096, throughputCapacityMBps: 1280, deploymentType: 'SINGLE_AZ_2' };
  const made = (change: Record<string, unknown>) => () => new MonitoredOpenZfsFileSystem({ ...props, ...change } as typeof props);

  test.each([
    [{ storageCapacityGiB: 0 }, /^MonitoredOpenZfsFileSystem: storageCapacityGiB must be a whole number of GiB above 0, got 0 \(number\)\.$/],
    [{ storageCapacityGiB: -1 }, /storageCapacityGiB must be a whole number of GiB above 0, got -1 \(number\)/],
    [{ storageCapacityGiB: NaN }, /storageCapacityGiB must be a whole number of GiB above 0, got NaN \(number\)/],
    [{ storageCapacityGiB: Token.asNumber({ Ref: 'Capacity' }) }, /storageCapacityGiB must be .* got a token: .* give it literally/],
    [{ throughputCapacityMBps: 0 }, /throughputCapacityMBps must be a whole number of MB\/s above 0, got 0 \(number\)/],
    [{ rootVolumeId: '' }, /^MonitoredOpenZfsFileSystem: rootVolumeId must be an FSx volume id such as 'fsvol-0123456789abcdef0', got ""\.$/],
    [{ fileSystemId: 'fsvol-0123456789abcdef0' }, /fileSystemId must be an FSx file system id such as 'fs-0123456789abcdef0', got "fsvol-0123456789abcdef0"/],
    [{ deploymentType: 'SINGLE_AZ_3' }, /^MonitoredOpenZfsFileSystem: deploymentType must be one of SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2, MULTI_AZ_1, got "SINGLE_AZ_3"\.$/],
  ])('%j is refused naming the prop', (change, message) => {
    expect(made(change)).toThrow(message);
  });

  test('tokens for the ids and the deployment type are left to deploy', () => {
    expect(made({ fileSystemId: Token.asString({ Ref: 'Fs' }), rootVolumeId: Token.asString({ Ref: 'Root' }), deploymentType: Token.asString({ Ref: 'Type' }) })).not.toThrow();
  });
});

describe('FSx for OpenZFS dashboard', () => {
  test('storage used, throughput utilization, client MB/s against the provisioned, bytes and operations', () => {
    const { template, monitoring } = monitored();
    const byTitle = Object.fromEntries(widgets(template).map((w) => [w.properties.title, w.properties]));
    expect(Object.keys(byTitle)).toEqual(['Storage used %', 'Throughput utilization % (lines: AWS\'s recommended average, the alarm)',
      'Client throughput MB/s (line: provisioned)', 'OpenZFS bytes / min', 'OpenZFS operations / min']);
    const lines = (title: string) => byTitle[title].annotations?.horizontal.map((a) => a.value);
    expect(lines('Storage used %')).toEqual([85, 95]);
    expect(lines('Throughput utilization % (lines: AWS\'s recommended average, the alarm)')).toEqual([50, 80]);
    expect(lines('Client throughput MB/s (line: provisioned)')).toEqual([1280]);
    // A graph's plain metric is [namespace, name, dimension, value, ...]; an expression is [{ expression, label }].
    const plain = (title: string) => byTitle[title].metrics.filter((m) => typeof m[0] === 'string').map((m) => m.slice(0, 4));
    const expressions = (title: string) => byTitle[title].metrics.filter((m) => typeof m[0] !== 'string').map((m) => (m[0] as { expression: string }).expression);
    expect(expressions('Storage used %')).toEqual(['100 * fsUsed / fsCapacity', '100 * rootUsed / rootCapacity']);
    expect(plain('Throughput utilization % (lines: AWS\'s recommended average, the alarm)')).toEqual(
      ['NetworkThroughputUtilization', 'FileServerDiskThroughputUtilization'].map((n) => ['AWS/FSx', n, 'FileSystemId', FS]));
    expect(expressions('Client throughput MB/s (line: provisioned)')).toEqual([`(r + w) / 300 / ${1000 ** 2}`]);
    expect(plain('OpenZFS bytes / min')).toEqual(['DataReadBytes', 'DataWriteBytes'].map((n) => ['AWS/FSx', n, 'FileSystemId', FS]));
    expect(plain('OpenZFS operations / min')).toEqual(
      ['DataReadOperations', 'DataWriteOperations', 'MetadataOperations'].map((n) => ['AWS/FSx', n, 'FileSystemId', FS]));
    expect(monitoring.alarms).toHaveLength(3);
  });
});

describe('compliance', () => {
  test('cfn-lint and cdk-nag clean, with a real OpenZFS file system beside the monitoring', () => {
    expect(cfnLint(monitoredFileSystem().toJSON())).toEqual([]);
    const findings = nagFindings((app) => { monitoredFileSystem(app); });
    // The stand-in file system is this test's, not the construct's: only the monitoring's own resources count.
    expect(findings.filter((f) => /\/Monitoring\//.test(f.resource))).toEqual([]);
  });
});
