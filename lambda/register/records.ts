/**
 * The two records a registration writes to SSM Parameter Store (docs/design.md, section 6): the ring member record and
 * the mount config record, with the fstab line clients mount from. Other stacks read them.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { RecordBackend } from './backend';
import type { RecordOwner } from './owner';

/**
 * Ring member record: `<prefix>/<cluster>/ring/<server>`. An EC2 NFS server's record carries `instanceId`; an FSx file
 * system's, for Lustre or OpenZFS, carries `fileSystemId` instead (docs/design.md, section 6).
 */
export type RingRecord = Ec2RingRecord | FsxRingRecord | AddressRingRecord;

/** The fields every ring member record has. */
export interface RingRecordBase {
  /** The server's name in the ring: `serverName`. */
  readonly name: string;
  /** The member's role in the ring; always `storage` for a storage server. */
  readonly role: 'storage';
  /** The server's private IPv4 address; empty for FSx, which clients reach by its DNS name. */
  readonly privateIp: string;
  /** The server's private DNS name, or for FSx the file system's DNS name; empty when EC2 reports none. */
  readonly privateDnsName: string;
  /** Availability Zone of the instance or file system; empty when unknown. */
  readonly availabilityZone: string;
  /**
   * EC2 instance type, e.g. `m4.2xlarge`. For FSx it is the deployment, e.g. `PERSISTENT_2/SSD/125` for Lustre or
   * `SINGLE_AZ_1/64` for OpenZFS. Empty when EC2 reports none.
   */
  readonly instanceType: string;
  /** Where the server's data lives. */
  readonly backend: RecordBackend;
  /** ISO 8601 time of the registration. */
  readonly registeredAt: string;
  /**
   * Who wrote the record, as owner.ts reads it: the registration only writes over or deletes a record it wrote.
   * @default - absent: a record written before owner marks, which its server's registration knows by its `instanceId`
   * or `fileSystemId`
   */
  readonly owner?: RecordOwner;
}

/** The ring record of an EC2 NFS server, of backend `ebs` or `instance-store`. */
export interface Ec2RingRecord extends RingRecordBase {
  /** EC2 instance id of the server. */
  readonly instanceId: string;
}

/** The ring record of a file system: FSx, of backend `fsx-lustre` or `fsx-openzfs`, or EFS that exists, `efs`. */
export interface FsxRingRecord extends RingRecordBase {
  /** The file system's id, `fs-...`. */
  readonly fileSystemId: string;
}

/**
 * The ring record of an NFS server that exists already, of backend `nfs`: known by its address (`privateIp`) alone,
 * since nothing of it is an AWS resource this project can name.
 */
export type AddressRingRecord = RingRecordBase;

/** Mount config record: `<prefix>/<cluster>/storage/<server>/mount`. */
export interface MountRecord {
  /** The server's private IP; for FSx, Lustre or OpenZFS, the file system's DNS name. */
  readonly server: string;
  /**
   * The directory the server exports: `/<mountName>` for FSx for Lustre, and `/fsx`, its root volume, for FSx for
   * OpenZFS.
   */
  readonly exportPath: string;
  /** The directory clients mount the export on. */
  readonly mountPoint: string;
  /**
   * File system type for mount and fstab: `nfs4` for EC2 servers, FSx for OpenZFS and EFS, `lustre` for FSx for Lustre,
   * `efs` for EFS over TLS through amazon-efs-utils' mount helper.
   */
  readonly fsType: RecordFsType;
  /** Client mount options. */
  readonly options: string;
  /** The complete fstab line. */
  readonly fstab: string;
  /**
   * Where the server's data lives, as in its ring record. The client script admits a DNS name as the `server` of an
   * `nfs4` record only for `fsx-openzfs`. Records written before FSx for OpenZFS lack it.
   * @default - absent: a record written before FSx for OpenZFS, checked as before
   */
  readonly backend?: RecordBackend;
  /**
   * Who wrote the record, as owner.ts reads it; clients mount a record with or without it.
   * @default - absent: a record written before owner marks, which its server's registration knows by its ring record
   */
  readonly owner?: RecordOwner;
}

/**
 * Tombstone: `<prefix>/<cluster>/removed/<server>`, written by the registration that deleted the server's records. A
 * client unmounts a managed mount whose record is gone only when its tombstone is there; a record of the name wins over
 * a tombstone, and the next registration of the name deletes it.
 */
export interface Tombstone {
  /** The server's name: `serverName`. */
  readonly name: string;
  /** ISO 8601 time of the removal. */
  readonly removedAt: string;
  /** The registration that removed the server, as CloudFormation names it. */
  readonly removedBy: { readonly stackId: string; readonly logicalResourceId: string };
}

/** Whether `value`, a parameter's text, is a tombstone of server `name`: what a registration may write over or delete. */
export function isTombstoneOf(value: string, name: string): boolean {
  try {
    const t = JSON.parse(value) as Partial<Tombstone> | null;
    return t !== null && typeof t === 'object' && t.name === name && typeof t.removedAt === 'string';
  } catch {
    return false;
  }
}

/**
 * The file system types of a mount config: `efs` (EFS over TLS, amazon-efs-utils' mount helper) is existing storage's
 * alone, and the client admits it for backend `efs` only.
 */
export type RecordFsType = 'nfs4' | 'lustre' | 'efs';
/** Each {@link RecordFsType}, for run-time checks; test/unit/record-schema.test.ts holds both to the schema. */
export const RECORD_FS_TYPES: readonly RecordFsType[] = ['nfs4', 'lustre', 'efs'];
/** The file system types of a server this project deploys or imports, which `mountOn` mounts without the client script. */
export type FsType = Exclude<RecordFsType, 'efs'>;
/** Each {@link FsType}, for run-time checks. */
export const FS_TYPES: readonly FsType[] = ['nfs4', 'lustre'];

/**
 * The fstab line a client uses, in the form each guide gives:
 * - NFS: `<ip>:<exportPath> <mountPoint> nfs4 <options> 0 0`. FSx for OpenZFS has its DNS name in place of the IP,
 *   `<dnsName>:/fsx`, as the FSx for OpenZFS guide mounts it.
 * - FSx for Lustre: `<dnsName>@tcp:/<mountName> <mountPoint> lustre <options> 0 0`, the FSx for Lustre guide's form.
 * - EFS over TLS: `<dnsName>:/ <mountPoint> efs <options> 0 0`, the EFS mount helper's form (EFS-TLS-FSTAB) with the
 *   DNS name, which the helper takes as well as the id.
 */
export function fstabLine(server: string, exportPath: string, mountPoint: string, options: string, fsType: RecordFsType = 'nfs4'): string {
  const source = fsType === 'lustre' ? `${server}@tcp:${exportPath}` : `${server}:${exportPath}`;
  return `${source} ${mountPoint} ${fsType} ${options} 0 0`;
}

/**
 * The mount config record for a server at `server`, an IP or for FSx the file system's DNS name. `backend` is recorded
 * when given, and the registration always gives it.
 */
export function mountRecord(
  server: string,
  exportPath: string,
  mountPoint: string,
  options: string,
  fsType: RecordFsType = 'nfs4',
  backend?: RecordBackend,
): MountRecord {
  return {
    server,
    exportPath,
    mountPoint,
    fsType,
    options,
    fstab: fstabLine(server, exportPath, mountPoint, options, fsType),
    ...(backend === undefined ? {} : { backend }),
  };
}
