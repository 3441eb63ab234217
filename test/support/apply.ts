import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import { bootstrapScript } from '../../lib/bootstrap';
import { cutShellFile } from './shell-cut';

let scriptFile: string | undefined;

/**
 * The bootstrap as the server gets it, lib/scripts/storage-bootstrap.sh with its parts joined, written once to a file
 * for the tests that cut its functions out (test/support/shell-cut.ts) and run them.
 */
export function bootstrapScriptFile(): string {
  if (scriptFile === undefined) {
    scriptFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bootstrap-script-')), 'storage-bootstrap.sh');
    fs.writeFileSync(scriptFile, bootstrapScript());
  }
  return scriptFile;
}

/**
 * The shell step of the server's apply document, which the settings association runs on the server, as the text the
 * agent runs. CloudFormation references in it, the data volumes' and the interface's ids, are written as `vol-` and
 * `eni-` ids made from the referenced logical id, since the server sees the ids CloudFormation resolved.
 */
export function applyCommand(template: Template): string {
  const resolve = (node: unknown): string => {
    if (typeof node === 'string') return node;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o['Fn::Join'])) {
      const [delimiter, parts] = o['Fn::Join'] as [string, unknown[]];
      return parts.map(resolve).join(delimiter);
    }
    if (typeof o.Ref === 'string' && o.Ref.startsWith('AWS::')) {
      const pseudo: Record<string, string> = { 'AWS::StackName': 'StorageServer-test', 'AWS::Region': 'us-east-1', 'AWS::Partition': 'aws' };
      if (!(o.Ref in pseudo)) throw new Error(`cannot stand in for the pseudo parameter ${o.Ref} in the apply command`);
      return pseudo[o.Ref];
    }
    if (typeof o.Ref === 'string') {
      const hex = Buffer.from(o.Ref).toString('hex').slice(0, 17).padEnd(17, '0');
      const type = template.toJSON().Resources?.[o.Ref]?.Type;
      const prefix = { 'AWS::EC2::Volume': 'vol', 'AWS::EC2::NetworkInterface': 'eni', 'AWS::EC2::Instance': 'i' }[type as string];
      if (!prefix) throw new Error(`cannot stand in for a Ref to ${o.Ref} (${type}) in the apply command`);
      return `${prefix}-${hex}`;
    }
    throw new Error(`cannot resolve ${JSON.stringify(node)} in the apply command`);
  };
  return applyRunCommand(template).map(resolve).join('\n');
}

/** The runCommand of the server's apply document, its one `applyStorageSettings` step, as synthesized. */
export function applyRunCommand(template: Template): unknown[] {
  const docs = Object.values(template.findResources('AWS::SSM::Document')).filter(
    (d) => d.Properties.Content.mainSteps[0].name === 'applyStorageSettings',
  );
  if (docs.length !== 1) throw new Error(`expected one apply document, found ${docs.length}`);
  return docs[0].Properties.Content.mainSteps[0].inputs.runCommand as unknown[];
}

/** The settings file the apply command writes, /etc/storage-server/bootstrap.env, byte for byte. */
export function appliedSettings(command: string): string {
  const lines = command.split('\n');
  const start = lines.findIndex((l) => l.startsWith('tmp=$(mktemp /etc/storage-server/'));
  if (start < 0 || lines[start + 1] !== `cat >"$tmp" <<'STORAGE_BOOTSTRAP_EOF'`) {
    throw new Error('the apply command writes no settings file');
  }
  const end = lines.indexOf('STORAGE_BOOTSTRAP_EOF', start + 2);
  return `${lines.slice(start + 2, end).join('\n')}\n`;
}

/**
 * What the server exports for the settings in `template`: the exports file that the bootstrap's own `load_config` and
 * `configure_nfs` write from the settings the apply document carries. They are cut from the joined
 * lib/scripts/storage-bootstrap.sh and run by bash. The NFS tools are stand-ins that accept everything, and `id -u`
 * says root.
 */
export function renderedExports(template: Template): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const stub = (name: string, body: string): void => fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  stub('id', 'echo 0');
  stub('nfsconf', 'exit 0');
  stub('exportfs', 'exit 0');
  // nfs-server "not active": configure_nfs starts or restarts it and returns, without touching /proc/fs/nfsd.
  stub('systemctl', 'case "$1" in is-active) exit 1 ;; esac; exit 0');
  fs.writeFileSync(path.join(dir, 'bootstrap.env'), appliedSettings(applyCommand(template)));
  const r = spawnSync(
    'bash',
    [
      '-c',
      `set -euo pipefail
      . '${cutShellFile(bootstrapScriptFile(), ['SETTINGS_KEYS', 'CLIENT_CIDR_RULE', 'load_config', 'configure_nfs'])}'
      ENV_FILE='${dir}/bootstrap.env' REASON_FILE='${dir}/reason' EXPORTS_FILE='${dir}/exports.d/storage-server.exports'
      state_dirs() { :; }; bench_dir() { :; }; nfs_units() { :; } # the NFS state and bench directories, systemd drop-ins: VM-tested
      load_config
      configure_nfs >/dev/null
      cat "$EXPORTS_FILE"`,
    ],
    { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } },
  );
  if (r.status !== 0) throw new Error(`the bootstrap did not render the exports (exit ${r.status}): ${r.stderr}`);
  return r.stdout;
}
