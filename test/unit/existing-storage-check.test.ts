/**
 * The registration's checks of existing storage (lambda/register/existing/): the properties' grammar, whether a
 * security group's rules admit the clients on each kind's ports (LUSTRE-INGRESS, OPENZFS-EXISTING-ACCESS,
 * EFS-MOUNT-TARGET-ACCESS), and the judgement of an FSx file system (FSX-LIFECYCLE) from FSx's recorded answers in
 * test/support/existing-fsx (moto's FSx has no VPC or interfaces). EFS and NFS run against moto in
 * test/integration/register-existing.test.ts. The records that pass go through the client's own checker.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FileSystem, Volume } from '@aws-sdk/client-fsx';
import { mountRecord, parseRegistrationProperties } from '../../lambda/register/contract';
import { clientPorts, portsText, shortfallMessage, shortfalls, withPrefixListEntries, type GroupRule } from '../../lambda/register/existing/access';
import { checkExisting, efsDnsName, type Describers } from '../../lambda/register/existing/check';
import type { ExistingFileSystem } from '../../lambda/register/existing/target';
import { askClientChecker } from '../support/client-record-check';

const FIXTURES = path.join(__dirname, '..', 'support', 'existing-fsx');
const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as T;
const LUSTRE = read<{ FileSystems: FileSystem[] }>('lustre.json').FileSystems[0];
const OPENZFS = read<{ FileSystems: FileSystem[] }>('openzfs.json').FileSystems[0];
const INTERFACES = read<{ NetworkInterfaces: { NetworkInterfaceId: string; Groups: { GroupId: string }[] }[] }>('interfaces.json').NetworkInterfaces;
const VOLUMES = read<{ Volumes: Volume[] }>('volumes.json').Volumes;
const RULES = read<{ SecurityGroupRules: (GroupRule & { GroupId: string })[] }>('rules.json').SecurityGroupRules;
const VPC = 'vpc-0123456789abcdef0';
/** The cluster VPC's subnets, one per zone, as DescribeSubnets gives them (Subnet: SubnetId, CidrBlock, AvailabilityZone). */
const SUBNETS = [
  { SubnetId: 'subnet-1', CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a', VpcId: VPC },
  { SubnetId: 'subnet-2', CidrBlock: '10.0.2.0/24', AvailabilityZone: 'us-east-1b', VpcId: VPC },
];
const CLIENT_GROUP = 'sg-0ccccccccccccccc0';

/** FSx's and EC2's recorded answers, with `fileSystem` in place of the recorded one and `rules` of the groups. */
function recorded(fileSystem: FileSystem | undefined, rules: readonly GroupRule[] = RULES, volumes: readonly Volume[] = VOLUMES): Describers {
  const none = () => Promise.reject(new Error('an FSx check must not call EFS'));
  return {
    describeFsx: async (id) => (fileSystem?.FileSystemId === id ? fileSystem : undefined),
    fsxVolumes: async (id) => volumes.filter((v) => v.FileSystemId === id),
    vpcSubnets: async () => SUBNETS,
    describeEfs: none,
    efsMountTargets: none,
    mountTargetGroups: none,
    interfaceGroups: async (ids) => new Map(INTERFACES.filter((n) => ids.includes(n.NetworkInterfaceId)).map((n) => [n.NetworkInterfaceId, n.Groups.map((g) => g.GroupId)])),
    groupRules: async (groups) => rules.filter((r) => groups.includes(r.GroupId ?? '')),
  };
}

const lustreTarget = (clients: Partial<ExistingFileSystem['clients']> = {}): ExistingFileSystem => ({
  kind: 'fsx-lustre', fileSystemId: LUSTRE.FileSystemId!, vpcId: VPC, clients: { cidrs: ['10.0.0.0/16'], groupIds: [], ...clients },
});
const openZfsTarget = (clients: Partial<ExistingFileSystem['clients']> = {}): ExistingFileSystem => ({
  kind: 'fsx-openzfs', fileSystemId: OPENZFS.FileSystemId!, vpcId: VPC, clients: { cidrs: ['10.0.0.0/16'], groupIds: [], ...clients },
});

describe('the properties of existing storage, as the handler parses them', () => {
  const base = { ClusterName: 'hpc1', ServerName: 'archive', ParameterPrefix: '/storage-server', ExportPath: '/', MountPoint: '/shared/archive', MountOptions: 'nfsvers=4.1,hard' };
  const efs = { ...base, Backend: 'efs', ExistingFileSystemId: 'fs-0123456789abcdef0', VpcId: VPC, ClientCidrs: '10.0.0.0/16', ClientSecurityGroupIds: '' };

  test('an EFS file system and an NFS server parse to their targets', () => {
    expect(parseRegistrationProperties(efs).existing).toEqual({ kind: 'efs', fileSystemId: 'fs-0123456789abcdef0', vpcId: VPC, clients: { cidrs: ['10.0.0.0/16'], groupIds: [] } });
    expect(parseRegistrationProperties({ ...base, Backend: 'nfs', ExportPath: '/export/home', ExistingAddress: '10.0.5.20' }).existing).toEqual({ kind: 'nfs', address: '10.0.5.20' });
  });

  test.each([
    ['a file system id', { ExistingFileSystemId: 'fs-123' }, /ExistingFileSystemId must be a file system id .*got "fs-123"/],
    ['a VPC id', { VpcId: 'vpc-XYZ' }, /VpcId must be a VPC id/],
    ['a client CIDR', { ClientCidrs: '10.0.0.0/16,10.1.0.1/16' }, /ClientCidrs must be IPv4 CIDRs, comma-separated: "10.1.0.1\/16"/],
    ['a public client CIDR', { ClientCidrs: '8.8.8.0/24' }, /ClientCidrs must be IPv4 CIDRs.*"8.8.8.0\/24"/],
    ['a client group', { ClientSecurityGroupIds: 'sg-1,sg-0123456789abcdef0' }, /ClientSecurityGroupIds must be security group ids.*got "sg-1"/],
    ['no client at all', { ClientCidrs: '', ClientSecurityGroupIds: '' }, /ClientCidrs and .*ClientSecurityGroupIds are both empty: name the clients/],
    ['a deployed backend', { Backend: 'ebs' }, /Backend of existing storage must be one of fsx-lustre, fsx-openzfs, efs, nfs, got "ebs"/],
    ['an instance beside it', { InstanceId: 'i-0123456789abcdef0' }, /InstanceId cannot be given beside ExistingFileSystemId or ExistingAddress/],
    ['an address beside a file system', { ExistingAddress: '10.0.0.5' }, /ExistingAddress cannot be given for existing storage of kind efs/],
  ])('refuses %s, naming the key', (_what, change, message) => {
    expect(() => parseRegistrationProperties({ ...efs, ...change })).toThrow(message);
  });

  test.each([
    ['loopback', '127.0.0.1'], ['the instance metadata service', '169.254.169.254'], ['a public address', '8.8.8.8'], ['a non-canonical address', '10.0.05.20'],
  ])('refuses an NFS address of %s', (_what, address) => {
    expect(() => parseRegistrationProperties({ ...base, Backend: 'nfs', ExistingAddress: address })).toThrow(/ExistingAddress must be the NFS server's private IPv4 address/);
  });

  test('refuses a VPC or clients beside an NFS address, which nothing describes', () => {
    expect(() => parseRegistrationProperties({ ...base, Backend: 'nfs', ExistingAddress: '10.0.5.20', VpcId: VPC })).toThrow(/VpcId cannot be given for existing storage of kind nfs/);
  });
});

describe('whether the rules of a group admit the clients', () => {
  const rule = (r: Partial<GroupRule>): GroupRule => ({ IsEgress: false, IpProtocol: 'tcp', FromPort: 2049, ToPort: 2049, CidrIpv4: '10.0.0.0/16', ...r });
  const clients = { cidrs: ['10.0.1.0/24'], groupIds: [] };

  test.each([
    ['a rule of a wider CIDR', [rule({})], []],
    ['all traffic', [rule({ IpProtocol: '-1', FromPort: -1, ToPort: -1 })], []],
    ['protocol number 6 (TCP)', [rule({ IpProtocol: '6' })], []],
    ['a narrower CIDR', [rule({ CidrIpv4: '10.0.1.0/25' })], ['10.0.1.0/24 on TCP 2049']],
    ['UDP only', [rule({ IpProtocol: 'udp' })], ['10.0.1.0/24 on TCP 2049']],
    ['an egress rule', [rule({ IsEgress: true })], ['10.0.1.0/24 on TCP 2049']],
    ['another port', [rule({ FromPort: 111, ToPort: 111 })], ['10.0.1.0/24 on TCP 2049']],
  ])('efs with %s', (_what, rules, missing) => {
    expect(shortfalls('efs', rules, clients).map((s) => `${s.client} on ${portsText(s.missing)}`)).toEqual(missing);
  });

  /** A group's default egress rule: all traffic to 0.0.0.0/0. */
  const allOut = rule({ IsEgress: true, IpProtocol: '-1', FromPort: -1, ToPort: -1, CidrIpv4: '0.0.0.0/0' });

  test("Lustre's ports may come from several rules, and the ones missing are named as ranges", () => {
    const split = [rule({ FromPort: 988, ToPort: 988 }), rule({ FromPort: 1018, ToPort: 1020 }), rule({ FromPort: 1021, ToPort: 1023 }), allOut];
    expect(shortfalls('fsx-lustre', split, clients)).toEqual([]);
    const short = [rule({ FromPort: 988, ToPort: 988 }), rule({ FromPort: 1018, ToPort: 1019 }), rule({ FromPort: 1023, ToPort: 1023 }), allOut];
    expect(shortfalls('fsx-lustre', short, clients).map((s) => portsText(s.missing))).toEqual(['TCP 1020-1022']);
  });

  test('LUSTRE-EGRESS: a Lustre group must also let the file servers send to the clients on its ports; NFS needs no egress', () => {
    const inbound = [rule({ FromPort: 988, ToPort: 988 }), rule({ FromPort: 1018, ToPort: 1023 })];
    const said = (rules: GroupRule[], kind: 'fsx-lustre' | 'fsx-openzfs' | 'efs' = 'fsx-lustre') =>
      shortfalls(kind, rules, clients).map((s) => `${s.egress ? 'out' : 'in'} ${s.client} ${portsText(s.missing)}`);
    expect(said(inbound)).toEqual(['out 10.0.1.0/24 TCP 988 and 1018-1023']);
    // Outbound only to another network, or on one port, is not enough; an ingress rule never counts as egress.
    expect(said([...inbound, rule({ IsEgress: true, IpProtocol: '-1', FromPort: -1, ToPort: -1, CidrIpv4: '192.168.0.0/16' })])).toEqual(['out 10.0.1.0/24 TCP 988 and 1018-1023']);
    expect(said([...inbound, rule({ IsEgress: true, FromPort: 988, ToPort: 988 })])).toEqual(['out 10.0.1.0/24 TCP 1018-1023']);
    expect(said([...inbound, rule({ IsEgress: true, FromPort: 988, ToPort: 1023, CidrIpv4: '10.0.0.0/8' })])).toEqual([]);
    expect(said([...inbound, allOut])).toEqual([]);
    for (const kind of ['fsx-openzfs', 'efs'] as const) expect(said([rule({})], kind)).toEqual([]);
  });

  test('a client group is admitted by a rule that references it, or by one of 0.0.0.0/0, not by another CIDR', () => {
    expect(shortfalls('efs', [rule({})], { cidrs: [], groupIds: [CLIENT_GROUP] })).toHaveLength(1);
    expect(shortfalls('efs', [rule({ CidrIpv4: undefined, ReferencedGroupInfo: { GroupId: CLIENT_GROUP } })], { cidrs: [], groupIds: [CLIENT_GROUP] })).toEqual([]);
    expect(shortfalls('efs', [rule({ CidrIpv4: '0.0.0.0/0' })], { cidrs: [], groupIds: [CLIENT_GROUP] })).toEqual([]);
  });

  test('a rule naming a prefix list admits the clients its IPv4 entries hold; a list that cannot be read is named', async () => {
    const lists: Record<string, readonly string[] | undefined> = { 'pl-0aaaaaaaaaaaaaaaa': ['10.0.0.0/16', '2001:db8::/32'], 'pl-0bbbbbbbbbbbbbbbb': undefined };
    const byList = (id: string) => rule({ CidrIpv4: undefined, PrefixListId: id });
    const rules = await withPrefixListEntries([byList('pl-0aaaaaaaaaaaaaaaa'), byList('pl-0bbbbbbbbbbbbbbbb')], async (id) => lists[id]);
    expect(rules.map((r) => [r.PrefixListId, r.CidrIpv4])).toEqual([[undefined, '10.0.0.0/16'], ['pl-0bbbbbbbbbbbbbbbb', undefined]]);
    expect(shortfalls('efs', rules, clients)).toEqual([]);
    const unread = await withPrefixListEntries([byList('pl-0bbbbbbbbbbbbbbbb')], async (id) => lists[id]);
    const found = shortfalls('efs', unread, clients);
    expect(shortfallMessage('mount target fsmt-1', ['sg-1'], found, unread, 'efs')).toMatch(
      /do not admit 10\.0\.1\.0\/24 on TCP 2049: .*\(the entries of prefix lists pl-0bbbbbbbbbbbbbbbb could not be read: ec2:GetManagedPrefixListEntries refused\)$/);
  });

  test('the ports are the rows of docs/sources/fsx-rules.md', () => {
    expect(portsText(clientPorts('fsx-lustre'))).toBe('TCP 988 and 1018-1023');
    expect(portsText(clientPorts('fsx-openzfs'))).toBe('TCP 2049');
    expect(portsText(clientPorts('efs'))).toBe('TCP 2049');
  });
});

describe('an existing FSx file system, from recorded answers', () => {
  test('FSx for Lustre that admits the clients gives the records of its DNS name and mount name', async () => {
    const f = await checkExisting(lustreTarget({ groupIds: [CLIENT_GROUP] }), '/', 'us-east-1', recorded(LUSTRE));
    expect(f).toEqual({
      fileSystemId: 'fs-0123456789abcdef0', server: LUSTRE.DNSName, privateIp: '', privateDnsName: LUSTRE.DNSName,
      availabilityZone: '', instanceType: 'PERSISTENT_2/SSD/250', exportPath: '/abcdefgh', fsType: 'lustre',
    });
  });

  test('FSx for OpenZFS gives an NFS record of its DNS name and the volume path', async () => {
    const f = await checkExisting(openZfsTarget(), '/fsx/home', 'us-east-1', recorded(OPENZFS));
    expect(f).toMatchObject({ server: OPENZFS.DNSName, exportPath: '/fsx/home', fsType: 'nfs4', instanceType: 'SINGLE_AZ_2/320' });
  });

  test.each([
    ['another VPC', { VpcId: 'vpc-0fedcba9876543210' }, /it is in vpc-0fedcba9876543210, not the cluster's vpc-0123456789abcdef0/],
    ['CREATING', { Lifecycle: 'CREATING' }, /it is CREATING, and serves clients only when AVAILABLE or UPDATING/],
    ['MISCONFIGURED', { Lifecycle: 'MISCONFIGURED' }, /it is MISCONFIGURED/],
    ['of another type', { FileSystemType: 'OPENZFS' }, /it is of type OPENZFS, not LUSTRE \(fsx-lustre\)/],
    ['without interfaces', { NetworkInterfaceIds: [] }, /FSx names no network interface of it/],
  ])('FSx for Lustre in %s is refused with the reason', async (_what, change, message) => {
    await expect(checkExisting(lustreTarget(), '/', 'us-east-1', recorded({ ...LUSTRE, ...change } as FileSystem)))
      .rejects.toThrow(message);
  });

  test('UPDATING serves its clients and is admitted', async () => {
    await expect(checkExisting(lustreTarget(), '/', 'us-east-1', recorded({ ...LUSTRE, Lifecycle: 'UPDATING' }))).resolves.toMatchObject({ fsType: 'lustre' });
  });

  test('a group that leaves Lustre ports closed is refused, naming the interface, the group, the client and the ports', async () => {
    const without1018 = RULES.filter((r) => r.FromPort !== 1018);
    const refusal = checkExisting(lustreTarget({ cidrs: ['10.0.0.0/16', '10.9.0.0/16'] }), '/', 'us-east-1', recorded(LUSTRE, without1018));
    await expect(refusal).rejects.toThrow(
      'FSx file system fs-0123456789abcdef0 cannot join the cluster\'s records: the security groups of eni-0123456789abcdef0 of ' +
        'fs-0123456789abcdef0 (sg-0aaaaaaaaaaaaaaaa) do not admit 10.0.0.0/16 on TCP 1018-1023; 10.9.0.0/16 on TCP 988 and 1018-1023: ' +
        'add ingress rules from the clients on TCP 988 and 1018-1023 to one of them; the security groups of eni-0123456789abcdef1',
    );
  });

  test('LUSTRE-EGRESS: a group that lets the file servers send only elsewhere is refused, saying which egress to add', async () => {
    const elsewhere = RULES.map((r) => (r.IsEgress ? { ...r, CidrIpv4: '192.168.0.0/16' } : r));
    await expect(checkExisting(lustreTarget({ cidrs: ['10.0.0.0/16'] }), '/', 'us-east-1', recorded(LUSTRE, elsewhere))).rejects.toThrow(
      'the security groups of eni-0123456789abcdef0 of fs-0123456789abcdef0 (sg-0aaaaaaaaaaaaaaaa) do not let it send to ' +
        '10.0.0.0/16 on TCP 988 and 1018-1023: add egress rules to the clients on TCP 988 and 1018-1023 to one of them, as a ' +
        'group that does not allow all outbound traffic needs;');
    // OpenZFS answers its clients' connections, which a stateful group lets out: no egress rule is asked.
    await expect(checkExisting(openZfsTarget(), '/fsx/home', 'us-east-1', recorded(OPENZFS, elsewhere))).resolves.toMatchObject({ fsType: 'nfs4' });
  });

  describe('OPENZFS-NFS-EXPORT-CLIENTS: the volume mounted exists, is AVAILABLE, and its NFS exports name the clients', () => {
    const check = (path: string, clients: Partial<ExistingFileSystem['clients']>, volumes: readonly Volume[] = VOLUMES) =>
      checkExisting(openZfsTarget(clients), path, 'us-east-1', recorded(OPENZFS, RULES, volumes));
    const withClients = (clients: string) => VOLUMES.map((v) => v.OpenZFSConfiguration?.VolumePath !== '/fsx/home' ? v
      : { ...v, OpenZFSConfiguration: { ...v.OpenZFSConfiguration, NfsExports: [{ ClientConfigurations: [{ Clients: clients, Options: ['rw'] }] }] } });

    test('a volume exported to * or to a CIDR holding the clients is taken', async () => {
      await expect(check('/fsx', { cidrs: ['10.0.0.0/16'], groupIds: [CLIENT_GROUP] })).resolves.toMatchObject({ exportPath: '/fsx' });
      await expect(check('/fsx/home', { cidrs: ['10.0.1.0/25'] })).resolves.toMatchObject({ exportPath: '/fsx/home' });
      await expect(check('/fsx/home', { cidrs: ['10.0.1.7/32'] }, withClients('10.0.1.7'))).resolves.toMatchObject({ exportPath: '/fsx/home' });
    });

    test.each([
      ['no volume at the path', '/fsx/projects', { cidrs: ['10.0.0.0/16'] }, VOLUMES, /it has no volume at \/fsx\/projects \(its volumes are at \/fsx, \/fsx\/home\)/],
      ['a volume being created', '/fsx/home', { cidrs: ['10.0.0.0/16'] }, VOLUMES.map((v) => ({ ...v, Lifecycle: 'CREATING' as const })), /its volume fsvol-0123456789abcdef1 at \/fsx\/home is CREATING, not AVAILABLE/],
      ['clients outside the export', '/fsx/home', { cidrs: ['10.0.2.0/24'] }, withClients('10.0.1.0/24'), /exports to 10\.0\.1\.0\/24, which leaves out 10\.0\.2\.0\/24: add a client configuration/],
      ['a client CIDR wider than the export', '/fsx/home', { cidrs: ['10.0.0.0/16'] }, withClients('10.0.1.0/24'), /which leaves out 10\.0\.0\.0\/16/],
      ['a client group, whose addresses only * covers', '/fsx/home', { cidrs: [], groupIds: [CLIENT_GROUP] }, VOLUMES, /which leaves out sg-0ccccccccccccccc0/],
      ['a host name as the export\'s clients', '/fsx/home', { cidrs: ['10.0.1.0/24'] }, withClients('node1.example.com'), /exports to node1\.example\.com, which leaves out 10\.0\.1\.0\/24/],
      ['no client configuration at all', '/fsx/home', { cidrs: ['10.0.1.0/24'] }, withClients('').map((v) => ({ ...v, OpenZFSConfiguration: { ...v.OpenZFSConfiguration, NfsExports: [] } })), /exports to no client, which leaves out/],
    ])('%s is refused, saying what to change', async (_what, path, clients, volumes, message) => {
      await expect(check(path, clients, volumes)).rejects.toThrow(message);
    });

    test('Lustre exports no volumes: none are asked for', async () => {
      const aws = { ...recorded(LUSTRE), fsxVolumes: () => Promise.reject(new Error('asked')) };
      await expect(checkExisting(lustreTarget({ groupIds: [CLIENT_GROUP] }), '/', 'us-east-1', aws)).resolves.toMatchObject({ fsType: 'lustre' });
    });
  });

  test("interfaces that share their groups have the groups' rules read once", async () => {
    const asked: string[][] = [];
    const aws = recorded(LUSTRE);
    const counting: Describers = { ...aws, groupRules: (groups) => { asked.push([...groups]); return aws.groupRules(groups); } };
    await checkExisting(lustreTarget(), '/', 'us-east-1', counting);
    expect(LUSTRE.NetworkInterfaceIds).toHaveLength(2);
    expect(asked).toEqual([['sg-0aaaaaaaaaaaaaaaa']]);
  });

  test('a group that admits the client group but not a CIDR refuses the CIDR alone', async () => {
    await expect(checkExisting(openZfsTarget({ cidrs: ['10.5.0.0/16'], groupIds: [CLIENT_GROUP] }), '/fsx', 'us-east-1', recorded(OPENZFS)))
      .rejects.toThrow(/do not admit 10\.5\.0\.0\/16 on TCP 2049: add ingress rules/);
  });

  test('a Lustre export other than the root is refused', async () => {
    await expect(checkExisting(lustreTarget(), '/abcdefgh', 'us-east-1', recorded(LUSTRE))).rejects.toThrow(/it must be exported from its root, '\/' \(mounted as \/abcdefgh\), not "\/abcdefgh"/);
  });

  test('an OpenZFS export outside /fsx, and a mount name or DNS name FSx gives out of grammar, are refused', async () => {
    await expect(checkExisting(openZfsTarget(), '/data', 'us-east-1', recorded(OPENZFS))).rejects.toThrow(/it must be exported at '\/fsx' \(the root volume\) or a volume path below it, not "\/data"/);
    const badName = { ...LUSTRE, LustreConfiguration: { ...LUSTRE.LustreConfiguration, MountName: '../etc' } } as FileSystem;
    await expect(checkExisting(lustreTarget(), '/', 'us-east-1', recorded(badName))).rejects.toThrow(/whose mount name FSx gives as 3-8 lower-case letters and digits, not "..\/etc"/);
    await expect(checkExisting(lustreTarget(), '/', 'us-east-1', recorded({ ...LUSTRE, DNSName: 'evil.example.com' }))).rejects.toThrow(/FSx names "evil.example.com" as the DNS name of fs-0123456789abcdef0/);
  });

  test('an id FSx does not know is refused, naming the Region', async () => {
    await expect(checkExisting(lustreTarget(), '/', 'eu-west-1', recorded(undefined))).rejects.toThrow(/FSx file system fs-0123456789abcdef0 does not exist in eu-west-1/);
  });
});

describe('EFS-LIFECYCLE: an EFS file system or mount target that does not serve, which moto never shows', () => {
  const target: ExistingFileSystem = { kind: 'efs', fileSystemId: 'fs-0123456789abcdef0', vpcId: VPC, clients: { cidrs: ['10.0.0.0/16'], groupIds: [] } };
  /** EFS's answers as its API reference shapes them: the file system in `state`, one mount target in `targetState`. */
  const efs = (state: string, targetState: string): Describers => ({
    ...recorded(undefined),
    describeEfs: async (id) => ({ FileSystemId: id, LifeCycleState: state, PerformanceMode: 'generalPurpose' } as never),
    efsMountTargets: async (id) => [{ MountTargetId: 'fsmt-0123456789abcdef0', FileSystemId: id, VpcId: VPC, LifeCycleState: targetState, AvailabilityZoneName: 'us-east-1a', SubnetId: 'subnet-1', IpAddress: '10.0.1.5' } as never],
    mountTargetGroups: async () => ['sg-0bbbbbbbbbbbbbbbb'],
  });

  test.each([
    ['error', 'available', /it is error, and serves clients only when available or updating/],
    ['available', 'creating', /its mount target fsmt-0123456789abcdef0 in us-east-1a is creating, not available/],
  ])('a file system %s with a mount target %s is refused', async (state, targetState, message) => {
    await expect(checkExisting(target, '/', 'us-east-1', efs(state, targetState))).rejects.toThrow(message);
  });

  test('updating serves its clients', async () => {
    await expect(checkExisting({ ...target, clients: { cidrs: ['10.0.1.0/24'], groupIds: [] } }, '/', 'us-east-1', efs('updating', 'available')))
      .resolves.toMatchObject({ fsType: 'nfs4' });
  });
});

describe('EFS-MOUNT-TARGET-ZONES: its DNS name resolves only in a zone with a mount target', () => {
  const efs = (zones: string[]): Describers => ({
    ...recorded(undefined),
    describeEfs: async (id) => ({ FileSystemId: id, LifeCycleState: 'available' } as never),
    efsMountTargets: async (id) => zones.map((z, i) => ({ MountTargetId: `fsmt-000000000000000${i}`, FileSystemId: id, VpcId: VPC, LifeCycleState: 'available', AvailabilityZoneName: z } as never)),
    mountTargetGroups: async () => ['sg-0bbbbbbbbbbbbbbbb'],
  });
  const target = (cidrs: string[], groupIds: string[] = []): ExistingFileSystem => ({ kind: 'efs', fileSystemId: 'fs-0123456789abcdef0', vpcId: VPC, clients: { cidrs, groupIds } });

  test('clients in a subnet of a zone without one are refused, naming the subnets, the zones and what to add', async () => {
    await expect(checkExisting(target(['10.0.0.0/16']), '/', 'us-east-1', efs(['us-east-1a']))).rejects.toThrow(
      "its mount targets are in us-east-1a, and its DNS name resolves only there, but the clients' subnets subnet-2 are in us-east-1b: " +
        'add a mount target in us-east-1b, or narrow the clients to the zones it serves');
  });

  test.each([
    ['a mount target in each zone of the clients', ['10.0.0.0/16'], [], ['us-east-1a', 'us-east-1b']],
    ['clients narrowed to the zone it serves', ['10.0.1.0/24'], [], ['us-east-1a']],
    ['a client inside a subnet of that zone', ['10.0.1.16/28'], [], ['us-east-1a']],
    ['clients named by group alone, whose subnets are unknown', [], [CLIENT_GROUP], ['us-east-1a']],
  ])('%s is taken', async (_what, cidrs, groups, zones) => {
    await expect(checkExisting(target(cidrs, groups), '/', 'us-east-1', efs(zones))).resolves.toMatchObject({ fsType: 'nfs4' });
  });
});

describe("the records of existing storage are the client's to mount", () => {
  test('FSx for Lustre, FSx for OpenZFS, EFS and an NFS server: the checker of lib/scripts/client_mount.py admits each', async () => {
    const lustre = await checkExisting(lustreTarget(), '/', 'us-east-1', recorded(LUSTRE));
    const zfs = await checkExisting(openZfsTarget(), '/fsx', 'us-east-1', recorded(OPENZFS));
    const efsName = efsDnsName('fs-0123456789abcdef0', 'us-east-1');
    const records = [
      mountRecord(lustre.server, lustre.exportPath, '/fsx/lustre', 'relatime,flock,_netdev', lustre.fsType, 'fsx-lustre'),
      mountRecord(zfs.server, zfs.exportPath, '/shared/zfs', 'nfsvers=4.1,rsize=262144,wsize=262144,hard,timeo=600,retrans=2,_netdev', zfs.fsType, 'fsx-openzfs'),
      mountRecord(efsName, '/', '/shared/efs', 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport,_netdev', 'nfs4', 'efs'),
      mountRecord('10.0.5.20', '/export/home', '/shared/home', 'nfsvers=4.1,hard,_netdev', 'nfs4', 'nfs'),
    ];
    const { answers } = askClientChecker(records.map((record) => ({ record, roots: ['/shared', '/fsx'] })));
    expect(answers).toEqual([null, null, null, null]);
  });

  test('EFS-NFS-VERSIONS: an EFS record asking NFS 4.2 is refused by the client, 4.1 and 4 taken; 4.2 stays for the others', () => {
    const efsName = efsDnsName('fs-0123456789abcdef0', 'us-east-1');
    const efs = (vers: string) => mountRecord(efsName, '/', '/shared/efs', `nfsvers=${vers},hard,noresvport,_netdev`, 'nfs4', 'efs');
    const nfs = mountRecord('10.0.5.20', '/export/home', '/shared/home', 'nfsvers=4.2,hard,_netdev', 'nfs4', 'nfs');
    const { answers } = askClientChecker([efs('4.2'), efs('4.1'), efs('4'), nfs].map((record) => ({ record, roots: ['/shared'] })));
    expect(answers).toEqual([expect.stringMatching(/nfsvers=4\.2.* has a value out of range/), null, null, null]);
  });

  test("EFS-DNS-NAME: an EFS DNS name is the EFS guide's, with China's domain in the China Regions", () => {
    expect(efsDnsName('fs-0123456789abcdef0', 'eu-west-1')).toBe('fs-0123456789abcdef0.efs.eu-west-1.amazonaws.com');
    expect(efsDnsName('fs-0123456789abcdef0', 'cn-north-1')).toBe('fs-0123456789abcdef0.efs.cn-north-1.amazonaws.com.cn');
  });
});
