import { handler } from '../../lambda/update-guard';
import { PROP, RESOURCE_TYPE } from '../../lambda/update-guard/contract';
import { CONTINUE_ROLLBACK_GUIDE, MAX_MESSAGE_LENGTH, stackNameOf, unreadStatusMessage } from '../../lambda/update-guard/messages';
import { canonical, compareWatched, parseWatched, type WatchedProperties } from '../../lambda/update-guard/watched';

// The watched half of the update guard through its handler: the resources recorded by CloudFormation's replacement
// rules, the server's identity, and the rollback that always passes. The stack status is the one branch moto cannot
// reach, since it never rolls a stack back: a stand-in answers it here, and the real call is tested against moto in
// test/integration/update-guard.test.ts.
let status: { status?: string; error?: string; attempts?: number } = { status: 'UPDATE_IN_PROGRESS' };
jest.mock('../../lambda/update-guard/aws', () => ({
  ...jest.requireActual('../../lambda/update-guard/aws'),
  findServerResources: async () => [],
  // No FSx file system in CloudFormation's record: the growth interval is update-guard-growth-interval.test.ts's.
  physicalIdIn: async () => undefined,
  stackStatus: async () => status,
}));
beforeEach(() => {
  status = { status: 'UPDATE_IN_PROGRESS' };
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

const layout = (backend: 'ebs' | 'instance-store', extra: Record<string, unknown> = {}) => ({
  [PROP.backend]: backend, [PROP.instanceStoreType]: backend === 'ebs' ? '' : 'd2.xlarge',
  [PROP.dataVolumes]: backend === 'ebs' ? ['0:5120'] : [], [PROP.snapshotIds]: [], [PROP.encryptionKey]: 'aws/ebs',
  [PROP.availabilityZone]: 'us-east-1a', [PROP.imageId]: '', [PROP.keyPair]: '', [PROP.placementGroup]: '',
  [PROP.volumeAttachment]: 'server', [PROP.acceptDataLoss]: 'false', ...extra,
});
const instance = (subnet: string, version = '1') => ({
  Type: 'AWS::EC2::Instance', LogicalId: 'StorageInstance1', Watching: ['LaunchTemplate', 'SubnetId', 'UserData'],
  Properties: { SubnetId: subnet, LaunchTemplate: { LaunchTemplateName: 'lt', Version: version } },
});
const iface = (subnet: string) => ({ Type: 'AWS::EC2::NetworkInterface', LogicalId: 'StorageInterface1', Watching: ['SubnetId'], Properties: { SubnetId: subnet } });
const identity = (cluster = 'hpc', server = 'storage1') => ({ StackName: `StorageServer-${cluster}-${server}`, ClusterName: cluster, ServerName: server, ServerId: `StorageServer-${cluster}-${server}/${server}` });
const props = (backend: 'ebs' | 'instance-store', subnet = 'subnet-0aaaaaaaaaaaaaaa1', version = '1', more: Record<string, unknown> = {}) => ({
  ServiceToken: 't', ...layout(backend),
  Watched: { Instance: instance(subnet, version), ...(backend === 'ebs' ? { Interface: iface(subnet) } : {}) },
  Identity: identity(), ...more,
});
const base = { ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1', RequestId: 'r', LogicalResourceId: 'Guard', ResourceType: RESOURCE_TYPE };
async function update(old: Record<string, unknown>, next: Record<string, unknown>): Promise<unknown> {
  const created = await handler({ ...base, RequestType: 'Create', ResourceProperties: old } as never);
  return handler({ ...base, RequestType: 'Update', PhysicalResourceId: created.PhysicalResourceId, OldResourceProperties: old, ResourceProperties: next } as never);
}

describe('resources watched by the replacement rules', () => {
  test('instance store: a new subnet replaces the instance and its disks: refused, naming Instance.SubnetId and the safe path', async () => {
    await expect(update(props('instance-store'), props('instance-store', 'subnet-0aaaaaaaaaaaaaaa2')))
      .rejects.toThrow(/Instance\.SubnetId "subnet-0aaaaaaaaaaaaaaa1" -> "subnet-0aaaaaaaaaaaaaaa2": AWS::EC2::Instance SubnetId changed: it replaces the instance or stops and starts it, and every instance-store disk goes with it\. Safe path: undo the change of subnetId/);
  });

  test('instance store: a new launch template version (an IMDS setting, a new aws-cdk-lib) is refused', async () => {
    await expect(update(props('instance-store'), props('instance-store', undefined, '2'))).rejects.toThrow(/Instance\.LaunchTemplate/);
  });

  test('EBS: the instance may be replaced (a new launch template version passes), the interface may not (a new subnet is refused)', async () => {
    await expect(update(props('ebs'), props('ebs', undefined, '2'))).resolves.toHaveProperty('PhysicalResourceId');
    const refused = update(props('ebs'), props('ebs', 'subnet-0aaaaaaaaaaaaaaa2'));
    await expect(refused).rejects.toThrow(/Interface\.SubnetId .*the address every client mounted goes with it/);
    await expect(update(props('ebs'), props('ebs', 'subnet-0aaaaaaaaaaaaaaa2'))).rejects.not.toThrow(/Instance\.SubnetId/);
  });

  test('EBS with CloudFormation-attached volumes: the instance may not be replaced', async () => {
    const legacy = (v: string) => ({ ...props('ebs', undefined, v), [PROP.volumeAttachment]: 'retained' });
    await expect(update(legacy('1'), legacy('2'))).rejects.toThrow(/Instance\.LaunchTemplate .*legacyVolumeAttachments/);
  });

  test('a new logical id (a renamed or moved construct) and a removed resource are refused', async () => {
    const old = props('ebs');
    const renamed = { ...old, Watched: { ...old.Watched, Interface: { ...iface('subnet-0aaaaaaaaaaaaaaa1'), LogicalId: 'OtherInterface1' } } };
    await expect(update(old, renamed)).rejects.toThrow(/Interface \(logical id\) StorageInterface1 -> OtherInterface1: a new logical id is a new resource/);
    const removed = { ...old, Watched: { Instance: old.Watched.Instance } };
    await expect(update(old, removed)).rejects.toThrow(/Interface StorageInterface1 -> \(removed\)/);
  });

  test('a property watched on one side only is recorded, not compared (the watch list grew with a new release)', async () => {
    const old = props('instance-store');
    const next = props('instance-store');
    (next.Watched.Instance as { Watching: string[]; Properties: Record<string, unknown> }).Watching.push('KeyName');
    (next.Watched.Instance as { Properties: Record<string, unknown> }).Properties.KeyName = 'ops';
    await expect(update(old, next)).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('a guard deployed before the watched half: its first update records it', async () => {
    const old: Record<string, unknown> = { ...props('instance-store') };
    delete old.Watched;
    delete old.Identity;
    await expect(update(old, props('instance-store', 'subnet-0aaaaaaaaaaaaaaa2'))).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('acceptDataLoss lets it pass', async () => {
    const next = { ...props('instance-store', 'subnet-0aaaaaaaaaaaaaaa2'), [PROP.acceptDataLoss]: 'true' };
    await expect(update(props('instance-store'), next)).resolves.toHaveProperty('PhysicalResourceId');
  });
});

describe('identity', () => {
  test('a cluster or server rename is refused, naming the setting', async () => {
    await expect(update(props('ebs'), props('ebs', undefined, '1', { Identity: identity('other') }))).rejects.toThrow(/Identity\.ClusterName hpc -> other: a cluster rename moves this stack's server/);
    await expect(update(props('ebs'), props('ebs', undefined, '1', { Identity: identity('hpc', 'storage2') }))).rejects.toThrow(/Identity\.ServerName storage1 -> storage2/);
  });
});

describe('rollbacks always pass', () => {
  test('an accepted change (growth), then a later resource fails: the Update back is accepted while the stack rolls back', async () => {
    const before = props('ebs');
    const grown = { ...props('ebs'), [PROP.dataVolumes]: ['0:8192'] };
    // The recorded sequence: Create, the accepted Update of growth, then CloudFormation's rollback Update with the old
    // properties as the new ones, which would read as "smaller volumes".
    const created = await handler({ ...base, RequestType: 'Create', ResourceProperties: before } as never);
    const accepted = await handler({ ...base, RequestType: 'Update', PhysicalResourceId: created.PhysicalResourceId, OldResourceProperties: before, ResourceProperties: grown } as never);
    const rollback = { ...base, RequestType: 'Update', PhysicalResourceId: accepted.PhysicalResourceId, OldResourceProperties: grown, ResourceProperties: before } as never;
    status = { status: 'UPDATE_IN_PROGRESS' };
    await expect(handler(rollback)).rejects.toThrow(/DataVolumes 0:8192 -> 0:5120: EBS cannot shrink a volume/);
    status = { status: 'UPDATE_ROLLBACK_IN_PROGRESS' };
    await expect(handler(rollback)).resolves.toEqual({ PhysicalResourceId: created.PhysicalResourceId });
  });

  test('the same for an accepted EBS instance replacement followed by a rollback of a refused-looking watched change', async () => {
    status = { status: 'UPDATE_ROLLBACK_IN_PROGRESS' };
    await expect(update(props('instance-store', 'subnet-0aaaaaaaaaaaaaaa2'), props('instance-store'))).resolves.toHaveProperty('PhysicalResourceId');
  });

  test('when the status cannot be read, the change is refused with the way to continue a rollback, and the reason is logged', async () => {
    status = { error: 'AccessDenied: no', attempts: 1 };
    const errors: string[] = [];
    (console.error as jest.Mock).mockImplementation((line: string) => errors.push(line));
    const message = await update(props('instance-store'), props('instance-store', 'subnet-0aaaaaaaaaaaaaaa2')).catch((e: Error) => e.message);
    expect(message).toMatch(/^StorageServer update refused: the update guard could not read its stack's status \(DescribeStacks: AccessDenied: no\)/);
    // The stack's name, from the event's StackId, arn:...:stack/s/1.
    expect(message).toContain('aws cloudformation continue-update-rollback --stack-name s (');
    expect(message).toMatch(/Instance\.SubnetId .*Safe path: undo the change of subnetId/);
    expect(errors.join('\n')).toContain('could not read the stack status');
  });

  test('a status read that answers without the stack counts as unread', async () => {
    status = {};
    await expect(update(props('instance-store'), props('instance-store', 'subnet-0aaaaaaaaaaaaaaa2'))).rejects.toThrow(/continue-update-rollback/);
  });
});

describe('the message of a refusal made without the stack status', () => {
  const refusal = { setting: 'DataVolumes', oldValue: '0:800', newValue: '0:500', why: 'EBS cannot shrink a volume', safePath: 'keep it', accepted: false };

  test('names the stack from its StackId, or passes the StackId on when it is not an ARN (--stack-name takes both)', () => {
    expect(stackNameOf('arn:aws:cloudformation:us-east-1:123456789012:stack/StorageServer-hpc-storage1/0a1b2c3d-1111-2222-3333-444455556666'))
      .toBe('StorageServer-hpc-storage1');
    expect(stackNameOf('arn:aws-cn:cloudformation:cn-north-1:123456789012:stack/s/1')).toBe('s');
    expect(stackNameOf('not-an-arn')).toBe('not-an-arn');
  });

  test('one line: why, how to continue a rollback (AWS\'s page), each refusal with its safe path, how to accept the loss', () => {
    const message = unreadStatusMessage([refusal], 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1', 'Throttling: Rate exceeded');
    expect(message).not.toContain('\n');
    expect(message).toContain(`continue-update-rollback --stack-name s (AWS CloudFormation User Guide, "Continue rolling back an update", ${CONTINUE_ROLLBACK_GUIDE})`);
    expect(message).toContain('these refusals stand: DataVolumes 0:800 -> 0:500: EBS cannot shrink a volume. Safe path: keep it.');
    expect(message).toMatch(/acceptDataLoss=true \(context\) or acceptDataLoss: true \(prop\)\.$/);
  });

  test(`stays under ${MAX_MESSAGE_LENGTH} characters: the way to continue is kept, refusals counted`, () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ ...refusal, setting: `DataVolume${i}.Size`, why: 'x'.repeat(200) }));
    const message = unreadStatusMessage(many, 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1', 'E: '.repeat(400));
    expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(message).toContain('continue-update-rollback --stack-name s');
    expect(message).toMatch(/And \d+ more refusal\(s\), listed in the log of the guard function\./);
  });
});

describe('the properties are checked before they are used', () => {
  test('an unknown watched type, a bad logical id, unknown keys: refused naming the place', () => {
    expect(() => parseWatched({ Watched: { X: { Type: 'AWS::S3::Bucket', LogicalId: 'A', Watching: [], Properties: {} } } }, 'P'))
      .toThrow(/P\.Watched\.X\.Type must be one of AWS::EC2::Instance/);
    expect(() => parseWatched({ Watched: { X: { Type: 'AWS::EC2::Volume', LogicalId: 'a b', Watching: [] } } }, 'P')).toThrow(/P\.Watched\.X\.LogicalId/);
    expect(() => parseWatched({ Watched: { X: { Type: 'AWS::EC2::Volume', LogicalId: 'A', Extra: 1 } } }, 'P')).toThrow(/unknown keys Extra/);
    expect(() => parseWatched({ Identity: { StackName: 's', ClusterName: 'c', ServerName: 's' } }, 'P')).toThrow(/P\.Identity\.ServerId/);
    expect(() => parseWatched({ Watched: { 'bad role': {} } }, 'P')).toThrow(/role "bad role"/);
  });

  test('values compare by canonical JSON: key order does not matter, values do', () => {
    expect(canonical({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(canonical({ a: [{ x: 1, y: 2 }], b: 1 }));
    const w = (v: unknown): WatchedProperties => parseWatched({ Watched: { I: { Type: 'AWS::EC2::Instance', LogicalId: 'I', Watching: ['LaunchTemplate'], Properties: { LaunchTemplate: v } } } }, 'P');
    const l = { backend: 'instance-store' } as never;
    expect(compareWatched(w({ a: '1', b: '2' }), w({ b: '2', a: '1' }), l, false)).toEqual([]);
    expect(compareWatched(w({ a: '1' }), w({ a: '2' }), l, false)).toHaveLength(1);
  });
});
