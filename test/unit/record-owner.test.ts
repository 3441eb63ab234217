/**
 * Whose a record is, by lambda/register/owner.ts: what a name holds, read from its value, and whether a registration
 * may write over it or delete it. The handler's use of it runs against moto in test/integration/register-owner.test.ts.
 */
import { holding, refusal, type Claimant, type RecordKind, type RecordOwner } from '../../lambda/register/contract';

const STACK = 'arn:aws:cloudformation:us-east-1:123456789012:stack/StorageServer-hpc1-ring/guid-1';
const OTHER_STACK = 'arn:aws:cloudformation:us-east-1:123456789012:stack/StorageServer-other/guid-2';
const RING = '/storage-server/hpc1/ring/ring';
const MOUNT = '/storage-server/hpc1/storage/ring/mount';

function owner(record: 'ring' | 'mount', over: Partial<RecordOwner> = {}): RecordOwner {
  return { stackId: STACK, logicalResourceId: 'Registration', record: record as RecordKind, clusterName: 'hpc1', serverName: 'ring', ...over };
}
function claimant(record: 'ring' | 'mount', over: Partial<Claimant> = {}): Claimant {
  return { owner: owner(record), ids: ['i-0aaaaaaaaaaaaaaaa', 'i-0bbbbbbbbbbbbbbbb'], ringIsOurs: false, deleting: false, ...over };
}
const ring = (id: string, name = 'ring', over: object = {}) =>
  JSON.stringify({ name, role: 'storage', instanceId: id, privateIp: '10.0.1.5', backend: 'ebs', registeredAt: 'x', ...over });
const mount = (over: object = {}) => JSON.stringify({
  server: '10.0.1.5', exportPath: '/export/data', mountPoint: '/data', fsType: 'nfs4', options: 'hard', fstab: '10.0.1.5:/export/data /data nfs4 hard 0 0', ...over,
});

describe('what a name holds', () => {
  test.each([
    ['a marked record', mount({ owner: owner('mount') }), { is: 'marked', owner: owner('mount') }],
    ['a ring record written before marks', ring('i-0aaaaaaaaaaaaaaaa'), { is: 'unmarked ring', serverName: 'ring', ownerId: 'i-0aaaaaaaaaaaaaaaa' }],
    ['an FSx ring record written before marks', JSON.stringify({ name: 's', role: 'storage', fileSystemId: 'fs-0123456789abcdef0' }), { is: 'unmarked ring', serverName: 's', ownerId: 'fs-0123456789abcdef0' }],
    ['a mount record written before marks', mount(), { is: 'unmarked mount' }],
    ['a value that is not JSON', 'hpc1 storage', { is: 'other', what: 'a value that is not JSON' }],
    ['an array', '[]', { is: 'other', what: 'a JSON value that is not an object' }],
    ['another object', '{"stale":true}', { is: 'other', what: 'a JSON object that is neither a ring record nor a mount record' }],
    ['an owner mark that is not one', mount({ owner: { stackId: STACK } }), { is: 'other', what: 'a record whose owner mark is not one' }],
  ])('%s', (_what, value, expected) => {
    expect(holding(value)).toEqual(expected);
  });
});

describe('a registration writes over, and deletes, only what it wrote', () => {
  test.each([
    ['its own marked ring record', RING, mount({ owner: owner('ring') }), claimant('ring')],
    ['its own marked mount record', MOUNT, mount({ owner: owner('mount') }), claimant('mount')],
    ['its own, deleted by the resource that wrote it', MOUNT, mount({ owner: owner('mount') }), claimant('mount', { deleting: true })],
    ['a record another resource of its stack wrote (a construct moved), written over', RING, ring('i-0', 'ring', { owner: owner('ring', { logicalResourceId: 'Moved' }) }), claimant('ring')],
    ['a ring record written before marks, naming its instance', RING, ring('i-0aaaaaaaaaaaaaaaa'), claimant('ring')],
    ['a ring record written before marks, naming the instance it replaces', RING, ring('i-0bbbbbbbbbbbbbbbb'), claimant('ring')],
    ['a mount record written before marks, beside its own ring record', MOUNT, mount(), claimant('mount', { ringIsOurs: true })],
  ])('ours: %s', (_what, name, value, c) => {
    expect(refusal(name, holding(value), c)).toBeUndefined();
  });

  test.each([
    ['a record of another stack', RING, ring('i-0', 'ring', { owner: owner('ring', { stackId: OTHER_STACK }) }), claimant('ring'),
      `${RING} belongs to Registration of stack ${OTHER_STACK}, not to Registration of stack ${STACK}: another server of the cluster is registered under this name`],
    ['a record another resource of its stack took over, on Delete', RING, ring('i-0', 'ring', { owner: owner('ring', { logicalResourceId: 'Moved' }) }), claimant('ring', { deleting: true }),
      `${RING} belongs to Moved of stack ${STACK}, not to Registration of stack ${STACK}`],
    ['a ring record written before marks, of another instance', RING, ring('i-0cccccccccccccccc'), claimant('ring'),
      `${RING} belongs to i-0cccccccccccccccc, not to i-0aaaaaaaaaaaaaaaa (or to i-0bbbbbbbbbbbbbbbb, which it replaces): another server`],
    ['a ring record written before marks where the mount record goes (the issue: another cluster\'s server)', MOUNT, ring('i-0cccccccccccccccc', 'mount'), claimant('mount', { ringIsOurs: true }),
      `${MOUNT} holds the ring record of i-0cccccccccccccccc (server mount), written before owner marks, where this server's mount record ` +
        'goes: a registration writes over and deletes only the records it wrote (docs/design.md, section 7)'],
    ['a marked ring record where the mount record goes', MOUNT, ring('i-0', 'mount', { owner: owner('ring', { clusterName: 'storage', serverName: 'mount' }) }), claimant('mount'),
      `${MOUNT} holds the ring record of storage/mount (written by Registration of stack ${STACK}), where this server's mount record goes`],
    ['a mount record where the ring record goes', RING, mount(), claimant('ring'), `${RING} holds a mount record written before owner marks, where this server's ring record goes`],
    ['a mount record written before marks whose ring record is not its own', MOUNT, mount(), claimant('mount'),
      `${MOUNT} holds a mount record written before owner marks that this registration cannot show it wrote (the server's ring record is not its own)`],
    ['something else', RING, '{"stale":true}', claimant('ring'), `${RING} holds a JSON object that is neither a ring record nor a mount record, where this server's ring record goes`],
    ['a value that is not JSON', MOUNT, 'x', claimant('mount', { ringIsOurs: true }), `${MOUNT} holds a value that is not JSON`],
  ])('refused: %s', (_what, name, value, c, message) => {
    expect(refusal(name, holding(value), c)).toContain(message);
  });
});
