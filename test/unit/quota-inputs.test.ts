/**
 * The quota inputs as a caller could get them wrong: the `quotas` prop's forms that no backend's own checks reach
 * (lib/quotas.ts), FSx for Lustre's project directories (lib/backends/fsx/quotas.ts and its node script), and what the
 * FSx for OpenZFS handler sends on an update (lambda/openzfs-export). Each case here was a hole found by review.
 * The rules: LUSTRE-QUOTAS and OPENZFS-USER-QUOTAS in docs/sources/fsx-rules.md.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Stack, Token } from 'aws-cdk-lib';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { MAX_QUOTAS, parseQuotas, type UserOrGroupQuota, type VolumeView } from '../../lambda/openzfs-export/contract';
import { exportHandler } from '../../lambda/openzfs-export/index';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import { Backend } from '../../lib/backend-enum';
import { checkQuotas, QuotaType, type QuotaLimit, type QuotaSupport } from '../../lib/quotas';
import { bootstrapScriptFile } from '../support/apply';
import { cutShellFile } from '../support/shell-cut';
import { bash } from '../support/bootstrap-fixtures';
import { appStack, serverStack } from '../support/stacks';

describe('checkQuotas', () => {
  // No backend takes a default yet; one that does must not get a default the limits' own check would refuse.
  const TAKES_DEFAULT: QuotaSupport = { types: [QuotaType.USER], defaultUser: true, why: 'test' };

  test.each([0, -1, 1.5, 2 ** 31, Number.NaN, '5', null])('a default of %p GiB is refused, naming the prop', (value) => {
    expect(() => checkQuotas(new Stack(), { defaultUserGiB: value as number }, 'test', TAKES_DEFAULT))
      .toThrow(/^quotas\.defaultUserGiB must be an integer of 1-2147483647, got /);
  });

  test('a default of 1-2147483647 GiB, or a token, passes', () => {
    for (const value of [1, 2 ** 31 - 1, Token.asNumber({ Ref: 'DefaultGiB' })]) {
      expect(() => checkQuotas(new Stack(), { defaultUserGiB: value }, 'test', TAKES_DEFAULT)).not.toThrow();
    }
  });
});

describe('FSx for Lustre\'s project directories', () => {
  const project = (id: number, dir: string): QuotaLimit => ({ type: QuotaType.PROJECT, id, limitGiB: 1, path: dir });
  const lustre = (limits: QuotaLimit[]) => serverStack({
    backend: Backend.FSX_LUSTRE, capacityTiB: 2.4, quotas: { limits }, fsxLustre: { fileSystemTypeVersion: fsx.FileSystemTypeVersion.V_2_15 },
  });

  // A file has one project id: two projects on one directory, or one inside another, end as the order of the
  // node's runs leaves them, since each run's lfs project -r gives the whole tree its id.
  test.each([
    ['the same directory', [project(7, '/a'), project(8, '/a')], /^quotas\.limits\[1\]\.path: \/a is also the directory of quotas\.limits\[0\]/],
    ['a directory inside another\'s', [project(7, '/a/b'), project(8, '/a')], /^quotas\.limits\[1\]\.path: \/a holds \/a\/b, the directory of quotas\.limits\[0\]/],
  ])('%s for two projects is refused, naming the prop', (_name, limits, message) => {
    expect(() => lustre(limits)).toThrow(message);
  });

  test('the key names its entries', () => {
    expect(() => appStack({ backend: 'fsx-lustre', fsxFileSystemTypeVersion: '2.15', quotaLimits: 'project:7:1:/a,project:8:1:/a/b' }))
      .toThrow(/^quotaLimits entry 2\.path: \/a\/b is inside \/a, the directory of quotaLimits entry 1/);
  });

  test('siblings, and a name that only starts like another, pass', () => {
    expect(() => lustre([project(7, '/a'), project(8, '/ab'), project(9, '/b/a'), project(10, '/a-b')])).not.toThrow();
  });
});

describe('the EC2 server\'s XFS project directories', () => {
  const project = (id: number, dir: string): QuotaLimit => ({ type: QuotaType.PROJECT, id, limitGiB: 1, path: dir });
  // xfs_quota project -s on the outer directory walks the inner one too, and the apply sets a project only where the
  // directory is not in it yet: with the inner listed first, its files count toward the outer project until a reboot.
  test.each([Backend.EBS, Backend.INSTANCE_STORE])('%s: a directory inside another project\'s is refused, naming the prop', (backend) => {
    expect(() => serverStack({ backend, capacityTiB: backend === Backend.EBS ? 2 : 20, quotas: { limits: [project(8, '/a/b'), project(7, '/a')] } }))
      .toThrow(/^quotas\.limits\[1\]\.path: \/a holds \/a\/b, the directory of quotas\.limits\[0\]; a file counts toward one project only/);
    expect(() => appStack({ backend: 'ebs', quotaLimits: 'project:7:1:/a,project:8:1:/a/b' }))
      .toThrow(/^quotaLimits entry 2\.path: \/a\/b is inside \/a, the directory of quotaLimits entry 1/);
  });
});

/** A node for storage-lustre-quota.sh: a mount point, a stand-in `lfs` that logs, and a directory outside the mount. */
function lustreNode(prefix: string) {
  const script = path.join(__dirname, '../../lib/scripts/storage-lustre-quota.sh');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const mp = path.join(dir, 'mnt');
  const outside = path.join(dir, 'outside');
  fs.mkdirSync(mp);
  fs.mkdirSync(outside);
  fs.mkdirSync(path.join(dir, 'bin'));
  const log = path.join(dir, 'lfs.log');
  fs.writeFileSync(path.join(dir, 'bin', 'lfs'), `#!/bin/bash\necho "$*" >>${log}\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'mounts'), `172.31.0.9@tcp:/abcdefgh ${mp} lustre rw 0 0\n`);
  const env = {
    ...process.env, PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, STORAGE_LUSTRE_MOUNTS: path.join(dir, 'mounts'),
    STORAGE_LUSTRE_STATE_DIR: path.join(dir, 'state'), STORAGE_LUSTRE_WAIT_SECONDS: '0',
  };
  const run = (limits: string) => spawnSync('bash', [script, '--mount-name', 'abcdefgh', '--mount-point', mp, '--limits', limits],
    { encoding: 'utf8', env });
  const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []);
  return { dir, mp, outside, run, calls };
}

describe('storage-lustre-quota.sh on what reaches the node', () => {
  const node = () => lustreNode('quota-inputs-');

  // SSM's pattern refuses these, but the script says it checks each entry again, and bash's read drops a trailing
  // empty field and stops at a line break.
  test.each([
    ['a trailing comma', 'user:1001:1,'],
    ['a line break before more', 'user:1001:1\nuser:0:5'],
  ])('%s is refused, nothing set', (_name, limits) => {
    const n = node();
    const r = n.run(limits);
    expect(r.stderr).toMatch(/^storage-lustre-quota: ERROR: --limits must be entries joined by single commas, without an empty one or a line break/);
    expect(r.status).toBe(1);
    expect(n.calls()).toEqual([]);
  });

  test.each([
    ['one directory', 'project:7:1:/a,project:8:1:/a', /--limits entry 2: the directory \/a is also project 7's/],
    ['a directory inside another\'s', 'project:7:1:/a,project:8:1:/a/b', /--limits entry 2: the directory \/a\/b is inside \/a, project 7's/],
    ['a directory holding another\'s', 'project:7:1:/a/b,project:8:1:/a', /--limits entry 2: the directory \/a holds \/a\/b, project 7's/],
  ])('two projects on %s are refused, nothing set', (_name, limits, message) => {
    const n = node();
    const r = n.run(limits);
    expect(r.stderr).toMatch(message);
    expect(r.status).toBe(1);
    expect(n.calls()).toEqual([]);
  });
});

describe('storage-lustre-quota.sh and a symlink a user made in the file system', () => {
  const node = () => lustreNode('quota-symlink-');

  // Root runs the script, and any user who may write the file system's root may make /a a symlink before it runs.
  test.each([
    ['a component on the way', '/a/b'],
    ['the directory itself', '/a'],
  ])('a symlink as %s is refused: nothing made or marked outside the file system', (_name, dir) => {
    const n = node();
    fs.symlinkSync(n.outside, path.join(n.mp, 'a'));
    const r = n.run(`project:7:1:${dir}`);
    expect(r.stderr).toMatch(new RegExp(`^storage-lustre-quota: ERROR: ${n.mp}/a is a symlink: a project's directory is made and marked only through directories of the file system`));
    expect(r.status).toBe(1);
    expect(fs.readdirSync(n.outside)).toEqual([]);
    expect(n.calls()).toEqual([]);
  });

  test('real directories on the way are made one by one and the project marked', () => {
    const n = node();
    fs.mkdirSync(path.join(n.mp, 'a'));
    const r = n.run('project:7:1:/a/b/c');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.statSync(path.join(n.mp, 'a/b/c')).isDirectory()).toBe(true);
    expect(n.calls()).toEqual([`project -p 7 -r -s ${n.mp}/a/b/c`, `setquota -p 7 -b 0 -B 1048576 ${n.mp}`]);
  });
});

