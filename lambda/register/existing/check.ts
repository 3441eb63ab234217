/**
 * The registration's judgement of existing storage at deploy: describe it, refuse it with every reason when the
 * cluster's clients could not mount it, and otherwise say what its records hold. Nothing is written before this has
 * passed, so a refused file system leaves no record. The calls come in as `Describers`: describe.ts's in the handler;
 * the unit tests give FSx's recorded answers, since the emulator's FSx has no VPC or interfaces.
 */
import type { FileSystemDescription, MountTargetDescription } from '@aws-sdk/client-efs';
import type { Subnet } from '@aws-sdk/client-ec2';
import type { FileSystem, Volume } from '@aws-sdk/client-fsx';
import { cidrWithin } from '../../value-check/network';
import type { FsxBackend } from '../backend';
import type { ExistingFsxFields } from '../fsx-target-rules';
import { FSX_TARGETS } from '../fsx-targets';
import type { FsType, RecordFsType } from '../records';
import { FSX_DNS_NAME } from '../validation';
import { overTls } from './record-values';
import { shortfallMessage, shortfalls, type GroupRule } from './access';
import type { ExistingAddress, ExistingFileSystem, ExistingTarget } from './target';

/** The AWS calls the checks make: describe.ts's functions. */
export interface Describers {
  describeFsx(fileSystemId: string): Promise<FileSystem | undefined>;
  fsxVolumes(fileSystemId: string): Promise<Volume[]>;
  describeEfs(fileSystemId: string): Promise<FileSystemDescription | undefined>;
  efsMountTargets(fileSystemId: string): Promise<MountTargetDescription[]>;
  mountTargetGroups(mountTargetId: string): Promise<string[]>;
  interfaceGroups(networkInterfaceIds: readonly string[]): Promise<Map<string, string[]>>;
  vpcSubnets(vpcId: string): Promise<Subnet[]>;
  groupRules(groupIds: readonly string[]): Promise<GroupRule[]>;
}

/** What the records of an existing storage hold, once it has passed. */
export interface ExistingRecordFields {
  /** The file system's id; absent for an NFS server, known by its address. */
  readonly fileSystemId?: string;
  /** The mount record's server: a DNS name, or the NFS server's address. */
  readonly server: string;
  readonly privateIp: string;
  readonly privateDnsName: string;
  readonly availabilityZone: string;
  /** The deployment as the service describes it, e.g. `PERSISTENT_2/SSD/250`; '' for NFS. */
  readonly instanceType: string;
  /** The export the mount record names: FSx for Lustre's is `/<mount name>`, the others' as given. */
  readonly exportPath: string;
  readonly fsType: FsType;
}

/**
 * FSx lifecycle states in which a file system serves its clients (FSX-LIFECYCLE): AVAILABLE, "in a healthy state, and is
 * reachable and available for use", and UPDATING, "undergoing a customer-initiated update", which AWS does not call
 * unavailable; CREATING, DELETING, FAILED and MISCONFIGURED ("a failed but recoverable state") are refused.
 */
export const FSX_SERVING = ['AVAILABLE', 'UPDATING'];
/**
 * EFS life cycle states in which a file system serves (EFS-LIFECYCLE): `available` and `updating`. EFS's API names the
 * phases without saying what they mean; FSx's meaning of the same words is followed. A mount target serves only while
 * `available`.
 */
const EFS_SERVING = ['available', 'updating'];
const MOUNT_TARGET_SERVING = 'available';

/**
 * Describes and checks `target` for a cluster whose records live in `region`. `exportPath` is the path the user gave,
 * which an FSx backend's rules may turn into another (FSx for Lustre's root is `/<mount name>`).
 */
export async function checkExisting(
  target: ExistingTarget,
  exportPath: string,
  region: string,
  aws: Describers,
): Promise<ExistingRecordFields> {
  if (target.kind === 'nfs') return addressFields(target, exportPath);
  if (target.kind === 'efs') return efsFields(target, exportPath, region, aws);
  return fsxFields(target, exportPath, region, aws);
}

function addressFields(target: ExistingAddress, exportPath: string): ExistingRecordFields {
  const a = target.address;
  return { server: a, privateIp: a, privateDnsName: '', availabilityZone: '', instanceType: '', exportPath, fsType: 'nfs4' };
}

