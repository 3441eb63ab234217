/**
 * The registration's rules of the fsx-lustre backend: an FSx for Lustre file system, which exports `/<mount name>`.
 * Clients mount it with the Lustre client, fsType `lustre`.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import type { FsxTargetRules } from '../fsx-target-rules';

/** A Lustre mount name: FSx gives 8 lower-case letters and digits, or `fsx` on SCRATCH_1. */
const LUSTRE_MOUNT_NAME = /^[a-z0-9]{3,8}$/;

/** The fsx-lustre backend. */
export const FSX_LUSTRE_TARGET: FsxTargetRules = {
  deployment: {
    grammar: /^(SCRATCH_2|PERSISTENT_1|PERSISTENT_2)\/(SSD|HDD)\/\d{1,4}$/,
    rule: "a deployment such as 'PERSISTENT_2/SSD/125' (SCRATCH_2, PERSISTENT_1 or PERSISTENT_2 / SSD or HDD / MB/s per TiB)",
  },
  mountName: {
    optional: false,
    valid: (mountName) => LUSTRE_MOUNT_NAME.test(mountName),
    rule: 'a Lustre mount name (3-8 lower-case letters and digits) for fsx-lustre',
  },
  exportPath: {
    valid: (exportPath, mountName) => exportPath === `/${mountName}`,
    rule: (mountName) => `'/' and the mount name (${JSON.stringify(`/${mountName}`)}) for FSx for Lustre`,
  },
  fsType: 'lustre',
  existing: {
    fileSystemType: 'LUSTRE',
    pathProblem: (path) => (path === undefined || path === '/' ? undefined : "fsx-lustre takes no path: the nodes mount the file system's root by its mount name"),
    // LUSTRE-INGRESS: LNET's ports, "between FSx for Lustre file servers and Lustre clients".
    clientPorts: [{ from: 988, to: 988 }, { from: 1018, to: 1023 }],
    // LUSTRE-EGRESS: the file servers call their clients on the same ports, "If your security group doesn't allow all
    // outbound traffic".
    clientEgressPorts: [{ from: 988, to: 988 }, { from: 1018, to: 1023 }],
    fields: (described, exportPath) => {
      const fs = described as { StorageType?: string; LustreConfiguration?: { DeploymentType?: string; PerUnitStorageThroughput?: number; MountName?: string } };
      const c = fs.LustreConfiguration ?? {};
      const mountName = c.MountName ?? '';
      if (!LUSTRE_MOUNT_NAME.test(mountName)) return `a file system whose mount name FSx gives as 3-8 lower-case letters and digits, not ${JSON.stringify(mountName)}`;
      if (exportPath !== '/') return `exported from its root, '/' (mounted as /${mountName}), not ${JSON.stringify(exportPath)}`;
      const deployment = [c.DeploymentType, fs.StorageType, c.PerUnitStorageThroughput].filter((d) => d !== undefined).join('/');
      return { mountName, deployment, exportPath: `/${mountName}` };
    },
  },
};
