import { Template } from 'aws-cdk-lib/assertions';
import { ContextKey } from '../../lib/context';
import { planStorage } from '../../lib/sizing';
import { planSummary } from '../../lib/stack-outputs';
import { appStack } from '../support/stacks';
import { Backend } from '../../lib/backend-enum';
import { Generation } from '../../lib/sizing/enums';

/** The app's template for a context: its description and its outputs, description by id. */
function described(context: Partial<Record<ContextKey, string>>): { description: string; outputs: Record<string, string>; values: Record<string, unknown> } {
  const t = Template.fromStack(appStack(context)).toJSON() as { Description: string; Outputs: Record<string, { Description: string; Value: unknown }> };
  return {
    description: t.Description,
    outputs: Object.fromEntries(Object.entries(t.Outputs).map(([id, o]) => [id, o.Description])),
    values: Object.fromEntries(Object.entries(t.Outputs).map(([id, o]) => [id, o.Value])),
  };
}

/** Every backend's outputs but the address: the same ids, one description each. */
const SHARED = ['PlanSummary', 'MountCommand', 'RingParameterName', 'MountParameterName', 'SecurityGroupId', 'AlarmTopicArn',
  'BenchDocumentName', 'BenchEstimate', 'CopyDocumentName', 'DashboardName', 'ClientTag', 'ClientReadPolicyArn', 'ClientMountDocumentName',
  // The new VPC's exports, for the stacks that join it with vpcFrom: every backend's app stack makes its VPC here.
  'SharedVpcId', 'SharedVpcCidr', 'SharedSubnetId', 'SharedAvailabilityZone', 'SharedRouteTableId'];

