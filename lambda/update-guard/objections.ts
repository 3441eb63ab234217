/**
 * What the update guard says where two of its policies say the same: the safe paths and reasons, worded once. The
 * policy table shares them with the watched resources' policy and the Create's message. The table is policies.ts,
 * volume-rules.ts and the backends' descriptors; the others are watched.ts and messages.ts.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */

/** The copy tool, bin/copy.ts, which every safe path through a copy names: the names are the user's to fill in. */
export const COPY_TOOL = 'npm run copy -- --cluster <cluster> --from <this server> --to <the second>';
/**
 * The copy and the switch, in a safe path through a second server; that server needs another mountPoint too, since the
 * node that copies mounts both and no two servers of a cluster share one.
 */
export const COPY_THEN_REMOVE = `copy the data (${COPY_TOOL}), then remove the first (the same command with --switch prints how)`;

/** The safe path of every change that would lose data on a server: a second server, and a copy. */
export const SECOND_SERVER = `deploy a second server with another serverName and mountPoint, ${COPY_THEN_REMOVE}`;
/** {@link SECOND_SERVER}, after keeping the old value. */
export const KEEP_OR_SECOND_SERVER = `keep the old value, or ${SECOND_SERVER}`;

/** Why a change that replaces an FSx file system is refused. */
export const FSX_REPLACED = 'CloudFormation replaces the file system, and every byte on it goes with the old one';
/** The safe path on FSx: a second server makes a new file system. */
export const FSX_COPY = `deploy a second server with another serverName and mountPoint (a new file system), ${COPY_THEN_REMOVE}`;

/** Why the backend may have changed, in a refusal's safe path. */
export const AUTO_CHOOSES = 'with backend auto, the default, the planner chooses again on every synth, and a new catalogue or ' +
  'throughputMBps can choose another';