async function fsxFields(target: ExistingFileSystem, exportPath: string, region: string, aws: Describers): Promise<ExistingRecordFields> {
  const id = target.fileSystemId;
  const fs = await aws.describeFsx(id);
  if (fs === undefined) throw new Error(`FSx file system ${id} does not exist in ${region} (FileSystemNotFound): give the id of a file system of this Region`);
  // The target's kind is an FSx backend here: checkExisting sends the others elsewhere.
  const rules = FSX_TARGETS[target.kind as FsxBackend];
  const expected = rules.existing.fileSystemType;
  const reasons: string[] = [];
  if (fs.FileSystemType !== expected) reasons.push(`it is of type ${fs.FileSystemType ?? 'unknown'}, not ${expected} (${target.kind})`);
  if (!FSX_SERVING.includes(fs.Lifecycle ?? '')) reasons.push(`it is ${fs.Lifecycle ?? 'in an unknown state'}, and serves clients only when ${FSX_SERVING.join(' or ')}`);
  if (fs.VpcId !== target.vpcId) reasons.push(`it is in ${fs.VpcId ?? 'no VPC'}, not the cluster's ${target.vpcId}`);
  const interfaces = fs.NetworkInterfaceIds ?? [];
  if (interfaces.length === 0) reasons.push('FSx names no network interface of it, so whom it admits cannot be checked');
  if (reasons.length === 0) reasons.push(...(await interfaceShortfalls(target, interfaces, aws)));
  const fields = reasons.length === 0 ? rules.existing.fields(fs, exportPath) : undefined;
  if (typeof fields === 'string') reasons.push(`it must be ${fields}`);
  // Its volumes last, once the path is of the backend's form: OPENZFS-NFS-EXPORT-CLIENTS.
  if (reasons.length === 0 && rules.existing.volumeProblems) {
    reasons.push(...rules.existing.volumeProblems(await aws.fsxVolumes(id), exportPath, target.clients));
  }
  refuse(`FSx file system ${id}`, reasons);
  const f = fields as ExistingFsxFields;
  const dnsName = fs.DNSName ?? '';
  if (!FSX_DNS_NAME.test(dnsName) || !dnsName.startsWith(`${id}.`)) {
    throw new Error(`FSx names ${JSON.stringify(dnsName)} as the DNS name of ${id}, which is not ${id}.fsx.<region>.amazonaws.com`);
  }
  return {
    fileSystemId: id,
    server: dnsName,
    privateIp: '',
    privateDnsName: dnsName,
    availabilityZone: '',
    instanceType: f.deployment,
    exportPath: f.exportPath,
    fsType: rules.fsType,
  };
}

/** Each interface whose groups leave a client's ports closed, said: LUSTRE-INGRESS, OPENZFS-EXISTING-ACCESS. */
async function interfaceShortfalls(target: ExistingFileSystem, interfaces: readonly string[], aws: Describers): Promise<string[]> {
  const groups = await aws.interfaceGroups(interfaces);
  // A file system's interfaces usually share their groups: their rules are read once per set of groups.
  const rulesOf = new Map<string, Promise<GroupRule[]>>();
  const reasons: string[] = [];
  for (const eni of interfaces) {
    const ids = groups.get(eni);
    if (ids === undefined) {
      reasons.push(`EC2 does not describe its network interface ${eni}`);
      continue;
    }
    const key = [...ids].sort().join(',');
    if (!rulesOf.has(key)) rulesOf.set(key, aws.groupRules(ids));
    const rules = await rulesOf.get(key)!;
    const found = shortfalls(target.kind, rules, target.clients);
    if (found.length > 0) reasons.push(shortfallMessage(`${eni} of ${target.fileSystemId}`, ids, found, rules, target.kind));
  }
  return reasons;
}

