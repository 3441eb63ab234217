/**
 * The registration contract (docs/design.md, sections 6 and 7). The CDK construct, lib/registration.ts, and the Lambda
 * handler, lambda/register/index.ts, share it so the two cannot drift.
 *
 * This module is the contract's public face. Each concept lives in a file of its own below it, and this module names
 * them all for the construct, the handler and the package's index:
 * - backend.ts: the storage backends a record may name;
 * - properties.ts: the custom resource's keys, ResourceProperties and `Data`, and its typed properties;
 * - validation.ts: the grammar of each property and the parse of what crosses the trust boundary;
 * - fsx-targets.ts: what the registration knows of each FSx backend, its rules in backends/;
 * - paths.ts: where the records live in SSM Parameter Store, and the names that make up their path;
 * - records.ts: the ring member and mount config records, and the fstab line;
 * - owner.ts: who wrote a record, and whether a registration may write over or delete what a name holds.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
export { BACKENDS, RECORD_BACKENDS, isFsxBackend, validateBackend, type Backend, type FsxBackend, type RecordBackend } from './backend';
export { FSX_TARGETS } from './fsx-targets';
export { DATA, FSX_PROP, OPTIONAL_PROP, PROP, type FsxTarget, type RegistrationProperties } from './properties';
export {
  FSX_DNS_NAME,
  parseRegistrationProperties,
  validateFsxTarget,
  validateMountOptions,
  validatePath,
} from './validation';
export {
  DEFAULT_PARAMETER_PREFIX,
  clusterPath,
  mountParameterName,
  parseRingParameterName,
  readRecordName,
  recordName,
  recordsMeet,
  ringParameterName,
  storagePath,
  tombstoneParameterName,
  validateName,
  validatePrefix,
  validateServerNames,
  RecordKind,
  type ServerRecordNames,
} from './paths';
export { holding, refusal, type Claimant, type RecordOwner } from './owner';
export {
  FS_TYPES,
  RECORD_FS_TYPES,
  fstabLine,
  isTombstoneOf,
  mountRecord,
  type Ec2RingRecord,
  type FsType,
  type RecordFsType,
  type FsxRingRecord,
  type MountRecord,
  type RingRecord,
  type Tombstone,
} from './records';
