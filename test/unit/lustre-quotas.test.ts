/**
 * FSx for Lustre's quotas, LUSTRE-QUOTAS in docs/sources/fsx-rules.md: AWS's guide sets them from a client with lfs
 * setquota, so the server's State Manager association runs lib/scripts/storage-lustre-quota.sh on the cluster's nodes.
 * No Lustre client is installable here: the script runs under bash with a stand-in `lfs` that records its arguments and
 * answers `lfs quota` as the Lustre manual's output looks, and a stand-in mount table. The document is run as SSM would,
 * its parameters put in; the template is checked for the association, its target and its limits.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Template } from 'aws-cdk-lib/assertions';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { Backend } from '../../lib/backend-enum';
import { LUSTRE_QUOTA_PARAMETERS, renderLustreLimits, renderLustreQuotaDocument } from '../../lib/backends/fsx/quotas';
import { QuotaType, type QuotaOptions } from '../../lib/quotas';
import { appStack, serverStack } from '../support/stacks';

const SCRIPT = path.join(__dirname, '../../lib/scripts/storage-lustre-quota.sh');
const MP = '/data/scratch';

/** A node: a mount table, a state directory and an `lfs` that logs each call and answers `lfs quota` from a table. */
function node(mounted = `172.31.0.9@tcp:/abcdefgh ${MP} lustre rw,flock 0 0`) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lustre-quota-'));
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const log = path.join(dir, 'lfs.log');
  // `lfs quota -q -u ID MP`: the mount point, then used, soft, hard, grace, files, soft, hard, grace (KiB).
  fs.writeFileSync(path.join(bin, 'lfs'), `#!/bin/bash
echo "$*" >>${log}
[[ $* == *FAIL* || -e ${dir}/fail ]] && exit 1
if [[ $1 == quota ]]; then
  case $3:$4 in
    -u:1001) echo "  $5  5242880*  0 4194304 - 10 0 0 -" ;;
    -g:2000) echo "  $5  9999999  0 524288000 - 3 0 0 -" ;;
    *) echo "  $5  0  0 0 - 0 0 0 -" ;;
  esac
fi
exit 0
`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'getent'), '#!/bin/sh\nprintf "root:x:0:0::/root:/bin/sh\\nana:x:1002:1002::/home/ana:/bin/sh\\nnobody:x:65534:65534::/:/bin/false\\n"\n', { mode: 0o755 });
  // mkdir under the mount point goes to the sandbox, as the file system would take it.
  fs.writeFileSync(path.join(bin, 'mkdir'), `#!/bin/bash
args=()
for a; do [[ $a == ${MP}/* ]] && a=${dir}/fs\${a#${MP}}; args+=("$a"); done
exec /bin/mkdir "\${args[@]}"
`, { mode: 0o755 });
  const mounts = path.join(dir, 'mounts');
  fs.writeFileSync(mounts, `sysfs /sys sysfs rw 0 0\n${mounted}\n`);
  const env = {
    ...process.env, PATH: `${bin}:${process.env.PATH}`, STORAGE_LUSTRE_MOUNTS: mounts,
    STORAGE_LUSTRE_STATE_DIR: path.join(dir, 'state'), STORAGE_LUSTRE_WAIT_SECONDS: '0',
  };
  const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []);
  return { dir, env, calls, clear: () => fs.rmSync(log, { force: true }) };
}

function run(n: ReturnType<typeof node>, limits: string, action = 'apply', mountName = 'abcdefgh') {
  const r = spawnSync('bash', [SCRIPT, '--mount-name', mountName, '--mount-point', MP, '--limits', limits, '--action', action],
    { encoding: 'utf8', env: n.env });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return { ...r, result: last.startsWith('{') ? JSON.parse(last) as Record<string, unknown> : undefined };
}

