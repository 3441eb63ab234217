/**
 * What the two EC2 backends, ebs and instance-store, share in the update guard: the managed key's name, the zone's row,
 * and how a Create over an EC2 server's resources names the backend to pin. Each backend's own rows are in ebs.ts and
 * instance-store.ts.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { AUTO_CHOOSES, COPY_TOOL } from '../objections';
import { refused } from '../policy';
import type { TaggedResource } from '../wire';

/** The `EncryptionKey` of volumes encrypted with the account's AWS managed EBS key. */
export const AWS_MANAGED_EBS_KEY = 'aws/ebs';

/** A new Availability Zone: the server's volumes cannot follow, and its instance store dies with the host. */
export const EC2_ZONE = refused(
  'EBS volumes live in one Availability Zone, and the instance store dies with its host',
  'keep the old subnet, or deploy a second server with another serverName and mountPoint in the new subnet (EBS: ' +
    `from snapshots of the volumes; instance store: copy the data, ${COPY_TOOL}), then remove the first`,
);

/** The kinds of tagged resource an EC2 server has. */
const EC2_KINDS: readonly TaggedResource['kind'][] = ['instance', 'volume', 'network-interface'];

/**
 * The backend to pin when resources of an EC2 server were found: ebs or instance-store. The tags do not tell the two
 * apart; the instance's type does.
 */
export function ec2Pin(found: readonly TaggedResource[]): string | undefined {
  const ec2 = found.filter((r) => EC2_KINDS.includes(r.kind));
  if (ec2.length === 0) return undefined;
  const instance = ec2.find((r) => r.kind === 'instance');
  const check = instance ? `: aws ec2 describe-instances --instance-ids ${instance.id}` : '';
  return `if this deploy changed the backend (${AUTO_CHOOSES}), pin the one they belong to: they are an EC2 ` +
    'server\'s, -c backend=ebs (prop backend: \'ebs\'), or -c backend=instance-store if the server ran on a d2, d3 or ' +
    `d3en instance (the tags do not tell the two apart, the instance's type does${check})`;
}