describe('the FSx for OpenZFS handler near UpdateVolume\'s 500 quotas', () => {
  const VOLUME = 'fsvol-0123456789abcdef0';
  const EXPORT = [{ Clients: '10.0.0.0/16', Options: ['rw', 'crossmnt', 'root_squash'] }];
  const users = (from: number, count: number, gib = 10): UserOrGroupQuota[] =>
    Array.from({ length: count }, (_, i) => ({ Type: 'USER', Id: from + i, StorageCapacityQuotaGiB: gib }));
  // CloudFormation hands the handler strings.
  const strings = (qs: UserOrGroupQuota[]) => qs.map((q) => ({ Type: q.Type, Id: String(q.Id), StorageCapacityQuotaGiB: String(q.StorageCapacityQuotaGiB) }));
  const update = (wanted: UserOrGroupQuota[], previous: UserOrGroupQuota[], clients = EXPORT) => ({
    RequestType: 'Update', PhysicalResourceId: VOLUME,
    ResourceProperties: { ServiceToken: 'x', VolumeId: VOLUME, ClientConfigurations: clients, UserAndGroupQuotas: strings(wanted) },
    OldResourceProperties: { ServiceToken: 'x', VolumeId: VOLUME, ClientConfigurations: EXPORT, UserAndGroupQuotas: strings(previous) },
  } as unknown as CdkCustomResourceEvent);
  /** A volume showing `shown`, which takes what UpdateVolume sends as merged into its list; UpdateVolume refuses past 500. */
  function fsx(shown: UserOrGroupQuota[]) {
    let quotas = new Map(shown.map((q) => [`${q.Type}:${q.Id}`, q]));
    let clients = EXPORT;
    const sent: UserOrGroupQuota[][] = [];
    const volume = (): VolumeView => ({
      VolumeId: VOLUME, Lifecycle: 'AVAILABLE', AdministrativeActions: [],
      OpenZFSConfiguration: { NfsExports: [{ ClientConfigurations: clients }], UserAndGroupQuotas: [...quotas.values()].filter((q) => q.StorageCapacityQuotaGiB > 0) },
    });
    const handler = exportHandler({
      updateVolume: async (_id, configs, qs) => {
        if (qs.length > MAX_QUOTAS) throw new Error(`ValidationException: ${qs.length} quotas, past 500`);
        sent.push(qs);
        clients = configs;
        quotas = new Map([...quotas, ...qs.map((q) => [`${q.Type}:${q.Id}`, q] as const)]);
      },
      describeVolume: async () => volume(), now: () => 0, sleep: async () => undefined,
    });
    return { handler: (e: CdkCustomResourceEvent) => handler(e, { getRemainingTimeInMillis: () => 600_000 }), sent };
  }

  test('500 quotas replaced by 500 others: refused before UpdateVolume, naming the prop and the way through', async () => {
    const { handler, sent } = fsx(users(1000, 500));
    await expect(handler(update(users(2000, 500), users(1000, 500)))).rejects.toThrow(
      /^The quotas prop \(or quotaLimits key\), as ResourceProperties\.UserAndGroupQuotas: UpdateVolume takes at most 500 user and group quotas, and this update would send 1000: the 500 wanted and 500 dropped since the last deploy, lifted at 0 GiB\. Deploy twice:/);
    expect(sent).toEqual([]);
  });

  test('then the rollback, which asks for the old quotas back, lifts none of those never set', async () => {
    const { handler, sent } = fsx(users(1000, 500));
    const other = [{ Clients: '10.9.0.0/16', Options: ['rw'] }];
    // The rollback of an update that also changed the export, so that the export is to be sent again.
    await expect(handler(update(users(1000, 500), users(2000, 500), EXPORT))).resolves.toEqual({ PhysicalResourceId: VOLUME });
    expect(sent).toEqual([]);
    const changed = fsx(users(1000, 500));
    await expect(changed.handler(update(users(1000, 500), users(2000, 500), other))).resolves.toEqual({ PhysicalResourceId: VOLUME });
    expect(changed.sent).toEqual([users(1000, 500)]);
  });

  test('499 wanted and two dropped, one of them gone from the volume already: 500 sent', async () => {
    const { handler, sent } = fsx(users(1000, 499));
    const wanted = [...users(1000, 498), ...users(5000, 1)];
    await expect(handler(update(wanted, users(1000, 500)))).resolves.toEqual({ PhysicalResourceId: VOLUME });
    expect(sent).toEqual([[...wanted, { Type: 'USER', Id: 1498, StorageCapacityQuotaGiB: 0 }]]);
  });
});

