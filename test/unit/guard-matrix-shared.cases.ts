/**
 * What the change matrix's case files share (test/unit/guard-matrix*.cases.ts): the row's shape, the looked-up VPC's
 * subnets, and the reasons of the `stricter` rows that more than one file gives. A leaf: it imports no case file.
 */
import type { Backend } from '../../lambda/register/contract';
import { type Context, LOOKED_UP_VPC } from '../support/guard-matrix';

export interface Row {
  readonly name: string;
  /** Applied to the baseline for the second template. */
  readonly change: Context;
  /** Applied to both templates: a baseline variant the change needs. */
  readonly base?: Context;
  /** The backends the row applies to; all when absent. */
  readonly backends?: readonly Backend[];
  /** The guard refuses although nothing the specification replaces is lost: why. */
  readonly stricter?: string;
}

export const [SUBNET_A1, SUBNET_A2, SUBNET_B1] = LOOKED_UP_VPC.subnets.map((s) => s.subnetId);
export const VPC = { vpcId: LOOKED_UP_VPC.vpcId };
export const EC2: readonly Backend[] = ['ebs', 'instance-store'];
export const IDENTITY = 'identity: a cluster or server rename moves the stack\'s server to another name (issue 26, item 3)';
export const SHRINK = 'EBS cannot shrink a volume and FSx cannot shrink a file system: CloudFormation would fail the update';
export const RESTORES_NOTHING = 'a volume\'s SnapshotId is read only when the volume is created: the volume would keep its data and ' +
  'nothing would be restored, while the deploy looks like a restore';
export const [SNAP_A, SNAP_B] = ['snap-0123456789abcdef0', 'snap-0fedcba9876543210'];
export const FEWER = 'a lower retention deletes what the higher one kept (EBS: the oldest snapshot sets, at DLM\'s next run; FSx: the ' +
  'older automatic backups): no resource is replaced, the snapshots or backups go (issue 38, item 3)';
export const FSX: readonly Backend[] = ['fsx-lustre', 'fsx-openzfs'];
