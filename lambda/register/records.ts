/**
 * The two records a registration writes to SSM Parameter Store (docs/design.md, section 6): the ring member
 * record and the mount config record, with the fstab line clients mount from. What other stacks read.
 *
 * Dependency-free on purpose: it is bundled into the Lambda and imported by the construct at synth time.
 */
import type { Backend } from './backend';
import type { RecordOwner } from './owner';

/**
 * Ring member record: `<prefix>/<cluster>/ring/<server>`. An EC2 NFS server's carries `instanceId`; an FSx file
 * system's (FSx for Lustre, FSx for OpenZFS) carries `fileSystemId` instead (docs/design.md, section 6).
 */
export type RingRecord = Ec2RingRecord | FsxRingRecord;

/** The fields every ring member record has. */
export interface RingRecordBase {
  /** The server's name in the ring (`serverName`). */
  readonly name: string;
  /** The member's role in the ring; always `storage` for a storage server. */
  readonly role: 'storage';
  /** The server's private IPv4 address; empty for FSx, which clients reach by its DNS name. */
  readonly privateIp: string;
  /** The server's private DNS name (FSx: the file system's DNS name); empty when EC2 reports none. */
  readonly privateDnsName: string;
  /** Availability Zone of the instance or file system; empty when unknown. */
  readonly availabilityZone: string;
  /**
   * EC2 instance type, e.g. `m4.2xlarge`; for FSx the deployment, e.g. `PERSISTENT_2/SSD/125` (FSx for Lustre) or
   * `SINGLE_AZ_1/64` (FSx for OpenZFS); empty when EC2 reports none.
   */
  readonly instanceType: string;
  /** Where the server's data lives. */
  readonly backend: Backend;
  /** ISO 8601 time of the registration. */
  readonly registeredAt: string;
  /**
   * Who wrote the record (owner.ts): the registration only writes over, or deletes, a record it wrote.
   * @default - absent: a record written before owner marks, which its server's registration knows by its `instanceId` or `fileSystemId`
   */
  readonly owner?: RecordOwner;
}

/** The ring record of an EC2 NFS server (backend `ebs` or `instance-store`). */
export interface Ec2RingRecord extends RingRecordBase {
  /** EC2 instance id of the server. */
  readonly instanceId: string;
}

/** The ring record of an FSx file system (backend `fsx-lustre` or `fsx-openzfs`). */
export interface FsxRingRecord extends RingRecordBase {
  /** The file system's id, `fs-...`. */
  readonly fileSystemId: string;
}

/** Mount config record: `<prefix>/<cluster>/storage/<server>/mount`. */
export interface MountRecord {
  /** The server's private IP; for FSx (Lustre and OpenZFS) the file system's DNS name. */
  readonly server: string;
  /** The directory the server exports; for FSx for Lustre `/<mountName>`, for FSx for OpenZFS `/fsx` (its root volume). */
  readonly exportPath: string;
  /** The directory clients mount the export on. */
  readonly mountPoint: string;
  /** File system type for mount and fstab: `nfs4` (EC2 servers and FSx for OpenZFS), or `lustre` for FSx for Lustre. */
  readonly fsType: FsType;
  /** Client mount options. */
  readonly options: string;
  /** The complete fstab line. */
  readonly fstab: string;
  /**
   * Where the server's data lives, as in its ring record: the client script admits a DNS name as the `server` of an
   * `nfs4` record only for `fsx-openzfs`. Absent in records written before FSx for OpenZFS.
   * @default - absent: a record written before FSx for OpenZFS, checked as before
   */
  readonly backend?: Backend;
  /**
   * Who wrote the record (owner.ts); clients mount a record with or without it.
   * @default - absent: a record written before owner marks, which its server's registration knows by its ring record
   */
  readonly owner?: RecordOwner;
}

/** The file system types of a mount config. */
export type FsType = 'nfs4' | 'lustre';

/**
 * The fstab line a client uses: `<ip>:<exportPath> <mountPoint> nfs4 <options> 0 0` (FSx for OpenZFS: the DNS name
 * in place of the IP, `<dnsName>:/fsx`, as the FSx for OpenZFS guide mounts it), or for FSx for Lustre
 * `<dnsName>@tcp:/<mountName> <mountPoint> lustre <options> 0 0` (the FSx for Lustre guide's fstab form).
 */
export function fstabLine(server: string, exportPath: string, mountPoint: string, options: string, fsType: FsType = 'nfs4'): string {
  const source = fsType === 'lustre' ? `${server}@tcp:${exportPath}` : `${server}:${exportPath}`;
  return `${source} ${mountPoint} ${fsType} ${options} 0 0`;
}

/**
 * The mount config record for a server at `server` (an IP; for FSx the file system's DNS name), of `backend` when
 * given (the registration always gives it).
 */
export function mountRecord(
  server: string,
  exportPath: string,
  mountPoint: string,
  options: string,
  fsType: FsType = 'nfs4',
  backend?: Backend,
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