describe('the EC2 server\'s quota settings, as a token resolved at deploy leaves them', () => {
  // The prop lets a token id or GiB through to the server's check; 10 digits pass its pattern, past the contract's
  // 2147483647 and XFS's 32-bit ids, and a GiB that large overflows the bytes xfs_quota computes.
  const check = (def: string, limits: string) => bash(
    `set -u; . '${cutShellFile(bootstrapScriptFile(), ['quota_settings_ok'])}'
    ENV_FILE=bootstrap.env REASON_FILE=/dev/null STORAGE_QUOTA_DEFAULT_USER_GIB='${def}' STORAGE_QUOTA_LIMITS='${limits}'
    quota_settings_ok && echo ok`,
  );

  test.each([
    ['', 'user:2147483648:5', /setting STORAGE_QUOTA_LIMITS entry 'user:2147483648:5': ids and GiB are at most 2147483647/],
    ['', 'user:9999999999:5', /setting STORAGE_QUOTA_LIMITS entry 'user:9999999999:5': ids and GiB are at most 2147483647/],
    ['', 'project:7:9999999999:a', /setting STORAGE_QUOTA_LIMITS entry 'project:7:9999999999:a': ids and GiB are at most 2147483647/],
    ['9999999999', '', /setting STORAGE_QUOTA_DEFAULT_USER_GIB '9999999999' is past 2147483647 GiB/],
  ])('default %p, limits %p: refused', (def, limits, message) => {
    const r = check(def, limits);
    expect([r.status, r.stderr]).toEqual([1, expect.stringMatching(message)]);
  });

  test('2147483647 itself passes', () => {
    expect(check('2147483647', 'user:2147483647:2147483647 project:2147483647:1:a').stdout).toBe('ok\n');
  });
});

