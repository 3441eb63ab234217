/**
 * How clients mount a server, as an enum of the public API: jsii turns a union of string literals into a plain string
 * in the other languages. Its values are the mount record's `fsType` (docs/design.md, section 6), the literal type
 * FsType of lambda/register, to which an enum value assigns.
 */
import type { FsType as FsTypeName } from '../../lambda/register/contract';

/** The file system type clients mount a server with. */
export enum FsType {
  /** NFS version 4, from an EC2 NFS server or Amazon FSx for OpenZFS. */
  NFS4 = 'nfs4',
  /** The Lustre client, from Amazon FSx for Lustre. */
  LUSTRE = 'lustre',
}

// Each type the mount record knows, to the enum member of that value: a type added to the record's list fails to
// compile here until the enum has it too.
const FS_TYPE_OF: { readonly [T in FsTypeName]: FsType } = {
  nfs4: FsType.NFS4,
  lustre: FsType.LUSTRE,
};

/** The {@link FsType} of a mount record's `fsType`. */
export function fsTypeOf(name: FsTypeName): FsType {
  return FS_TYPE_OF[name];
}
