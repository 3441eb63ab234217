import { heredocBody, linuxShellDocument } from '../script-file';
import { readWholeScript } from '../script-parts';
import { CIDR, DEFAULT_READY_TIMEOUT_MINUTES, MAX_READY_TIMEOUT_MINUTES, STEP_OVERHEAD_SECONDS } from './validation';
import { DEFAULT_MOUNT_ROOTS, MAX_READ_AHEAD_KIB } from '../validation';
import { DEFAULT_READ_AHEAD_KIB } from '../sizing/nfs-client';
import { BACKEND_SIZING } from '../sizing/registry';

/**
 * The client mount's SSM Command document: lib/scripts/client-mount.sh whole, its parts put in place by
 * lib/script-parts.ts, in one shell step, and the parameters State Manager passes it, each held to a pattern before
 * anything runs.
 */

/** File name of the client mount script under lib/scripts. */
export const CLIENT_MOUNT_SCRIPT_NAME = 'client-mount.sh';

/** The allowedServers parameter: a comma list of IPv4 CIDRs as the client script accepts them; see {@link CIDR}. */
const ALLOWED_SERVERS_PATTERN = `^${CIDR}(,${CIDR})*$`;

/**
 * The mountRoots parameter: a comma list of absolute paths of `[A-Za-z0-9_.-]` segments, so no quote, space or shell
 * character reaches the command line. The script refuses `.` and `..` segments and system directories itself.
 */
const MOUNT_ROOTS_PATTERN = '^(/[A-Za-z0-9_.-]+)+(,(/[A-Za-z0-9_.-]+)+)*$';

/**
 * The readAheadKiB parameter: plain decimal digits, at most 7, with no sign and no leading zero. The script checks the
 * range, 0 to MAX_READ_AHEAD_KIB, itself.
 */
const READ_AHEAD_PATTERN = '^(0|[1-9][0-9]{0,6})$';

/**
 * The readyTimeoutMinutes parameter: plain decimal digits, at most 4, no sign, no leading zero. The script checks the
 * range, 1 to MAX_READY_TIMEOUT_MINUTES, itself.
 */
const READY_TIMEOUT_PATTERN = '^[1-9][0-9]{0,3}$';

/**
 * The most an SSM document may hold, bytes. CreateDocument's Content in AWS's SSM API reference says: "The content of
 * the document must not exceed 64KB. This quota also includes the content specified for input parameters at runtime".
 * 64,000 is the lower reading of 64KB: a bound.
 */
export const MAX_DOCUMENT_BYTES = 64_000;

/**
 * The script as the document carries it: less every comment line but the first (`#!`), which stay in
 * lib/scripts/client-mount.sh and its parts, since SSM's 64KB holds the code and not its explanation. Only whole
 * comment lines go, and the script has no here-document but its Python part's, so no string loses a line;
 * test/unit/client-mount-document.test.ts holds the bash and the Python to their parse trees.
 */
