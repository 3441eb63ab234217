import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Ec2NfsServer } from '../../lib/backends/ec2-nfs-server';
import { MonitoredEc2Server } from '../../lib/backends/ec2/monitoring';
import { StorageMonitoring } from '../../lib/monitoring';
import { planSummary } from '../../lib/stack-outputs';
import { planStorage, type DataVolumePlan, type StoragePlan } from '../../lib/sizing';
import { Backend } from '../../lib/backend-enum';
import { DataVolumeType, Generation } from '../../lib/sizing/enums';

/**
 * The planner's 2 TiB st1 plan on the current generation, its volumes replaced by the ones given: a hand-built gp3
 * plan.
 */
function planWith(dataVolumes: DataVolumePlan[]): StoragePlan {
  const st1 = planStorage({ capacityTiB: 2, backend: Backend.EBS, generation: Generation.CURRENT });
  return { ...st1, dataVolumes };
}

/**
 * An Ec2NfsServer, the EBS backend as the facade builds it, of the given plan in a stack of its own, and its
 * monitoring.
 */
function backend(plan: StoragePlan, encryptionKey?: (stack: Stack) => kms.IKey): { template: Template; server: Ec2NfsServer } {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  const server = new Ec2NfsServer(stack, 'Default', {
    server: { vpc, kmsKey: encryptionKey?.(stack) },
    selectedSubnets: [],
    plan,
    capacityTiB: 2,
    clusterName: 'hpc1',
    serverName: 'storage1',
    exportPath: '/export/data',
    mountOptions: 'nfsvers=4.1',
    subnet: vpc.privateSubnets[0],
  });
  new StorageMonitoring(stack, 'Monitoring', { identity: { clusterName: 'hpc1', serverName: 'storage1' }, storage: server.monitored });
  return { template: Template.fromStack(stack), server };
}

const GP3: DataVolumePlan[] = [
  { volumeType: DataVolumeType.GP3, sizeGiB: 1024, iops: 8000, throughputMiBps: 2000 },
  { volumeType: DataVolumeType.GP3, sizeGiB: 1024, iops: 4000, throughputMiBps: 500 },
];
const ST1: DataVolumePlan[] = [{ volumeType: DataVolumeType.ST1, sizeGiB: 1024 }, { volumeType: DataVolumeType.ST1, sizeGiB: 1024 }];

const volumesOf = (t: Template): { Properties: Record<string, unknown>; DeletionPolicy: string; UpdateReplacePolicy: string }[] =>
  Object.values(t.findResources('AWS::EC2::Volume')) as never;

describe('gp3 data volumes (hand-built plans through the EBS backend)', () => {
  test('each gp3 volume has its type, IOPS and throughput; encrypted, tagged and retained as st1 volumes are', () => {
    const gp3 = volumesOf(backend(planWith(GP3)).template);
    const st1 = volumesOf(backend(planWith(ST1)).template);
    expect(gp3.map((v) => [v.Properties.VolumeType, v.Properties.Size, v.Properties.Iops, v.Properties.Throughput]))
      .toEqual([['gp3', 1024, 8000, 2000], ['gp3', 1024, 4000, 500]]);
    // Everything else is what an st1 volume has: encryption, tags, zone, retain policy.
    const rest = (v: (typeof gp3)[number]): unknown => {
      const others = Object.fromEntries(Object.entries(v.Properties).filter(([k]) => !['VolumeType', 'Iops', 'Throughput'].includes(k)));
      return { ...others, DeletionPolicy: v.DeletionPolicy, UpdateReplacePolicy: v.UpdateReplacePolicy };
    };
    expect(gp3.map(rest)).toEqual(st1.map(rest));
    expect(gp3[0].Properties).toMatchObject({ Encrypted: true });
    expect(gp3[0]).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
  });

  test('st1 volumes stay as they were: type only, no IOPS or throughput', () => {
    for (const v of volumesOf(backend(planWith(ST1)).template)) {
      expect(v.Properties).toMatchObject({ VolumeType: 'st1', Encrypted: true });
      expect(v.Properties).not.toHaveProperty('Iops');
      expect(v.Properties).not.toHaveProperty('Throughput');
    }
  });

  test('a gp3 volume without figures gets gp3\'s included 3,000 IOPS and 125 MiB/s, written out', () => {
    const [v] = volumesOf(backend(planWith([{ volumeType: DataVolumeType.GP3, sizeGiB: 500 }])).template);
    expect(v.Properties).toMatchObject({ VolumeType: 'gp3', Iops: 3000, Throughput: 125 });
  });

  test('a customer managed key encrypts gp3 volumes as it does st1 ones', () => {
    const t = backend(planWith(GP3), (s) => new kms.Key(s, 'Key', { enableKeyRotation: true })).template;
    for (const v of volumesOf(t)) expect(v.Properties).toMatchObject({ Encrypted: true, KmsKeyId: { 'Fn::GetAtt': [expect.stringMatching(/^Key/), 'Arn'] } });
  });

  test.each([
    [[{ volumeType: 'st1', sizeGiB: 1024, iops: 3000 }], /plan.dataVolumes\[0\]: iops and throughputMiBps apply to gp3 volumes only/],
    [[{ volumeType: 'io2', sizeGiB: 1024 }], /plan.dataVolumes\[0\].volumeType must be 'st1' or 'gp3', got "io2"/],
  ])('a plan volume the backend cannot build is refused, naming it: %j', (volumes, message) => {
    expect(() => backend(planWith(volumes as DataVolumePlan[]))).toThrow(message);
  });

  test('the update guard records each volume\'s type, IOPS and throughput (st1 entries as before)', () => {
    const guard = (volumes: DataVolumePlan[]): unknown =>
      Object.values(backend(planWith(volumes)).template.findResources('Custom::StorageServerUpdateGuard'))[0];
    expect(guard(GP3)).toMatchObject({ Properties: { DataVolumes: ['0:1024:gp3:8000:2000', '1:1024:gp3:4000:500'] } });
    expect(guard(ST1)).toMatchObject({ Properties: { DataVolumes: ['0:1024', '1:1024'] } });
  });

  test('the plan summary output names gp3 volumes with their IOPS and throughput; st1 as before', () => {
    expect(planSummary(planWith(GP3))).toContain('2 x gp3 1024 GiB 8000 IOPS 2000 MiB/s + 1024 GiB 4000 IOPS 500 MiB/s');
    expect(planSummary(planWith(ST1))).toContain('2 x st1 1024 GiB + 1024 GiB');
  });
});