// What held under review, kept so that it goes on holding.
describe('forms that held', () => {
  test('the OpenZFS handler takes CloudFormation\'s strings in one form only: one id in two spellings is never two quotas', () => {
    for (const id of ['05', ' 5', '5 ', '5.0', '1e3', '+5', '0x5', '\u0665', '-0', '2147483648', '']) {
      expect(() => parseQuotas([{ Type: 'USER', Id: id, StorageCapacityQuotaGiB: '1' }])).toThrow(/\[0\]\.Id must be an integer of 0-2147483647/);
    }
    expect(() => parseQuotas([{ Type: 'USER', Id: '5', StorageCapacityQuotaGiB: '1' }, { Type: 'USER', Id: 5, StorageCapacityQuotaGiB: 2 }]))
      .toThrow(/\[1\] repeats the quota of USER 5/);
  });

  test('a number token\'s id and GiB reach the Lustre association and the OpenZFS export as references', () => {
    const id = Token.asNumber({ Ref: 'Uid' });
    const limitGiB = Token.asNumber({ Ref: 'Gib' });
    const { template: lustre } = serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 2.4, quotas: { limits: [{ type: QuotaType.USER, id, limitGiB }] } });
    const association = Object.values(lustre.findResources('AWS::SSM::Association')).find((a) => JSON.stringify(a.Properties.Name).includes('QuotasDocument'))!;
    expect(association.Properties.Parameters.limits).toEqual([{ 'Fn::Join': ['', ['user:', { Ref: 'Uid' }, ':', { Ref: 'Gib' }]] }]);
    const { template: zfs } = serverStack({ backend: Backend.FSX_OPENZFS, capacityTiB: 1, quotas: { limits: [{ type: QuotaType.GROUP, id, limitGiB }] } });
    expect(Object.values(zfs.findResources('Custom::FsxOpenZfsExport'))[0].Properties.UserAndGroupQuotas)
      .toEqual([{ Type: 'GROUP', Id: { Ref: 'Uid' }, StorageCapacityQuotaGiB: { Ref: 'Gib' } }]);
  });

  test('the Lustre script finds its file system at the mount point only, not at one it is a prefix of', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quota-prefix-'));
    fs.writeFileSync(path.join(dir, 'mounts'), '172.31.0.9@tcp:/abcdefgh /data/scratch2 lustre rw 0 0\n172.31.0.9@tcp:/abcdefgh /data lustre rw 0 0\n');
    const r = spawnSync('bash', [path.join(__dirname, '../../lib/scripts/storage-lustre-quota.sh'), '--mount-name', 'abcdefgh',
      '--mount-point', '/data/scratch', '--limits', 'user:1001:1'], {
      encoding: 'utf8', env: { ...process.env, STORAGE_LUSTRE_MOUNTS: path.join(dir, 'mounts'), STORAGE_LUSTRE_STATE_DIR: path.join(dir, 'state'), STORAGE_LUSTRE_WAIT_SECONDS: '0' },
    });
    expect([r.status, r.stderr]).toEqual([1, expect.stringMatching(/no Lustre file system with mount name abcdefgh is mounted at \/data\/scratch after 0s/)]);
  });
});
