/**
 * Props by grammar: for each validated prop of StorageServer, values generated from the prop's grammar in
 * test/support/grammars.ts, built from the RFC or AWS rule. They include what a JavaScript caller can pass that
 * TypeScript would refuse: a string for a number, a number for a string, an unknown enum. Every invalid value stops the
 * constructor with a message naming the prop, and valid values reach the template unchanged. Refusals come before
 * anything is created, so they run by the hundred. A synthesized template costs about half a second, so valid values
 * are a few per prop.
 */
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as sns from 'aws-cdk-lib/aws-sns';
import fc from 'fast-check';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import {
  TARGET, badEc2Id, badEmail, badName, badS3Path, email, hostBitsCidr, leadingZero, name, privateCidr, privateHost, publicCidr,
  publicHost, publicUnicastCidr, s3Path, specialCidr, specialHost, stringOf, subnetEdge,
} from '../support/grammars';
import { NfsVersion } from '../../lib/backends/ec2-nfs-server-props';
import { Backend } from '../../lib/backend-enum';

let generated = 0;
const started = Date.now();

// One stack for the refusals: each throws before it creates anything, so they do not disturb one another.
const badStack = new Stack(new App(), 'Bad', { env: TARGET });
const badVpc = new ec2.Vpc(badStack, 'Vpc');
let id = 0;

/**
 * `props`, of any shape a JavaScript caller may pass, must stop the constructor with a message matching `message`. Each
 * try has its own server name and mount point, so that a value wrongly accepted fails here, not in the next try.
 */
function refused(props: Record<string, unknown>, message: RegExp): void {
  const n = id++;
  const own = { vpc: badVpc, serverName: `s${n}`, mountPoint: `/data/s${n}` };
  expect(() => new StorageServer(badStack, `S${n}`, { ...own, ...props } as StorageServerProps)).toThrow(message);
}

/**
 * The server's security group admits `rule`: inline in the group, or as a rule resource of its own for a peer group.
 */
function expectIngress(template: Template, rule: Record<string, unknown>): void {
  const inline = Object.values(template.findResources('AWS::EC2::SecurityGroup')).flatMap((g) => g.Properties.SecurityGroupIngress ?? []);
  const separate = Object.values(template.findResources('AWS::EC2::SecurityGroupIngress')).map((r) => r.Properties);
  expect([...inline, ...separate]).toContainEqual(expect.objectContaining(rule));
}

/** A fresh stack with a server of these props, synthesized. */
function built(props: Partial<StorageServerProps> | ((stack: Stack) => Partial<StorageServerProps>)): { template: Template; stack: Stack } {
  const stack = new Stack(new App(), 'Good', { env: TARGET });
  const vpc = new ec2.Vpc(stack, 'Vpc');
  new StorageServer(stack, 'Storage', { vpc, ...(typeof props === 'function' ? props(stack) : props) });
  return { template: Template.fromStack(stack), stack };
}

const RUNS = 25;
const VALID_RUNS = 1;

/** Refuses every generated value of `arbitrary` put into props by `put`, naming the prop. */
function refusesAll<T>(arbitrary: fc.Arbitrary<T>, put: (v: T) => Record<string, unknown>, message: RegExp, numRuns = RUNS): void {
  fc.assert(fc.property(arbitrary, (v) => {
    generated++;
    refused(put(v), message);
  }), { numRuns });
}

/** What JavaScript may pass where a string or number belongs. */
const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]));
// null is not among them: like undefined, it leaves an optional prop at its default, since the construct reads props
// with ??.
const notANumber = fc.oneof(fc.string({ maxLength: 4 }), fc.boolean(), fc.constant({}), fc.constant(NaN), fc.constant(Infinity));

