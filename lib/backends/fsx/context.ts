/**
 * FSx for Lustre as the app's context parser knows it (lib/context/backend-context.ts): its keys (`fsxDeploymentType`,
 * `fsxStorageType`, `fsxPerUnitStorageThroughput`, `fsxDataRepositoryPath`, `fsxRootSquash`, `fsxDataCompressionType`,
 * `fsxFileSystemTypeVersion`, `fsxMetadataIops`), only with backend=fsx-lustre, each value checked here so that the
 * message names the key, their combination by the planner's own rules; the planner's view of them; the largest file
 * system the stack holds; `nconnect`, which its clients do not take; and the facade's `fsxLustre` they set. Pure,
 * no CDK imports: `npm run plan` loads it with the planner's descriptor.
 */
import type { BackendContext, BackendProps, ContextDefaults, KeyReader, ParsedKeys, PlanAsked } from '../../context/backend-context';
import { contextError, parseBoolean } from '../../context/values';
import type { StoragePlan, StorageRequest } from '../../sizing/plan-types';
import { MAX_FSX_STORAGE_CAPACITY_GIB, isLustreMetadataIops, LUSTRE_METADATA_IOPS_TEXT, oversizedFsxField, s3PathProblem } from '../../validation/fsx-lustre';
import {
  type FsxLustreDeploymentType, type FsxLustreOptionNames, type FsxLustreStorageType, fsxLustreOptionsOf, resolveFsxLustreOptions,
} from './sizing/lustre';

/**
 * The values of aws-cdk-lib's `fsx.LustreDataCompressionType`, in its order, written here so that the parser loads no
 * CDK; test/unit/context-backends.test.ts holds them to the enum.
 */
export const LUSTRE_DATA_COMPRESSION_TYPES = ['NONE', 'LZ4'] as const;
/** The values of aws-cdk-lib's `fsx.FileSystemTypeVersion`, the same way. */
export const LUSTRE_FILE_SYSTEM_TYPE_VERSIONS = ['2.10', '2.12', '2.15'] as const;

/** The app's typed context: the FSx for Lustre members, absent when the key was not given. */
export interface FsxLustreContext {
  /**
   * FSx for Lustre deployment type (`backend=fsx-lustre` only): `PERSISTENT_2`, `PERSISTENT_1` or `SCRATCH_2` (not
   * replicated: scratch data only).
   * @default - PERSISTENT_2
   */
  readonly fsxDeploymentType?: FsxLustreDeploymentType;
  /**
   * FSx for Lustre throughput per TiB of storage, MB/s (`backend=fsx-lustre` only): PERSISTENT_2 125, 250, 500,
   * 1000; PERSISTENT_1 SSD 50, 100, 200; PERSISTENT_1 HDD 12, 40; none for SCRATCH_2.
   * @default - the type's smallest (the file system is sized up to sustain `throughputMBps`); with no FSx key at
   * all, the cheapest persistent option that sustains `throughputMBps`
   */
  readonly fsxPerUnitStorageThroughput?: number;
  /**
   * FSx for Lustre storage type (`backend=fsx-lustre` only): `SSD`, or `HDD` with PERSISTENT_1.
   * @default SSD
   */
  readonly fsxStorageType?: FsxLustreStorageType;
  /**
   * S3 path (`s3://<bucket>[/<prefix>]`) to link the FSx for Lustre file system to (`backend=fsx-lustre` only).
   * @default - no data repository
   */
  readonly fsxDataRepositoryPath?: string;
  /**
   * FSx for Lustre root squash (`backend=fsx-lustre` only): `false` leaves root on the clients as root.
   * @default true
   */
  readonly fsxRootSquash?: boolean;
  /**
   * FSx for Lustre data compression (`backend=fsx-lustre` only): `LZ4` compresses what clients write from then on, `NONE`
   * turns it off; a live change (docs/context-keys.md, "FSx for Lustre options").
   * @default NONE
   */
  readonly fsxDataCompressionType?: (typeof LUSTRE_DATA_COMPRESSION_TYPES)[number];
  /**
   * FSx for Lustre version (`backend=fsx-lustre` only): `2.15` (AWS's recommendation for new file systems), `2.12`, or
   * `2.10` (not with PERSISTENT_2). Chosen at creation: another version replaces the file system, which the guard refuses.
   * @default - FSx's default (2.10; 2.12 on PERSISTENT_2)
   */
  readonly fsxFileSystemTypeVersion?: (typeof LUSTRE_FILE_SYSTEM_TYPE_VERSIONS)[number];
  /**
   * FSx for Lustre PERSISTENT_2 (SSD) Metadata IOPS (`backend=fsx-lustre` only): 0 for AUTOMATIC, or 1500, 3000, 6000,
   * 12000 or a multiple of 12000 up to 192000. Raised in place, never lowered.
   * @default - no metadata configuration, FSx's default
   */
  readonly fsxMetadataIops?: number;
}