describe('the app stack says what its backend deploys', () => {
  test.each([
    ['ebs', { capacityTiB: '5' }],
    ['instance-store', { capacityTiB: '20' }],
  ])('%s: an NFS server, its private IP, server wording, no FSx output', (_backend, context) => {
    const { description, outputs } = described({ ...context, clusterName: 'hpc1', serverName: 'home1' });
    expect(description).toBe('NFS server home1 of HPC cluster hpc1');
    expect(Object.keys(outputs).sort()).toEqual([...SHARED, 'PrivateIp'].sort());
    expect(outputs.PrivateIp).toMatch(/^Stable private IP of the NFS server/);
    expect(outputs.MountCommand).toBe('Mount the export on a client by hand');
    expect(outputs.BenchEstimate).toMatch(/the server's memory/);
    expect(outputs.DashboardName).toBe('CloudWatch dashboard of the server');
    expect(outputs.RingParameterName).toBe('SSM parameter with the ring record of the server');
    expect(outputs.AlarmTopicArn).toMatch(/^SNS topic the alarms of the server notify/);
  });

  test.each([
    ['backend=fsx-lustre', { backend: 'fsx-lustre', capacityTiB: '12' }],
    ['auto beyond one server', { capacityTiB: '100' }],
  ])('%s: an FSx for Lustre file system, its id and DNS name, file-system wording, nothing NFS-only', (_what, context) => {
    const { description, outputs } = described({ ...context, clusterName: 'hpc1', serverName: 'scratch1' });
    expect(description).toBe('FSx for Lustre file system scratch1 of HPC cluster hpc1');
    expect(Object.keys(outputs).sort()).toEqual([...SHARED, 'FileSystemDnsName', 'FileSystemId', 'QuotaDocumentName'].sort());
    expect(Object.values(outputs).join('\n')).not.toMatch(/\bNFS\b|server|memory|private IP/i);
    expect(outputs.MountCommand).toMatch(/^Mount the file system on a client by hand \(the Lustre client/);
    expect(outputs.BenchEstimate).toBe("The plan's sustained and burst throughput of the file system, read by npm run bench:cluster");
    expect(outputs.DashboardName).toBe('CloudWatch dashboard of the file system');
  });

  test.each([
    ['ebs', { capacityTiB: '5' }, 'AWS::EC2::Instance'],
    ['instance-store', { capacityTiB: '20' }, 'AWS::EC2::Instance'],
    ['fsx-lustre', { backend: 'fsx-lustre', capacityTiB: '12' }, 'AWS::FSx::FileSystem'],
    ['fsx-openzfs', { backend: 'fsx-openzfs', capacityTiB: '1' }, 'AWS::FSx::FileSystem'],
  ] as const)('%s: SecurityGroupId is the group the storage is in, for another app to import it by', (_backend, context, type) => {
    const template = Template.fromStack(appStack(context));
    const value = template.toJSON().Outputs.SecurityGroupId.Value as { 'Fn::GetAtt': [string, string] };
    expect(value).toEqual({ 'Fn::GetAtt': [expect.any(String), 'GroupId'] });
    const [groupId] = value['Fn::GetAtt'];
    expect(template.toJSON().Resources[groupId].Type).toBe('AWS::EC2::SecurityGroup');
    // The instance (by its network interface on EBS) or the file system is in that group.
    const holders = [type, 'AWS::EC2::NetworkInterface'].flatMap((t) => Object.values(template.findResources(t)));
    expect(JSON.stringify(holders.map((r) => r.Properties))).toContain(JSON.stringify(value));
  });

  test('clusterware outputs come with loginIp; the client-mount outputs go with clientMount=false', () => {
    expect(Object.keys(described({ loginIp: '10.0.1.10' }).outputs)).toEqual(expect.arrayContaining(['ClusterwareTokenSecretArn', 'ClusterwareUuid']));
    const second = described({ clientMount: 'false' }).outputs;
    expect(second.ClientReadPolicyArn).toBeUndefined();
    expect(second.ClientMountDocumentName).toBeUndefined();
  });
});

describe('PlanSummary: the planner\'s sustained and burst figures, not only the 1 TB one', () => {
  test('EBS on Nitro: sustained (st1 baseline), burst, and the 1 TB average, each from the plan', () => {
    const plan = planStorage({ capacityTiB: 10, generation: Generation.CURRENT });
    const t = plan.throughput;
    expect(t.baselineReadMBps).toBeLessThan(t.burstReadMBps);
    expect(described({ capacityTiB: '10', generation: 'current' }).values.PlanSummary).toBe(
      `ebs on m6i.4xlarge, 1 x st1 10240 GiB, 10.00 TiB raw; sustained ${Math.round(t.baselineReadMBps)} MB/s read / ` +
      `${Math.round(t.baselineWriteMBps)} MB/s write, burst up to ${Math.round(t.burstReadMBps)} MB/s read / ` +
      `${Math.round(t.burstWriteMBps)} MB/s write; ${Math.round(t.readMBps)} MB/s read / ${Math.round(t.writeMBps)} MB/s write ` +
      `averaged over a 1 TB transfer (limited by ${t.limitedBy}); ~$${plan.monthlyCostUsd.toFixed(0)}/month on demand`,
    );
  });

  test('an EBS stripe whose burst runs out within the 1 TB: three different figures', () => {
    const plan = planStorage({ capacityTiB: 5, generation: Generation.CURRENT });
    const t = plan.throughput;
    expect(new Set([t.baselineReadMBps, t.readMBps, t.burstReadMBps]).size).toBe(3);
    const summary = planSummary(plan);
    expect(summary).toContain(`sustained ${Math.round(t.baselineReadMBps)} MB/s read`);
    expect(summary).toContain(`burst up to ${Math.round(t.burstReadMBps)} MB/s read`);
    expect(summary).toContain(`${Math.round(t.readMBps)} MB/s read / ${Math.round(t.writeMBps)} MB/s write averaged over a 1 TB transfer`);
  });

  test('instance store: nothing bursts, so one figure, said once', () => {
    const summary = planSummary(planStorage({ capacityTiB: 20 }));
    expect(summary).toBe('instance-store on d2.4xlarge, 12 x instance-store HDD, 21.83 TiB raw; sustained and burst 625 MB/s read / ' +
      '625 MB/s write (limited by network baseline of d2.4xlarge (5 Gbps)); ~$2015/month on demand');
  });

  test('d3/d3en: the figures named a lower bound, in the summary and in the estimate npm run bench:cluster reads', () => {
    const { values } = described({ generation: 'current', capacityTiB: '20' });
    expect(values.PlanSummary).toMatch(/^instance-store on d3en\.xlarge, 2 x instance-store HDD, 25\.43 TiB raw; .*lower bound: per-disk throughput unpublished\)/);
    expect(JSON.parse(String(values.BenchEstimate))).toMatchObject({ sustainedWriteMBps: 258.33, sustainedReadMBps: 291.66, lowerBound: true });
    // Published limits, as on d2 and EBS: no such field, and the output stays as it is.
    expect(JSON.parse(String(described({ capacityTiB: '20' }).values.BenchEstimate))).not.toHaveProperty('lowerBound');
    expect(JSON.parse(String(described({ capacityTiB: '5' }).values.BenchEstimate))).not.toHaveProperty('lowerBound');
  });

  test('FSx for Lustre: the designed baseline and burst (its 1 TB figure is the baseline: burst credits are unpublished)', () => {
    const plan = planStorage({ capacityTiB: 12, backend: Backend.FSX_LUSTRE });
    expect(planSummary(plan)).toBe(
      'fsx-lustre PERSISTENT_2 SSD 125 MB/s/TiB, 14400 GiB; sustained 1758 MB/s read / 1758 MB/s write, burst up to ' +
      `7031 MB/s read / 7031 MB/s write (limited by ${plan.throughput.limitedBy}); ~$2088/month storage (backups extra)`,
    );
  });
});
