import { BACKENDS, type Backend } from '../../lambda/register/backend';
import {
  UPDATE_POLICIES,
  VOLUME_ATTACHMENTS,
  VOLUME_RULES,
  type DataVolumeLayout,
  type LayoutField,
  type Objection,
  type StorageLayout,
} from '../../lambda/update-guard/contract';
import { existingMessage, refusalMessage, unreadStatusMessage } from '../../lambda/update-guard/messages';
import { COPY_TOOL } from '../../lambda/update-guard/objections';
import { compareWatched, roleObjection, type WatchedProperties } from '../../lambda/update-guard/watched';
import { WATCHED_TYPES } from '../../lambda/update-guard/watched-types';
import { LAYOUT_FIELDS, PROP, SERVER_ID_TAG, renderField, type TaggedResource } from '../../lambda/update-guard/wire';

// Every refusal names a safe path that works, and never only acceptDataLoss, which the message offers itself after the
// safe path. The policy table is data: every field's policy is walked over layouts of every backend and over changes to
// every value the walk knows for the field, and every objection it raises is checked. The walk must reach every field
// that refuses anywhere and every volume rule, or it checks nothing.

const KEY = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-1111-2222-3333-444455556666';
const [SUBNET_A, SUBNET_B, SUBNET_C] = ['subnet-0aaaaaaaaaaaaaaa1', 'subnet-0bbbbbbbbbbbbbbb1', 'subnet-0ccccccccccccccc1'];
const st1 = (index: number, sizeGiB = 8192): DataVolumeLayout => ({ index, sizeGiB });
const gp3 = (index: number, sizeGiB: number): DataVolumeLayout => ({ index, sizeGiB, volumeType: 'gp3', iops: 3000, throughputMiBps: 125 });

const EMPTY: StorageLayout = {
  backend: 'ebs', instanceStoreType: '', dataVolumes: [], snapshotIds: [], encryptionKey: 'aws/ebs', availabilityZone: 'us-east-1a',
  imageId: 'ami-0123456789abcdef0', keyPair: '', placementGroup: '', volumeAttachment: 'server', fileSystemType: '',
  perUnitStorageThroughput: '', storageCapacityGiB: '', subnetId: '', instanceStoreEncryption: '', throughputCapacity: '',
  standbySubnetId: '', diskIops: '', metadataIops: '', snapshotRetain: '7',
};

/** Layouts of every backend, in the variants the policies tell apart. */
const LAYOUTS: readonly StorageLayout[] = [
  ...VOLUME_ATTACHMENTS.map((volumeAttachment) => ({ ...EMPTY, dataVolumes: [st1(0), st1(1)], volumeAttachment })),
  { ...EMPTY, dataVolumes: [st1(0), st1(1)], snapshotIds: ['snap-0123456789abcdef0', 'snap-0123456789abcdef1'] },
  { ...EMPTY, dataVolumes: [gp3(0, 100)] },
  ...['', 'luks2'].map((instanceStoreEncryption) => ({
    ...EMPTY, backend: 'instance-store' as const, instanceStoreType: 'd2.4xlarge', instanceStoreEncryption,
  })),
  ...['PERSISTENT_2/SSD', 'PERSISTENT_1/HDD', 'SCRATCH_2/SSD'].map((fileSystemType) => ({
    ...EMPTY, backend: 'fsx-lustre' as const, encryptionKey: 'aws/fsx', imageId: '', volumeAttachment: 'stack' as const, fileSystemType,
    perUnitStorageThroughput: fileSystemType.startsWith('SCRATCH') ? '' : '125', storageCapacityGiB: '14400', subnetId: SUBNET_A,
    metadataIops: fileSystemType === 'PERSISTENT_2/SSD' ? '12000' : '',
  })),
  ...[['SINGLE_AZ_2/SSD', ''], ['MULTI_AZ_1/SSD', SUBNET_B]].map(([fileSystemType, standbySubnetId]) => ({
    ...EMPTY, backend: 'fsx-openzfs' as const, encryptionKey: 'aws/fsx', imageId: '', volumeAttachment: 'stack' as const, fileSystemType,
    storageCapacityGiB: '1024', subnetId: SUBNET_A, throughputCapacity: '160', standbySubnetId, diskIops: 'AUTOMATIC',
  })),
];

