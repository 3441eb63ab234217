/**
 * The registration custom resource's wire form (docs/design.md, section 7): the keys of its ResourceProperties and of
 * its `Data`, and the properties typed as the handler reads them once validation.ts has checked them.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { RecordBackend } from './backend';
import type { ExistingTarget } from './existing/target';

/** ResourceProperties keys of the registration custom resource. */
export const PROP = {
  instanceId: 'InstanceId',
  clusterName: 'ClusterName',
  serverName: 'ServerName',
  parameterPrefix: 'ParameterPrefix',
  exportPath: 'ExportPath',
  mountPoint: 'MountPoint',
  mountOptions: 'MountOptions',
  backend: 'Backend',
} as const;

/**
 * Optional ResourceProperties. `NetworkInterfaceId` is the server's stable network interface, an ENI the server
 * attaches to itself and keeps across instance replacement. When it is given, the records carry the interface's
 * address, and registration fails unless the interface is attached to the instance. So clients are never pointed at an
 * address that nobody serves.
 */
export const OPTIONAL_PROP = {
  networkInterfaceId: 'NetworkInterfaceId',
} as const;

/**
 * ResourceProperties of an FSx registration, for Lustre or OpenZFS, which has no instance. They take the place of
 * `InstanceId`. Nothing is described, since the file system is AVAILABLE once CloudFormation has created it.
 * `MountName` is '' or absent for FSx for OpenZFS, which has none.
 */
export const FSX_PROP = {
  fileSystemId: 'FileSystemId',
  dnsName: 'DnsName',
  mountName: 'MountName',
  availabilityZone: 'AvailabilityZone',
  deployment: 'Deployment',
} as const;

/** Keys of the custom resource's `Data`, readable with `Fn::GetAtt`. */
export const DATA = {
  ringParameterName: 'RingParameterName',
  mountParameterName: 'MountParameterName',
  privateIp: 'PrivateIp',
} as const;

/** What an FSx registration, of backend `fsx-lustre` or `fsx-openzfs`, names instead of an instance. */
export interface FsxTarget {
  /** The file system's id, `fs-...`. */
  readonly fileSystemId: string;
  /** The file system's DNS name, `fs-....fsx.<region>.amazonaws.com`. */
  readonly dnsName: string;
  /**
   * The file system's Lustre mount name: 8 characters, or `fsx` for SCRATCH_1; '' for FSx for OpenZFS, which has none.
   */
  readonly mountName: string;
  /** Availability Zone of the file system's subnet; may be empty. */
  readonly availabilityZone: string;
  /**
   * The deployment, recorded as the ring record's `instanceType`. For FSx for Lustre it is the type, storage and MB/s
   * per TiB, such as `PERSISTENT_2/SSD/125`; for FSx for OpenZFS the type and throughput capacity, such as
   * `SINGLE_AZ_1/64`.
   */
  readonly deployment: string;
}

/** The ResourceProperties of the custom resource, validated. */
export interface RegistrationProperties {
  /** EC2 instance id of the server to register; `''` for FSx and existing storage, which `fsx` or `existing` name. */
  readonly instanceId: string;
  /** The FSx file system to register instead of an instance, for backend `fsx-lustre` or `fsx-openzfs`. */
  readonly fsx?: FsxTarget;
  /** Storage that exists already, registered instead of an instance or a file system of this stack. */
  readonly existing?: ExistingTarget;
  /** The cluster the server serves. */
  readonly clusterName: string;
  /** The server's name in the ring. */
  readonly serverName: string;
  /** SSM Parameter Store prefix of the records. */
  readonly parameterPrefix: string;
  /** The directory the server exports. */
  readonly exportPath: string;
  /** The directory clients mount the export on. */
  readonly mountPoint: string;
  /** Client mount options. */
  readonly mountOptions: string;
  /** The server's stable network interface, `eni-...`, when it has one: its address is the server's. */
  readonly networkInterfaceId?: string;
  /** Where the server's data lives: a backend this project deploys, or for existing storage its kind. */
  readonly backend: RecordBackend;
}