/** The FSx for Lustre keys with their defaults, in the key table's order. */
const DEFAULTS = {
  /** Absent: PERSISTENT_2 (backend fsx-lustre). */
  fsxDeploymentType: undefined,
  /** Absent: the type's smallest, or with no FSx key the cheapest persistent option for throughputMBps. */
  fsxPerUnitStorageThroughput: undefined,
  /** Absent: SSD (backend fsx-lustre). */
  fsxStorageType: undefined,
  /** Absent: no S3 data repository (backend fsx-lustre). */
  fsxDataRepositoryPath: undefined,
  /** Absent: root squash on (backend fsx-lustre). */
  fsxRootSquash: undefined,
  /** Absent: NONE, no data compression (backend fsx-lustre). */
  fsxDataCompressionType: undefined,
  /** Absent: FSx's default Lustre version, 2.10 (2.12 on PERSISTENT_2) (backend fsx-lustre). */
  fsxFileSystemTypeVersion: undefined,
  /** Absent: no metadata configuration, FSx's default (backend fsx-lustre, PERSISTENT_2). */
  fsxMetadataIops: undefined,
} as const satisfies ContextDefaults<FsxLustreContext>;

type Raw = KeyReader<keyof FsxLustreContext>['raw'];

/** The options first (their values, then their combination), then the data repository path, then root squash. */
function parseFsxKeys({ raw }: KeyReader<keyof FsxLustreContext>): ParsedKeys<FsxLustreContext> {
  const options = parseFsxOptions(raw);
  const context: FsxLustreContext = {
    fsxDeploymentType: options.deploymentType,
    fsxStorageType: options.storageType,
    fsxPerUnitStorageThroughput: options.perUnitStorageThroughput,
    fsxDataRepositoryPath: parseDataRepositoryPath(raw),
    fsxRootSquash: raw('fsxRootSquash') === undefined ? undefined : parseBoolean('fsxRootSquash', raw('fsxRootSquash')!),
    fsxDataCompressionType: parseEnumKey(raw, 'fsxDataCompressionType', LUSTRE_DATA_COMPRESSION_TYPES),
    fsxFileSystemTypeVersion: parseEnumKey(raw, 'fsxFileSystemTypeVersion', LUSTRE_FILE_SYSTEM_TYPE_VERSIONS),
    fsxMetadataIops: parseMetadataIops(raw, options),
  };
  return { context, request: { fsxLustre: fsxRequest(context) } };
}

/** `fsxMetadataIops`: 0 (AUTOMATIC) or the Metadata IOPS the API takes; PERSISTENT_2 SSD only (the plan checks an unnamed type). */
function parseMetadataIops(raw: Raw, options: FsxLustreOptionNames): number | undefined {
  const text = raw('fsxMetadataIops');
  if (text === undefined) return undefined;
  if (!/^(0|[1-9]\d{0,5})$/.test(text) || !isLustreMetadataIops(Number(text))) {
    throw contextError('fsxMetadataIops', text, `0 (AUTOMATIC) or ${LUSTRE_METADATA_IOPS_TEXT}`);
  }
  if ((options.deploymentType !== undefined && options.deploymentType !== 'PERSISTENT_2') || options.storageType === 'HDD') {
    throw contextError('fsxMetadataIops', text, 'only with fsxDeploymentType=PERSISTENT_2 (SSD): the metadata configuration is PERSISTENT_2\'s');
  }
  return Number(text);
}

/** The planner's view of the keys (none of the three given: the planner chooses among the persistent options). */
function fsxRequest(fsx: FsxLustreContext): StorageRequest['fsxLustre'] {
  const { fsxDeploymentType: deploymentType, fsxStorageType: storageType, fsxPerUnitStorageThroughput: perUnitStorageThroughput } = fsx;
  if (deploymentType === undefined && storageType === undefined && perUnitStorageThroughput === undefined) return undefined;
  return fsxLustreOptionsOf({ deploymentType, storageType, perUnitStorageThroughput });
}

/** Deployment type, storage type and throughput per TiB: each value, then the combination the planner resolves. */
function parseFsxOptions(raw: Raw): FsxLustreOptionNames {
  const type = raw('fsxDeploymentType');
  if (type !== undefined && !['SCRATCH_2', 'PERSISTENT_1', 'PERSISTENT_2'].includes(type)) {
    throw contextError('fsxDeploymentType', type, "one of 'PERSISTENT_2', 'PERSISTENT_1', 'SCRATCH_2'");
  }
  const storage = raw('fsxStorageType');
  if (storage !== undefined && storage !== 'SSD' && storage !== 'HDD') {
    throw contextError('fsxStorageType', storage, "'SSD' or 'HDD' (HDD with fsxDeploymentType=PERSISTENT_1 only)");
  }
  const perUnitText = raw('fsxPerUnitStorageThroughput');
  if (perUnitText !== undefined && !/^[1-9][0-9]{0,3}$/.test(perUnitText)) {
    throw contextError('fsxPerUnitStorageThroughput', perUnitText, 'a whole number of MB/s per TiB such as 125');
  }
  const options = {
    deploymentType: type as FsxLustreDeploymentType | undefined,
    storageType: storage as FsxLustreStorageType | undefined,
    perUnitStorageThroughput: perUnitText === undefined ? undefined : Number(perUnitText),
  };
  try {
    resolveFsxLustreOptions(fsxLustreOptionsOf(options));
  } catch (err) {
    // The planner's message begins with the option at fault, such as `fsxLustre.storageType 'HDD' is offered only ...`.
    const message = (err as Error).message;
    const key = asContextKeys(/^fsxLustre\.([A-Za-z]+) /.exec(message)?.[1] ?? 'perUnitStorageThroughput', Object.keys(options)) as keyof FsxLustreContext;
    throw new Error(`Invalid context value ${key}=${JSON.stringify(raw(key) ?? '')}: ${asContextKeys(message, Object.keys(options))}.`);
  }
  return options;
}

