import { heredocBody, linuxShellDocument, readScript, requireShellSafePath } from './script-file';

/**
 * Rendering of the SSM Command document that Data Lifecycle Manager, DLM, runs as the pre and post script of an
 * application-consistent snapshot. It is pure, with no CDK imports, so it is unit-tested directly.
 *
 * The document follows the contract DLM documents for custom SSM documents, in "Automate application-consistent
 * snapshots" of the Amazon EBS user guide. Its parameters are `executionId`, None or a UUID, and `command`, with the
 * allowed values `pre-script`, `post-script` and `dry-run`.
 */

/** The values DLM passes as the document's `command` parameter. */
export const DLM_SCRIPT_COMMANDS = ['pre-script', 'post-script', 'dry-run'] as const;

/** The document tag that the AWSDataLifecycleManagerSSMFullAccess managed policy requires by aws:ResourceTag. */
export const DLM_DOCUMENT_TAG = { key: 'DLMScriptsAccess', value: 'true' } as const;

/** File name of the freeze script under lib/scripts. */
export const FREEZE_SCRIPT_NAME = 'snapshot-freeze.sh';

/** Heredoc delimiter that embeds the script in the document's shell step. */
const HEREDOC_END = 'STORAGE_SERVER_SNAPSHOT_FREEZE_SH';

/** Inputs of {@link renderFreezeDocument}. */
export interface FreezeDocumentOptions {
  /** Full text of lib/scripts/snapshot-freeze.sh. */
  readonly script: string;
  /** The data mount to freeze, already validated: absolute, `[A-Za-z0-9._/-]`, not `/`. */
  readonly mountPath: string;
  /** Longest freeze before the script's watchdog thaws by itself. */
  readonly maxFreezeSeconds: number;
}

/**
 * Reads the freeze script. It looks next to this module first, for lib/*.ts under ts-node or jest, or a compiled
 * lib/*.js next to its sources. Then it looks in lib/scripts relative to a compiled copy one or two levels down,
 * dist/lib/*.js or dist/*.js, so a build that does not copy lib/scripts still works.
 */
export function loadFreezeScript(baseDir: string = __dirname): string {
  return readScript(FREEZE_SCRIPT_NAME, baseDir);
}

/**
 * The shell step: it writes the script to a temporary file with a quoted heredoc, so nothing in it is expanded, and
 * runs it with bash. It passes DLM's `command` through and returns the script's exit code, which is what DLM reads. It
 * is POSIX sh, because the SSM agent may run the step with /bin/sh.
 */
export function renderFreezeCommand(options: FreezeDocumentOptions): string {
  const { script, mountPath, maxFreezeSeconds } = options;
  const body = heredocBody(FREEZE_SCRIPT_NAME, script, HEREDOC_END, { ssm: true });
  requireShellSafePath('mountPath', mountPath);
  if (!Number.isInteger(maxFreezeSeconds) || maxFreezeSeconds < 1) {
    throw new Error(`maxFreezeSeconds ${maxFreezeSeconds} must be a positive whole number`);
  }
  return [
    '#!/bin/sh',
    '# Rendered by the StorageServer CDK app from lib/scripts/snapshot-freeze.sh.',
    'echo "snapshot-freeze: DLM command {{ command }}, execution {{ executionId }}"',
    'script=$(mktemp) || exit 201',
    `trap 'rm -f "$script"' EXIT`,
    `cat >"$script" <<'${HEREDOC_END}' || exit 201`,
    body,
    HEREDOC_END,
    'rc=0',
    `bash "$script" '{{ command }}' '${mountPath}' '${maxFreezeSeconds}' || rc=$?`,
    'exit "$rc"',
    '',
  ].join('\n');
}

/** The SSM Command document content, schema 2.2, with the DLM parameters and one Linux shell step. */
export function renderFreezeDocument(options: FreezeDocumentOptions): Record<string, unknown> {
  return linuxShellDocument(
    `Data Lifecycle Manager pre/post script: freezes the XFS file system at ${options.mountPath} ` +
      `before the snapshot (pre-script) and thaws it after (post-script); thaws by itself after ` +
      `${options.maxFreezeSeconds}s. dry-run only checks.`,
    {
      name: 'run_pre_post_scripts',
      description: 'Freeze or thaw the data file system',
      runCommand: [renderFreezeCommand(options)],
    },
    {
      executionId: {
        type: 'String',
        default: 'None',
        description: '(Required) The unique identifier DLM gives a pre and/or post script execution.',
        allowedPattern:
          '^(None|[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12})$',
      },
      command: {
        type: 'String',
        default: 'dry-run',
        description: '(Required) pre-script (freeze), post-script (thaw) or dry-run (check only).',
        allowedValues: [...DLM_SCRIPT_COMMANDS],
      },
    },
  );
}