async function efsFields(target: ExistingFileSystem, exportPath: string, region: string, aws: Describers): Promise<ExistingRecordFields> {
  const id = target.fileSystemId;
  const fs = await aws.describeEfs(id);
  if (fs === undefined) throw new Error(`EFS file system ${id} does not exist in ${region} (FileSystemNotFound): give the id of a file system of this Region`);
  const reasons: string[] = [];
  if (!EFS_SERVING.includes(fs.LifeCycleState ?? '')) reasons.push(`it is ${fs.LifeCycleState ?? 'in an unknown state'}, and serves clients only when ${EFS_SERVING.join(' or ')}`);
  const all = await aws.efsMountTargets(id);
  const ours = all.filter((m) => m.VpcId === target.vpcId);
  if (ours.length === 0) {
    const elsewhere = [...new Set(all.map((m) => m.VpcId ?? 'an unknown VPC'))];
    reasons.push(`it has no mount target in the cluster's ${target.vpcId}` + (elsewhere.length > 0 ? ` (its mount targets are in ${elsewhere.join(', ')})` : ' (it has none)'));
  }
  // EFS-MOUNT-TARGET-ACCESS: each mount target of the VPC, since a client mounts the one of its own zone.
  for (const mt of ours) {
    if (mt.LifeCycleState !== MOUNT_TARGET_SERVING) {
      reasons.push(`its mount target ${mt.MountTargetId} in ${mt.AvailabilityZoneName ?? 'an unknown zone'} is ${mt.LifeCycleState}, not ${MOUNT_TARGET_SERVING}`);
      continue;
    }
    const ids = await aws.mountTargetGroups(mt.MountTargetId ?? '');
    const rules = await aws.groupRules(ids);
    const found = shortfalls('efs', rules, target.clients);
    if (found.length > 0) reasons.push(shortfallMessage(`mount target ${mt.MountTargetId} of ${id}`, ids, found, rules, 'efs'));
  }
  if (reasons.length === 0) reasons.push(...(await zonesWithoutMountTarget(target, ours, aws)));
  refuse(`EFS file system ${id}`, reasons);
  const dnsName = efsDnsName(id, region);
  return {
    fileSystemId: id,
    server: dnsName,
    privateIp: '',
    privateDnsName: dnsName,
    availabilityZone: fs.AvailabilityZoneName ?? '',
    instanceType: [fs.PerformanceMode, fs.ThroughputMode].filter((d) => d !== undefined).join('/'),
    exportPath,
    fsType: 'nfs4',
  };
}

/**
 * EFS-MOUNT-TARGET-ZONES: the file system's DNS name resolves only in a zone with a mount target, so each zone of the
 * VPC's subnets that hold clients (a subnet and a client CIDR overlap) needs one. Clients named by security group are
 * in subnets unknown here, and are not checked.
 */
async function zonesWithoutMountTarget(target: ExistingFileSystem, ours: readonly MountTargetDescription[], aws: Describers): Promise<string[]> {
  if (target.clients.cidrs.length === 0) return [];
  const served = new Set(ours.map((m) => m.AvailabilityZoneName));
  const overlaps = (a: string, b: string) => cidrWithin(a, b) || cidrWithin(b, a);
  const unserved = (await aws.vpcSubnets(target.vpcId))
    .filter((s) => s.CidrBlock !== undefined && target.clients.cidrs.some((c) => overlaps(c, s.CidrBlock!)) && !served.has(s.AvailabilityZone));
  if (unserved.length === 0) return [];
  const zones = [...new Set(unserved.map((s) => s.AvailabilityZone ?? 'an unknown zone'))].sort();
  return [`its mount targets are in ${[...served].sort().join(', ')}, and its DNS name resolves only there, but the clients' ` +
    `subnets ${unserved.map((s) => s.SubnetId).join(', ')} are in ${zones.join(', ')}: add a mount target in ${zones.join(' and ')}, ` +
    'or narrow the clients to the zones it serves'];
}

/**
 * The fsType of the mount record of existing storage of `kind` whose options are `options`: EFS's is `efs` when they ask
 * for `tls`, which only amazon-efs-utils' mount helper takes (EFS-TLS-TYPE); the nodes refuse `tls` on any other.
 */
export function recordFsType(fields: ExistingRecordFields, kind: string, options: string): RecordFsType {
  return overTls(kind, options) ? 'efs' : fields.fsType;
}

/**
 * An EFS file system's DNS name, EFS-DNS-NAME: `file-system-id.efs.aws-region.amazonaws.com` (EFS User Guide, "Mounting
 * EFS file systems using DNS names"); the China Regions' domain is `amazonaws.com.cn`.
 */
export function efsDnsName(fileSystemId: string, region: string): string {
  return `${fileSystemId}.efs.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}

function refuse(what: string, reasons: readonly string[]): void {
  if (reasons.length > 0) throw new Error(`${what} cannot join the cluster's records: ${reasons.join('; ')}`);
}
