/**
 * The record names' grammar of lambda/register/paths.ts, docs/design.md section 6: how names read back, the rule that
 * keeps a ring record off a mount record's name, and the app's check that one app's records never meet.
 */
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import {
  parseRegistrationProperties,
  readRecordName,
  recordName,
  recordsMeet,
  validateServerNames,
  RecordKind,
  type ServerRecordNames,
} from '../../lambda/register/contract';
import { ServerRegistration } from '../../lib/registration';
import { StorageServer } from '../../lib/storage-server';

const OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev';
const ENV = { account: '123456789012', region: 'us-east-1' };
/** The issue's server: its ring record would be named as cluster hpc1's mount record of server `ring`. */
const SQUATTER = { parameterPrefix: '/storage-server/hpc1', clusterName: 'storage', serverName: 'mount' };
const KINDS: RecordKind[] = [RecordKind.RING, RecordKind.MOUNT];

/**
 * Every prefix, cluster and server of up to three prefix levels over an alphabet of the grammar's literal levels and
 * two others. A name of the grammar compares its levels with the literals and nothing else, so any collision of two
 * names has the shape of one among these.
 */
function everyServer(): ServerRecordNames[] {
  const alphabet = ['a', 'hpc1', 'ring', 'storage', 'mount'];
  const prefixes: string[][] = [];
  let levels = alphabet.map((l) => [l]);
  for (let depth = 1; depth <= 3; depth++) {
    prefixes.push(...levels);
    levels = levels.flatMap((p) => alphabet.map((l) => [...p, l]));
  }
  return prefixes.flatMap((p) =>
    alphabet.flatMap((clusterName) => alphabet.map((serverName) => ({ prefix: `/${p.join('/')}`, clusterName, serverName }))),
  );
}

function admitted(s: ServerRecordNames): boolean {
  try {
    validateServerNames((k) => k, s.prefix, s.clusterName, s.serverName);
    return true;
  } catch {
    return false;
  }
}

/** Each name of the servers, with every kind and server that makes it. */
function namesOf(servers: ServerRecordNames[]): Map<string, { kind: RecordKind; server: ServerRecordNames }[]> {
  const names = new Map<string, { kind: RecordKind; server: ServerRecordNames }[]>();
  for (const server of servers) {
    for (const kind of KINDS) {
      const name = recordName(kind, server.prefix, server.clusterName, server.serverName);
      names.set(name, [...(names.get(name) ?? []), { kind, server }]);
    }
  }
  return names;
}

describe('the grammar', () => {
  test('a name reads back as the record it names, and as nothing else but in the one ambiguous form', () => {
    expect(readRecordName('/storage-server/hpc1/ring/storage1')).toEqual([
      { kind: 'ring', prefix: '/storage-server', clusterName: 'hpc1', serverName: 'storage1' },
    ]);
    expect(readRecordName('/storage-server/hpc1/storage/storage1/mount')).toEqual([
      { kind: 'mount', prefix: '/storage-server', clusterName: 'hpc1', serverName: 'storage1' },
    ]);
    expect(readRecordName('/storage-server/hpc1/storage/ring/mount')).toEqual([
      { kind: 'ring', prefix: '/storage-server/hpc1', clusterName: 'storage', serverName: 'mount' },
      { kind: 'mount', prefix: '/storage-server', clusterName: 'hpc1', serverName: 'ring' },
    ]);
    expect(readRecordName('/storage-server/hpc1/storage/')).toEqual([]);
    expect(readRecordName('/aws/hpc1/ring/storage1')).toEqual([]);
  });

  test('every name of every server reads back as that record (exhaustive over the alphabet)', () => {
    for (const s of everyServer()) {
      for (const kind of KINDS) {
        expect(readRecordName(recordName(kind, s.prefix, s.clusterName, s.serverName))).toContainEqual({ kind, ...s });
      }
    }
  });
});

