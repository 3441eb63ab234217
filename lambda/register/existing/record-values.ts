/**
 * The values an existing storage's records carry as the user gave them (the path mounted, the mount point, the mount
 * options), held to the rules the nodes' client holds them to: at synth by the construct where they are literal, and
 * by the registration at deploy, where tokens have resolved, before it describes anything or writes a record.
 *
 * It imports nothing but the value checks and the registration's own rules: bundled into the Lambda.
 */
import { allowedOptionsProblem } from '../../value-check/mount-options';
import { exportPathProblem, mountPointProblem } from '../../value-check/mount-target';
import { isFsxBackend } from '../backend';
import type { FsType } from '../records';
import { FSX_TARGETS } from '../fsx-targets';
import type { ExistingKind } from './target';

/** How the nodes mount a kind: an FSx backend as its rules say, EFS and NFS servers over NFS v4.1. */
export function existingFsType(kind: ExistingKind): FsType {
  return isFsxBackend(kind) ? FSX_TARGETS[kind].fsType : 'nfs4';
}

/**
 * Why `path`, the path mounted of existing storage of `kind`, is refused, or undefined; `path` undefined is the kind's
 * default. An FSx backend's rules say its own; EFS is mounted at `/` or a directory, an NFS server at the export
 * given, never `/`.
 */
export function existingPathProblem(kind: ExistingKind, path: string | undefined): string | undefined {
  if (isFsxBackend(kind)) return FSX_TARGETS[kind].existing.pathProblem(path);
  switch (kind) {
    case 'efs': {
      const why = path === undefined || path === '/' ? undefined : exportPathProblem(path);
      return why === undefined ? undefined : `directory ${JSON.stringify(path)} is ${why}`;
    }
    case 'nfs': {
      if (path === undefined) return `${kind} needs the export after the address, such as ${kind}:10.0.1.20:/export/home`;
      const why = exportPathProblem(path);
      return why === undefined ? undefined : `export ${JSON.stringify(path)} is ${why}`;
    }
  }
}

/** Whether the records of `kind` with `options` mount over TLS: EFS's with `tls` (EFS-TLS-TYPE), fsType `efs`. */
export function overTls(kind: string, options: string): boolean {
  return kind === 'efs' && options.split(',').includes('tls');
}

/**
 * Why the mount options are off the nodes' allowlist for `kind`, or undefined: EFS's with `tls` by the rules of fsType
 * `efs`, which its record then has (EFS-TLS-TYPE).
 */
export function existingOptionsProblem(kind: ExistingKind, options: string): string | undefined {
  return allowedOptionsProblem(options, overTls(kind, options) ? 'efs' : existingFsType(kind), kind);
}

/** The properties {@link refuseExistingValues} reads. */
export interface ExistingValues {
  readonly exportPath: string;
  readonly mountPoint: string;
  readonly mountOptions: string;
}

/** Throws naming each property as the registration takes it whose value the nodes would refuse; `field` names it. */
export function refuseExistingValues(kind: ExistingKind, values: ExistingValues, field: (key: keyof ExistingValues) => string): void {
  const reasons = ([
    ['exportPath', existingPathProblem(kind, values.exportPath)],
    ['mountPoint', mountPointProblem(values.mountPoint)],
    ['mountOptions', existingOptionsProblem(kind, values.mountOptions)],
  ] as const).filter(([, why]) => why !== undefined).map(([key, why]) => `${field(key)} ${JSON.stringify(values[key])}: ${why}`);
  if (reasons.length > 0) throw new Error(`existing storage of kind ${kind} has values the nodes' client refuses: ${reasons.join('; ')}`);
}
