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
};