describe('a ring record never takes a mount record\'s name', () => {
  test('the issue\'s server is refused: the message names each key, the rule and the values', () => {
    expect(() => validateServerNames((k) => k, SQUATTER.parameterPrefix, SQUATTER.clusterName, SQUATTER.serverName)).toThrow(
      'serverName "mount" of clusterName "storage" under parameterPrefix "/storage-server/hpc1" names its ring record ' +
        '/storage-server/hpc1/storage/ring/mount, which is the name of the mount record of server "ring" of cluster ' +
        '"hpc1" under prefix "/storage-server": a ring record\'s name must not read as a mount record\'s',
    );
  });

  test('a one-level prefix keeps cluster storage and server mount: their ring name is no mount record\'s', () => {
    expect(() => validateServerNames((k) => k, '/storage-server', 'storage', 'mount')).not.toThrow();
    expect(() => validateServerNames((k) => k, '/storage-server', 'hpc1', 'ring')).not.toThrow();
  });

  test('no two records of the servers it admits share a name, and it refuses no server whose names are unambiguous (exhaustive)', () => {
    const servers = everyServer();
    const shared = [...namesOf(servers.filter(admitted)).entries()].filter(([, owners]) => owners.length > 1);
    expect(shared).toEqual([]);
    // It refuses exactly the servers whose ring name some other server's mount record holds.
    const all = namesOf(servers);
    const collide = (s: ServerRecordNames) => (all.get(recordName(RecordKind.RING, s.prefix, s.clusterName, s.serverName)) ?? []).length > 1;
    expect(servers.filter((s) => !admitted(s))).toEqual(servers.filter(collide));
    expect(servers.filter((s) => !admitted(s)).length).toBeGreaterThan(0);
  });

  test('the handler refuses the same names at deploy, by the same rule', () => {
    expect(() => parseRegistrationProperties({
      InstanceId: 'i-0123456789abcdef0',
      ClusterName: SQUATTER.clusterName,
      ServerName: SQUATTER.serverName,
      ParameterPrefix: SQUATTER.parameterPrefix,
      ExportPath: '/export/data',
      MountPoint: '/data',
      MountOptions: OPTIONS,
      Backend: 'ebs',
    })).toThrow(
      'ResourceProperties.ServerName "mount" of ResourceProperties.ClusterName "storage" under ' +
        'ResourceProperties.ParameterPrefix "/storage-server/hpc1" names its ring record',
    );
  });
});

describe('the records of two servers meet only where their cluster paths nest', () => {
  test('same, nested, apart', () => {
    const server = (prefix: string, clusterName: string, serverName = 's') => ({ prefix, clusterName, serverName });
    expect(recordsMeet(server('/p', 'c'), server('/p', 'c'))).toBe('same');
    expect(recordsMeet(server('/p', 'c'), server('/p', 'c', 't'))).toBeUndefined();
    expect(recordsMeet(server('/p', 'hpc1'), server('/p/hpc1', 'x'))).toBe('nested');
    expect(recordsMeet(server('/p/hpc1/storage', 'x'), server('/p', 'hpc1'))).toBe('nested');
    expect(recordsMeet(server('/a', 'c'), server('/a/b', 'c'))).toBeUndefined();
    expect(recordsMeet(server('/p', 'hpc1'), server('/p', 'hpc10'))).toBeUndefined();
  });

  test('every shared name is of two servers whose records meet, admitted or not (exhaustive)', () => {
    for (const owners of namesOf(everyServer()).values()) {
      for (let i = 1; i < owners.length; i++) expect(recordsMeet(owners[0].server, owners[i].server)).toBeDefined();
    }
  });
});

