/**
 * The server's apply document: the SSM Command document its State Manager association runs. Its one shell step installs
 * the bootstrap, with storage-attach and storage-metrics beside it, its settings and its unit. It runs the bootstrap
 * through systemd and reports how it went. Everything the server is configured with travels here, none of it in user
 * data: see lib/bootstrap/loader.ts.
 */
import * as path from 'path';
import { BootstrapConfig } from './config';
import { renderBootstrapEnv } from './env';
import { BOOTSTRAP_PATHS } from './paths';
import { bootstrapScript, compactScript } from './script';
import { renderBootstrapUnit, applyTimeoutSeconds, unitTimeoutSeconds } from './unit';
import { heredocBody, linuxShellDocument, readScript } from '../script-file';

const ATTACH_FILE = 'storage-attach.sh';
const METRICS_FILE = 'storage-metrics.sh';
const HEREDOC_END = 'STORAGE_BOOTSTRAP_EOF';
const UNIT = 'storage-bootstrap.service';

/**
 * The shell step of the apply document. It installs the bootstrap script, its settings and its unit, each written to a
 * temporary file and renamed into place, and enables the unit for every boot. It waits for a run already under way, the
 * boot's. It runs the bootstrap again through systemd, the same path as every boot, and prints what it logged. It exits
 * with the bootstrap's status, which the association reports and CloudFormation waits for. It is POSIX sh, because the
 * SSM agent runs the step with /bin/sh.
 *
 * `extra` are bash lines run after a successful bootstrap, e.g. the clusterware ring join.
 */
export function renderApplyCommand(config: BootstrapConfig, extra: string[] = []): string {
  return [
    '#!/bin/sh',
    '# StorageServer apply (lib/bootstrap.ts): the bootstrap, its settings and its unit; then one run.',
    'rc=0',
    ...installLines(config),
    ...runLines(config),
    ...(extra.length > 0 ? extraLines(extra) : []),
    ...failureLines(),
    '',
  ].join('\n');
}

/**
 * The SSM Command document, schema 2.2, that the server's State Manager association runs at creation. It runs again
 * whenever the stack changes it: a new setting, a grown volume, a new version of the script. Everything the server is
 * configured with is in this document, none of it in user data.
 */
export function renderApplyDocument(config: BootstrapConfig, extra: string[] = []): Record<string, unknown> {
  return linuxShellDocument(
    'StorageServer: installs the storage bootstrap with its settings and runs it (data disks, striped LVM ' +
      'volume, XFS, NFS export); safe to run any number of times.',
    {
      name: 'applyStorageSettings',
      runCommand: [renderApplyCommand(config, extra)],
      // The unit's own bound, the volume wait plus 1200 s, and the wait for a boot's run before it.
      timeoutSeconds: applyTimeoutSeconds(config),
    },
  );
}

/** A subshell that installs the scripts, the settings, the agent's configuration and the unit, and enables the unit. */
function installLines(config: BootstrapConfig): string[] {
  return [
    '(',
    'set -eu',
    `mkdir -p ${[BOOTSTRAP_PATHS.env, BOOTSTRAP_PATHS.script, BOOTSTRAP_PATHS.unit].map((p) => path.posix.dirname(p)).join(' ')}`,
    ...installFile(BOOTSTRAP_PATHS.attach, compactScript(readScript(ATTACH_FILE)), '0755'),
    ...installFile(BOOTSTRAP_PATHS.metrics, compactScript(readScript(METRICS_FILE)), '0755'),
    ...installFile(BOOTSTRAP_PATHS.script, compactScript(bootstrapScript()), '0755'),
    ...installFile(BOOTSTRAP_PATHS.env, renderBootstrapEnv(config), '0644'),
    ...(config.metrics ? installFile(BOOTSTRAP_PATHS.agentConfig, config.metrics.agentConfig, '0644') : []),
    ...installFile(BOOTSTRAP_PATHS.unit, renderBootstrapUnit(config), '0644'),
    'systemctl daemon-reload',
    `systemctl enable ${UNIT}`,
    ') || rc=$?',
  ];
}

/** Writes `text` to a temporary file beside `file` through a quoted here-document, then renames it into place. */
function installFile(file: string, text: string, mode: string): string[] {
  return [
    `tmp=$(mktemp ${path.posix.dirname(file)}/.storage-server.XXXXXX)`,
    `cat >"$tmp" <<'${HEREDOC_END}'`,
    heredocBody(file, text, HEREDOC_END, { ssm: true }),
    HEREDOC_END,
    `chmod ${mode} "$tmp" && mv -f "$tmp" ${file}`,
  ];
}

/** After a successful install: waits out a boot's run, runs the unit once more and prints what it logged. */
function runLines(config: BootstrapConfig): string[] {
  return [
    'if [ "$rc" -eq 0 ]; then',
    // A run of the boot may still be going, as a first boot waits for its volumes: never interrupt it.
    '  n=0',
    `  while [ "$(systemctl show -p ActiveState --value ${UNIT})" = activating ] && [ "$n" -lt ${Math.ceil(unitTimeoutSeconds(config) / 5)} ]; do sleep 5; n=$((n + 1)); done`,
    '  since=$(date +%s)',
    `  systemctl restart ${UNIT} || rc=$?`,
    `  journalctl -u ${UNIT} --since "@$since" -o cat --no-pager 2>/dev/null || true`,
    'fi',
  ];
}

/** After a successful run: the extra commands, from a temporary file, by bash. */
function extraLines(extra: string[]): string[] {
  return [
    'if [ "$rc" -eq 0 ]; then',
    '  extra=$(mktemp)',
    `  cat >"$extra" <<'${HEREDOC_END}'`,
    heredocBody('the extra commands', extra.join('\n'), HEREDOC_END, { ssm: true }),
    HEREDOC_END,
    '  bash "$extra" || rc=$?',
    '  rm -f "$extra"',
    'fi',
  ];
}

/** On failure: the reason the bootstrap left, its last line, for the association's output; then its status. */
function failureLines(): string[] {
  return [
    'if [ "$rc" -ne 0 ]; then',
    `  echo "storage bootstrap failed (exit $rc): $(tail -n 1 ${BOOTSTRAP_PATHS.failureReason} 2>/dev/null || echo 'see journalctl -u storage-bootstrap')" >&2`,
    'fi',
    'exit "$rc"',
  ];
}