/** Values beyond those of {@link LAYOUTS}, so that every kind of change of a field is tried. */
const MORE: { readonly [F in LayoutField]?: readonly StorageLayout[F][] } = {
  instanceStoreType: ['d2.8xlarge'],
  dataVolumes: [
    [st1(0)], [st1(0), st1(1), st1(2)], [st1(0), st1(2)], [st1(1), st1(0)], [st1(0), st1(1, 4096)], [st1(0, 16384), st1(1, 16384)],
    [gp3(0, 8192), gp3(1, 8192)], [st1(0, 100)],
  ],
  snapshotIds: [[], ['snap-0fedcba9876543210', 'snap-0fedcba9876543211'], ['snap-0123456789abcdef1', 'snap-0123456789abcdef0']],
  encryptionKey: [KEY],
  availabilityZone: ['us-east-1b'],
  imageId: ['ami-0fedcba9876543210'],
  keyPair: ['ops'],
  placementGroup: ['hpc'],
  fileSystemType: ['PERSISTENT_1/SSD', 'SINGLE_AZ_1/SSD'],
  perUnitStorageThroughput: ['40', '250', '500'],
  storageCapacityGiB: ['1200', '64', '28800'],
  subnetId: [SUBNET_C],
  throughputCapacity: ['320'],
  standbySubnetId: [SUBNET_C],
  diskIops: ['6000'],
  metadataIops: ['AUTOMATIC', '6000', '24000'],
  snapshotRetain: ['3', '0', '14'],
};

interface Walked { readonly field: LayoutField; readonly backend: Backend; readonly change: string; readonly objection: Objection }

/** Every objection the table raises over every layout and every change of one field to a value the walk knows. */
function walk(): Walked[] {
  const walked: Walked[] = [];
  for (const field of Object.keys(UPDATE_POLICIES) as LayoutField[]) {
    const values = [...LAYOUTS.map((l) => l[field]), ...(MORE[field] ?? [])];
    for (const base of LAYOUTS) {
      for (const value of values) {
        const next = { ...base, [field]: value } as StorageLayout;
        if (renderField(base, field) === renderField(next, field)) continue;
        for (const objection of UPDATE_POLICIES[field].objections(base, next)) {
          walked.push({ field, backend: base.backend, change: `${renderField(base, field)} -> ${renderField(next, field)}`, objection });
        }
      }
    }
  }
  return walked;
}

/** Remedies only the EBS backend has: snapshots of its data volumes, and the restore from them. */
const EBS_ONLY = /snapshot the volumes|restoreSnapshotIds|dataVolumeSnapshotIds/;

/** A safe path through a second server and a copy of the data into it, which the copy tool does. */
const THROUGH_A_COPY = /second server.*\bcopy\b/;

/**
 * What a safe path must be: something to do, said without acceptDataLoss, since the message adds that path itself; and
 * one through a copy names the tool that copies, with the mountPoint the second server needs beside the first.
 */
function expectWorkingSafePath(safePath: string, where: string): void {
  expect({ where, safePath: safePath.trim() }).not.toEqual({ where, safePath: '' });
  expect({ where, safePath }).not.toEqual({ where, safePath: expect.stringMatching(/acceptDataLoss/) });
  if (THROUGH_A_COPY.test(safePath)) {
    expect({ where, safePath }).toEqual({ where, safePath: expect.stringContaining(COPY_TOOL) });
    expect({ where, safePath }).toEqual({ where, safePath: expect.stringMatching(/another serverName,? (and |another )mountPoint/) });
    copies.add(where);
  }
}
/** Where a safe path through a copy was seen, so that the check above is known to have run: the file's last test. */
const copies = new Set<string>();

describe('every refusal of the policy table names a safe path', () => {
  const walked = walk();

  test('the walk reaches every field that refuses anywhere (all but the throughput capacity and IOPS, each changed in place alone)', () => {
    const refusing = new Set(walked.map((w) => w.field));
    expect([...LAYOUT_FIELDS].filter((f) => refusing.has(f))).toEqual(LAYOUT_FIELDS.filter((f) => f !== 'throughputCapacity' && f !== 'diskIops'));
  });

  test('the walk reaches every rule of the data volumes', () => {
    const whys = new Set(walked.filter((w) => w.field === 'dataVolumes').map((w) => w.objection.why));
    expect(VOLUME_RULES.filter((r) => !whys.has(r.why)).map((r) => r.name)).toEqual([]);
  });

  test('the walk reaches the per-backend rows on every backend they refuse on', () => {
    const on = (field: LayoutField) => [...new Set(walked.filter((w) => w.field === field).map((w) => w.backend))].sort();
    expect(on('encryptionKey')).toEqual([...BACKENDS].sort());
    expect(on('imageId')).toEqual(['ebs', 'instance-store']);
    expect(on('storageCapacityGiB')).toEqual(['fsx-lustre', 'fsx-openzfs']);
  });

  test('each objection: a safe path, not only acceptDataLoss; and the message carries it', () => {
    expect(walked.length).toBeGreaterThan(50);
    for (const w of walked) {
      const where = `${PROP[w.field]} on ${w.backend}: ${w.change}`;
      expectWorkingSafePath(w.objection.safePath, where);
      // A path that works on the backend: only EBS has data volumes to snapshot and restore.
      if (w.backend !== 'ebs') expect({ where, safePath: w.objection.safePath }).not.toEqual({ where, safePath: expect.stringMatching(EBS_ONLY) });
      const message = refusalMessage([{ setting: PROP[w.field], oldValue: 'a', newValue: 'b', ...w.objection, accepted: false }]);
      expect(message).toContain(`Safe path: ${w.objection.safePath}. To accept the loss`);
    }
  });
});

