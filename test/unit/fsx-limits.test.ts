/**
 * What AWS's FSx for OpenZFS guide limits by Region and account: the rows OPENZFS-REGION-TIERS, OPENZFS-QUOTAS and
 * OPENZFS-MULTI-AZ-PEERING of docs/sources/fsx-rules.md. A plan is refused where no AWS text offers it. Synth warns
 * where AWS's texts disagree, where an account's default quota is exceeded, and where clients outside the VPC cannot
 * reach a Multi-AZ endpoint.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { FSX_OPENZFS_QUOTAS, FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY, FSX_OPENZFS_TOP_TIER_REGIONS } from '../../lib/backends/openzfs/sizing/catalog';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { FsxOpenZfsDeploymentType } from '../../lib/backends/openzfs/sizing/options';
import { Backend } from '../../lib/backend-enum';

/** A stack in `region`, environment-agnostic when undefined, with a two-zone VPC and the servers of `servers`. */
function stackWith(region: string | undefined, ...servers: Partial<StorageServerProps>[]): Stack {
  const stack = new Stack(new App(), 'Limits', region === undefined ? {} : { env: { account: '123456789012', region } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 2, natGateways: 1, ipAddresses: ec2.IpAddresses.cidr('10.0.0.0/16') });
  servers.forEach((props, i) => new StorageServer(stack, `S${i}`, {
    vpc, backend: Backend.FSX_OPENZFS, capacityTiB: 1, serverName: `s${i}`, mountPoint: `/data/s${i}`, ...props,
  }));
  return stack;
}
const warnings = (stack: Stack, id: string) =>
  Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp(id)).map((w) => String(w.entry.data));
const multiAz = (throughputCapacityMBps: number): Partial<StorageServerProps> =>
  ({ fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.MULTI_AZ_1, throughputCapacityMBps } });

describe('OPENZFS-REGION-TIERS: MULTI_AZ_1 at 7,680 and 10,240 MB/s', () => {
  test('the Region lists are Regions aws-cdk-lib knows, none in both', () => {
    const known = RegionInfo.regions.map((r) => r.name);
    for (const r of [...FSX_OPENZFS_TOP_TIER_REGIONS, ...FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY]) expect(known).toContain(r);
    expect(FSX_OPENZFS_TOP_TIER_REGIONS.filter((r) => FSX_OPENZFS_TOP_TIER_PERFORMANCE_ONLY.includes(r))).toEqual([]);
  });

  test('in a Region of both AWS texts: planned, no warning', () => {
    expect(warnings(stackWith('eu-west-1', multiAz(10240)), 'openZfsRegionalTier')).toEqual([]);
  });

  test('in a Region of the performance page only: planned, warned that AWS\'s texts disagree', () => {
    expect(warnings(stackWith('eu-north-1', multiAz(7680)), 'openZfsRegionalTier')).toEqual([
      expect.stringMatching(/^fsxOpenZfs\.throughputCapacityMBps: MULTI_AZ_1 at 7680 MB\/s in eu-north-1: AWS's performance page lists it there, its quotas page does not/),
    ]);
  });

  test('in a Region of neither: refused naming the prop, the Region and what works', () => {
    expect(() => stackWith('eu-west-2', multiAz(10240))).toThrow(
      /^fsxOpenZfs\.throughputCapacityMBps: MULTI_AZ_1 in eu-west-2 goes up to 5120 MB\/s; 10240 MB\/s exists only in .*SINGLE_AZ_2, whose tables go to 10240 MB\/s in every Region that offers it\.$/);
    // The tier chosen from throughputMBps is blamed on throughputMBps.
    expect(() => stackWith('eu-west-2', { throughputMBps: 6000, fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.MULTI_AZ_1 } }))
      .toThrow(/^throughputMBps: MULTI_AZ_1 in eu-west-2 goes up to 5120 MB\/s; 7680 MB\/s exists only in/);
    // 5,120 and below, and the other types' top tiers, are every Region's.
    expect(() => stackWith('eu-west-2', multiAz(5120), { fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.SINGLE_AZ_2, throughputCapacityMBps: 10240 } })).not.toThrow();
  });

  test('the Region unknown at synth (an environment-agnostic stack): warned', () => {
    expect(warnings(stackWith(undefined, multiAz(10240)), 'openZfsRegionalTier')).toEqual([
      expect.stringMatching(/the stack's Region is not known at synth: give the stack an env, or plan 5120 MB\/s or less/),
    ]);
  });
});

describe('OPENZFS-QUOTAS: the stack\'s file systems together against the account\'s default quotas', () => {
  test('SSD storage above 65,536 GiB: warned in eu-west-2, not in us-east-1 (262,144 GiB there)', () => {
    const big = { capacityTiB: 70 };
    expect(warnings(stackWith('eu-west-2', big), 'openZfsQuota')).toEqual([
      expect.stringMatching(/^the stack's FSx for OpenZFS file systems need 71680 GiB together, above the account's default quota 'OpenZFS SSD storage capacity' of 65536 GiB in eu-west-2 .*Service Quotas/),
    ]);
    expect(warnings(stackWith('us-east-1', big), 'openZfsQuota')).toEqual([]);
    expect(FSX_OPENZFS_QUOTAS.ssdStorageGiBLarge).toBe(262_144);
  });

  test('throughput capacity summed over servers: two at 5,120 MB/s are at the quota, a third 160 over it, warned once', () => {
    const at = (t: number): Partial<StorageServerProps> => ({ fsxOpenZfs: { deploymentType: FsxOpenZfsDeploymentType.SINGLE_AZ_2, throughputCapacityMBps: t } });
    expect(warnings(stackWith('us-east-1', at(5120), at(5120)), 'openZfsQuota')).toEqual([]);
    expect(warnings(stackWith('us-east-1', at(5120), at(5120), at(160), at(160)), 'openZfsQuota')).toEqual([
      expect.stringMatching(/need 10400 MB\/s together, above the account's default quota 'OpenZFS throughput capacity' of 10240 MB\/s/),
    ]);
  });
});

describe('OPENZFS-MULTI-AZ-PEERING: clients outside the VPC', () => {
  test('MULTI_AZ_1 with a client CIDR outside the VPC: warned to use a Transit Gateway; inside, or Single-AZ: not', () => {
    const outside = warnings(stackWith('us-east-1', { ...multiAz(160), clientCidrs: ['10.0.0.0/17', '10.9.0.0/16'] }), 'openZfsMultiAzOutsideVpc');
    expect(outside).toEqual([expect.stringMatching(/^clientCidrs 10\.9\.0\.0\/16 is outside the VPC \(10\.0\.0\.0\/16\): .*Transit Gateway only/)]);
    expect(warnings(stackWith('us-east-1', { ...multiAz(160), clientCidrs: ['10.0.0.0/17'] }), 'openZfsMultiAzOutsideVpc')).toEqual([]);
    expect(warnings(stackWith('us-east-1', { clientCidrs: ['10.9.0.0/16'] }), 'openZfsMultiAzOutsideVpc')).toEqual([]);
  });
});