describe('storage-lustre-quota.sh on a node', () => {
  test('sets each limit as a hard block limit in KiB; a project\'s directory gets its id first', () => {
    const n = node();
    const r = run(n, 'user:1001:100,group:2000:500,project:7:50:/proj/a');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.result).toEqual({ action: 'apply', mountPoint: MP, set: 3, lifted: 0 });
    expect(n.calls().sort()).toEqual([
      `project -p 7 -r -s ${MP}/proj/a`,
      `setquota -g 2000 -b 0 -B 524288000 ${MP}`,
      `setquota -p 7 -b 0 -B 52428800 ${MP}`,
      `setquota -u 1001 -b 0 -B 104857600 ${MP}`,
    ]);
    expect(fs.statSync(path.join(n.dir, 'fs/proj/a')).isDirectory()).toBe(true);
  });

  test('a limit dropped since this node set it is lifted; one set by hand for another id is not touched', () => {
    const n = node();
    expect(run(n, 'user:1001:100,group:2000:500').status).toBe(0);
    n.clear();
    const r = run(n, 'user:1001:200');
    expect(r.status).toBe(0);
    expect(r.result).toMatchObject({ set: 1, lifted: 1 });
    expect(n.calls()).toEqual([`setquota -u 1001 -b 0 -B 209715200 ${MP}`, `setquota -g 2000 -b 0 -B 0 ${MP}`]);
    n.clear();
    expect(run(n, '').result).toMatchObject({ set: 0, lifted: 1 });
    expect(n.calls()).toEqual([`setquota -u 1001 -b 0 -B 0 ${MP}`]);
  });

  test('a failed lfs setquota fails the run and keeps the old state, so the next run tries again', () => {
    const n = node();
    expect(run(n, 'user:1001:100').status).toBe(0);
    fs.writeFileSync(path.join(n.dir, 'fail'), '');
    const r = run(n, 'group:2000:500');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/lfs setquota -g 2000 on \/data\/scratch failed \(a node whose root the file system squashes/);
    expect(fs.readFileSync(path.join(n.dir, 'state/abcdefgh'), 'utf8')).toBe('user:1001\n');
  });

  test.each([
    ['root\'s user limit', 'user:0:1', /entry 1: the root user's quota is not enforced/],
    ['project 0', 'project:0:1:/p', /entry 1: project 0 is every file without a project/],
    ['a path out of the file system', 'project:7:1:/a/../../etc', /entry 1 must be user:<uid>:<GiB>/],
    ['a relative path', 'project:7:1:a', /entry 1 must be/],
    ['0 GiB', 'user:5:0', /entry 1: the GiB must be 1-2147483647, got 0/],
    ['an id past 2^31-1', 'group:2147483648:1', /entry 1: the id must be at most 2147483647/],
    ['one user twice', 'user:5:1,user:05:2', /entry 2 repeats the user limit of id 5/],
    ['a shell word', 'user:5:1;reboot', /entry 1 must be/],
    ['an unknown type', 'owner:5:1', /entry 1 must be/],
  ])('%s is refused before lfs runs', (_name, limits, message) => {
    const n = node();
    const r = run(n, limits);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(n.calls()).toEqual([]);
  });

  test('with no limits and none set before, it does nothing, not even wait for the mount', () => {
    const n = node('');
    const r = run(n, '');
    expect(r.status).toBe(0);
    expect(r.result).toEqual({ action: 'apply', mountPoint: MP, set: 0, lifted: 0 });
    expect(n.calls()).toEqual([]);
  });

  test('another file system at the mount point, or none, is not the one to limit', () => {
    for (const mounted of [`172.31.0.9@tcp:/zzzzzzzz ${MP} lustre rw 0 0`, `10.0.0.5:/export ${MP} nfs4 rw 0 0`, '']) {
      const n = node(mounted);
      const r = run(n, 'user:1001:100');
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/no Lustre file system with mount name abcdefgh is mounted at \/data\/scratch after 0s/);
      expect(n.calls()).toEqual([]);
    }
  });

  test('the report lists each limited id and each local user, fullest first, an id over its limit included', () => {
    const n = node();
    const r = run(n, 'user:1001:4,group:2000:500', 'report');
    expect(r.status).toBe(0);
    expect(r.result).toEqual({
      action: 'report', mountPoint: MP, ids: [
        { type: 'group', id: 2000, usedKiB: 9999999, limitKiB: 524288000 },
        { type: 'user', id: 1001, usedKiB: 5242880, limitKiB: 4194304 },
        { type: 'user', id: 1002, usedKiB: 0, limitKiB: 0 },
      ],
    });
    expect(r.stdout).toMatch(/^type +id +used_kib +limit_kib\ngroup +2000 +9999999 +524288000\nuser +1001 +5242880 +4194304\n/);
    expect(n.calls().every((c) => c.startsWith('quota -q '))).toBe(true);
  });
});

