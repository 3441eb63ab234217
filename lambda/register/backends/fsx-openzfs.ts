/**
 * The registration's rules of the fsx-openzfs backend: an FSx for OpenZFS file system, which clients mount over NFS,
 * fsType `nfs4`, by its DNS name. It has no mount name, so its `MountName` is '' or absent.
 *
 * It imports nothing but a value check, since it is bundled into the Lambda and also imported by the construct at synth
 * time.
 */
import { cidrWithin } from '../../value-check/network';
import type { FsxTargetRules } from '../fsx-target-rules';

/** OPENZFS-NFS-EXPORT-CLIENTS: whether an export's `Clients`, `*`, an address or a CIDR, covers `client`; a group only `*`. */
function exportCovers(clients: string, client: string): boolean {
  if (clients === '*') return true;
  if (client.startsWith('sg-') || !/^\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?$/.test(clients)) return false;
  try {
    return cidrWithin(client, clients.includes('/') ? clients : `${clients}/32`);
  } catch {
    return false;
  }
}

/**
 * FSx for OpenZFS exports its root volume at `/fsx` and each child volume below it. Segments are of
 * `A-Z a-z 0-9 . _ -`, none of them `.` or `..`, as the client's path rule in lib/scripts/client_mount.py says too.
 */
const OPENZFS_EXPORT = /^\/fsx(\/(?!\.\.?(\/|$))[A-Za-z0-9_.-]+)*$/;

/** The fsx-openzfs backend. */
export const FSX_OPENZFS_TARGET: FsxTargetRules = {
  deployment: {
    grammar: /^(SINGLE_AZ_1|SINGLE_AZ_2|SINGLE_AZ_HA_1|SINGLE_AZ_HA_2|MULTI_AZ_1)\/\d{2,5}$/,
    rule: "a deployment such as 'SINGLE_AZ_1/64' (SINGLE_AZ_1, SINGLE_AZ_2, SINGLE_AZ_HA_1, SINGLE_AZ_HA_2 or MULTI_AZ_1 / throughput capacity, MB/s)",
  },
  mountName: {
    optional: true,
    valid: (mountName) => mountName === '',
    rule: "'' for fsx-openzfs (FSx for OpenZFS has no mount name)",
  },
  exportPath: {
    valid: (exportPath) => OPENZFS_EXPORT.test(exportPath),
    rule: () => "'/fsx' (the root volume) or a volume path below it for FSx for OpenZFS",
  },
  fsType: 'nfs4',
  existing: {
    fileSystemType: 'OPENZFS',
    pathProblem: (path) => (path === undefined || OPENZFS_EXPORT.test(path) ? undefined
      : `path ${JSON.stringify(path)} is not '/fsx' (the root volume) or a volume path below it for FSx for OpenZFS`),
    // OPENZFS-EXISTING-ACCESS: NFS, the port of the NFS v4.1 mounts this project makes.
    clientPorts: [{ from: 2049, to: 2049 }],
    // SG-STATEFUL: none, as the server only answers the clients' connections.
    clientEgressPorts: [],
    volumeProblems: (volumes, exportPath, clients) => {
      type Volume = { VolumeId?: string; Lifecycle?: string; OpenZFSConfiguration?: { VolumePath?: string; NfsExports?: { ClientConfigurations?: { Clients?: string }[] }[] } };
      const all = volumes as Volume[];
      const volume = all.find((v) => v.OpenZFSConfiguration?.VolumePath === exportPath);
      if (volume === undefined) {
        const paths = all.map((v) => v.OpenZFSConfiguration?.VolumePath).filter((p) => p !== undefined).sort();
        return [`it has no volume at ${exportPath} (its volumes are at ${paths.join(', ') || 'none FSx names'})`];
      }
      if (volume.Lifecycle !== 'AVAILABLE') return [`its volume ${volume.VolumeId} at ${exportPath} is ${volume.Lifecycle ?? 'in an unknown state'}, not AVAILABLE`];
      // OPENZFS-NFS-EXPORT-CLIENTS: `*`, an address or a CIDR; a group's members are known only to `*`.
      const exported = (volume.OpenZFSConfiguration?.NfsExports ?? []).flatMap((e) => e.ClientConfigurations ?? []).map((c) => c.Clients ?? '');
      const left = [...clients.cidrs, ...clients.groupIds].filter((c) => !exported.some((e) => exportCovers(e, c)));
      return left.length === 0 ? [] : [`its volume ${volume.VolumeId} at ${exportPath} exports to ${exported.join(', ') || 'no client'}, ` +
        `which leaves out ${left.join(', ')}: add a client configuration of their CIDR (or *, which a security group of clients needs) to its NFS exports`];
    },
    fields: (described, exportPath) => {
      const c = (described as { OpenZFSConfiguration?: { DeploymentType?: string; ThroughputCapacity?: number } }).OpenZFSConfiguration ?? {};
      if (!OPENZFS_EXPORT.test(exportPath)) return `exported at '/fsx' (the root volume) or a volume path below it, not ${JSON.stringify(exportPath)}`;
      return { mountName: '', deployment: [c.DeploymentType, c.ThroughputCapacity].filter((d) => d !== undefined).join('/'), exportPath };
    },
  },
};
