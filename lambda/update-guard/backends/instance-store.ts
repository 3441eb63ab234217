/**
 * The update guard's descriptor of the instance-store backend: an EC2 server whose data lives on the instance's own
 * disks, which go with the instance on a stop and start or a replacement. Its own fields are the instance type and
 * whether the bootstrap encrypts the array. Every change that replaces or stops the instance is refused.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { BackendGuard, Checks } from '../backend-guard';
import type { StorageLayout } from '../layout';
import { KEEP_OR_SECOND_SERVER, SECOND_SERVER } from '../objections';
import { refused } from '../policy';
import { AWS_MANAGED_EBS_KEY, EC2_ZONE, ec2Pin } from './ec2';

/** The values of `InstanceStoreEncryption`: `luks2` when the bootstrap encrypts the instance-store array. */
const INSTANCE_STORE_ENCRYPTIONS: readonly string[] = ['', 'luks2'];
const INSTANCE_TYPE = /^[a-z0-9-]+\.[a-z0-9-]+$/;

/** Image, key pair and placement group: a change replaces the instance, and its disks go with it. */
const INSTANCE_REPLACEMENT = refused('it replaces the instance, and every instance-store disk with it', KEEP_OR_SECOND_SERVER);

/**
 * A new KMS key. It encrypts the instance's root volume in its BlockDeviceMappings, whose change replaces the instance
 * or stops and starts it. The instance-store disks go with either, and no snapshot holds their data.
 */
const INSTANCE_STORE_KEY = refused(
  "a new key changes the instance's root volume (BlockDeviceMappings), which replaces the instance or stops and " +
    'starts it, and every instance-store disk goes with it',
  `keep the old key, or ${SECOND_SERVER}`,
);

/** The encryption, then the instance type. */
function validateInstanceStore(layout: StorageLayout, { check }: Checks): void {
  const encryption = layout.instanceStoreEncryption;
  check('instanceStoreEncryption', encryption, INSTANCE_STORE_ENCRYPTIONS.includes(encryption),
    "must be '' or 'luks2' on the instance-store backend");
  const type = layout.instanceStoreType;
  check('instanceStoreType', type, INSTANCE_TYPE.test(type), 'must be an EC2 instance type such as d2.xlarge on the instance-store backend');
}

/** The instance-store backend. */
export const INSTANCE_STORE_GUARD: BackendGuard = {
  fields: ['instanceStoreType', 'instanceStoreEncryption'],
  validate: validateInstanceStore,
  managedKey: AWS_MANAGED_EBS_KEY,
  policies: {
    instanceStoreType: refused(
      'a type change is a stop/start: every instance-store byte is lost',
      `keep the old instance type, or ${SECOND_SERVER}`,
    ),
    encryptionKey: INSTANCE_STORE_KEY,
    availabilityZone: EC2_ZONE,
    imageId: INSTANCE_REPLACEMENT,
    keyPair: INSTANCE_REPLACEMENT,
    placementGroup: INSTANCE_REPLACEMENT,
    instanceStoreEncryption: refused(
      'the array keeps the layout it was made with: encryption is set up (or left out) only on blank disks, so ' +
        'the running array would not follow the new setting until its data is lost (a stop/start or a replacement)',
      'keep the old setting (encryptInstanceStore: false for an array made unencrypted, as before this version ' +
        `encrypted d2 instance store), or ${SECOND_SERVER}`,
    ),
    // No snapshotRetain row: instance store has no snapshots, and the field is always '' here.
  },
  // The instance: watched.ts's own wording, that its disks go with it, is this backend's.
  replaced: {},
  shownBy: { instanceStore: true },
  pin: ec2Pin,
  intervals: [],
};