describe('monitoring of gp3 volumes', () => {
  const alarmsOf = (t: Template): string[] => Object.values(t.findResources('AWS::CloudWatch::Alarm'))
    .map((a) => JSON.stringify(a.Properties));
  const dashboardOf = (t: Template): string => JSON.stringify(Object.values(t.findResources('AWS::CloudWatch::Dashboard'))[0].Properties.DashboardBody);

  test('no burst-balance alarm for gp3 volumes (gp3 has no burst bucket); one per st1 volume', () => {
    expect(alarmsOf(backend(planWith(GP3)).template).filter((a) => a.includes('BurstBalance'))).toEqual([]);
    expect(alarmsOf(backend(planWith(ST1)).template).filter((a) => a.includes('BurstBalance'))).toHaveLength(2);
  });

  test('a mixed stripe: the burst alarm and widget watch the st1 volume only, numbered by its place in the stripe', () => {
    const t = backend(planWith([GP3[0], ST1[1]])).template;
    const burst = alarmsOf(t).filter((a) => a.includes('BurstBalance'));
    expect(burst).toHaveLength(1);
    expect(burst[0]).toContain('data volume 1 has less than 20%');
    expect(dashboardOf(t)).toMatch(/st1 burst balance % per volume/);
  });

  test('the dashboard shows each gp3 volume\'s throughput, MiB/s, against what is provisioned; no burst widget', () => {
    const body = dashboardOf(backend(planWith(GP3)).template);
    expect(body).toContain('gp3 throughput MiB/s per volume (lines: provisioned)');
    expect(body).toContain('volume 0 (2000 MiB/s provisioned)');
    expect(body).toContain('volume 1 (500 MiB/s provisioned)');
    expect(body).toContain('(r0 + w0) / 300 / 1048576');
    expect(body).toContain('(r1 + w1) / 300 / 1048576');
    expect(body).toMatch(/\\"value\\":2000/);
    expect(body).toMatch(/\\"value\\":500/);
    expect(body).not.toContain('burst balance');
  });

  test('dataVolumePlans must match dataVolumes one to one', () => {
    const { server } = backend(planWith(GP3));
    expect(() => new MonitoredEc2Server({ instance: server.instance, dataVolumes: server.dataVolumes, dataVolumePlans: [GP3[0]] }))
      .toThrow('monitoring: dataVolumePlans must give one entry per data volume (2), got 1');
  });

  test('an st1 dashboard has no gp3 widget', () => {
    expect(dashboardOf(backend(planWith(ST1)).template)).not.toContain('gp3 throughput');
  });
});
