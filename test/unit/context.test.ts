import { CONTEXT_DEFAULTS, ContextKey, parseContext } from '../../lib/context';

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
      clientTagKey: 'flight:cluster',
      loginIp: '10.0.1.10',
      keyPair: 'admin key',
      placementGroup: 'hpc-pg',
      snapshotRetain: '0',
      terminationProtection: 'false',
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
      clientTagKey: 'flight:cluster',
      loginIp: '10.0.1.10',
      keyPair: 'admin key',
      placementGroup: 'hpc-pg',
      snapshotRetain: 0,
      terminationProtection: false,
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
    ['clusterName', 'x'.repeat(65), /clusterName=.*1 to 64 characters/],
    ['serverName', 'a/b', /serverName="a\/b"/],
    ['vpcId', 'xyz', /vpcId="xyz".*VPC id such as 'vpc-0123456789abcdef0'/],
    ['clientCidrs', '10.0.0.0/99', /clientCidrs="10.0.0.0\/99".*prefix length is 0-32/],
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
    ['keyPair', 'ключ', /keyPair="ключ".*printable ASCII/],
    ['capacityTiB', { a: 1 }, /capacityTiB=.*string, number or boolean/],
  ])('%s=%j is refused with a message naming key, value and what is allowed', (key, value, message) => {
    expect(() => parseContext(read({ [key]: value }))).toThrow(message);
  });

  test('subnetId without vpcId is refused: a new VPC has no subnet ids yet', () => {
    expect(() => parseContext(read({ subnetId: 'subnet-01234567' }))).toThrow(/subnetId="subnet-01234567".*only together with vpcId/);
  });

  test('empty strings count as absent', () => {
    expect(parseContext(read({ clusterName: '  ', clientCidrs: '' })).clusterName).toBe('cluster');
  });
});

describe('restoreSnapshotIds', () => {
  test('a comma-separated snapshot set is parsed in order', () => {
    expect(parseContext(read({ restoreSnapshotIds: 'snap-01234567, snap-0123456789abcdef0' })).restoreSnapshotIds)
      .toEqual(['snap-01234567', 'snap-0123456789abcdef0']);
  });

  test('anything but snapshot ids is refused', () => {
    expect(() => parseContext(read({ restoreSnapshotIds: 'snap-01234567,vol-01234567' })))
      .toThrow(/restoreSnapshotIds="snap-01234567,vol-01234567".*snapshot ids .*bad: 'vol-01234567'/);
  });
});
