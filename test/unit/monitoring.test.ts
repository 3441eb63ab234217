import { App, Size, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as sns from 'aws-cdk-lib/aws-sns';
import { MonitoredEc2Server } from '../../lib/backends/ec2/monitoring';
import { MonitoredLustreFileSystem } from '../../lib/backends/fsx/monitoring';
import { StorageMonitoring, type StorageMonitoringProps } from '../../lib/monitoring';
import { renderAgentConfig } from '../../lib/server-metrics';
import { agentConfigErrors } from '../support/cloudwatch-agent-schema';
import { cfnLint } from '../support/cfn-lint';
import { nagFindings } from '../support/nag';

const IDENTITY = { clusterName: 'hpc1', serverName: 'storage1' };
/** The server's own namespace: its metrics, its alarms' and the agent's, and its role's condition, all say it. */
const SERVER_METRIC_NAMESPACE = 'StorageServer/hpc1/storage1';
const SERVER_DIMENSIONS = [
  { Name: 'ClusterName', Value: 'hpc1' },
  { Name: 'ServerName', Value: 'storage1' },
];

type Kind = 'ebs1' | 'ebs3' | 'instance-store' | 'fsx';

/** A stack with one monitored server of the given kind: a VPC, an instance, its st1 volumes or disks; or FSx. */
function monitored(kind: Kind, extra: Partial<StorageMonitoringProps> = {}, app = new App()): { stack: Stack; template: Template; monitoring: StorageMonitoring } {
  const stack = new Stack(app, 'Test');
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0, subnetConfiguration: [{ name: 'p', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
  let storage: StorageMonitoringProps['storage'];
  if (kind === 'fsx') {
    const fileSystem = new fsx.LustreFileSystem(stack, 'Fs', {
      vpc, vpcSubnet: vpc.isolatedSubnets[0], storageCapacityGiB: 2400,
      lustreConfiguration: { deploymentType: fsx.LustreDeploymentType.SCRATCH_2 },
    });
    storage = new MonitoredLustreFileSystem({ fileSystem, storageCapacityGiB: 2400 });
  } else {
    const instance = new ec2.Instance(stack, 'Server', {
      vpc, instanceType: new ec2.InstanceType('m4.large'), machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    });
    const volumes = kind === 'ebs1' ? 1 : kind === 'ebs3' ? 3 : 0;
    const dataVolumes = Array.from({ length: volumes }, (_, i) => new ec2.Volume(stack, `Volume${i}`, {
      availabilityZone: vpc.isolatedSubnets[0].availabilityZone, size: Size.gibibytes(125), volumeType: ec2.EbsDeviceVolumeType.ST1, encrypted: true,
    }));
    storage = new MonitoredEc2Server({ instance, dataVolumes, instanceStoreDisks: kind === 'instance-store' ? ['xvdb', 'xvdc', 'xvdd'] : [] });
  }
  const monitoring = new StorageMonitoring(stack, 'Monitoring', { identity: IDENTITY, storage, ...extra });
  return { stack, template: Template.fromStack(stack), monitoring };
}

/**
 * The alarms of a template, by construct id. A single metric shows as the alarm's own Namespace, MetricName,
 * Dimensions, Statistic and Period, whether CloudFormation has it that way or as one labelled MetricStat.
 */
function alarmsOf(template: Template): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [logicalId, r] of Object.entries(template.findResources('AWS::CloudWatch::Alarm'))) {
    const p = { ...r.Properties };
    const stats = (p.Metrics ?? []) as { MetricStat?: { Metric: Record<string, unknown>; Stat: string; Period: number } }[];
    if (stats.length === 1 && stats[0].MetricStat) {
      const { Metric, Stat, Period } = stats[0].MetricStat;
      Object.assign(p, { ...Metric, Statistic: Stat, Period });
      delete p.Metrics;
    }
    out[logicalId.replace(/^Monitoring/, '').replace(/[0-9A-F]{8}$/, '')] = p;
  }
  return out;
}

/** The dashboard body with every token rendered as `{Ref}` text, parsed. */
function dashboardOf(template: Template): { widgets: { properties: { title: string; metrics: unknown[][]; annotations?: unknown } }[] } {
  const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
  const render = (node: unknown): string => {
    if (typeof node === 'string') return node;
    const o = node as Record<string, unknown>;
    if (o['Fn::Join']) return (o['Fn::Join'] as [string, unknown[]])[1].map(render).join((o['Fn::Join'] as [string])[0]);
    if (o.Ref) return `{${String(o.Ref)}}`;
    if (o['Fn::GetAtt']) return `{${(o['Fn::GetAtt'] as string[]).join('.')}}`;
    throw new Error(`unexpected token ${JSON.stringify(node)}`);
  };
  return JSON.parse(render(dashboard.Properties.DashboardBody));
}

const sorted = (dims: unknown): { Name: string }[] => [...(dims as { Name: string }[])].sort((a, b) => a.Name.localeCompare(b.Name));
const titles = (template: Template): string[] => dashboardOf(template).widgets.map((w) => w.properties.title);
const widget = (template: Template, title: string) => dashboardOf(template).widgets.find((w) => w.properties.title === title)!;

describe('alarms per backend: each with its metric, threshold and action; none on a metric the backend lacks', () => {
  test('EBS with one volume: export down, file system 85 and 95, status check, and the volume\'s burst bucket', () => {
    const alarms = alarmsOf(monitored('ebs1').template);
    expect(Object.keys(alarms).sort()).toEqual(
      ['BurstBalanceLow0', 'ExportDown', 'FileSystemUsedCritical', 'FileSystemUsedWarning', 'StatusCheckFailed']);
    expect(alarms.ExportDown).toMatchObject({
      Namespace: SERVER_METRIC_NAMESPACE, MetricName: 'export_live', Statistic: 'Minimum',
      Period: 60, ComparisonOperator: 'LessThanThreshold', Threshold: 1, EvaluationPeriods: 3, TreatMissingData: 'breaching',
    });
    // The agent adds metric_type to every StatsD metric, as its source shows: see lib/server-metrics.ts.
    const gauge = sorted([...SERVER_DIMENSIONS, { Name: 'metric_type', Value: 'gauge' }]);
    expect(sorted(alarms.ExportDown.Dimensions)).toEqual(gauge);
    expect(sorted(alarms.FileSystemUsedWarning.Dimensions)).toEqual(gauge);
    expect(alarms.FileSystemUsedWarning).toMatchObject({
      Namespace: SERVER_METRIC_NAMESPACE, MetricName: 'disk_used_percent',
      ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 85,
    });
    expect(alarms.FileSystemUsedCritical).toMatchObject({ MetricName: 'disk_used_percent', Threshold: 95 });
    expect(alarms.StatusCheckFailed).toMatchObject({
      Namespace: 'AWS/EC2', MetricName: 'StatusCheckFailed', Dimensions: [{ Name: 'InstanceId', Value: { Ref: expect.stringMatching(/^Server/) } }],
      Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(alarms.BurstBalanceLow0).toMatchObject({
      Namespace: 'AWS/EBS', MetricName: 'BurstBalance', Statistic: 'Minimum',
      Dimensions: [{ Name: 'VolumeId', Value: { Ref: expect.stringMatching(/^Volume0/) } }],
      ComparisonOperator: 'LessThanThreshold', Threshold: 20,
    });
    for (const a of Object.values(alarms)) expect(a.AlarmActions).toBeUndefined();
  });

  test('EBS with three volumes: one burst-bucket alarm per volume', () => {
    const alarms = alarmsOf(monitored('ebs3').template);
    expect(Object.keys(alarms).filter((k) => k.startsWith('BurstBalanceLow')).sort()).toEqual(['BurstBalanceLow0', 'BurstBalanceLow1', 'BurstBalanceLow2']);
    expect(alarms.BurstBalanceLow2.Dimensions).toEqual([{ Name: 'VolumeId', Value: { Ref: expect.stringMatching(/^Volume2/) } }]);
  });

  test('instance store: no burst-bucket alarm (it has no st1 volume)', () => {
    expect(Object.keys(alarmsOf(monitored('instance-store').template)).sort()).toEqual(
      ['ExportDown', 'FileSystemUsedCritical', 'FileSystemUsedWarning', 'StatusCheckFailed']);
  });

  test('FSx for Lustre: the alarms watch the fullest storage target (OST); no heartbeat, status check or burst bucket', () => {
    const alarms = alarmsOf(monitored('fsx').template);
    expect(Object.keys(alarms).sort()).toEqual(['FileSystemUsedCritical', 'FileSystemUsedWarning']);
    expect(alarms.FileSystemUsedWarning.AlarmDescription).toBe(
      'Storage server storage1: the fullest storage target (OST) of the FSx for Lustre file system (2400 GiB) is 85% full or more.');
    const metrics = alarms.FileSystemUsedWarning.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: unknown; Stat: string; Period: number } }[];
    for (const [id, stat] of [['fullest', 'Minimum'], ['targets', 'SampleCount']]) {
      expect(metrics.find((m) => m.Id === id)?.MetricStat).toEqual({
        Metric: { Namespace: 'AWS/FSx', MetricName: 'FreeDataStorageCapacity', Dimensions: [{ Name: 'FileSystemId', Value: { Ref: expect.stringMatching(/^Fs/) } }] },
        // One data point a minute per OST: at a longer period SampleCount would count each OST more than once.
        Stat: stat, Period: 60,
      });
    }
  });

  test('FSx for Lustre: the used % is the fullest OST\'s, not one OST\'s free bytes over the whole capacity (LUSTRE-FULLEST-OST)', () => {
    const [expression] = (alarmsOf(monitored('fsx').template).FileSystemUsedWarning.Metrics as { Expression?: string }[])
      .flatMap((m) => m.Expression ?? []);
    const capacity = 2400 * 1024 ** 3;
    // What CloudWatch would compute from each metric's value; the expression is arithmetic on its ids only.
    const evaluate = (values: Record<string, number>): number =>
      Function(...Object.keys(values), `return ${expression};`)(...Object.values(values)) as number;
    // Two OSTs: empty, one half full, one full while the other is empty.
    expect(evaluate({ fullest: capacity / 2, targets: 2 })).toBeCloseTo(0);
    expect(evaluate({ fullest: capacity / 4, targets: 2 })).toBeCloseTo(50);
    expect(evaluate({ fullest: 0, targets: 2 })).toBeCloseTo(100);
  });

  test('FSx for Lustre: a capacity that is no whole number of GiB above 0, or an id that is none, is refused naming the prop', () => {
    const stack = new Stack(new App(), 'Test');
    const made = (storageCapacityGiB: number, fileSystemId = 'fs-0123456789abcdef0') => () => new MonitoredLustreFileSystem({
      fileSystem: fsx.LustreFileSystem.fromLustreFileSystemAttributes(stack, `Fs${stack.node.children.length}`, {
        fileSystemId, dnsName: `${fileSystemId}.fsx.us-east-1.amazonaws.com`, securityGroup: ec2.SecurityGroup.fromSecurityGroupId(stack, `Sg${stack.node.children.length}`, 'sg-12345678'),
      }),
      storageCapacityGiB,
    });
    for (const bad of [0, -1, NaN, 1.5]) {
      expect(made(bad)).toThrow(new RegExp(`^MonitoredLustreFileSystem: storageCapacityGiB must be a whole number of GiB above 0, got ${bad} \\(number\\)\\.$`));
    }
    expect(made(1200, '')).toThrow(/^MonitoredLustreFileSystem: fileSystem.fileSystemId must be an FSx file system id such as 'fs-0123456789abcdef0', got ""\.$/);
    expect(made(1200)).not.toThrow();
  });

  test('with a topic, every alarm notifies on ALARM and on OK', () => {
    const app = new App();
    const topicStack = new Stack(app, 'Topics', { env: { account: '123456789012', region: 'us-east-1' } });
    const topic = sns.Topic.fromTopicArn(topicStack, 'T', 'arn:aws:sns:us-east-1:123456789012:storage-alarms');
    const alarms = alarmsOf(monitored('ebs3', { alarmTopic: topic }, app).template);
    expect(Object.keys(alarms)).toHaveLength(7);
    for (const a of Object.values(alarms)) {
      expect(a.AlarmActions).toEqual(['arn:aws:sns:us-east-1:123456789012:storage-alarms']);
      expect(a.OKActions).toEqual(['arn:aws:sns:us-east-1:123456789012:storage-alarms']);
    }
  });

  test('thresholds are props; nonsense is refused naming the prop', () => {
    const alarms = alarmsOf(monitored('ebs1', { fileSystemUsedWarningPercent: 70, fileSystemUsedCriticalPercent: 90, burstBalanceLowPercent: 35, exportDownMinutes: 5 }).template);
    expect([alarms.FileSystemUsedWarning.Threshold, alarms.FileSystemUsedCritical.Threshold, alarms.BurstBalanceLow0.Threshold]).toEqual([70, 90, 35]);
    expect(alarms.ExportDown.EvaluationPeriods).toBe(5);
    expect(() => monitored('ebs1', { fileSystemUsedWarningPercent: 96 })).toThrow(/fileSystemUsedWarningPercent \(96\) must be below fileSystemUsedCriticalPercent \(95\)/);
    expect(() => monitored('ebs1', { burstBalanceLowPercent: 0 })).toThrow(/burstBalanceLowPercent must be a percentage above 0 and below 100, got 0/);
    expect(() => monitored('ebs1', { exportDownMinutes: 0.5 })).toThrow(/exportDownMinutes must be a whole number of minutes from 1 to 60, got 0.5/);
  });
});

describe('the dashboard per backend', () => {
  const common = ['Export live (heartbeat)', 'Status checks failed', 'File system used %', 'Memory used %',
    'Network bytes / min', 'NFS operations / min', 'NFS bytes / min'];

  test('EBS: the server rows, then throughput, queue length and burst balance per volume', () => {
    const { template } = monitored('ebs3');
    expect(titles(template)).toEqual([...common, 'EBS bytes / 5 min per volume', 'EBS queue length per volume', 'st1 burst balance % per volume']);
    const burst = widget(template, 'st1 burst balance % per volume');
    expect(burst.properties.metrics.map((m) => m.slice(0, 4))).toEqual([0, 1, 2].map((i) => ['AWS/EBS', 'BurstBalance', 'VolumeId', expect.stringMatching(new RegExp(`^\\{Volume${i}`))]));
    expect(burst.properties.annotations).toEqual({ horizontal: [{ value: 20, yAxis: 'left' }] });
    expect(widget(template, 'EBS bytes / 5 min per volume').properties.metrics).toHaveLength(6);
    expect(widget(template, 'File system used %').properties.annotations).toEqual({ horizontal: [{ value: 85, yAxis: 'left' }, { value: 95, yAxis: 'left' }] });
  });

  test('EBS with one volume: one series per volume widget', () => {
    const { template } = monitored('ebs1');
    expect(widget(template, 'EBS queue length per volume').properties.metrics).toHaveLength(1);
  });

  test('instance store: the disks\' throughput from the agent, no EBS widget', () => {
    const { template } = monitored('instance-store');
    expect(titles(template)).toEqual([...common, 'Instance-store bytes / min per disk']);
    const disks = widget(template, 'Instance-store bytes / min per disk').properties.metrics;
    expect(disks.map((m) => m.slice(0, 2).concat(m.slice(6, 8)))).toEqual(['xvdb', 'xvdc', 'xvdd'].flatMap((d) => [
      [SERVER_METRIC_NAMESPACE, 'diskio_read_bytes', 'name', d],
      [SERVER_METRIC_NAMESPACE, 'diskio_write_bytes', 'name', d],
    ]));
  });

  test('FSx: used %, bytes and operations of the file system', () => {
    expect(titles(monitored('fsx').template)).toEqual(['File system used %', 'Lustre bytes / min', 'Lustre operations / min']);
  });

  test.each<Kind>(['ebs3', 'instance-store', 'fsx'])('%s: a graph titled "/ min" or "/ <n> min" plots sums over that period', (kind) => {
    const titled = dashboardOf(monitored(kind).template).widgets.flatMap((w) => {
      const per = /\/ (?:(\d+) )?min\b/.exec(w.properties.title);
      return per ? [{ title: w.properties.title, seconds: Number(per[1] ?? 1) * 60, rows: w.properties.metrics }] : [];
    });
    expect(titled.length).toBeGreaterThan(0);
    for (const { title, seconds, rows } of titled) {
      // A row's options are its last element; a metric only an expression reads is hidden, and the expression's period counts.
      const periods = rows.map((row) => row[row.length - 1] as { period?: number; visible?: boolean })
        .filter((o) => o.visible !== false).map((o) => o.period ?? 300);
      expect([title, periods]).toEqual([title, periods.map(() => seconds)]);
    }
  });

  test('named after the stack and the server; dashboard: false makes none', () => {
    monitored('ebs1').template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'StorageServer-Test-storage1' });
    const { template, monitoring } = monitored('ebs1', { dashboard: false });
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
    expect(monitoring.dashboard).toBeUndefined();
    expect(monitoring.alarms).toHaveLength(5);
  });
});

