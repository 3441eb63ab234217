import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { MAX_STEP_TIMEOUT_SECONDS } from './client-mount/validation';
import { linuxShellDocument, readScript, tempScriptCommand } from './script-file';

/**
 * The copy's SSM Command document: `npm run copy` sends it to one cluster node that has both servers mounted, and the
 * node runs lib/scripts/storage-copy.sh, which copies one mount point into the other, verifies, and prints one JSON line.
 * It is the safe path of the changes the update guard refuses (a second server, and a copy).
 */

/** File name of the node's part under lib/scripts. */
export const COPY_SCRIPT_NAME = 'storage-copy.sh';

/** A mount point as SSM admits it: absolute, `[A-Za-z0-9._-]` segments, no `..`; the script checks it again. */
const MOUNT_POINT = '^(/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254})+$';

/** The document's parameters, checked by SSM against these patterns before anything runs on the node. */
export const COPY_PARAMETERS = {
  source: { pattern: MOUNT_POINT, description: 'Mount point of the server copied from (its mount record\'s mountPoint)' },
  target: { pattern: MOUNT_POINT, description: 'Mount point of the server copied to (its mount record\'s mountPoint)' },
  from: { pattern: '^[A-Za-z0-9_.-]{1,64}/[A-Za-z0-9_.-]{1,64}$', description: 'CLUSTER/SERVER copied from: the marker on the target names it' },
  mode: { pattern: '^(copy|verify)$', description: 'copy: copy, then verify; verify: only compare (rsync --checksum dry run)' },
  streams: { pattern: '^[1-9][0-9]?$', description: 'Parallel rsync streams, one per top-level entry of the source' },
  allowForeign: { pattern: '^(yes|no)$', description: 'yes: copy into a target that holds data of another origin (nothing is deleted)' },
} as const;

const HEREDOC_END = 'STORAGE_SERVER_COPY_SH';

/**
 * The document content, schema 2.2. It writes the script to a temporary file with a quoted heredoc and runs it with
 * bash; the parameters' patterns keep them to characters a shell takes as text.
 */
export function renderCopyDocument(script: string = readScript(COPY_SCRIPT_NAME)): Record<string, unknown> {
  const command = tempScriptCommand(COPY_SCRIPT_NAME, script, HEREDOC_END, '--source {{ source }} --target {{ target }} ' +
    '--from {{ from }} --mode {{ mode }} --streams {{ streams }} --allow-foreign {{ allowForeign }}');
  const defaults: Record<string, string> = { mode: 'copy', streams: '8', allowForeign: 'no' };
  return linuxShellDocument(
    'StorageServer copy: on a node with both servers mounted, copies source into target in parallel rsync streams ' +
      '(-aHAXS --numeric-ids), verifies with an rsync --checksum dry run, prints one JSON line; deletes nothing (npm run copy).',
    // The longest step SSM runs: a copy of many TiB takes hours, and a re-run catches up where a timeout stopped it.
    { name: 'storageCopy', runCommand: [command], timeoutSeconds: MAX_STEP_TIMEOUT_SECONDS },
    Object.fromEntries(Object.entries(COPY_PARAMETERS).map(([name, p]) => [name, {
      type: 'String', description: p.description, allowedPattern: p.pattern,
      ...(defaults[name] === undefined ? {} : { default: defaults[name] }),
    }])),
  );
}

/** The copy document, deployed with the server. CloudFormation names it: see `documentName`. */
export class CopyDocument extends Construct {
  /** The document's name, for `aws ssm send-command --document-name`. */
  public readonly documentName: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const document = new ssm.CfnDocument(this, 'Document', { documentType: 'Command', content: renderCopyDocument() });
    this.documentName = document.ref;
  }
}
