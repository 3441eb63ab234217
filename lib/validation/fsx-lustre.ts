/**
 * Inputs of an FSx for Lustre file system: the S3 data repository path, by the bucket naming rules and the prefix's
 * safe characters; the largest storage capacity a plan may have; and the Metadata IOPS.
 */

/**
 * Prefixes S3 reserves, per the S3 User Guide's "General purpose bucket naming rules": a bucket name may not start with
 * them.
 */
export const S3_RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'] as const;
/** Suffixes S3 reserves, per the same source. */
export const S3_RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'] as const;

/**
 * Validates a general purpose bucket name by the S3 User Guide's "General purpose bucket naming rules": 3-63
 * characters of lower-case letters, digits, dots and hyphens; a letter or digit first and last; no two adjacent
 * dots; not an IP address; none of the reserved prefixes and suffixes. Returns the reason it is bad, or undefined.
 */
export function bucketNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return `the bucket name has ${name.length} characters, not 3-63`;
  if (!/^[a-z0-9.-]+$/.test(name)) return 'the bucket name may hold only a-z 0-9 . -';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) return 'the bucket name must begin and end with a letter or digit';
  if (name.includes('..')) return 'the bucket name has two adjacent dots';
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)) return 'the bucket name is formatted as an IP address';
  const prefix = S3_RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return `the bucket name starts with '${prefix}', which S3 reserves`;
  const suffix = S3_RESERVED_SUFFIXES.find((p) => name.endsWith(p));
  if (suffix) return `the bucket name ends with '${suffix}', which S3 reserves`;
  return undefined;
}

/**
 * Characters of one segment of the S3 prefix. They are the S3 User Guide's "safe characters" for object keys, 0-9 a-z
 * A-Z and `! - _ . * ' ( )`, and the printable ones of its "characters that might require special handling",
 * `& $ @ = ; : + ,`, but not space or `?`. They are never its "characters to avoid", `\ { ^ } % ` ] " > [ ~ < #
 * |`, nor control or non-ASCII characters, which the path would carry into the FSx API and the client's mount record.
 */
export const S3_KEY_SEGMENT = /^[0-9A-Za-z!\-_.*'()&$@=;:+,]+$/;

/** Longest data repository path, per ImportPath of CreateFileSystemLustreConfiguration in the FSx API Reference. */
export const S3_PATH_MAX = 900;

/**
 * Validates an S3 path FSx for Lustre accepts as a data repository: `s3://<bucket>[/<prefix>]`, at most
 * {@link S3_PATH_MAX} characters. The bucket name is as {@link bucketNameProblem} wants it. The prefix is of
 * `/`-separated {@link S3_KEY_SEGMENT}s, with no empty, `.` or `..` segment and one trailing `/` allowed. Returns the
 * reason it is bad, or undefined.
 */
export function s3PathProblem(path: string): string | undefined {
  if (typeof path !== 'string') return 'not a string';
  if (path.length > S3_PATH_MAX) return `longer than ${S3_PATH_MAX} characters (${path.length})`;
  if (!path.startsWith('s3://')) return "it does not start with 's3://'";
  const [bucket, ...segments] = path.slice('s3://'.length).split('/');
  const bad = bucketNameProblem(bucket);
  if (bad) return bad;
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  const segment = segments.find((s) => s === '' || s === '.' || s === '..' || !S3_KEY_SEGMENT.test(s));
  if (segment !== undefined) {
    return `the prefix has a bad segment '${segment}' (segments of 0-9 A-Z a-z ! - _ . * ' ( ) & $ @ = ; : + ,, not empty, '.' or '..')`;
  }
  return undefined;
}

/**
 * Whether `path` is an S3 path FSx for Lustre accepts as a data repository, by {@link s3PathProblem}. The construct's
 * prop and the app's context key share it.
 */
export function isS3DataRepositoryPath(path: string): boolean {
  return s3PathProblem(path) === undefined;
}

/**
 * The largest FSx for Lustre storage capacity, GiB, that a plan may have. The update guard of
 * lambda/update-guard/contract.ts records it as a whole number of at most 7 digits: about 9,765 TiB, far beyond any FSx
 * quota.
 */
export const MAX_FSX_STORAGE_CAPACITY_GIB = 9_999_999;

/**
 * Which field made a plan's FSx for Lustre file system larger than {@link MAX_FSX_STORAGE_CAPACITY_GIB}, or undefined
 * when it fits; the planner has no upper bound of its own there. It is `throughputMBps` when the file system was sized
 * up for it and the capacity alone would fit, else `capacityTiB`. The facade and the context parser word it each for
 * its reader, as a prop or a context key.
 */
export function oversizedFsxField(
  storageCapacityGiB: number | undefined, capacityTiB: number, throughputMBps: number | undefined,
): 'throughputMBps' | 'capacityTiB' | undefined {
  if (storageCapacityGiB === undefined || storageCapacityGiB <= MAX_FSX_STORAGE_CAPACITY_GIB) return undefined;
  return throughputMBps !== undefined && capacityTiB <= Math.floor(MAX_FSX_STORAGE_CAPACITY_GIB / 1024) ? 'throughputMBps' : 'capacityTiB';
}

/**
 * LUSTRE-METADATA: the Metadata IOPS an SSD file system takes, "1500, 3000, 6000, 12000, and multiples of 12000 up to a
 * maximum of 192000" per FileSystemLustreMetadataConfiguration in the FSx API reference, or 0 for AUTOMATIC.
 */
export function isLustreMetadataIops(iops: unknown): boolean {
  return typeof iops === 'number' && Number.isSafeInteger(iops) &&
    (iops === 0 || [1500, 3000, 6000].includes(iops) || (iops % 12000 === 0 && iops >= 12000 && iops <= 192000));
}
/** {@link isLustreMetadataIops}'s values, in words. */
export const LUSTRE_METADATA_IOPS_TEXT = '1500, 3000, 6000, 12000 or a multiple of 12000 up to 192000 (USER_PROVISIONED)';
