/**
 * The FSx for Lustre keys (`fsxDeploymentType`, `fsxStorageType`, `fsxPerUnitStorageThroughput`,
 * `fsxDataRepositoryPath`, `fsxRootSquash`, `fsxDataCompressionType`, `fsxFileSystemTypeVersion`, `fsxMetadataIops`): only with backend=fsx-lustre, each value checked here so that the
 * message names the key, their combination by the planner's own rules; and the planner's view of them.
 */
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { Backend, FsxLustreDeploymentType, FsxLustreOptions, FsxLustreStorageType, StorageRequest } from '../sizing';
import { resolveFsxLustreOptions } from '../backends/fsx/sizing/lustre';
import { isLustreMetadataIops, LUSTRE_METADATA_IOPS_TEXT, s3PathProblem } from '../validation/fsx-lustre';
import type { ContextKey } from './keys';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError, parseBoolean } from './values';

const FSX_KEYS = [
  'fsxDeploymentType', 'fsxPerUnitStorageThroughput', 'fsxStorageType', 'fsxDataRepositoryPath', 'fsxRootSquash', 'fsxDataCompressionType',
  'fsxFileSystemTypeVersion', 'fsxMetadataIops',
] as const;

/** The context's FSx for Lustre members: all absent when no FSx key was given. */
export type FsxContext = Pick<StorageServerContext, (typeof FSX_KEYS)[number]>;

/**
 * The FSx for Lustre keys: only together with backend=fsx-lustre. The options first (their values, then their
 * combination), then the data repository path, then root squash.
 */
export function parseFsxKeys(values: ContextValues, backend: Backend | 'auto'): FsxContext {
  const { raw } = values;
  const given = FSX_KEYS.filter((k) => raw(k) !== undefined);
  if (given.length === 0) return {};
  if (backend !== 'fsx-lustre') {
    throw contextError(given[0], raw(given[0])!, `only together with backend=fsx-lustre (backend is '${backend}')`);
  }
  const options = parseFsxOptions(raw);
  return {
    fsxDeploymentType: options.deploymentType,
    fsxStorageType: options.storageType,
    fsxPerUnitStorageThroughput: options.perUnitStorageThroughput,
    fsxDataRepositoryPath: parseDataRepositoryPath(raw),
    fsxRootSquash: raw('fsxRootSquash') === undefined ? undefined : parseBoolean('fsxRootSquash', raw('fsxRootSquash')!),
    fsxDataCompressionType: parseEnumKey(raw, 'fsxDataCompressionType', fsx.LustreDataCompressionType),
    fsxFileSystemTypeVersion: parseEnumKey(raw, 'fsxFileSystemTypeVersion', fsx.FileSystemTypeVersion),
    fsxMetadataIops: parseMetadataIops(raw, options),
  };
}

/** `fsxMetadataIops`: 0 (AUTOMATIC) or the Metadata IOPS the API takes; PERSISTENT_2 SSD only (the plan checks an unnamed type). */
function parseMetadataIops(raw: ContextValues['raw'], options: FsxLustreOptions): number | undefined {
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

/** The planner's view of the FSx keys (none given: the planner chooses among the persistent options). */
export function fsxRequest(fsx: FsxContext): StorageRequest['fsxLustre'] {
  const { fsxDeploymentType: deploymentType, fsxStorageType: storageType, fsxPerUnitStorageThroughput: perUnitStorageThroughput } = fsx;
  if (deploymentType === undefined && storageType === undefined && perUnitStorageThroughput === undefined) return undefined;
  return { deploymentType, storageType, perUnitStorageThroughput };
}

/** Deployment type, storage type and throughput per TiB: each value, then the combination the planner resolves. */
function parseFsxOptions(raw: ContextValues['raw']): FsxLustreOptions {
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
    resolveFsxLustreOptions(options);
  } catch (err) {
    const key = perUnitText !== undefined ? 'fsxPerUnitStorageThroughput' : 'fsxStorageType';
    throw new Error(`Invalid context value ${key}=${JSON.stringify(raw(key) ?? '')}: ${asContextKeys((err as Error).message, Object.keys(options))}.`);
  }
  return options;
}

/**
 * A key whose values are an aws-cdk-lib enum's (the FSx API's): `fsxDataCompressionType` (`LZ4`, `NONE`),
 * `fsxFileSystemTypeVersion` (`2.10`, `2.12`, `2.15`; the deployment type checks the rest).
 */
function parseEnumKey<T extends string>(raw: ContextValues['raw'], key: ContextKey, values: Record<string, T>): T | undefined {
  const value = raw(key);
  const allowed: string[] = Object.values(values);
  if (value !== undefined && !allowed.includes(value)) {
    throw contextError(key, value, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
  }
  return value as T | undefined;
}

/** `fsxDataRepositoryPath`: an S3 path FSx for Lustre links to. */
function parseDataRepositoryPath(raw: ContextValues['raw']): string | undefined {
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