describe('every refusal of the watched resources and the identity names a safe path', () => {
  const resource = (type: string, logicalId: string, value: string) => ({ type, logicalId, watching: ['P'], properties: { P: value } });

  test('each role, on every backend and volume attachment: deleted, a new logical id, a changed property', () => {
    let seen = 0;
    for (const layout of LAYOUTS) {
      for (const type of WATCHED_TYPES) {
        if (roleObjection(type, layout) === undefined) continue;
        const before = { watched: { R: resource(type, 'A', '1') } } as unknown as WatchedProperties;
        const afters = [{}, { R: resource(type, 'B', '1') }, { R: resource(type, 'A', '2') }];
        for (const watched of afters) {
          const refusals = compareWatched(before, { watched } as unknown as WatchedProperties, layout, false);
          expect(refusals).toHaveLength(1);
          expectWorkingSafePath(refusals[0].safePath, `${type} on ${layout.backend} (${layout.volumeAttachment}): ${refusals[0].setting}`);
          seen += 1;
        }
      }
    }
    // Each type refuses somewhere: an EBS server's instance only while CloudFormation attaches the volumes.
    expect(seen).toBeGreaterThanOrEqual(WATCHED_TYPES.length * 3);
  });

  test('a cluster or a server rename', () => {
    const identity = (clusterName: string, serverName: string) =>
      ({ identity: { stackName: 's', clusterName, serverName, serverId: `s/${serverName}` } });
    const refusals = compareWatched(identity('hpc', 'storage1'), identity('other', 'storage2'), EMPTY, false);
    expect(refusals.map((r) => r.setting)).toEqual(['Identity.ClusterName', 'Identity.ServerName']);
    for (const r of refusals) expectWorkingSafePath(r.safePath, r.setting);
  });
});

describe('the refusals that are not in the table', () => {
  /** The safe path of a composed message: between "Safe path:" and the acceptDataLoss sentence. */
  const safePathOf = (message: string): string =>
    /Safe path: (.*?)\. To (?:accept the loss|create beside them anyway)/.exec(message)?.[1] ?? '';
  const KINDS: readonly TaggedResource['kind'][] = ['instance', 'volume', 'network-interface', 'file-system'];

  test('a Create over resources of the server: every mix of kinds names the backend to pin, and more than acceptDataLoss', () => {
    for (let mask = 1; mask < 1 << KINDS.length; mask += 1) {
      const found = KINDS.filter((_k, i) => mask & (1 << i)).map((kind, i) => ({ kind, id: `${kind}-${i}` }));
      const message = existingMessage(SERVER_ID_TAG, 's/storage1', found);
      const where = found.map((r) => r.kind).join('+');
      expectWorkingSafePath(safePathOf(message), where);
      if (found.some((r) => r.kind !== 'file-system')) expect({ where, message }).toEqual({ where, message: expect.stringContaining('-c backend=ebs') });
      if (found.some((r) => r.kind === 'file-system')) {
        expect({ where, message }).toEqual({ where, message: expect.stringContaining('-c backend=fsx-lustre or -c backend=fsx-openzfs') });
      }
      // The EBS restore path only where there are volumes to have snapshots of.
      expect({ where, restore: message.includes('restoreSnapshotIds') }).toEqual({ where, restore: found.some((r) => r.kind === 'volume') });
    }
  });

  test('a Create over a file system: the FSx backends to pin and their types, named from the backends sharing the sentence', () => {
    const message = existingMessage(SERVER_ID_TAG, 's/storage1', [{ kind: 'file-system', id: 'fs-0123456789abcdef0' }]);
    expect(message).toContain('pin the one it belongs to: fs-0123456789abcdef0 is an FSx file system, -c backend=fsx-lustre ' +
      'or -c backend=fsx-openzfs (prop backend likewise), whichever its type is (the tags do not say, aws fsx ' +
      'describe-file-systems --file-system-ids fs-0123456789abcdef0 does: LUSTRE or OPENZFS);');
  });

  test('a refusal made without the stack status: the way to continue a rollback, then the refusals with their safe paths', () => {
    const [w] = walk();
    const message = unreadStatusMessage([{ setting: 'X', oldValue: 'a', newValue: 'b', ...w.objection, accepted: false }], 'arn:aws:cloudformation:us-east-1:123456789012:stack/s/1', 'E');
    expect(message).toContain('continue-update-rollback --stack-name s ');
    expect(message).toContain(`Safe path: ${w.objection.safePath}.`);
  });
});

test('the safe paths through a copy were met and checked: on every backend, in the Create\'s message and the identity', () => {
  for (const backend of BACKENDS) expect({ backend, met: [...copies].some((w) => w.includes(` on ${backend}`)) }).toEqual({ backend, met: true });
  expect([...copies].filter((w) => w.startsWith('Identity.')).length).toBeGreaterThan(0);
  expect([...copies].filter((w) => /^[a-z+-]+$/.test(w)).length).toBeGreaterThan(0);
});