describe('clientCidrs', () => {
  test('generated invalid CIDRs are refused naming the prop: host bits, public space, special-purpose space with the opt-in, leading zeros', () => {
    const message = /^clientCidrs: each entry must be a canonical IPv4 CIDR/;
    refusesAll(hostBitsCidr, (c) => ({ clientCidrs: [c] }), message);
    refusesAll(publicCidr, (c) => ({ clientCidrs: [c] }), message);
    refusesAll(specialCidr, (c) => ({ clientCidrs: [c], allowPublicClientCidrs: true }), /^clientCidrs: .*never clients, even with allowPublicClientCidrs/);
    refusesAll(fc.tuple(privateCidr, fc.nat()), ([c, i]) => ({ clientCidrs: [leadingZero(c, i)] }), message);
    refusesAll(notAString, (v) => ({ clientCidrs: [v] }), /^clientCidrs: .*not a string/, 10);
    refusesAll(privateCidr, (c) => ({ clientCidrs: c }), /^clientCidrs must be an array, got '/, 5);
  });

  test('generated valid CIDRs reach the security group and the export unchanged', () => {
    fc.assert(fc.property(fc.uniqueArray(privateCidr, { minLength: 1, maxLength: 3 }), (cidrs) => {
      generated++;
      const { template } = built({ clientCidrs: cidrs });
      for (const cidr of cidrs) expectIngress(template, { CidrIp: cidr, FromPort: 2049, ToPort: 2049 });
      const settings = JSON.stringify(template.findResources('AWS::SSM::Document'));
      for (const cidr of cidrs) expect(settings).toContain(cidr);
    }), { numRuns: VALID_RUNS });
  });
});

describe('clientPeers (issue 26, item 7)', () => {
  const message = /^clientPeers\[0\] admits .*: a peer that admits addresses must follow the clientCidrs rules/;

  test('the review\'s peers: Peer.anyIpv4() and Peer.anyIpv6() are refused, with and without the opt-in, as clientCidrs refuses /0', () => {
    refused({ clientPeers: [ec2.Peer.anyIpv4()] }, /^clientPeers\[0\] admits 0.0.0.0\/0: .*a \/0 \(every IPv4 address\) is refused/);
    refused({ clientPeers: [ec2.Peer.anyIpv4()], allowPublicClientCidrs: true }, /^clientPeers\[0\] admits 0.0.0.0\/0: .*a \/0/);
    refused({ clientPeers: [ec2.Peer.anyIpv6()] }, /^clientPeers\[0\] admits ::\/0: .*a \/0 \(every IPv6 address\) is refused/);
    refused({ clientPeers: [ec2.Peer.anyIpv6()], allowPublicClientCidrs: true }, /^clientPeers\[0\] admits ::\/0/);
    // A connectable that carries a CIDR peer in its connections.
    refused({ clientPeers: [new ec2.Connections({ peer: ec2.Peer.anyIpv4() })] }, /^clientPeers\[0\] admits 0.0.0.0\/0/);
    refused({ clientPeers: [ec2.Peer.ipv6('2600::/12')] }, /^clientPeers\[0\] admits 2600::\/12: .*public IPv6 address space/);
  });

  test('generated CIDR peers follow the clientCidrs rules: public space without the opt-in, special-purpose space with it', () => {
    refusesAll(publicCidr, (c) => ({ clientPeers: [ec2.Peer.ipv4(c)] }), message);
    refusesAll(specialCidr, (c) => ({ clientPeers: [ec2.Peer.ipv4(c)], allowPublicClientCidrs: true }), message);
    refusesAll(hostBitsCidr, (c) => ({ clientPeers: [ec2.Peer.ipv4(c)] }), message);
  });

  test('what is not a connectable is refused naming the prop', () => {
    for (const v of [{}, 'sg-0123456789abcdef0', 42, null]) refused({ clientPeers: [v] }, /^clientPeers\[0\] must be an ec2.IConnectable/);
    refused({ clientPeers: ec2.Peer.anyIpv4() }, /^clientPeers must be an array/);
  });

  test('security groups stay allowed; private CIDR peers pass; public ones with the opt-in pass with the warning', () => {
    const { template } = built((stack) => ({ clientPeers: [ec2.SecurityGroup.fromSecurityGroupId(stack, 'Clients', 'sg-0123456789abcdef0')] }));
    expectIngress(template, { SourceSecurityGroupId: 'sg-0123456789abcdef0', FromPort: 2049 });
    fc.assert(fc.property(privateCidr, publicUnicastCidr, (priv, pub) => {
      generated++;
      const { template: t, stack } = built({ clientPeers: [ec2.Peer.ipv4(priv), ec2.Peer.ipv4(pub)], allowPublicClientCidrs: true });
      expectIngress(t, { CidrIp: priv, FromPort: 2049 });
      expectIngress(t, { CidrIp: pub, FromPort: 2049 });
      Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp(`allowPublicClientCidrs: ${pub.replace(/\./g, '\\.')} is public address space`));
    }), { numRuns: VALID_RUNS });
  });
});