export function documentScript(script: string): string {
  const [first, ...rest] = script.split('\n');
  return [first, `# ${CLIENT_MOUNT_SCRIPT_NAME} of @hpc-storage/storage-server, less its comments (see that file).`,
    ...rest.filter((line) => !/^\s*#/.test(line))].join('\n');
}

/** How the script mounts each kind of server, in the registry's order: `NFS, ... and FSx for OpenZFS by its DNS name`. */
const MOUNTED_AS = (() => {
  const ways = [...new Set(Object.values(BACKEND_SIZING).map((sizing) => sizing.mountedAs))];
  return ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join(', ')} and ${ways[ways.length - 1]}`;
})();

/** Heredoc delimiter that embeds the script in the document's shell step. */
const HEREDOC_END = 'STORAGE_SERVER_CLIENT_MOUNT_SH';
const NAME_PATTERN = '^[A-Za-z0-9_.-]{1,64}$';

/** Inputs of {@link renderClientMountDocument}. */
export interface ClientMountDocumentOptions {
  /** Full text of lib/scripts/client-mount.sh, its parts in place, by {@link loadClientMountScript}. */
  readonly script: string;
  /** Default of the document's clusterName parameter. */
  readonly clusterName: string;
  /** Default of the document's prefix parameter. */
  readonly parameterPrefix: string;
  /** Default of the document's allowedServers parameter: comma-separated CIDRs, which may be a token. */
  readonly allowedServers: string;
  /**
   * Default of the document's allowHome parameter.
   * @default false
   */
  readonly allowHome?: boolean;
  /**
   * Default of the document's mountRoots parameter.
   * @default DEFAULT_MOUNT_ROOTS
   */
  readonly mountRoots?: readonly string[];
  /**
   * Default of the document's readAheadKiB parameter.
   * @default DEFAULT_READ_AHEAD_KIB
   */
  readonly readAheadKiB?: number;
  /**
   * Default of the document's readyTimeoutMinutes parameter; the step's timeoutSeconds is STEP_OVERHEAD_SECONDS past it.
   * @default DEFAULT_READY_TIMEOUT_MINUTES
   */
  readonly readyTimeoutMinutes?: number;
}

/**
 * The SSM Command document content, schema 2.2: the parameters clusterName, prefix, serverName, allowedServers,
 * mountRoots, allowHome, readAheadKiB and readyTimeoutMinutes, and one shell step.
 */
export function renderClientMountDocument(options: ClientMountDocumentOptions): Record<string, unknown> {
  const readyMinutes = options.readyTimeoutMinutes ?? DEFAULT_READY_TIMEOUT_MINUTES;
  const body = heredocBody(CLIENT_MOUNT_SCRIPT_NAME, documentScript(options.script), HEREDOC_END, { ssm: true });
  const runCommand = [
    '#!/bin/sh',
    `# Rendered by the StorageServer CDK app from lib/scripts/${CLIENT_MOUNT_SCRIPT_NAME}.`,
    'script=$(mktemp) || exit 1',
    `trap 'rm -f "$script"' EXIT`,
    `cat >"$script" <<'${HEREDOC_END}' || exit 1`,
    body,
    HEREDOC_END,
    'rc=0',
    'set --',
    `if [ '{{ allowHome }}' = true ]; then set -- --allow-home; fi`,
    // The allowed patterns and values below keep quotes and spaces out of the substituted values.
    `bash "$script" --cluster '{{ clusterName }}' --prefix '{{ prefix }}' --server '{{ serverName }}' ` +
      `--allowed-servers '{{ allowedServers }}' --mount-roots '{{ mountRoots }}' --read-ahead-kib '{{ readAheadKiB }}' ` +
      `--ready-timeout-minutes '{{ readyTimeoutMinutes }}' "$@" || rc=$?`,
    'exit "$rc"',
    '',
  ].join('\n');
  const document = linuxShellDocument(
    `Mounts the cluster's storage servers (${MOUNTED_AS}), as ` +
      'their mount configs in SSM Parameter Store say (<prefix>/<clusterName>/storage/<server>/mount): one tagged fstab ' +
      'line per server, updated in place. Only servers inside allowedServers, mount points at or below mountRoots on ' +
      'a path only root can change, allowlisted options, always nosuid,nodev. Any failure of one config skips that one. Exit 2 reports a refused or vanished config, a conflicting fstab ' +
      'line, a missing Lustre client, a failed mount or a node not ready. storage-server-mounts.target is started when ' +
      'every mount is in place; a removed server (its tombstone <prefix>/<clusterName>/removed/<server>) is unmounted.',
    { name: 'mountStorage', runCommand: [runCommand], timeoutSeconds: STEP_OVERHEAD_SECONDS + 60 * readyMinutes },
    {
      clusterName: {
        type: 'String',
        default: options.clusterName,
        description: 'The cluster whose storage servers are mounted.',
        allowedPattern: NAME_PATTERN,
      },
      prefix: {
        type: 'String',
        default: options.parameterPrefix,
        description: 'SSM Parameter Store prefix of the records.',
        allowedPattern: '^(/[A-Za-z0-9_.-]+){1,11}$',
      },
      serverName: {
        type: 'String',
        default: '',
        description: 'Mount only this server; empty mounts every server of the cluster.',
        allowedPattern: '^([A-Za-z0-9_.-]{1,64})?$',
      },
      allowedServers: {
        type: 'String',
        default: options.allowedServers,
        description:
          "Comma-separated IPv4 CIDRs a mount config's server must lie in (e.g. the VPC's); others are refused.",
        allowedPattern: ALLOWED_SERVERS_PATTERN,
      },
      mountRoots: {
        type: 'String',
        default: (options.mountRoots ?? DEFAULT_MOUNT_ROOTS).join(','),
        description:
          "Comma-separated directories a mount config's mountPoint must be or lie below (never /, a system directory " +
          'or one below it); others are refused.',
        allowedPattern: MOUNT_ROOTS_PATTERN,
      },
      allowHome: {
        type: 'String',
        default: String(options.allowHome ?? false),
        description: "'true' adds /home to the mount roots (home directories on NFS).",
        allowedValues: ['true', 'false'],
      },
      readAheadKiB: {
        type: 'String',
        default: String(options.readAheadKiB ?? DEFAULT_READ_AHEAD_KIB),
        description:
          `NFS read-ahead to set on every NFS mount, KiB, 0 to ${MAX_READ_AHEAD_KIB} (at once, and at every later mount by ` +
          "a udev rule); 0 leaves the kernel's own (128 KiB since Linux 5.4) and removes the rule.",
        allowedPattern: READ_AHEAD_PATTERN,
      },
      readyTimeoutMinutes: {
        type: 'String',
        default: String(readyMinutes),
        description:
          `Minutes, 1 to ${MAX_READY_TIMEOUT_MINUTES}, that the first run of a boot retries failed mounts before it reports ` +
          "NOT-READY; the step's timeout outlasts this default (a larger value given at run time may meet it first).",
        allowedPattern: READY_TIMEOUT_PATTERN,
      },
    },
  );
  // The association of lib/client-mount.ts passes every parameter again, so its values count as well as the defaults.
  const runtime = Object.values(document.parameters as Record<string, { default: string }>).reduce((n, p) => n + Buffer.byteLength(String(p.default)), 0);
  const size = Buffer.byteLength(JSON.stringify(document)) + runtime;
  if (size > MAX_DOCUMENT_BYTES) {
    throw new Error(`The client-mount SSM document would hold ${size} bytes with its parameter values; SSM takes at most ` +
      `${MAX_DOCUMENT_BYTES} (CreateDocument: 64KB): give fewer or shorter mountRoots or allowedServerCidrs.`);
  }
  return document;
}

/**
 * Reads lib/scripts/client-mount.sh whole, its parts in place by lib/script-parts.ts. It reads next to this module, for
 * lib/*.ts under ts-node or jest or a compiled lib/*.js. Else it reads relative to a compiled copy one or two levels
 * down, dist/lib/*.js or dist/*.js.
 */
export function loadClientMountScript(baseDir: string = __dirname): string {
  return readWholeScript(CLIENT_MOUNT_SCRIPT_NAME, baseDir);
}
