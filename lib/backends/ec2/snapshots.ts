import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { SnapshotPolicy } from '../../snapshot-policy';
import type { RetentionWords } from '../snapshot-options';
import type { Ec2NfsServerProps } from './props';

// The EBS server's scheduled snapshots of its data volumes, by lib/snapshot-policy.ts, from the props' `snapshots`.

/** What the EBS server's retention keeps, in words: the DLM policy's snapshot sets. */
export const EBS_RETENTION: RetentionWords = {
  none: 'no snapshot policy (sets an earlier policy made stay, unmanaged)',
  kept: 'DLM keeps that many snapshot sets of the data volumes',
};

/** Builds the snapshot policy `Snapshots` of an EBS server, unless `snapshots.retain` is 0. */
export function scheduledSnapshots(scope: Construct, p: Ec2NfsServerProps, instance: ec2.Instance): SnapshotPolicy | undefined {
  const snapshots = p.server.snapshots;
  const retain = snapshots?.retain ?? 7;
  if (!(retain > 0)) return undefined;
  return new SnapshotPolicy(scope, 'Snapshots', {
    instance,
    dataMountPath: p.exportPath,
    retain,
    intervalHours: snapshots?.intervalHours,
    startTimeUtc: snapshots?.startTimeUtc,
    applicationConsistent: snapshots?.applicationConsistent,
    crossRegionCopy: snapshots?.crossRegionCopy,
  });
}
