import { Aws, type RemovalPolicy } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { dataRemovalPolicy } from '../../deletion';
import { InstanceStoreSpec, OVERRIDE_INSTANCE_STORE_TYPES, StoragePlan, instanceTypesFor } from '../../sizing';
import type { Ec2NfsServerProps } from './props';
import { serverImage } from './image';

// The EC2 server's layout: what the props and the plan settle before any of its resources is made, checked once, here.
// That is the instance type, image, instance store and its devices, encryption, termination protection and identity.

/** What the parts of an EC2 NFS server are built from: see {@link ec2ServerLayout}. */
export interface Ec2ServerLayout {
  /** `ebs` or `instance-store`. */
  readonly backend: 'ebs' | 'instance-store';
  /** The backend is instance store: the data lives and dies with the instance. */
  readonly instanceStore: boolean;
  /** The planned type, or the override. */
  readonly instanceType: ec2.InstanceType;
  /** The server's image: see {@link serverImage}. */
  readonly machineImage: ec2.IMachineImage;
  /** The instance store the block device mapping lists; undefined for EBS. */
  readonly store?: InstanceStoreSpec;
  /** The instance-store disks' mapping names, `/dev/sdb`, `/dev/sdc` and so on; none for EBS. */
  readonly instanceStoreDevices: string[];
  /** The server encrypts its instance-store array with LUKS2. */
  readonly encryptInstanceStore: boolean;
  /** EC2 API termination is refused. */
  readonly terminationProtection: boolean;
  /** `cdk destroy` may delete the data: `deleteDataOnDestroy`. */
  readonly deleteDataOnDestroy: boolean;
  /** The data volumes' removal policy. */
  readonly removalPolicy: RemovalPolicy;
  /** The server's identity, `<stack name>/<server name>`: the value of its SERVER_ID_TAG. */
  readonly identity: string;
}

/**
 * The layout of the server the facade asked for. It refuses what cannot be built: an image given twice, an override
 * that does not hold the capacity, encryption of EBS.
 */
export function ec2ServerLayout(p: Ec2NfsServerProps): Ec2ServerLayout {
  const { server: props, plan, capacityTiB, serverName } = p;
  if (plan.backend !== 'ebs' && plan.backend !== 'instance-store') {
    throw new Error(`Ec2NfsServer builds the ebs and instance-store backends; ${plan.backend} is a file system of its own`);
  }
  const instanceType = props.instanceType ?? new ec2.InstanceType(plan.instanceType);
  const machineImage = serverImage(props, instanceType);
  const store = instanceStoreOf(plan, capacityTiB, instanceType);
  const instanceStore = plan.backend === 'instance-store';
  // The server encrypts instance store that the platform leaves unencrypted, d2's HDDs, unless told otherwise. The
  // platform encrypts d3 and d3en's HDDs with XTS-AES-256, per catalog-d3.ts, so there is no LUKS there and nothing to
  // acknowledge.
  const encryptInstanceStore = store !== undefined && (props.encryptInstanceStore ?? !store.platformEncrypted);
  if (props.encryptInstanceStore === true && !store) {
    throw new Error(`encryptInstanceStore: true applies to the instance-store backend only (this server's backend is ` +
      `${plan.backend}, whose volumes EBS encrypts); leave it unset`);
  }
  const deleteDataOnDestroy = props.deleteDataOnDestroy === true;
  if (deleteDataOnDestroy && props.terminationProtection === true) {
    throw new Error('terminationProtection: true makes EC2 refuse to terminate the instance, so cdk destroy would fail half-way ' +
      '(DELETE_FAILED), while deleteDataOnDestroy: true asks it to delete the server and its data: leave terminationProtection ' +
      'out with deleteDataOnDestroy (or leave deleteDataOnDestroy out to keep the server).');
  }
  return {
    backend: plan.backend,
    instanceStore,
    instanceType,
    machineImage,
    store,
    // One mapping name per disk. On Xen, d2, the mapping places each disk. On Nitro, d3 and d3en, EC2 presents every
    // NVMe disk whatever the mapping says, and the bootstrap takes the names' count as the number of disks to wait for.
    instanceStoreDevices: range(store?.disks ?? 0).map((i) => `/dev/sd${letter(1 + i)}`),
    encryptInstanceStore,
    // Instance store: the instance is the data. With deleteDataOnDestroy a destroy deletes it, which termination
    // protection would refuse half-way.
    terminationProtection: props.terminationProtection ?? (instanceStore && !deleteDataOnDestroy),
    deleteDataOnDestroy,
    // Retained on update and delete, not when the stack's creation rolls back. Blank volumes of a failed first deploy
    // would otherwise stay tagged as this server's, and the update guard's Create refuses to start beside them.
    removalPolicy: dataRemovalPolicy(props),
    // The server's identity lives outside the instance: its data volumes and its stable interface carry it in the tag
    // storage-server:id, and a replacement instance of the same server takes them over.
    identity: `${Aws.STACK_NAME}/${serverName}`,
  };
}

/**
 * The names the kernel gives the instance-store disks, as the agent's diskio and the dashboard see them. d2 is Xen: a
 * disk mapped as /dev/sdb is the kernel's xvdb. On Nitro, d3 and d3en, the kernel names the NVMe disks nvme<N>n1 in the
 * order it finds them, the root volume among them. So nvme0n1 to nvme<disks>n1 are the root volume and every
 * instance-store disk, in an order AWS does not fix.
 */
export function instanceStoreDiskNames(layout: Ec2ServerLayout): string[] {
  return layout.store?.nvme
    ? range(layout.instanceStoreDevices.length + 1).map((i) => `nvme${i}n1`)
    : layout.instanceStoreDevices.map((d) => d.replace(/^\/dev\/sd/, 'xvd'));
}

/** EBS data volumes attach at /dev/sdf, /dev/sdg and on, the range AWS recommends for EBS on Xen and Nitro. */
export function ebsDeviceName(i: number): string {
  return `/dev/sd${letter(5 + i)}`;
}

/**
 * The instance store the block device mapping lists, the planned type's or an override's; undefined for EBS. An
 * instance-type override on the instance-store backend must be a d2, d3 or d3en whose disks hold the requested
 * capacity.
 */
function instanceStoreOf(plan: StoragePlan, capacityTiB: number, instanceType: ec2.InstanceType): InstanceStoreSpec | undefined {
  if (plan.backend !== 'instance-store') return undefined;
  const name = instanceType.toString();
  const fitting = instanceTypesFor(plan, capacityTiB);
  const spec = OVERRIDE_INSTANCE_STORE_TYPES.find((t) => t.name === name && fitting.includes(name));
  if (!spec?.instanceStore) {
    throw new Error(`instanceType: for ${capacityTiB} TiB on the instance-store backend it must be one of ` +
      `${fitting.join(', ')}, got '${name}'.`);
  }
  return spec.instanceStore;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** 'a' + i: device letters. */
function letter(i: number): string {
  return String.fromCharCode('a'.charCodeAt(0) + i);
}
