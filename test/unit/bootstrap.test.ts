import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import {
  BOOTSTRAP_PATHS,
  BootstrapConfig,
  bootstrapScript,
  compactScript,
  renderBootstrapEnv,
  renderApplyCommand,
  renderBootstrapUnit,
} from '../../lib/bootstrap';
import { partsOf, wholeScript } from '../../lib/script-parts';
import { bootstrapScriptFile } from '../support/apply';
import { cutShellFile } from '../support/shell-cut';

import { BOOTSTRAP_PARTS, SCRIPTS_DIR, bash, ebs, instanceStore, readSettings, shellcheck, tmpDir } from '../support/bootstrap-fixtures';

describe('renderBootstrapEnv', () => {
  test('every value comes back exactly through the script\'s own parser', () => {
    // GIVEN
    const file = path.join(tmpDir(), 'bootstrap.env');
    fs.writeFileSync(
      file,
      renderBootstrapEnv({
        ...ebs(2),
        clientCidrs: ['10.0.0.0/16', '192.168.1.0/24'],
        nfsThreads: 64,
        networkInterfaceId: 'eni-0123456789abcdef0',
      }),
    );
    // WHEN
    const r = readSettings(file);
    // THEN
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'ebs|vol-0123456789abcdef0:/dev/sdf:5120 vol-023456789abcdef00:/dev/sdg:5120||/export/data|' +
        '10.0.0.0/16 192.168.1.0/24|64|sync|4.1 4.2|256|600|my-stack/storage1|false|eni-0123456789abcdef0|none|',
    );
  });

  test('metrics: the names are settings; the apply writes the agent configuration beside them, only when metrics are on', () => {
    const metrics = { clusterName: 'hpc1', serverName: 'storage1', agentConfig: '{"agent": {}}' };
    const env = renderBootstrapEnv({ ...instanceStore, metrics });
    expect(env).toContain("STORAGE_METRICS_CLUSTER='hpc1'\nSTORAGE_METRICS_SERVER='storage1'");
    const apply = renderApplyCommand({ ...instanceStore, metrics });
    expect(apply).toContain(`cat >"$tmp" <<'STORAGE_BOOTSTRAP_EOF'\n{"agent": {}}\nSTORAGE_BOOTSTRAP_EOF\nchmod 0644 "$tmp" && mv -f "$tmp" ${BOOTSTRAP_PATHS.agentConfig}`);
    expect(renderApplyCommand(instanceStore)).not.toContain(`mv -f "$tmp" ${BOOTSTRAP_PATHS.agentConfig}`);
    expect(renderBootstrapEnv(instanceStore)).toContain("STORAGE_METRICS_CLUSTER=''");
    // The script reads the configuration where the apply writes it, and runs storage-metrics where the apply puts it.
    const script = bootstrapScript();
    expect(script).toContain(`config=${BOOTSTRAP_PATHS.agentConfig} `);
    expect(script).toContain(`ExecStart=${BOOTSTRAP_PATHS.metrics} --cluster`);
    expect(() => renderBootstrapEnv({ ...instanceStore, metrics: { ...metrics, clusterName: 'a|b' } }))
      .toThrow(/bootstrap metrics.clusterName "a\|b" is invalid: must be 1-64 characters/);
  });

  test('client CIDRs: the server refuses at boot what client-mount.sh refuses, /0 above all (issue 39, item 1)', () => {
    const script = bootstrapScriptFile();
    const ok = (cidr: string) => bash(`. '${cutShellFile(script, ['client_cidr_ok'])}'; client_cidr_ok '${cidr}'`).status;
    for (const good of ['10.0.0.0/16', '192.168.1.0/24', '255.255.255.255/32', '10.0.0.0/1', 'fd00::/8', '2001:DB8::/32', '::1/128']) {
      expect([good, ok(good)]).toEqual([good, 0]);
    }
    for (const bad of ['0.0.0.0/0', '::/0', '10.0.0.0/33', '010.0.0.0/16', '10.0.0/16', '10.0.0.0', '256.0.0.0/8', 'fd00::/129', 'fd00::/08', 'x:y::/8', '']) {
      expect([bad, ok(bad)]).toEqual([bad, 1]);
    }
  });

  test('instance store with luks2 comes back through the parser; EBS is always none', () => {
    const file = path.join(tmpDir(), 'bootstrap.env');
    fs.writeFileSync(file, renderBootstrapEnv({ ...instanceStore, encryption: 'luks2' }));
    expect(readSettings(file).stdout).toMatch(/\|luks2\|$/);
    expect(renderBootstrapEnv(ebs(1))).toContain("STORAGE_ENCRYPTION='none'");
  });

  test.each([
    ['a command substitution', "STORAGE_BACKEND=$(touch /tmp/owned)", /line 1 is not KEY='value'/],
    ['a value with a quote', "STORAGE_EXPORT_PATH='/a'b'", /line 1 is not KEY='value'/],
    ['an unknown key', "PATH='/tmp'", /line 1: unknown setting PATH/],
    ['an unquoted value', 'STORAGE_BACKEND=ebs', /line 1 is not KEY='value'/],
  ])('the parser refuses %s and runs nothing of it', (_name, line, message) => {
    // GIVEN
    const dir = tmpDir();
    const file = path.join(dir, 'bootstrap.env');
    fs.writeFileSync(file, `# a comment\n\n${line}\n`.replace(/^# a comment\n\n/, ''));
    // WHEN
    const r = readSettings(file, { HOME: dir });
    // THEN
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync('/tmp/owned')).toBe(false);
  });

  test('quotas: the server takes the contract\'s limits and refuses the rest, naming the entry (issue 46, item 1)', () => {
    const script = bootstrapScriptFile();
    const check = (def: string, limits: string) => bash(
      `set -u; . '${cutShellFile(script, ['quota_settings_ok'])}'
      ENV_FILE=bootstrap.env REASON_FILE=/dev/null STORAGE_QUOTA_DEFAULT_USER_GIB='${def}' STORAGE_QUOTA_LIMITS='${limits}'
      quota_settings_ok && echo ok`,
    );
    expect(check('', '').stdout).toBe('ok\n');
    expect(check('100', 'user:1001:5 group:1001:50 user:1002:1 project:7:20:scratch/team-a project:8:1:b').stdout).toBe('ok\n');
    for (const [def, limits, message] of [
      ['1.5', '', /STORAGE_QUOTA_DEFAULT_USER_GIB '1.5' is invalid/],
      ['-1', '', /STORAGE_QUOTA_DEFAULT_USER_GIB '-1' is invalid/],
      // 0 GiB is refused as synth refuses it: a token resolved to 0 must not mean no limit.
      ['0', '', /STORAGE_QUOTA_DEFAULT_USER_GIB '0' is invalid/],
      ['', 'user:1002:0', /entry 'user:1002:0' is invalid/],
      ['', 'user:alice:5', /entry 'user:alice:5' is invalid/],
      ['', 'user:1001', /entry 'user:1001' is invalid/],
      ['', 'project:7:20', /entry 'project:7:20' is invalid/],
      ['', 'project:0:20:a', /entry 'project:0:20:a' is invalid/],
      ['', 'user:0:20', /entry 'user:0:20' is invalid in .*ids not 0/],
      ['', 'project:7:20:/abs', /entry 'project:7:20:\/abs' is invalid/],
      ['', 'project:7:20:a/../b', /entry 'project:7:20:a\/..\/b' is invalid/],
      ['', 'project:7:20:.storage-server', /entry 'project:7:20:.storage-server' is invalid/],
      ['', 'project:7:20:a/', /entry 'project:7:20:a\/' is invalid/],
      ['', 'disk:1:2', /entry 'disk:1:2' is invalid/],
      ['', 'user:1001:5 user:1001:6', /gives user 1001 twice/],
      ['', 'project:7:5:a project:8:6:a', /gives directory a to two projects/],
    ] as const) {
      const r = check(def, limits);
      expect([def, limits, r.status, r.stderr]).toEqual([def, limits, 1, expect.stringMatching(message)]);
    }
    // group 1001 and user 1001 are other ids, and a project's id is its own name space.
    expect(check('', 'user:1001:5 group:1001:5 project:1001:5:a').stdout).toBe('ok\n');
  });

  test('quotas: applied with xfs_quota, cleared when gone, refused on a mount without them (issue 46, item 1)', () => {
    // xfs_quota, xfs_io and findmnt are stand-ins that log their arguments; the VM test runs the real ones.
    const script = bootstrapScriptFile();
    const dir = tmpDir();
    fs.mkdirSync(path.join(dir, 'export', 'scratch', 'a'), { recursive: true });
    const run = (limits: string, def = '', opts = 'rw,usrquota,prjquota,grpquota') => bash(
      `set -Eeuo pipefail; . '${cutShellFile(script, ['apply_quotas'])}'
      REASON_FILE=/dev/null STORAGE_EXPORT_PATH='${dir}/export' STATE_DIR='${dir}/state'
      STORAGE_QUOTA_DEFAULT_USER_GIB='${def}' STORAGE_QUOTA_LIMITS='${limits}'
      findmnt() { echo '${opts}'; }
      xfs_io() { cat '${dir}/projid' 2>/dev/null || echo 'projid = 0'; }
      xfs_quota() { echo "xfs_quota $3" >>'${dir}/calls'; [[ $3 != "project -s"* ]] || echo 'projid = 7' >'${dir}/projid'; }
      apply_quotas`,
    );
    const calls = () => {
      const f = path.join(dir, 'calls');
      const text = fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
      fs.rmSync(f, { force: true });
      return text.split('\n').filter((l) => l);
    };
    expect(run('').status).toBe(0);
    expect(calls()).toEqual([]);
    const limits = 'user:1001:5 group:2000:50 project:7:20:scratch/a';
    expect(run(limits, '100').status).toBe(0);
    expect(calls()).toEqual([
      'xfs_quota limit -u -d bhard=100g',
      'xfs_quota limit -u bhard=5g 1001',
      'xfs_quota limit -g bhard=50g 2000',
      `xfs_quota project -s -p ${dir}/export/scratch/a 7`,
      'xfs_quota limit -p bhard=20g 7',
    ]);
    // Again: the same limits, and the project's tree, already in project 7, is not walked again.
    expect(run(limits, '100').status).toBe(0);
    expect(calls()).not.toContainEqual(expect.stringMatching(/^xfs_quota project/));
    // Limits gone from the settings are cleared; only those this script set.
    expect(run('user:1001:5').status).toBe(0);
    expect(calls()).toEqual([
      'xfs_quota limit -u bhard=5g 1001',
      'xfs_quota limit -u -d bhard=0',
      'xfs_quota limit -g bhard=0 2000',
      'xfs_quota limit -p bhard=0 7',
    ]);
    expect(fs.readFileSync(path.join(dir, 'state', 'quota-limits'), 'utf8')).toBe('user:1001\n');
    // A mount without project quotas: refused, naming the way that works, nothing set.
    const r = run('user:1001:9', '', 'rw,usrquota,grpquota');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/mounted without prjquota.*next reboot \(or stop and start\) mounts it from fstab.*outage/);
    expect(calls()).toEqual([]);
    // A link or a file on a project's path: refused before any limit is set, nothing made.
    fs.symlinkSync('/etc', path.join(dir, 'export', 'out'));
    fs.writeFileSync(path.join(dir, 'export', 'file'), '');
    for (const bad of ['out', 'out/sub', 'file/sub']) {
      expect(run(`user:1001:9 project:8:1:${bad}`).stderr).toMatch(/project 8's directory .* is a link or not a directory; no quota limit was changed/);
      expect(calls()).toEqual([]);
    }
    // A missing one is made, then put in its project.
    expect(run('user:1001:9 project:8:1:new/deep').status).toBe(0);
    expect(fs.statSync(path.join(dir, 'export', 'new', 'deep')).isDirectory()).toBe(true);
    expect(calls()).toContainEqual(`xfs_quota project -s -p ${dir}/export/new/deep 8`);
    expect(run('user:1001:9').status).toBe(0);
    expect(calls()).toEqual(['xfs_quota limit -u bhard=9g 1001', 'xfs_quota limit -p bhard=0 8']);
    expect(run('').status).toBe(0);
    expect(calls()).toEqual(['xfs_quota limit -u bhard=0 1001']);
    expect(run('').status).toBe(0);
    expect(calls()).toEqual([]);
  });

  test('the fstab line mounts XFS with user, group and project quotas', () => {
    expect(bootstrapScript()).toContain('XFS_QUOTA_OPTIONS=usrquota,grpquota,prjquota\n');
    expect(bootstrapScript()).toContain('$mp xfs defaults,$XFS_QUOTA_OPTIONS,nofail,');
  });

  test('threads are left to the host when not given', () => {
    expect(renderBootstrapEnv(instanceStore)).toContain("STORAGE_NFS_THREADS=''\n");
  });

  test('CDK token strings pass through whole, single-quoted', () => {
    const env = renderBootstrapEnv({
      ...ebs(1),
      ebsVolumes: [{ volumeId: '${Token[TOKEN.123]}', device: '/dev/sdf', sizeGiB: 125 }],
      clientCidrs: ['${Token[TOKEN.456]}'],
    });
    expect(env).toContain("STORAGE_EBS_VOLUMES='${Token[TOKEN.123]}:/dev/sdf:125'");
    expect(env).toContain("STORAGE_CLIENT_CIDRS='${Token[TOKEN.456]}'");
  });

  test.each<[string, Partial<BootstrapConfig>, RegExp]>([
    [
      'luks2 on EBS',
      { ...ebs(1), encryption: 'luks2' },
      /encryption "luks2" is invalid: must be 'none' for EBS/,
    ],
    [
      'an unknown encryption',
      { encryption: 'aes' as BootstrapConfig['encryption'] },
      /encryption "aes" is invalid: must be 'none' or 'luks2'/,
    ],
    [
      'an unknown backend',
      { backend: 'nfs' as BootstrapConfig['backend'] },
      /backend "nfs".*'ebs' or 'instance-store'/,
    ],
    [
      'EBS without volumes',
      { backend: 'ebs', instanceStoreDevices: [] },
      /ebsVolumes \[\].*at least one volume/,
    ],
    [
      'instance store without devices',
      { instanceStoreDevices: [] },
      /instanceStoreDevices \[\].*at least one device/,
    ],
    [
      'EBS volumes on instance store',
      { ebsVolumes: ebs(1).ebsVolumes },
      /ebsVolumes .*must be empty for instance store/,
    ],
    [
      'a malformed volume id',
      { ...ebs(1), ebsVolumes: [{ volumeId: 'vol-xyz', device: '/dev/sdf', sizeGiB: 125 }] },
      /volumeId "vol-xyz"/,
    ],
    [
      'a fractional volume size',
      { ...ebs(1), ebsVolumes: [{ volumeId: 'vol-0123456789abcdef0', device: '/dev/sdf', sizeGiB: 1.5 }] },
      /sizeGiB 1.5.*whole number of GiB/,
    ],
    [
      'a device that is not a mapping name',
      { instanceStoreDevices: ['/dev/nvme1n1'] },
      /instanceStoreDevices "\/dev\/nvme1n1"/,
    ],
    ['a device twice', { instanceStoreDevices: ['/dev/sdb', '/dev/sdb'] }, /devices .*only once/],
    ['a relative export path', { exportPath: 'export' }, /exportPath "export"/],
    ['the root as export path', { exportPath: '/' }, /exportPath "\/"/],
    ['an export path with ..', { exportPath: '/export/../etc' }, /exportPath "\/export\/..\/etc"/],
    ['an export path with a space', { exportPath: '/export/my data' }, /exportPath/],
    ['no client CIDR', { clientCidrs: [] }, /clientCidrs \[\].*at least one/],
    ['everyone as client', { clientCidrs: ['*'] }, /clientCidrs "\*".*never '\*'/],
    ['a host name as client', { clientCidrs: ['login1'] }, /clientCidrs "login1"/],
    ['zero threads', { nfsThreads: 0 }, /nfsThreads 0.*1 to 4096/],
    ['fractional threads', { nfsThreads: 2.5 }, /nfsThreads 2.5/],
    ['an unknown export mode', { exportMode: 'fast' as BootstrapConfig['exportMode'] }, /exportMode "fast"/],
    ['no NFS version', { nfsVersions: [] }, /nfsVersions \[\]/],
    ['NFS version 2', { nfsVersions: ['2'] }, /nfsVersions \["2"\].*3, 4.0, 4.1, 4.2/],
    ['a stripe that is not a power of two', { stripeSizeKiB: 384 }, /stripeSizeKiB 384.*power of two/],
    ['a negative volume wait', { volumeWaitSeconds: -1 }, /volumeWaitSeconds -1/],
    ['an identity with a space', { identity: 'my stack/x' }, /identity "my stack\/x"/],
    ['an identity with a quote', { identity: "a'b" }, /identity "a'b"/],
    ['an interface id that is not one', { networkInterfaceId: 'vol-0123456789abcdef0' }, /networkInterfaceId "vol-0123456789abcdef0".*eni-0123456789abcdef0/],
  ])('rejects %s with a message naming the field and value', (_name, override, message) => {
    expect(() => renderBootstrapEnv({ ...instanceStore, ...override })).toThrow(message);
  });
});

