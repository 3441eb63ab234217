/**
 * The checks of `StorageServer.fromStorageServerAttributes` against what they guard. Every string attribute of
 * StorageServerAttributes, as TypeScript reads the interface, has a value-check rule; its tokens are checked at deploy
 * or refused by name. Hostile and edge values of each attribute are refused or taken, and compared with the client
 * mount script's record checker, lib/scripts/client_mount.py: nothing it refuses passes here, unless a row says why.
 */
import { App, CfnParameter, Fn, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { RECORD_FS_TYPES } from '../../lambda/register/contract';
import { RESOURCE_TYPE, ValueRule } from '../../lambda/value-check/contract';
import { BACKEND_FLAG_OPTIONS, BACKEND_VALUED_OPTIONS, EXCLUSIVE_OPTIONS, FLAG_OPTIONS, REFUSED_NFS_OPTIONS, VALUED_OPTIONS } from '../../lambda/value-check/mount-options';
import { StorageServer } from '../../lib/storage-server';
import { ATTRIBUTE_CHECKS, type StorageServerAttributes } from '../../lib/client-mount/imported-server';
import { FsType } from '../../lib/client-mount/fs-type';
import { DEFAULT_EXPORT_PATH, clientMountOptions } from '../../lib/backends/ec2/mount-options';
import { openZfsMountOptions } from '../../lib/backends/openzfs/mount-options';
import { LUSTRE_MOUNT_OPTIONS } from '../../lib/backends/fsx-lustre';
import { DEFAULT_MOUNT_ROOTS, mountRootProblem } from '../../lib/validation';
import { askClientChecker, type RecordQuestion } from '../support/client-record-check';
import { stringMembers } from '../support/prop-members';

const FSX_DNS = 'fs-0123456789abcdef0.fsx.eu-west-1.amazonaws.com';
/** Valid attributes of each kind: an EC2 NFS server's and an FSx for Lustre file system's, as their records have them. */
const BASE: Record<FsType, Omit<StorageServerAttributes, 'securityGroup'>> = {
  [FsType.NFS4]: {
    clusterName: 'hpc1', serverName: 'home', mountAddress: '10.0.1.10', exportPath: DEFAULT_EXPORT_PATH,
    mountPoint: '/shared/home', mountOptions: clientMountOptions('4.1'),
  },
  [FsType.LUSTRE]: {
    clusterName: 'hpc1', serverName: 'scratch', fsType: FsType.LUSTRE, mountAddress: FSX_DNS, exportPath: '/abcdefgh',
    mountPoint: '/fsx/scratch', mountOptions: LUSTRE_MOUNT_OPTIONS,
  },
};

/** The import of `BASE[fsType]` with `attrs` over it, in a stack of its own. */
function importServer(fsType: FsType, attrs: (stack: Stack) => Partial<StorageServerAttributes>): Stack {
  const stack = new Stack(new App(), 'Clients', { env: { account: '111111111111', region: 'eu-west-1' } });
  StorageServer.fromStorageServerAttributes(stack, 'Server', {
    ...BASE[fsType],
    securityGroup: ec2.SecurityGroup.fromSecurityGroupId(stack, 'Group', 'sg-0123456789abcdef0'),
    ...attrs(stack),
  });
  return stack;
}

/** The error the import throws, or undefined when it takes the attributes. */
function refusal(fsType: FsType, name: string, value: string): string | undefined {
  try {
    importServer(fsType, () => ({ [name]: value }));
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('every string attribute of StorageServerAttributes', () => {
  const attributes = stringMembers('lib/client-mount/imported-server.ts', 'StorageServerAttributes');

  test('is read from the interface, and has a value-check rule: none is a free string', () => {
    // The string enum FsType is a closed set, not a string attribute; securityGroup is no string.
    expect(attributes).toEqual(expect.arrayContaining(['mountAddress', 'exportPath', 'mountOptions']));
    expect(attributes).not.toContain('fsType');
    expect([...attributes].sort()).toEqual(Object.keys(ATTRIBUTE_CHECKS).sort());
  });

  describe.each([FsType.NFS4, FsType.LUSTRE])('of a %s server', (fsType) => {
    test.each(attributes)('%s: a value with a space and a shell character is refused, naming it and the allowed form', (name) => {
      const rule = ATTRIBUTE_CHECKS[name].rule[fsType];
      expect(Object.values(ValueRule)).toContain(rule);
      expect(refusal(fsType, name, '/data x$(reboot)')).toMatch(new RegExp(`^${name} must be .+, got "/data x\\$\\(reboot\\)": `));
    });

    test.each(attributes)('%s: a token is checked at deploy by its rule, or refused by name', (name) => {
      const { rule, literalOnly } = ATTRIBUTE_CHECKS[name];
      for (const token of [(_s: Stack) => Fn.importValue('Exported'), (s: Stack) => new CfnParameter(s, 'Value').valueAsString]) {
        const build = () => importServer(fsType, (s) => ({ [name]: token(s) }));
        if (literalOnly !== undefined) {
          expect(build).toThrow(new RegExp(`^${name} must be a concrete string, not a token: `));
          continue;
        }
        const checks = Object.values(Template.fromStack(build()).findResources(RESOURCE_TYPE));
        expect(checks).toHaveLength(1);
        expect(checks[0].Properties.Checks).toEqual([expect.objectContaining({ Name: name, Rule: rule[fsType] })]);
      }
    });
  });
});

/** Whether the client would mount a record with `value` in place of `name`'s field (null: no field of the record). */
type Client = 'same' | 'n/a' | `stricter: ${string}`;
// [attribute, value, fsType, taken here, the client's verdict beside it]
type Row = [string, string, FsType, boolean, Client];
const LONG_LABEL = `fs-0123456789abcdef0.fsx.${'a'.repeat(64)}.amazonaws.com`;
const ROWS: Row[] = [
  // mountAddress: RFC 1123 and 952 host names, RFC 4291 and 5952 IPv6, the client's IPv4 and FSx names.
  ['mountAddress', '10.0.1.10', FsType.NFS4, true, 'same'],
  ['mountAddress', FSX_DNS, FsType.NFS4, true, 'same'],
  ['mountAddress', 'fd00::1', FsType.NFS4, false, 'same'],
  ['mountAddress', '2001:db8::a:1', FsType.NFS4, false, 'same'],
  ['mountAddress', '[fd00::1]', FsType.NFS4, false, 'same'],
  ['mountAddress', '::ffff:10.0.1.10', FsType.NFS4, false, 'same'],
  ['mountAddress', `${FSX_DNS}.`, FsType.NFS4, false, 'same'],
  ['mountAddress', LONG_LABEL, FsType.NFS4, false, 'stricter: RFC 1123 limits a label to 63 characters; the client only checks 253 in all'],
  ['mountAddress', `${'a'.repeat(60)}.`.repeat(4) + 'amazonaws.com', FsType.NFS4, false, 'same'],
  ['mountAddress', FSX_DNS.replace('.fsx.', '..fsx.'), FsType.NFS4, false, 'same'],
  ['mountAddress', 'nfs.example.com', FsType.NFS4, false, 'same'],
  ['mountAddress', FSX_DNS.toUpperCase(), FsType.NFS4, false, 'same'],
  ['mountAddress', FSX_DNS.replace('amazonaws', 'amazon\u0430ws'), FsType.NFS4, false, 'same'],
  ['mountAddress', '\uff11\uff10.0.1.10', FsType.NFS4, false, 'same'],
  ['mountAddress', '10.0.1.010', FsType.NFS4, false, 'same'],
  ['mountAddress', '0.0.0.0', FsType.NFS4, false, 'same'],
  ['mountAddress', '255.255.255.255', FsType.NFS4, false, 'same'],
  ['mountAddress', ' 10.0.1.10', FsType.NFS4, false, 'same'],
  ['mountAddress', FSX_DNS, FsType.LUSTRE, true, 'same'],
  ['mountAddress', '10.0.1.10', FsType.LUSTRE, false, 'same'],
  ['mountAddress', 'fd00::1', FsType.LUSTRE, false, 'same'],
  // exportPath
  ['exportPath', DEFAULT_EXPORT_PATH, FsType.NFS4, true, 'same'],
  ['exportPath', '/fsx', FsType.NFS4, true, 'same'],
  ['exportPath', '/fsx/projects', FsType.NFS4, true, 'same'],
  ['exportPath', '/', FsType.NFS4, false, 'same'],
  ['exportPath', '//x', FsType.NFS4, false, 'same'],
  ['exportPath', '/x/', FsType.NFS4, false, 'same'],
  ['exportPath', '/x/../y', FsType.NFS4, false, 'same'],
  ['exportPath', '/x/./y', FsType.NFS4, false, 'same'],
  ['exportPath', 'export/data', FsType.NFS4, false, 'same'],
  ['exportPath', '/export data', FsType.NFS4, false, 'same'],
  ['exportPath', '/export\ndata', FsType.NFS4, false, 'same'],
  ['exportPath', '/\u0435xport/data', FsType.NFS4, false, 'same'],
  ['exportPath', `/${'a'.repeat(255)}`, FsType.NFS4, false, 'same'],
  ['exportPath', '/abcdefgh', FsType.LUSTRE, true, 'same'],
  ['exportPath', '/fsx', FsType.LUSTRE, true, 'same'],
  ['exportPath', '/ABCDEFGH', FsType.LUSTRE, false, 'same'],
  ['exportPath', '/ab', FsType.LUSTRE, false, 'same'],
  ['exportPath', '/abcdefghi', FsType.LUSTRE, false, 'same'],
  ['exportPath', '/abc/def', FsType.LUSTRE, false, 'same'],
  // mountOptions, by nfs(5) and the client's allowlist
  ['mountOptions', clientMountOptions('4.2', 16), FsType.NFS4, true, 'same'],
  ['mountOptions', clientMountOptions('4.1', 1), FsType.NFS4, true, 'same'],
  ['mountOptions', openZfsMountOptions(2560), FsType.NFS4, true, 'same'],
  ['mountOptions', 'nfsvers=4.1,hard,_netdev', FsType.NFS4, true, 'same'],
  ['mountOptions', 'hard,,_netdev', FsType.NFS4, false, 'same'],
  ['mountOptions', ',hard', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard,', FsType.NFS4, false, 'same'],
  ['mountOptions', '', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard,noresvport', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard,suid', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard,exec', FsType.NFS4, false, 'same'],
  ['mountOptions', 'soft', FsType.NFS4, false, 'same'],
  ['mountOptions', 'rsize=', FsType.NFS4, false, 'same'],
  ['mountOptions', '=4.1', FsType.NFS4, false, 'same'],
  ['mountOptions', 'rsize', FsType.NFS4, false, 'same'],
  ['mountOptions', 'rsize=01048576', FsType.NFS4, false, 'same'],
  ['mountOptions', 'nconnect=17', FsType.NFS4, false, 'same'],
  ['mountOptions', 'nfsvers=3', FsType.NFS4, false, 'same'],
  ['mountOptions', 'nfsvers=4.1,vers=4.2', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard,hard', FsType.NFS4, false, 'same'],
  ['mountOptions', 'rw,ro', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard,flock', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard\uff0c_netdev', FsType.NFS4, false, 'same'],
  ['mountOptions', 'hard, _netdev', FsType.NFS4, false, 'same'],
  ['mountOptions', LUSTRE_MOUNT_OPTIONS, FsType.LUSTRE, true, 'same'],
  ['mountOptions', 'hard', FsType.LUSTRE, false, 'same'],
  ['mountOptions', 'nfsvers=4.1', FsType.LUSTRE, false, 'same'],
  ['mountOptions', 'flock,localflock', FsType.LUSTRE, false, 'same'],
  // mountPoint: the client takes it when some --mount-roots (and --allow-home) admits it
  ...DEFAULT_MOUNT_ROOTS.map((root): Row => ['mountPoint', root, FsType.NFS4, true, 'same']),
  ['mountPoint', '/home', FsType.NFS4, true, 'same'],
  ['mountPoint', '/home/users', FsType.NFS4, true, 'same'],
  ['mountPoint', '/opt/ohpc/pub', FsType.NFS4, true, 'same'],
  ['mountPoint', '/', FsType.NFS4, false, 'same'],
  ['mountPoint', '/etc', FsType.NFS4, false, 'same'],
  ['mountPoint', '/etc/cron.d', FsType.NFS4, false, 'same'],
  ['mountPoint', '/usr/local/data', FsType.NFS4, false, 'same'],
  ['mountPoint', '/var/lib/nfs', FsType.NFS4, false, 'same'],
  ['mountPoint', '/proc/x', FsType.NFS4, false, 'same'],
  ['mountPoint', '/opt', FsType.NFS4, false, 'same'],
  ['mountPoint', '/data/../etc', FsType.NFS4, false, 'same'],
  ['mountPoint', '/data/', FsType.NFS4, false, 'same'],
  ['mountPoint', '/data x', FsType.NFS4, false, 'same'],
  ['mountPoint', '/d\u0430ta', FsType.NFS4, false, 'same'],
  // names and prefix: no field of the record, one SSM path level each
  ['clusterName', 'hpc 1', FsType.NFS4, false, 'n/a'],
  ['clusterName', 'h\u0440c1', FsType.NFS4, false, 'n/a'],
  ['serverName', 'a'.repeat(65), FsType.NFS4, false, 'n/a'],
  ['serverName', 'home/x', FsType.NFS4, false, 'n/a'],
  ['parameterPrefix', '/site/storage', FsType.NFS4, true, 'n/a'],
  ['parameterPrefix', '/aws/storage', FsType.NFS4, false, 'n/a'],
  ['parameterPrefix', '/site/', FsType.NFS4, false, 'n/a'],
  ['parameterPrefix', 'site', FsType.NFS4, false, 'n/a'],
];

/** The record field an attribute is, and the roots a node would need to take a mount point. */
const FIELD: Record<string, 'server' | 'exportPath' | 'mountPoint' | 'options'> = {
  mountAddress: 'server', exportPath: 'exportPath', mountPoint: 'mountPoint', mountOptions: 'options',
};
function question(name: string, value: string, fsType: FsType): RecordQuestion {
  const base = BASE[fsType];
  const record = {
    server: base.mountAddress, exportPath: base.exportPath, mountPoint: base.mountPoint, fsType, options: base.mountOptions,
    [FIELD[name]]: value,
  };
  // As the registration writes it: an FSx file system's record names its backend.
  const backend = fsType === FsType.LUSTRE ? 'fsx-lustre' : record.server.startsWith('fs-') ? 'fsx-openzfs' : undefined;
  const mp = record.mountPoint;
  const home = mp === '/home' || mp.startsWith('/home/');
  // The widest the node can be run with: the mount point itself as a root when a root may be it, or --allow-home.
  const roots = home ? ['/home'] : mountRootProblem(mp) === undefined ? [mp] : [...DEFAULT_MOUNT_ROOTS];
  return { record: { ...record, ...(backend ? { backend } : {}) }, roots };
}

describe('hostile and edge values, beside the client mount script', () => {
  const compared = ROWS.filter(([, , , , client]) => client !== 'n/a');
  const { answers, allowlist } = askClientChecker(compared.map(([name, value, fsType]) => question(name, value, fsType)));
  const clientSays = new Map(compared.map((row, i) => [row, answers[i]]));

  test.each(ROWS)('%s %j (%s): taken %s; the client: %s', (name, value, fsType, taken, client) => {
    const message = refusal(fsType, name, value);
    if (taken) expect(message).toBeUndefined();
    else expect(message).toMatch(new RegExp(`^${name} must be .+, got .+: .+\\.$`));
    if (client === 'n/a') return;
    const row = ROWS.find((r) => r[0] === name && r[1] === value && r[2] === fsType)!;
    const answer = clientSays.get(row);
    // Taken here means mounted by a node; refused here means refused there too, unless the row says why not.
    if (taken || client.startsWith('stricter')) expect(answer).toBeNull();
    else expect(answer).toEqual(expect.any(String));
  });

  test("the option allowlist is the client's, name for name, EFS-NORESVPORT's flag of backend efs and EFS-TLS-OPTION's of fsType efs too", () => {
    expect(Object.keys(allowlist.valued).sort()).toEqual([...RECORD_FS_TYPES].sort());
    expect(Object.keys(allowlist.flags).sort()).toEqual([...RECORD_FS_TYPES].sort());
    for (const fsType of RECORD_FS_TYPES) {
      expect(Object.keys(VALUED_OPTIONS[fsType]).sort()).toEqual(allowlist.valued[fsType]);
      expect([...FLAG_OPTIONS[fsType]].sort()).toEqual(allowlist.flags[fsType]);
    }
    expect(Object.keys(REFUSED_NFS_OPTIONS).sort()).toEqual(allowlist.refused);
    expect(EXCLUSIVE_OPTIONS).toEqual(allowlist.exclusive);
    expect(Object.fromEntries(Object.entries(BACKEND_FLAG_OPTIONS).map(([b, v]) => [b, [...v].sort()]))).toEqual(allowlist.backendFlags);
    // EFS-NFS-VERSIONS: the versions each backend's narrowed option takes, value for value.
    const versions = ['3', '4', '4.0', '4.1', '4.2'];
    expect(Object.fromEntries(Object.entries(BACKEND_VALUED_OPTIONS).map(([b, v]) => [b, Object.fromEntries(Object.entries(v)
      .map(([n, rule]) => [n, versions.filter((x) => rule(x))]))]))).toEqual(allowlist.backendValued);
    expect(allowlist.backendValued.efs).toEqual({ nfsvers: ['4', '4.1'], vers: ['4', '4.1'] });
  });
});

describe('the values besides the string attributes', () => {
  test('fsType as a token is refused by name: the rules and the port depend on it', () => {
    expect(() => importServer(FsType.NFS4, () => ({ fsType: Fn.importValue('FsType') as FsType }))).toThrow(/^fsType must be one of nfs4, lustre, got "\$\{Token\[/);
  });

  test('a security group imported by a token id takes the clients\' rules, resolved at deploy', () => {
    const stack = importServer(FsType.NFS4, (s) => ({ securityGroup: ec2.SecurityGroup.fromSecurityGroupId(s, 'Imported', Fn.importValue('ServerGroup')) }));
    const server = stack.node.findChild('Server') as unknown as ec2.IConnectable;
    server.connections.allowDefaultPortFrom(ec2.Peer.ipv4('10.0.0.0/16'));
    Template.fromStack(stack).hasResourceProperties('AWS::EC2::SecurityGroupIngress', { GroupId: { 'Fn::ImportValue': 'ServerGroup' }, FromPort: 2049 });
  });

  test.each([
    ['/etc', /^mountPoint must be an absolute directory path .+, got "\/etc": a system directory \(\/etc\)/],
    ['/usr/local/data', /^mountPoint must be .+, got "\/usr\/local\/data": under a system directory \(\/usr\)/],
  ])("mountOn's mountPoint %s is refused as the attribute is", (mountPoint, message) => {
    const stack = importServer(FsType.NFS4, () => ({}));
    const server = stack.node.findChild('Server') as unknown as StorageServer;
    const node = new ec2.Instance(stack, 'Node', {
      vpc: new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 }),
      instanceType: new ec2.InstanceType('c5.large'),
      machineImage: ec2.MachineImage.genericLinux({ 'eu-west-1': 'ami-0123456789abcdef0' }),
    });
    expect(() => server.mountOn(node, { mountPoint })).toThrow(message);
    expect(() => server.mountOn(node, { mountPoint: Fn.importValue('MountPoint') })).toThrow(/^mountPoint must be a concrete string, not a token/);
  });
});
