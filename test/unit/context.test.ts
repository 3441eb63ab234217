import { CONTEXT_DEFAULTS, ContextKey, parseContext, stackName } from '../../lib/context';

const read = (values: Partial<Record<ContextKey, unknown>>) => (key: ContextKey) => values[key];

describe('parseContext', () => {
  test('no context gives the documented defaults', () => {
    // WHEN
    const ctx = parseContext(read({}));
    // THEN
    expect(ctx).toEqual({
      capacityTiB: 5,
      backend: 'auto',
      clusterName: 'cluster',
      serverName: 'storage1',
      clientTagKey: 'cluster',
      snapshotRetain: 7,
      acceptDataLoss: false,
      acceptFewerSnapshots: false,
      deleteDataOnDestroy: false,
      legacyVolumeAttachments: false,
      allowPublicClientCidrs: false,
      allowHomeMountPoint: false,
      clientMount: true,
      generation: 'previous',
      stackName: 'StorageServer-cluster-storage1',
      nconnect: 16,
      clientReadAheadKiB: 15360,
    });
    expect(CONTEXT_DEFAULTS.capacityTiB).toBe(5);
  });

  test('every key is parsed from its -c string form', () => {
    const ctx = parseContext(read({
      capacityTiB: '21.5',
      backend: 'instance-store',
      clusterName: 'hpc_1.prod-a',
      serverName: 'nfs2',
      vpcId: 'vpc-0123456789abcdef0',
      subnetId: 'subnet-01234567',
      clientCidrs: '10.0.0.0/16, 192.168.1.0/24',
      clientSecurityGroupId: 'sg-0123456789abcdef0',
      allowPublicClientCidrs: 'false',
      clientTagKey: 'flight:cluster',
      loginIp: '10.0.1.10',
      keyPair: 'admin key',
      placementGroup: 'hpc-pg',
      snapshotRetain: '0',
      terminationProtection: 'false',
      machineImageId: 'ami-0123456789abcdef0',
      acceptDataLoss: 'true',
      acceptFewerSnapshots: 'true',
      deleteDataOnDestroy: 'true',
      legacyVolumeAttachments: 'true',
      dataVolumeCount: '2',
      throughputMBps: '400',
      mountPoint: '/home/shared',
      allowHomeMountPoint: 'true',
      clientMount: 'false',
      generation: 'current',
      stackName: 'StorageServer-hpc-1-prod-a-nfs2',
      nconnect: '4',
      clientReadAheadKiB: '0',
    }));
    expect(ctx).toEqual({
      capacityTiB: 21.5,
      backend: 'instance-store',
      clusterName: 'hpc_1.prod-a',
      serverName: 'nfs2',
      vpcId: 'vpc-0123456789abcdef0',
      subnetId: 'subnet-01234567',
      clientCidrs: ['10.0.0.0/16', '192.168.1.0/24'],
      clientSecurityGroupId: 'sg-0123456789abcdef0',
      allowPublicClientCidrs: false,
      clientTagKey: 'flight:cluster',
      loginIp: '10.0.1.10',
      keyPair: 'admin key',
      placementGroup: 'hpc-pg',
      snapshotRetain: 0,
      terminationProtection: false,
      machineImageId: 'ami-0123456789abcdef0',
      acceptDataLoss: true,
      acceptFewerSnapshots: true,
      deleteDataOnDestroy: true,
      legacyVolumeAttachments: true,
      dataVolumeCount: 2,
      throughputMBps: 400,
      mountPoint: '/home/shared',
      allowHomeMountPoint: true,
      clientMount: false,
      generation: 'current',
      stackName: 'StorageServer-hpc-1-prod-a-nfs2',
      nconnect: 4,
      clientReadAheadKiB: 0,
    });
  });

  test('the FSx for Lustre keys are parsed with backend=fsx-lustre', () => {
    const ctx = parseContext(read({
      backend: 'fsx-lustre',
      capacityTiB: '100',
      fsxDeploymentType: 'PERSISTENT_1',
      fsxStorageType: 'HDD',
      fsxPerUnitStorageThroughput: '40',
      fsxDataRepositoryPath: 's3://hpc-data/inputs',
    }));
    expect(ctx).toMatchObject({
      backend: 'fsx-lustre',
      fsxDeploymentType: 'PERSISTENT_1',
      fsxStorageType: 'HDD',
      fsxPerUnitStorageThroughput: 40,
      fsxDataRepositoryPath: 's3://hpc-data/inputs',
    });
  });

  test('JSON values from cdk.json are accepted like strings', () => {
    const ctx = parseContext(read({ capacityTiB: 10, snapshotRetain: 14, terminationProtection: true }));
    expect(ctx.capacityTiB).toBe(10);
    expect(ctx.snapshotRetain).toBe(14);
    expect(ctx.terminationProtection).toBe(true);
  });

  test.each<[ContextKey, unknown, RegExp]>([
    ['capacityTiB', '-1', /capacityTiB="-1".*positive number of TiB/],
    ['capacityTiB', 'abc', /capacityTiB="abc".*positive number of TiB/],
    ['capacityTiB', '0', /capacityTiB="0".*positive number/],
    ['capacityTiB', 'Infinity', /capacityTiB="Infinity"/],
    ['capacityTiB', '0x10', /capacityTiB="0x10"/],
    ['backend', 'foo', /backend="foo".*'auto', 'ebs', 'instance-store'/],
    ['clusterName', 'bad name', /clusterName="bad name".*A-Z a-z 0-9 _ \. -/],
    ['clusterName', 'x'.repeat(65), /clusterName=.*1-64 characters/],
    ['serverName', 'a/b', /serverName="a\/b"/],
    ['vpcId', 'xyz', /vpcId="xyz".*VPC id such as 'vpc-0123456789abcdef0'/],
    ['clientCidrs', '10.0.0.0/99', /clientCidrs="10.0.0.0\/99".*prefix length must be 1-32/],
    ['clientCidrs', '10.0.0.300/16', /clientCidrs=.*0-255/],
    ['clientCidrs', '10.0.0.0/16,', /clientCidrs=.*bad: ''/],
    ['clientCidrs', '0.0.0.0/0', /clientCidrs="0.0.0.0\/0".*refused/],
    ['clientSecurityGroupId', 'group1', /clientSecurityGroupId="group1".*sg-/],
    ['clientTagKey', 'aws:cluster', /clientTagKey="aws:cluster".*not starting with 'aws:'/],
    ['loginIp', '10.0.0', /loginIp="10.0.0".*IPv4 address/],
    ['loginIp', '10.0.0.256', /loginIp="10.0.0.256"/],
    ['snapshotRetain', '-1', /snapshotRetain="-1".*0 \(snapshots off\) to 1000/],
    ['snapshotRetain', '2.5', /snapshotRetain="2.5"/],
    ['snapshotRetain', '1001', /snapshotRetain="1001"/],
    ['terminationProtection', 'yes', /terminationProtection="yes".*'true' or 'false'/],
    ['keyPair', 'ключ', /keyPair="\\u\{43a\}\\u\{43b\}\\u\{44e\}\\u\{447\}".*printable ASCII/],
    ['capacityTiB', { a: 1 }, /capacityTiB=.*string, number or boolean/],
    ['machineImageId', 'ami-XYZ', /machineImageId="ami-XYZ".*image id such as 'ami-0123456789abcdef0'/],
    ['machineImageId', 'latest', /machineImageId="latest"/],
    ['acceptDataLoss', 'yes', /acceptDataLoss="yes".*'true' or 'false'/],
    ['deleteDataOnDestroy', 'no way', /deleteDataOnDestroy="no way".*'true' or 'false'/],
    ['acceptFewerSnapshots', '1', /acceptFewerSnapshots="1".*'true' or 'false'/],
    ['throughputMBps', '0', /throughputMBps="0": allowed is a positive number of MB\/s/],
    ['throughputMBps', 'fast', /throughputMBps="fast": allowed is a positive number of MB\/s/],
    ['throughputMBps', '1e3', /throughputMBps="1e3"/],
    ['dataVolumeCount', '0', /dataVolumeCount="0".*from 1 to 21/],
    ['dataVolumeCount', '22', /dataVolumeCount="22".*from 1 to 21/],
    ['dataVolumeCount', '1.5', /dataVolumeCount="1.5"/],
  ])('%s=%j is refused with a message naming key, value and what is allowed', (key, value, message) => {
    expect(() => parseContext(read({ [key]: value }))).toThrow(message);
  });

  test('subnetId without vpcId is refused: a new VPC has no subnet ids yet', () => {
    expect(() => parseContext(read({ subnetId: 'subnet-01234567' }))).toThrow(/subnetId="subnet-01234567".*only together with vpcId/);
  });

  test('a blank value is refused, naming the key: -c vpcId=$VPC with VPC unset must not make a new VPC', () => {
    for (const [key, value] of [['vpcId', ''], ['clusterName', '  '], ['clientCidrs', '']] as const) {
      expect(() => parseContext(read({ [key]: value }))).toThrow(
        `Invalid context value ${key}="${value}": allowed is a value: a blank one is refused; leave the key out for its default.`,
      );
    }
  });
});

