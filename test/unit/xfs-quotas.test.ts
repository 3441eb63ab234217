/**
 * XFS quotas on the EC2 server (issue 46, item 1): the `quotas` prop and the app's keys reach the server's settings,
 * STORAGE_QUOTA_DEFAULT_USER_GIB and STORAGE_QUOTA_LIMITS, which lib/scripts/storage-bootstrap-quotas.sh applies with
 * xfs_quota (test/unit/bootstrap.test.ts runs it with stand-ins; the instance-store VM boot with the real ones, EDQUOT
 * included). What XFS cannot take is refused at synth, naming the prop or key as typed.
 */
import { Backend } from '../../lib/backend-enum';
import { QuotaType, type QuotaOptions } from '../../lib/quotas';
import { appStack, serverStack } from '../support/stacks';
import { settingOf } from '../support/storage-server-template';
import { Template } from 'aws-cdk-lib/assertions';

const server = (quotas: unknown, backend = Backend.EBS) =>
  serverStack({ backend, capacityTiB: backend === Backend.EBS ? 2 : 20, quotas: quotas as QuotaOptions }).template;

describe('XFS quotas at synth', () => {
  test.each([Backend.EBS, Backend.INSTANCE_STORE])('%s: the limits and the default reach the settings, a project by its directory under the export', (backend) => {
    const t = server({
      defaultUserGiB: 100,
      limits: [{ type: QuotaType.USER, id: 1001, limitGiB: 5 }, { type: QuotaType.GROUP, id: 2000, limitGiB: 50 },
        { type: QuotaType.PROJECT, id: 7, limitGiB: 20, path: '/scratch/a' }],
    }, backend);
    expect(settingOf(t, 'STORAGE_QUOTA_DEFAULT_USER_GIB')).toBe("STORAGE_QUOTA_DEFAULT_USER_GIB='100'");
    expect(settingOf(t, 'STORAGE_QUOTA_LIMITS')).toBe("STORAGE_QUOTA_LIMITS='user:1001:5 group:2000:50 project:7:20:scratch/a'");
  });

  test('without quotas the settings carry none', () => {
    const t = server(undefined);
    expect(settingOf(t, 'STORAGE_QUOTA_DEFAULT_USER_GIB')).toBe("STORAGE_QUOTA_DEFAULT_USER_GIB=''");
    expect(settingOf(t, 'STORAGE_QUOTA_LIMITS')).toBe("STORAGE_QUOTA_LIMITS=''");
  });

  test.each([
    ['id 0 of a user', { limits: [{ type: QuotaType.USER, id: 0, limitGiB: 1 }] }, /^quotas\.limits\[0\]\.id: XFS keeps its default limits as id 0's, so no user limit may name id 0; set quotas\.defaultUserGiB/],
    ['id 0 of a group', { limits: [{ type: QuotaType.GROUP, id: 0, limitGiB: 1 }] }, /^quotas\.limits\[0\]\.id: XFS keeps its default limits as id 0's, so no group limit may name id 0; give another id/],
    ['a project without its directory', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1 }] }, /^quotas\.limits\[0\]\.path must be the project's directory under the export/],
    ['a relative directory', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1, path: 'a' }] }, /^quotas\.limits\[0\]\.path must be/],
    ['a dot-named directory', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1, path: '/.storage-server' }] }, /^quotas\.limits\[0\]\.path must be/],
    ['a way out by ..', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1, path: '/a/../..' }] }, /^quotas\.limits\[0\]\.path must be/],
    ['one directory for two projects', { limits: [{ type: QuotaType.PROJECT, id: 7, limitGiB: 1, path: '/a' }, { type: QuotaType.PROJECT, id: 8, limitGiB: 1, path: '/a' }] },
      /^quotas\.limits\[1\]\.path \/a is another project's directory/],
  ])('%s is refused, naming the prop', (_name, quotas, message) => {
    expect(() => server(quotas)).toThrow(message);
  });

  test('the app\'s keys reach the settings; refusals name the keys', () => {
    const t = Template.fromStack(appStack({ backend: 'ebs', quotaLimits: 'user:1001:5,project:9:3:/proj/x', quotaDefaultUserGiB: '10' }));
    expect(settingOf(t, 'STORAGE_QUOTA_LIMITS')).toBe("STORAGE_QUOTA_LIMITS='user:1001:5 project:9:3:proj/x'");
    expect(settingOf(t, 'STORAGE_QUOTA_DEFAULT_USER_GIB')).toBe("STORAGE_QUOTA_DEFAULT_USER_GIB='10'");
    expect(() => appStack({ backend: 'ebs', quotaLimits: 'group:0:5' }))
      .toThrow(/^quotaLimits entry 1\.id: XFS keeps its default limits as id 0's/);
    expect(() => appStack({ backend: 'ebs', quotaLimits: 'user:0:5' })).toThrow(/set quotaDefaultUserGiB for every user/);
  });
});