/** A key whose values are the FSx API's: `fsxDataCompressionType` (`LZ4`, `NONE`), `fsxFileSystemTypeVersion` (`2.10`, `2.12`, `2.15`; the deployment type checks the rest). */
function parseEnumKey<T extends string>(raw: Raw, key: keyof FsxLustreContext, allowed: readonly T[]): T | undefined {
  const value = raw(key);
  if (value !== undefined && !(allowed as readonly string[]).includes(value)) {
    throw contextError(key, value, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
  }
  return value as T | undefined;
}

/** `fsxDataRepositoryPath`: an S3 path FSx for Lustre links to. */
function parseDataRepositoryPath(raw: Raw): string | undefined {
  const path = raw('fsxDataRepositoryPath');
  const pathProblem = path === undefined ? undefined : s3PathProblem(path);
  if (pathProblem) {
    throw contextError('fsxDataRepositoryPath', path!, 'an S3 path s3://<bucket>[/<prefix>] of at most 900 characters, the ' +
      `bucket named by S3's bucket naming rules (${pathProblem})`);
  }
  return path;
}

/**
 * The planner's words for the FSx options (`fsxLustre.storageType ... deploymentType`) in the context keys' names:
 * each option `<name>` is the key `fsx<Name>` (the keys this module reads).
 */
function asContextKeys(message: string, options: string[]): string {
  const asKey = (name: string): string => `fsx${name[0].toUpperCase()}${name.slice(1)}`;
  return message
    .replace(/^fsxLustre\.[A-Za-z]+ /, '')
    .replace(new RegExp(`\\b(${options.join('|')})\\b`, 'g'), asKey);
}

/**
 * A plan the stack can hold: a file system of at most {@link MAX_FSX_STORAGE_CAPACITY_GIB} (the planner has no upper
 * bound of its own there). Names throughputMBps when the file system was sized up for it.
 */
function checkPlanSize(plan: StoragePlan, { capacityTiB, throughputMBps }: PlanAsked): void {
  const gib = plan.fsxLustre?.storageCapacityGiB;
  const field = oversizedFsxField(gib, capacityTiB, throughputMBps);
  if (field === 'throughputMBps') {
    throw contextError('throughputMBps', String(throughputMBps), `a throughput an FSx for Lustre file system of at most ` +
      `${MAX_FSX_STORAGE_CAPACITY_GIB} GiB sustains (the plan sized it up to ${gib} GiB)`);
  }
  // No "at most N TiB": FSx's capacity steps round a request up, so the largest that fits is not a whole TiB figure.
  if (field === 'capacityTiB') {
    throw contextError('capacityTiB', String(capacityTiB), `a positive number of TiB whose FSx for Lustre plan fits in ` +
      `${MAX_FSX_STORAGE_CAPACITY_GIB} GiB, the largest file system this app records (capacityTiB=${capacityTiB} is planned ` +
      `as ${gib} GiB after FSx's capacity steps)`);
  }
}

/**
 * The facade's `fsxLustre`, an object even when no key is given. Its enum values are aws-cdk-lib's as strings, since
 * the parser loads no CDK; test/unit/context-backends.test.ts ties them.
 */
function fsxLustreProps(fsx: FsxLustreContext): BackendProps {
  return {
    fsxLustre: {
      deploymentType: fsx.fsxDeploymentType,
      perUnitStorageThroughput: fsx.fsxPerUnitStorageThroughput,
      storageType: fsx.fsxStorageType,
      dataRepositoryPath: fsx.fsxDataRepositoryPath,
      rootSquash: fsx.fsxRootSquash,
      dataCompressionType: fsx.fsxDataCompressionType,
      fileSystemTypeVersion: fsx.fsxFileSystemTypeVersion,
      metadataIops: fsx.fsxMetadataIops,
    },
  };
}

/** FSx for Lustre in the app's context. */
export const FSX_LUSTRE_CONTEXT: BackendContext<FsxLustreContext> = {
  keys: { defaults: DEFAULTS, parse: parseFsxKeys },
  checkPlan: checkPlanSize,
  nconnectRefusal: 'only for an NFS server (backend ebs or instance-store): this plan is FSx for Lustre, whose clients mount Lustre; ' +
    'leave nconnect out',
  props: fsxLustreProps,
};