describe('at synth', () => {
  function registration(stack: Stack, id: string, names: { parameterPrefix?: string; clusterName: string; serverName: string }): ServerRegistration {
    const vpc = (stack.node.tryFindChild('Vpc') as ec2.Vpc | undefined) ?? new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0, subnetConfiguration: [{ name: 'i', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
    const instance = new ec2.Instance(stack, `${id}Server`, {
      vpc,
      instanceType: new ec2.InstanceType('m4.xlarge'),
      machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    });
    return new ServerRegistration(stack, id, { instance, exportPath: '/export/data', mountPoint: '/data', mountOptions: OPTIONS, backend: 'ebs', ...names });
  }
  const app = () => new App({ context: { 'aws:cdk:bundling-stacks': [] } });

  test('the issue\'s server is refused by the registration, naming the props', () => {
    const stack = new Stack(app(), 'Test', { env: ENV });
    expect(() => registration(stack, 'Registration', SQUATTER)).toThrow(
      /^serverName "mount" of clusterName "storage" under parameterPrefix "\/storage-server\/hpc1" names its ring record/,
    );
  });

  test('a StorageServer refuses it before it makes any resource', () => {
    const stack = new Stack(app(), 'Test', { env: ENV });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    expect(() => new StorageServer(stack, 'Storage', { vpc, ...SQUATTER })).toThrow(/names its ring record \/storage-server\/hpc1\/storage\/ring\/mount/);
    expect(stack.node.findChild('Storage').node.children).toEqual([]);
  });

  test('nested cluster paths in one app are refused, naming both construct paths', () => {
    const scope = app();
    registration(new Stack(scope, 'One', { env: ENV }), 'Registration', { clusterName: 'hpc1', serverName: 'ring' });
    const two = new Stack(scope, 'Two', { env: ENV });
    expect(() => registration(two, 'Registration', { parameterPrefix: '/storage-server/hpc1', clusterName: 'x', serverName: 'storage1' })).toThrow(
      "parameterPrefix '/storage-server/hpc1' with clusterName 'x' (Two/Registration) keeps its records below " +
        "/storage-server/hpc1/x/, and parameterPrefix '/storage-server' with clusterName 'hpc1' (One/Registration) below " +
        "/storage-server/hpc1/: in one app no cluster's records may lie among another's",
    );
  });

  test('StorageServers with nested cluster paths are refused before the second makes any resource', () => {
    const stack = new Stack(app(), 'Test', { env: ENV });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    new StorageServer(stack, 'Home', { vpc, clusterName: 'hpc1', serverName: 'home' });
    expect(() => new StorageServer(stack, 'Scratch', { vpc, clusterName: 'x', serverName: 'scratch', mountPoint: '/scratch', parameterPrefix: '/storage-server/hpc1' }))
      .toThrow(/\(Test\/Scratch\) keeps its records below \/storage-server\/hpc1\/x\/, .* \(Test\/Home\/Registration\) below \/storage-server\/hpc1\//);
    expect(stack.node.findChild('Scratch').node.children).toEqual([]);
  });

  test('the same server twice in one app is refused, naming both', () => {
    const scope = app();
    registration(new Stack(scope, 'One', { env: ENV }), 'Registration', { clusterName: 'hpc1', serverName: 'storage1' });
    expect(() => registration(new Stack(scope, 'Two', { env: ENV }), 'Registration', { clusterName: 'hpc1', serverName: 'storage1' })).toThrow(
      "serverName 'storage1' of clusterName 'hpc1' under parameterPrefix '/storage-server' (Two/Registration) is registered by One/Registration already",
    );
  });

  test.each([
    ['prefixes that nest but cluster paths that do not', { parameterPrefix: '/storage-server/hpc2', clusterName: 'hpc1', serverName: 'storage1' }, ENV],
    ['the same server in another region', { clusterName: 'hpc1', serverName: 'ring' }, { ...ENV, region: 'eu-west-1' }],
    ['the same server in another account', { clusterName: 'hpc1', serverName: 'ring' }, { ...ENV, account: '210987654321' }],
  ])('%s: accepted', (_what, names, env) => {
    const scope = app();
    registration(new Stack(scope, 'One', { env: ENV }), 'Registration', { clusterName: 'hpc1', serverName: 'ring' });
    expect(() => registration(new Stack(scope, 'Two', { env }), 'Registration', names)).not.toThrow();
  });
});