describe('clusterware.loginIp', () => {
  test('generated invalid addresses are refused naming the prop: subnet edges, special-purpose, public, leading zeros', () => {
    const message = /^clusterware.loginIp must be the canonical IPv4 address of one host/;
    refusesAll(subnetEdge, (ip) => ({ clusterware: { loginIp: ip } }), message);
    refusesAll(specialHost, (ip) => ({ clusterware: { loginIp: ip }, allowPublicClientCidrs: true }), message);
    refusesAll(publicHost, (ip) => ({ clusterware: { loginIp: ip } }), message);
    refusesAll(fc.tuple(privateHost, fc.nat()), ([ip, i]) => ({ clusterware: { loginIp: leadingZero(ip, i) } }), message);
    refusesAll(notAString, (v) => ({ clusterware: { loginIp: v } }), message, 10);
  });

  test('a generated host reaches the ring\'s security group rule unchanged', () => {
    // Not one of the addresses EC2 reserves in each of built()'s subnets, the first four and the last, per the Amazon
    // VPC User Guide's "Subnet CIDR blocks". The construct rightly refuses those for loginIp.
    const vpc = new ec2.Vpc(new Stack(new App(), 'Subnets', { env: TARGET }), 'Vpc');
    const subnets = [...vpc.publicSubnets, ...vpc.privateSubnets].map((n) => n.ipv4CidrBlock);
    const instanceHost = privateHost.filter((ip) => !subnets.some((cidr) => reservedIn(ip, cidr)));
    fc.assert(fc.property(instanceHost, (ip) => {
      generated++;
      expectIngress(built({ clusterware: { loginIp: ip } }).template, { CidrIp: `${ip}/32` });
    }), { numRuns: VALID_RUNS });
  });
});

describe('names', () => {
  test('generated invalid names are refused naming the prop (including the review\'s . and ..)', () => {
    for (const prop of ['clusterName', 'serverName']) {
      refused({ [prop]: '..' }, new RegExp(`^${prop} must be 1-64 characters`));
      refused({ [prop]: '.' }, new RegExp(`^${prop} must be 1-64 characters`));
      refusesAll(badName('_.-'), (n) => ({ [prop]: n }), new RegExp(`^${prop} must be 1-64 characters`));
      refusesAll(notAString.filter((v) => v !== null), (v) => ({ [prop]: v }), new RegExp(`^${prop} must be 1-64 characters`), 10);
    }
    refusesAll(name('_-').map((n) => `${n.slice(0, 60)}.x`), (n) => ({ serverName: n }), /^serverName must have no '.' while the server has a dashboard/);
  });

  test('generated names reach the registration (its SSM parameter names) unchanged; a dotted serverName without a dashboard is allowed', () => {
    fc.assert(fc.property(name('_.-'), name('_-'), (cluster, server) => {
      generated++;
      const { template } = built({ clusterName: cluster, serverName: server });
      template.hasResourceProperties('Custom::StorageServerRegistration', { ClusterName: cluster, ServerName: server });
    }), { numRuns: VALID_RUNS });
    expect(() => built({ serverName: 'nfs.1', monitoring: { dashboard: false } })).not.toThrow();
  });
});