describe('mountPoint', () => {
  test('a restored server\'s own mount point is taken; /home only with allowHomeMountPoint', () => {
    expect(parseContext(read({ mountPoint: '/restore/home2' })).mountPoint).toBe('/restore/home2');
    expect(() => parseContext(read({ mountPoint: '/home' }))).toThrow(/mountPoint="\/home".*outside the system directories/);
    expect(parseContext(read({ mountPoint: '/home', allowHomeMountPoint: 'true' })).mountPoint).toBe('/home');
    expect(() => parseContext(read({ mountPoint: '/etc/cron.d' }))).toThrow(/mountPoint="\/etc\/cron.d"/);
    expect(() => parseContext(read({ mountPoint: 'data' }))).toThrow(/mountPoint="data"/);
  });
});

describe('stack names', () => {
  // The mapping's rules and its injectivity: test/unit/stack-name.test.ts.
  test('names with _ and . keep the stack name a deployed stack has only by stackName', () => {
    expect(() => parseContext(read({ clusterName: 'hpc_1.a', serverName: 'home_1' }))).toThrow(
      /clusterName="hpc_1.a": .*would be StorageServer-hpc-1-a-home-1.*-c stackName=StorageServer-hpc-1-a-home-1/);
    const ctx = parseContext(read({ clusterName: 'hpc_1.a', serverName: 'home_1', stackName: 'StorageServer-hpc-1-a-home-1' }));
    expect(ctx.stackName).toBe(stackName(ctx.clusterName, ctx.serverName));
  });

  test('names whose stack name would pass 128 characters are refused, naming the key', () => {
    expect(() => parseContext(read({ clusterName: 'c'.repeat(64), serverName: 's'.repeat(50) }))).toThrow(
      /serverName="s{50}": allowed is names that keep the stack name .* within CloudFormation's 128 characters: clusterName and serverName together at most 113 characters \(got 64 \+ 50\)/,
    );
    expect(() => parseContext(read({ clusterName: 'c'.repeat(64) + '', serverName: undefined, ...{} }))).not.toThrow();
  });
});

describe('restoreSnapshotIds', () => {
  test('a comma-separated snapshot set is parsed in order', () => {
    expect(parseContext(read({ backend: 'ebs', capacityTiB: '30', restoreSnapshotIds: 'snap-01234567, snap-0123456789abcdef0' })).restoreSnapshotIds)
      .toEqual(['snap-01234567', 'snap-0123456789abcdef0']);
  });

  test('anything but snapshot ids is refused', () => {
    expect(() => parseContext(read({ restoreSnapshotIds: 'snap-01234567,vol-01234567' })))
      .toThrow(/restoreSnapshotIds="snap-01234567,vol-01234567".*snapshot ids .*bad: 'vol-01234567'/);
  });
});
