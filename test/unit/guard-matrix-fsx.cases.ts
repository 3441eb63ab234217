/**
 * The change matrix's rows of the FSx keys, for Lustre and OpenZFS. More FSx for OpenZFS rows are in
 * test/unit/guard-matrix-openzfs.cases.ts. Assembled by test/unit/guard-matrix.cases.ts.
 */
import type { ContextKey } from '../../lib/context';
import { SUBNET_B1, VPC, type Row } from './guard-matrix-shared.cases';

export const FSX_ROWS = {
  fsxDeploymentType: [
    { name: 'SCRATCH_2 instead of PERSISTENT_2', change: { fsxDeploymentType: 'SCRATCH_2' }, backends: ['fsx-lustre'] },
    { name: 'PERSISTENT_1 instead of PERSISTENT_2', change: { fsxDeploymentType: 'PERSISTENT_1', fsxPerUnitStorageThroughput: '50' }, backends: ['fsx-lustre'] },
  ],
  // Accepted, nothing lost: the specification calls it a replacement, and AWS's reference an update without
  // interruption. See lambda/update-guard/spec-overrides.ts; test/unit/update-guard-lustre-throughput.test.ts states it
  // outright.
  fsxPerUnitStorageThroughput: [{ name: 'throughput per TiB 125 -> 250', change: { fsxPerUnitStorageThroughput: '250' }, backends: ['fsx-lustre'] }],
  fsxStorageType: [{
    name: 'HDD instead of SSD', base: { fsxDeploymentType: 'PERSISTENT_1', fsxPerUnitStorageThroughput: '50' },
    change: { fsxStorageType: 'HDD', fsxPerUnitStorageThroughput: '40' }, backends: ['fsx-lustre'],
  }],
  fsxDataRepositoryPath: [
    { name: 'an S3 data repository', change: { fsxDataRepositoryPath: 's3://hpc-inputs/run1' }, backends: ['fsx-lustre'] },
    { name: 'another S3 data repository', base: { fsxDataRepositoryPath: 's3://hpc-inputs/run1' }, change: { fsxDataRepositoryPath: 's3://hpc-inputs/run2' }, backends: ['fsx-lustre'] },
  ],
  fsxRootSquash: [{ name: 'root squash off', change: { fsxRootSquash: 'false' }, backends: ['fsx-lustre'] }],
  // LUSTRE-VERSION: another version replaces the file system, per the resource specification, so it is refused.
  fsxFileSystemTypeVersion: [
    { name: 'Lustre 2.15 named on a file system of the default version', change: { fsxFileSystemTypeVersion: '2.15' }, backends: ['fsx-lustre'] },
    { name: 'the same Lustre version named explicitly', base: { fsxFileSystemTypeVersion: '2.15' }, change: { fsxFileSystemTypeVersion: '2.15', fsxRootSquash: 'true' }, backends: ['fsx-lustre'] },
  ],
  // LUSTRE-COMPRESSION: in place, per the resource specification, nothing replaced. LUSTRE-METADATA: raised in place,
  // per the specification; a lower one is refused before FSx refuses it, with nothing lost.
  fsxMetadataIops: [
    {
      name: 'Metadata IOPS on a PERSISTENT_2 created without them', change: { fsxMetadataIops: '12000' }, backends: ['fsx-lustre'],
      stricter: 'LUSTRE-METADATA: only on a file system created with a metadata configuration',
    },
    { name: 'Metadata IOPS raised (12000 -> 24000)', base: { fsxMetadataIops: '12000' }, change: { fsxMetadataIops: '24000' }, backends: ['fsx-lustre'] },
    {
      name: 'Metadata IOPS lowered (24000 -> 12000)', base: { fsxMetadataIops: '24000' }, change: { fsxMetadataIops: '12000' }, backends: ['fsx-lustre'],
      stricter: 'LUSTRE-METADATA: FSx never lowers Metadata IOPS',
    },
  ],
  fsxDataCompressionType: [
    { name: 'LZ4 data compression on', change: { fsxDataCompressionType: 'LZ4' }, backends: ['fsx-lustre'] },
    { name: 'LZ4 data compression off again', base: { fsxDataCompressionType: 'LZ4' }, change: { fsxDataCompressionType: 'NONE' }, backends: ['fsx-lustre'] },
  ],
  // The FSx for OpenZFS keys, on the backend branch: rows so that every key has one. The guard branch owns the
  // verdicts.
  openZfsDeploymentType: [{ name: 'SINGLE_AZ_2 instead of SINGLE_AZ_1', change: { openZfsDeploymentType: 'SINGLE_AZ_2' }, backends: ['fsx-openzfs'] }],
  openZfsThroughputCapacityMBps: [{ name: 'throughput capacity 64 -> 128', change: { openZfsThroughputCapacityMBps: '128' }, backends: ['fsx-openzfs'] }],
  openZfsProvisionedIops: [{ name: 'SSD IOPS provisioned (AUTOMATIC -> 20000)', change: { openZfsProvisionedIops: '20000' }, backends: ['fsx-openzfs'] }],
  openZfsRootSquash: [{ name: 'root squash off', change: { openZfsRootSquash: 'false' }, backends: ['fsx-openzfs'] }],
  openZfsStandbySubnetId: [{ name: 'the default standby subnet named explicitly', base: { ...VPC, openZfsDeploymentType: 'MULTI_AZ_1' },
    change: { openZfsStandbySubnetId: SUBNET_B1 }, backends: ['fsx-openzfs'] }],
} satisfies { readonly [K in ContextKey]?: readonly Row[] };