describe('alarmEmail and alarmTopic', () => {
  test('generated invalid addresses are refused naming the prop (the review\'s a@.b.c among them)', () => {
    refused({ alarmEmail: 'a@.b.c' }, /^alarmEmail must be one e-mail address/);
    refusesAll(badEmail, (e) => ({ alarmEmail: e }), /^alarmEmail must be one e-mail address/);
    refusesAll(notAString.filter((v) => v !== null), (v) => ({ alarmEmail: v }), /^alarmEmail must be a string/, 10);
  });

  test('a generated address reaches the subscription unchanged', () => {
    fc.assert(fc.property(email, (e) => {
      generated++;
      built({ alarmEmail: e }).template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: e });
    }), { numRuns: VALID_RUNS });
  });

  test('a topic in another region or account than the stack\'s is refused naming the prop; the stack\'s own is taken', () => {
    const topic = (arn: string) => sns.Topic.fromTopicArn(badStack, `T${id++}`, arn);
    refused({ alarmTopic: topic('arn:aws:sns:eu-west-1:123456789012:alarms') }, /^alarmTopic must be .*the topic is in eu-west-1, but the stack deploys to us-east-1/);
    refused({ alarmTopic: topic('arn:aws:sns:us-east-1:210987654321:alarms') }, /^alarmTopic must be .*account 210987654321/);
    refused({ alarmTopic: topic('arn:aws:sns:us-east-1:123456789012:alarms.fifo') }, /^alarmTopic must be .*FIFO/);
    refused({ alarmTopic: 'arn:aws:sns:us-east-1:123456789012:alarms' }, /^alarmTopic must be an sns.ITopic/);
    const { template } = built((stack) => ({ alarmTopic: sns.Topic.fromTopicArn(stack, 'Topic', 'arn:aws:sns:us-east-1:123456789012:alarms') }));
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmActions: ['arn:aws:sns:us-east-1:123456789012:alarms'] });
  });
});

describe('fsxLustre.dataRepositoryPath', () => {
  test('generated invalid paths are refused naming the prop (the review\'s malformed S3 paths among them)', () => {
    for (const path of ['s3://a..b', 's3://192.168.1.1/x', 's3://bucket//x']) {
      refused({ backend: 'fsx-lustre', fsxLustre: { dataRepositoryPath: path } }, /^fsxLustre.dataRepositoryPath must be an S3 path/);
    }
    refusesAll(badS3Path, (p) => ({ backend: 'fsx-lustre', fsxLustre: { dataRepositoryPath: p } }), /^fsxLustre.dataRepositoryPath must be an S3 path/);
  });

  test('a generated path reaches the file system\'s data repository unchanged', () => {
    fc.assert(fc.property(s3Path, (p) => {
      generated++;
      const { template } = built({ backend: Backend.FSX_LUSTRE, capacityTiB: 2, fsxLustre: { dataRepositoryPath: p } });
      template.hasResourceProperties('AWS::FSx::DataRepositoryAssociation', { DataRepositoryPath: p });
    }), { numRuns: VALID_RUNS });
  });
});