describe('bootstrapScript', () => {
  test('is lib/scripts/storage-bootstrap.sh with the code of each part it reads in place of the line that reads it', () => {
    const entry = fs.readFileSync(path.join(SCRIPTS_DIR, 'storage-bootstrap.sh'), 'utf8');
    const code = (part: string): string =>
      fs.readFileSync(path.join(SCRIPTS_DIR, part), 'utf8').split('\n\n').slice(1).join('\n\n').replace(/\n$/, '');
    const sourced = /^\. "\$\(dirname -- "\$\{BASH_SOURCE\[0\]\}"\)\/(\S+)"$/gm;
    expect(bootstrapScript()).toBe(entry.replace(sourced, (_line, part: string) => code(part)));
    expect(partsOf(bootstrapScript())).toEqual([]);
    expect(bootstrapScript()).toBe(wholeScript('storage-bootstrap.sh', entry, (part) => fs.readFileSync(path.join(SCRIPTS_DIR, part), 'utf8')));
  });

  test('reads every part, once: a part it does not read would be neither delivered nor checked as delivered', () => {
    const entry = fs.readFileSync(path.join(SCRIPTS_DIR, 'storage-bootstrap.sh'), 'utf8');
    expect([...partsOf(entry)].sort()).toEqual(BOOTSTRAP_PARTS);
    expect(BOOTSTRAP_PARTS.length).toBeGreaterThan(1);
  });

  // The module finds the script beside itself in lib/scripts or, compiled into dist/lib, in the source tree.
  test.each([
    ['lib/bootstrap.js next to lib/scripts', 'lib', 'lib/scripts'],
    ['dist/lib/bootstrap.js in a tree with lib/scripts', 'dist/lib', 'lib/scripts'],
  ])('is found from a compiled %s', (_name, moduleDir, scriptsDir) => {
    // GIVEN a compiled copy of the module in a fresh tree
    const root = tmpDir();
    fs.mkdirSync(path.join(root, moduleDir, 'bootstrap'), { recursive: true });
    fs.mkdirSync(path.join(root, scriptsDir), { recursive: true });
    const modules = fs.readdirSync(path.join(__dirname, '..', '..', 'lib', 'bootstrap')).map((f) => `bootstrap/${f.replace(/\.ts$/, '')}`);
    for (const module of [...modules, 'bootstrap', 'script-file', 'script-parts']) {
      const js = ts.transpileModule(
        fs.readFileSync(path.join(__dirname, '..', '..', 'lib', `${module}.ts`), 'utf8'),
        { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } },
      ).outputText;
      fs.writeFileSync(path.join(root, moduleDir, `${module}.js`), js);
    }
    fs.writeFileSync(path.join(root, scriptsDir, 'storage-bootstrap.sh'), '#!/bin/bash\necho compiled\n');
    // WHEN
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `process.stdout.write(require(${JSON.stringify(path.join(root, moduleDir, 'bootstrap.js'))}).bootstrapScript())`,
      ],
      { encoding: 'utf8' },
    );
    // THEN
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('#!/bin/bash\necho compiled\n');
  });

  test('the apply document carries it without comment-only lines, still valid and shellcheck-clean', () => {
    const compact = compactScript(bootstrapScript());
    expect(compact.split('\n')[0]).toBe('#!/usr/bin/env bash');
    expect(
      compact
        .split('\n')
        .slice(2)
        .filter((l) => /^\s*#/.test(l)),
    ).toEqual([]);
    expect(compact.length).toBeLessThan(bootstrapScript().length);
    const file = path.join(tmpDir(), 'compact.sh');
    fs.writeFileSync(file, compact);
    expect(bash(`bash -n '${file}'`).stderr).toBe('');
    expect(shellcheck([file])).toEqual({ status: 0, output: '' });
  });
});

describe('renderBootstrapUnit', () => {
  test('a oneshot unit that stays active, logs to the journal and runs at every boot', () => {
    const unit = renderBootstrapUnit(instanceStore);
    expect(unit).toContain(`ExecStart=${BOOTSTRAP_PATHS.script}\n`);
    expect(unit).toContain('Type=oneshot\nRemainAfterExit=yes\n');
    expect(unit).toContain('StandardOutput=journal+console\n');
    expect(unit).toContain('[Install]\nWantedBy=multi-user.target\n');
    expect(unit).toContain('After=network-online.target local-fs.target\n');
    // Bounded, and longer than taking the volumes over plus the wait for them to show, 2 x 600 s here.
    expect(unit).toContain('TimeoutStartSec=2400\n');
  });
});