describe('the agent\'s configuration publishes what the alarms read', () => {
  test('memory and the StatsD listener of storage-metrics (heartbeat, file system, nfsd); disk I/O only for instance-store disks', () => {
    const config = JSON.parse(renderAgentConfig({ ...IDENTITY, instanceStoreDisks: [] }));
    expect(config.agent).toEqual({ metrics_collection_interval: 60, omit_hostname: true, run_as_user: 'root' });
    expect(config.metrics.namespace).toBe(SERVER_METRIC_NAMESPACE);
    const dims = { ClusterName: 'hpc1', ServerName: 'storage1' };
    expect(config.metrics.metrics_collected).toEqual({
      mem: { measurement: ['used_percent'], metrics_collection_interval: 60, append_dimensions: dims },
      statsd: { service_address: '127.0.0.1:8125', metrics_collection_interval: 60, metrics_aggregation_interval: 60 },
    });
    const disks = JSON.parse(renderAgentConfig({ ...IDENTITY, instanceStoreDisks: ['xvdb', 'xvdc'] })).metrics.metrics_collected.diskio;
    expect(disks).toEqual({ resources: ['xvdb', 'xvdc'], measurement: ['read_bytes', 'write_bytes'], metrics_collection_interval: 60, append_dimensions: dims });
  });

  test('the agent would take both configurations: the rules of its own schema hold (test/support/cloudwatch-agent-schema.ts)', () => {
    expect(agentConfigErrors(renderAgentConfig({ ...IDENTITY, instanceStoreDisks: [] }))).toEqual([]);
    // A d2.8xlarge's 24 disks, xvdb to xvdy.
    const disks = Array.from({ length: 24 }, (_, i) => `xvd${String.fromCharCode(98 + i)}`);
    expect(agentConfigErrors(renderAgentConfig({ ...IDENTITY, instanceStoreDisks: disks }))).toEqual([]);
  });

  test('and those rules refuse configurations the agent would refuse (and a misspelt agent key): not a check that cannot fail', () => {
    const config = (): { agent: Record<string, unknown>; metrics: { metrics_collected: Record<string, Record<string, unknown>> } & Record<string, unknown> } =>
      JSON.parse(renderAgentConfig({ ...IDENTITY, instanceStoreDisks: ['xvdb'] }));
    const errorsOf = (change: (c: ReturnType<typeof config>) => void): string[] => {
      const c = config();
      change(c);
      return agentConfigErrors(JSON.stringify(c));
    };
    // The StatsD plugin takes no append_dimensions; its dimensions come from the datagrams' tags.
    expect(errorsOf((c) => { c.metrics.metrics_collected.statsd.append_dimensions = { ClusterName: 'hpc1' }; })).toEqual([
      expect.stringContaining('/metrics/metrics_collected/statsd must NOT have additional properties'),
    ]);
    expect(errorsOf((c) => { delete c.metrics.metrics_collected.mem.measurement; })).toEqual([
      expect.stringContaining("/metrics/metrics_collected/mem must have required property 'measurement'"),
    ]);
    expect(errorsOf((c) => { c.metrics.metrics_collected.diskio.metrics_collection_interval = 0; })).toEqual([
      expect.stringContaining('/metrics/metrics_collected/diskio/metrics_collection_interval must be >= 1'),
    ]);
    expect(errorsOf((c) => { c.metrics.metrics_collected.mem.append_dimensions = { ClusterName: '' }; })).toEqual([
      expect.stringContaining('/metrics/metrics_collected/mem/append_dimensions/ClusterName must NOT have fewer than 1 characters'),
    ]);
    expect(errorsOf((c) => { c.metrics.namespace_name = 'x'; })).toEqual([expect.stringContaining('/metrics must NOT have additional properties')]);
    // Stricter than the agent, which ignores an unknown key under agent: here it fails.
    expect(errorsOf((c) => { c.agent.omit_hostnme = true; })).toEqual([expect.stringContaining('/agent must NOT have additional properties')]);
    expect(errorsOf((c) => { c.metrics.metrics_collected = {}; })).toEqual([
      expect.stringContaining('/metrics/metrics_collected must NOT have fewer than 1 properties'),
    ]);
  });
});

describe('compliance', () => {
  test.each<Kind>(['ebs3', 'instance-store', 'fsx'])('%s: cfn-lint and cdk-nag clean', (kind) => {
    expect(cfnLint(monitored(kind).template.toJSON())).toEqual([]);
    const findings = nagFindings((app) => { monitored(kind, {}, app); });
    // The stand-in VPC, instance and file system are this test's, not the construct's: only its own resources count.
    expect(findings.filter((f) => /\/Monitoring\//.test(f.resource))).toEqual([]);
  });
});