describe('enums and numbers a JavaScript caller can get wrong', () => {
  test('nfs.version: only 4.1 and 4.2 (the review\'s \'4.1,suid\' reached the mount record); 4.2 reaches the mount options', () => {
    refused({ nfs: { version: '4.1,suid' } }, /^nfs.version must be one of "4.1", "4.2", got "4.1,suid"/);
    refusesAll(fc.oneof(fc.string({ maxLength: 8 }), fc.double()).filter((v) => v !== '4.1' && v !== '4.2'), (v) => ({ nfs: { version: v } }), /^nfs.version must be one of "4.1", "4.2"/);
    expect(JSON.stringify(built({ nfs: { version: NfsVersion.V4_2 } }).template.toJSON())).toContain('nfsvers=4.2');
  });

  test('nfs.nconnect: a whole number 1-16 (nfs(5): "up to a limit of 16"); 1 writes no option, 16 is the default', () => {
    refused({ nfs: { nconnect: '16' } }, /^nfs.nconnect must be a whole number from 1 \(one connection: no nconnect option\) to 16, got "16"/);
    refusesAll(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 17 }), fc.double({ min: 1.01, max: 15.99, noInteger: true }), notANumber),
      (v) => ({ nfs: { nconnect: v } }), /^nfs.nconnect must be a whole number from 1 \(one connection: no nconnect option\) to 16/);
    const options = (t: Template) => Object.values(t.findResources('Custom::StorageServerRegistration'))
      .map((r) => JSON.stringify(r.Properties)).join('');
    // The registration's MountOptions: the rest of the template names nconnect in the scripts it carries.
    expect(options(built({ nfs: { nconnect: 4 } }).template)).toContain('retrans=2,nconnect=4,_netdev');
    expect(options(built({ nfs: { nconnect: 1 } }).template)).not.toContain('nconnect');
    expect(options(built({ nfs: { nconnect: 1 } }).template)).toContain('retrans=2,_netdev');
    expect(options(built({}).template)).toContain('nconnect=16');
  });

  test('nfs.exportMode, nfs.threads, removalPolicy', () => {
    refusesAll(fc.string({ maxLength: 8 }).filter((v) => v !== 'sync' && v !== 'async'), (v) => ({ nfs: { exportMode: v } }), /^nfs.exportMode must be one of "sync", "async"/);
    refusesAll(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 1025 }), fc.double({ min: 1.01, max: 1023.99, noInteger: true }), notANumber), (v) => ({ nfs: { threads: v } }), /^nfs.threads must be a whole number from 1 to 1024/);
    refusesAll(fc.string({ maxLength: 10 }).filter((v) => !(Object.values(RemovalPolicy) as string[]).includes(v)), (v) => ({ removalPolicy: v }), /^removalPolicy must be one of "destroy", "retain"/);
  });

  test('fsxLustre options, monitoring thresholds and the clusterware uuid: strings for numbers and unknown words are refused naming the prop', () => {
    const fsx = (o: Record<string, unknown>) => ({ backend: 'fsx-lustre', fsxLustre: o });
    refusesAll(fc.string({ maxLength: 14 }).filter((v) => !['PERSISTENT_2', 'PERSISTENT_1', 'SCRATCH_2'].includes(v)), (v) => fsx({ deploymentType: v }), /^fsxLustre.deploymentType must be one of /);
    refusesAll(fc.string({ maxLength: 4 }).filter((v) => v !== 'SSD' && v !== 'HDD'), (v) => fsx({ storageType: v }), /^fsxLustre.storageType must be one of SSD, HDD/);
    refusesAll(fc.oneof(fc.constantFrom('125', '250'), fc.integer({ min: 1, max: 2000 }).filter((n) => ![125, 250, 500, 1000].includes(n))), (v) => fsx({ perUnitStorageThroughput: v }), /^fsxLustre.perUnitStorageThroughput must be one of 125, 250, 500, 1000/);
    refusesAll(fc.oneof(fc.constantFrom('85', 0, 100, -1, NaN), fc.double({ min: 100, max: 1e6 })), (v) => ({ monitoring: { fileSystemUsedWarningPercent: v } }), /^monitoring: fileSystemUsedWarningPercent must be a percentage above 0 and below 100/, 10);
    refusesAll(fc.oneof(fc.constantFrom('3', 0, 61, 1.5), fc.integer({ min: 61 })), (v) => ({ monitoring: { exportDownMinutes: v } }), /^monitoring: exportDownMinutes must be a whole number of minutes from 1 to 60/, 10);
    refusesAll(fc.oneof(fc.uuid().map((u) => u.toUpperCase()).filter((u) => /[A-F]/.test(u)), fc.string({ maxLength: 12 })), (v) => ({ clusterware: { loginIp: '10.0.1.10', clusterUuid: v } }), /^clusterUuid must be a lower-case UUID/, 10);
  });

  test('booleans take true and false only', () => {
    for (const prop of ['allowPublicClientCidrs', 'terminationProtection', 'encryptInstanceStore', 'acceptDataLoss', 'legacyVolumeAttachments', 'allowHomeMountPoint']) {
      refusesAll(fc.oneof(fc.constantFrom('true', 'false', 0, 1, null), fc.string({ maxLength: 4 })), (v) => ({ [prop]: v }), new RegExp(`^${prop} must be one of true, false`), 6);
    }
    refusesAll(fc.constantFrom('true', 1), (v) => ({ snapshots: { applicationConsistent: v } }), /^snapshots.applicationConsistent must be one of true, false/, 2);
    refusesAll(fc.constantFrom('false', 0), (v) => ({ monitoring: { dashboard: v } }), /^monitoring.dashboard must be one of true, false/, 2);
  });

  test('snapshots: retain, intervalHours, startTimeUtc, crossRegionCopy.targetRegion', () => {
    refusesAll(fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 1001 }), notANumber), (v) => ({ snapshots: { retain: v } }), /^snapshots.retain must be a whole number from 0/);
    refusesAll(fc.integer({ min: 0, max: 48 }).filter((h) => ![1, 2, 3, 4, 6, 8, 12, 24].includes(h)), (v) => ({ snapshots: { intervalHours: v } }), /^snapshots.intervalHours must be one of 1, 2, 3, 4, 6, 8, 12, 24/);
    // HH:MM with HH 00-23 and MM 00-59, as DLM's CreateRule Times takes: everything else.
    const badTime = fc.oneof(
      fc.tuple(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}:${String(m).padStart(2, '0')}`),
      fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 60, max: 99 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${m}`),
      fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}:${String(m).padStart(2, '0')}`),
      fc.constantFrom('03:00:00', '0300', '3am', ''), notAString.filter((v) => v !== null),
    );
    refusesAll(badTime, (t) => ({ snapshots: { startTimeUtc: t } }), /^snapshots.startTimeUtc must be HH:MM in UTC/);
    refusesAll(fc.constantFrom('EU-WEST-1', 'eu-west', 'eu_west_1', 'euwest1', 'eu-west-01', ''), (r) => ({ snapshots: { crossRegionCopy: { targetRegion: r } } }), /^snapshots.crossRegionCopy.targetRegion must be a region name/, 6);
  });

  test('capacity and throughput: the planner names its fields; beyond what the app records is refused naming the prop', () => {
    refusesAll(notANumber, (v) => ({ capacityTiB: v }), /^capacityTiB must be/);
    refusesAll(fc.integer({ min: 9766, max: 10 ** 9 }), (v) => ({ capacityTiB: v }), /^capacityTiB asks for an FSx for Lustre file system of \d+ GiB/, 5);
    refusesAll(fc.integer({ min: 10 ** 8, max: 10 ** 12 }), (v) => ({ throughputMBps: v }), /^throughputMBps asks for an FSx for Lustre file system/, 5);
    refusesAll(fc.oneof(fc.integer({ max: 0 }), notANumber.filter((v) => typeof v !== 'string' || v !== '')), (v) => ({ throughputMBps: v }), /^throughputMBps must be a number of MB\/s greater than 0/, 10);
    refusesAll(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 22 }), notANumber), (v) => ({ backend: 'ebs', dataVolumeCount: v }), /^dataVolumeCount must be a whole number from 1 to 21/, 10);
  });

  test('object props of the wrong kind are refused naming the prop', () => {
    refused({ vpc: undefined }, /^vpc must be an ec2.IVpc, got undefined/);
    refused({ instanceType: 'm4.xlarge' }, /^instanceType must be an ec2.InstanceType/);
    refused({ keyPair: 'admin' }, /^keyPair must be an ec2.IKeyPair/);
    refused({ placementGroup: 'hpc-pg' }, /^placementGroup must be an ec2.IPlacementGroup/);
    refused({ kmsKey: 'alias/x' }, /^kmsKey must be a kms.IKey/);
    refused({ securityGroup: 'sg-0123456789abcdef0' }, /^securityGroup must be an ec2.ISecurityGroup/);
    refused({ securityGroup: { id: 'sg-0123456789abcdef0' } }, /^securityGroup must be an ec2.ISecurityGroup/);
    refused({ nfs: '4.1' }, /^nfs must be an object of options/);
    refused({ parameterPrefix: 42 }, /^parameterPrefix must be a string/);
    refusesAll(badEc2Id('ami'), (v) => ({ machineImageId: v }), /^machineImageId must be an image id such as 'ami-0123456789abcdef0'/);
    refusesAll(stringOf('abc', 1, 5), (v) => ({ dataVolumeSnapshotIds: v }), /^dataVolumeSnapshotIds must be an array/, 3);
  });
});

test('the count and the time', () => {
  console.log(`prop-grammar: ${generated} generated prop values in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(generated).toBeGreaterThan(500);
});

/** Whether `ip` is one of the five addresses EC2 reserves in subnet `cidr`: its first four and its last. */
function reservedIn(ip: string, cidr: string): boolean {
  const toInt = (a: string) => a.split('.').reduce((n, o) => n * 256 + Number(o), 0);
  const [base, prefix] = cidr.split('/');
  const size = 2 ** (32 - Number(prefix));
  const offset = toInt(ip) - toInt(base);
  return offset >= 0 && offset < size && (offset <= 3 || offset === size - 1);
}