describe('the quota document', () => {
  const doc = renderLustreQuotaDocument() as { parameters: Record<string, { allowedPattern: string; default?: string }>; mainSteps: { inputs: { runCommand: string[] } }[] };

  test('SSM\'s patterns take what the stack renders and refuse what could be a shell word', () => {
    const limits = new RegExp(LUSTRE_QUOTA_PARAMETERS.limits.pattern);
    const rendered = renderLustreLimits([
      { type: QuotaType.USER, id: 1001, limitGiB: 100 }, { type: QuotaType.PROJECT, id: 7, limitGiB: 50, path: '/proj/a' },
    ]);
    expect(rendered).toBe('user:1001:100,project:7:50:/proj/a');
    for (const ok of [rendered, '', 'group:1:1']) expect(limits.test(ok)).toBe(true);
    for (const bad of ["user:1:1'", 'user:1:1,', 'user:1:1 group:2:2', 'project:7:1:p', 'user:1:1;id']) expect(limits.test(bad)).toBe(false);
    expect(doc.parameters.limits.default).toBe('');
    expect(doc.parameters.action.default).toBe('apply');
  });

  test('run as SSM runs it, its parameters put in, it applies the limits', () => {
    const n = node();
    const command = doc.mainSteps[0].inputs.runCommand.join('\n')
      .replace('{{ mountName }}', 'abcdefgh').replace('{{ mountPoint }}', MP)
      .replace('{{ limits }}', 'user:1001:100').replace('{{ action }}', 'apply');
    const r = spawnSync('bash', ['-c', command], { encoding: 'utf8', env: n.env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(n.calls()).toEqual([`setquota -u 1001 -b 0 -B 104857600 ${MP}`]);
  });
});

describe('the quotas of an FSx for Lustre server at synth', () => {
  const lustre = (quotas?: QuotaOptions, fsxLustre: Record<string, unknown> = {}) =>
    serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2.4, quotas, clusterName: 'hpc', fsxLustre });
  const association = (t: Template) => Object.values(t.findResources('AWS::SSM::Association'))
    .find((a) => JSON.stringify(a.Properties.Name).includes('QuotasDocument'))!.Properties;

  test('the association runs on the cluster\'s nodes with the limits; without quotas, with none, to lift what was set', () => {
    const { template } = lustre({
      limits: [{ type: QuotaType.USER, id: 1001, limitGiB: 100 }, { type: QuotaType.PROJECT, id: 7, limitGiB: 50, path: '/proj/a' }],
    }, { fileSystemTypeVersion: fsx.FileSystemTypeVersion.V_2_15 });
    const a = association(template);
    expect(a.Targets).toEqual([{ Key: 'tag:cluster', Values: ['hpc'] }]);
    expect(a.Parameters.limits).toEqual(['user:1001:100,project:7:50:/proj/a']);
    expect(a.Parameters.mountPoint).toEqual(['/data']);
    expect(JSON.stringify(a.Parameters.mountName)).toMatch(/LustreMountName/);
    expect(a.MaxConcurrency).toBe('1');
    expect(association(lustre().template).Parameters.limits).toEqual(['']);
  });

  test('the app targets the nodes by its clientTagKey and outputs the document for the report', () => {
    const t = Template.fromStack(appStack({ backend: 'fsx-lustre', clusterName: 'hpc', clientTagKey: 'slurm-cluster', quotaLimits: 'group:2000:500' }));
    const a = association(t);
    expect(a.Targets).toEqual([{ Key: 'tag:slurm-cluster', Values: ['hpc'] }]);
    expect(a.Parameters.limits).toEqual(['group:2000:500']);
    expect(Object.keys(t.findOutputs('QuotaDocumentName'))).toHaveLength(1);
    expect(Object.keys(Template.fromStack(appStack({ backend: 'ebs' })).findOutputs('QuotaDocumentName'))).toHaveLength(0);
  });

  test.each([
    ['a project limit before Lustre 2.15', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1, path: '/p' }] }, {},
      /^quotas\.limits\[0\]: project quotas need Lustre 2\.15 .*set fsxLustre\.fileSystemTypeVersion to 2\.15/],
    ['a project limit without its directory', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1 }] }, { fileSystemTypeVersion: fsx.FileSystemTypeVersion.V_2_15 },
      /^quotas\.limits\[0\]\.path must be the project's directory/],
    ['a project path with ..', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1, path: '/a/../b' }] }, { fileSystemTypeVersion: fsx.FileSystemTypeVersion.V_2_15 },
      /^quotas\.limits\[0\]\.path must be/],
    ['root\'s user limit', { limits: [{ type: QuotaType.USER, id: 0, limitGiB: 1 }] }, {}, /^quotas\.limits\[0\]\.id: FSx for Lustre does not enforce the root user's quota/],
    ['a default user limit', { defaultUserGiB: 10 }, {}, /^quotas\.defaultUserGiB: backend 'fsx-lustre' takes user and group and project limits and no default \(AWS's guide/],
  ])('%s is refused, naming the prop', (_name, quotas, options, message) => {
    expect(() => lustre(quotas as QuotaOptions, options)).toThrow(message);
  });

  test('with root squash on for every node, synth warns that the nodes may not set quotas', () => {
    const warnings = (options: Record<string, unknown>) => lustre({ limits: [{ type: QuotaType.USER, id: 5, limitGiB: 1 }] }, options)
      .stack.node.findAll().flatMap((c) => c.node.metadata).filter((m) => String(m.data).includes('lustreQuotaRootSquash'));
    expect(warnings({})).toHaveLength(1);
    expect(warnings({ rootSquash: false })).toHaveLength(0);
  });
});
