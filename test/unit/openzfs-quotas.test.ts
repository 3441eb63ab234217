/**
 * FSx for OpenZFS user and group quotas, OPENZFS-USER-QUOTAS in docs/sources/fsx-rules.md: the `quotas` prop checked at
 * synth, carried by the root volume's export resource, and set live by lambda/openzfs-export through UpdateVolume. moto
 * has no FSx UpdateVolume or DescribeVolumes, so the handler runs against recorded responses
 * (test/support/fsx-responses/completed-quotas.json), through its loop and through the real SDK client over HTTP.
 * The permission is the export's own, fsx:UpdateVolume on the root volume, which test/unit/iam-claims.test.ts
 * evaluates with the IAM simulator.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { exportState, parseQuotas, quotasToSend, type UserOrGroupQuota, type VolumeView } from '../../lambda/openzfs-export/contract';
import { exportHandler, type ExportDeps } from '../../lambda/openzfs-export/index';
import { startFsxHttp, type FsxHttp } from '../support/fsx-http';
import { MAX_QUOTA_VALUE, QuotaType, type QuotaOptions } from '../../lib/quotas';
import { MAX_QUOTA_VALUE as HANDLER_MAX } from '../../lambda/openzfs-export/contract';
import { Backend } from '../../lib/backend-enum';
import { Template } from 'aws-cdk-lib/assertions';
import { appStack, serverStack } from '../support/stacks';

const VOLUME = 'fsvol-0123456789abcdef0';
const SQUASH = ['rw', 'crossmnt', 'root_squash'];
const EXPORT = [{ Clients: '10.0.0.0/16', Options: SQUASH }, { Clients: '10.1.0.0/24', Options: SQUASH }];
const ASKED_AT = 1764230460_000;
const WANTED: UserOrGroupQuota[] = [{ Type: 'USER', Id: 1001, StorageCapacityQuotaGiB: 100 }, { Type: 'GROUP', Id: 2000, StorageCapacityQuotaGiB: 500 }];

const volumeOf = (name: string): VolumeView =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'support', 'fsx-responses', `${name}.json`), 'utf8')).Volumes[0];

describe('the quotas as the handler reads them', () => {
  test('CloudFormation\'s strings are the integers they spell', () => {
    expect(parseQuotas([{ Type: 'USER', Id: '1001', StorageCapacityQuotaGiB: '100' }])).toEqual([WANTED[0]]);
    expect(parseQuotas(undefined)).toEqual([]);
  });

  test.each([
    ['no list', {}, /must be a list of 1-500 user or group quotas/],
    ['an empty list', [], /must be a list of 1-500/],
    ['501 quotas', Array.from({ length: 501 }, (_, i) => ({ Type: 'USER', Id: i, StorageCapacityQuotaGiB: 1 })), /must be a list of 1-500/],
    ['a project quota', [{ Type: 'PROJECT', Id: 1, StorageCapacityQuotaGiB: 1 }], /\[0\]\.Type must be USER or GROUP, got "PROJECT"/],
    ['an id past the range', [{ Type: 'USER', Id: 2147483648, StorageCapacityQuotaGiB: 1 }], /\[0\]\.Id must be an integer of 0-2147483647/],
    ['a negative id as text', [{ Type: 'USER', Id: '-1', StorageCapacityQuotaGiB: 1 }], /\[0\]\.Id must be an integer/],
    ['a fraction', [{ Type: 'USER', Id: 1, StorageCapacityQuotaGiB: 1.5 }], /StorageCapacityQuotaGiB must be an integer of 1-2147483647/],
    ['0 GiB, which only lifts a quota', [{ Type: 'USER', Id: 1, StorageCapacityQuotaGiB: 0 }], /StorageCapacityQuotaGiB must be an integer of 1-/],
    ['one user twice', [WANTED[0], { ...WANTED[0], StorageCapacityQuotaGiB: 5 }], /\[1\] repeats the quota of USER 1001/],
  ])('%s is refused', (_name, value, message) => {
    expect(() => parseQuotas(value)).toThrow(message);
  });
});

test('the prop\'s bound is the handler\'s, which is the FSx API\'s', () => {
  expect(MAX_QUOTA_VALUE).toBe(HANDLER_MAX);
});

describe('what is sent and when it is in effect', () => {
  test('a quota dropped since the last deploy is sent at 0 GiB, which lifts it; the others as wanted', () => {
    const before = [...WANTED, { Type: 'USER' as const, Id: 1002, StorageCapacityQuotaGiB: 50 }];
    expect(quotasToSend(WANTED, before)).toEqual([...WANTED, { Type: 'USER', Id: 1002, StorageCapacityQuotaGiB: 0 }]);
  });

  test('the volume showing the quotas (and one set by hand beside them) is done; another limit is not', () => {
    expect(exportState(volumeOf('completed-quotas'), EXPORT, ASKED_AT, WANTED)).toEqual({ state: 'done' });
    // A lifted quota is done when absent.
    expect(exportState(volumeOf('completed-quotas'), EXPORT, ASKED_AT, [...WANTED, { Type: 'USER', Id: 1002, StorageCapacityQuotaGiB: 0 }]))
      .toEqual({ state: 'done' });
    expect(exportState(volumeOf('completed-quotas'), EXPORT, ASKED_AT, [{ ...WANTED[0], StorageCapacityQuotaGiB: 200 }]))
      .toEqual({ state: 'waiting', why: 'the volume does not show the new user and group quotas yet' });
    // The export shown but not the quotas: waiting on the quotas, however long.
    expect(exportState(volumeOf('completed'), EXPORT, ASKED_AT, WANTED))
      .toEqual({ state: 'waiting', why: 'the volume does not show the new user and group quotas yet' });
    // Lifting the hand-set quota of uid 5000 is not done while FSx still shows it.
    expect(exportState(volumeOf('completed-quotas'), EXPORT, ASKED_AT, [{ Type: 'USER', Id: 5000, StorageCapacityQuotaGiB: 0 }]).state).toBe('waiting');
  });
});

const event = (type: string, quotas?: unknown, oldQuotas?: unknown) => ({
  RequestType: type, PhysicalResourceId: VOLUME,
  ResourceProperties: { ServiceToken: 'x', VolumeId: VOLUME, ClientConfigurations: EXPORT, ...(quotas ? { UserAndGroupQuotas: quotas } : {}) },
  OldResourceProperties: { ServiceToken: 'x', VolumeId: VOLUME, ClientConfigurations: EXPORT, ...(oldQuotas ? { UserAndGroupQuotas: oldQuotas } : {}) },
} as unknown as CdkCustomResourceEvent);

describe('the handler sets them with UpdateVolume and waits until DescribeVolumes shows them', () => {
  function scripted(states: string[]) {
    const sent: UserOrGroupQuota[][] = [];
    let n = 0;
    const deps: ExportDeps = {
      updateVolume: async (_id, _configs, quotas) => { sent.push(quotas); },
      describeVolume: async () => volumeOf(states[Math.min(n++, states.length - 1)]),
      now: () => ASKED_AT, sleep: async () => undefined,
    };
    return { handler: exportHandler(deps), sent };
  }

  test('Update that drops user 1002: UpdateVolume carries the quotas and 1002 at 0; done once they show', async () => {
    const { handler, sent } = scripted(['completed', 'pending', 'completed-quotas']);
    const old = [...WANTED, { Type: 'USER', Id: '1002', StorageCapacityQuotaGiB: '50' }];
    await expect(handler(event('Update', WANTED, old), { getRemainingTimeInMillis: () => 600_000 })).resolves.toEqual({ PhysicalResourceId: VOLUME });
    expect(sent).toEqual([[...WANTED, { Type: 'USER', Id: 1002, StorageCapacityQuotaGiB: 0 }]]);
  });

  test('the quotas already in effect: no UpdateVolume', async () => {
    const { handler, sent } = scripted(['completed-quotas']);
    await handler(event('Update', WANTED, WANTED), { getRemainingTimeInMillis: () => 600_000 });
    expect(sent).toEqual([]);
  });

  test('a Create with a bad quota calls nothing and fails naming it', async () => {
    const { handler, sent } = scripted(['completed']);
    await expect(handler(event('Create', [{ Type: 'USER', Id: 'x', StorageCapacityQuotaGiB: 1 }]), { getRemainingTimeInMillis: () => 600_000 }))
      .rejects.toThrow(/UserAndGroupQuotas\[0\]\.Id must be an integer/);
    expect(sent).toEqual([]);
  });
});

describe('the real SDK client: UpdateVolume\'s body', () => {
  const bodies: Record<string, unknown>[] = [];
  let answers: string[] = [];
  let fsx: FsxHttp;

  beforeAll(async () => {
    fsx = await startFsxHttp((target, body) => {
      const update = target.endsWith('.UpdateVolume');
      if (update) bodies.push(body);
      const served = volumeOf(update ? 'pending' : answers.shift() ?? 'completed-quotas');
      return update ? { Volume: served } : { Volumes: [served] };
    });
  });
  afterAll(() => fsx.stop());

  test('with quotas the request carries UserAndGroupQuotas beside the export; without, no such field', async () => {
    let handler!: typeof import('../../lambda/openzfs-export/index').handler;
    await jest.isolateModulesAsync(async () => { ({ handler } = await import('../../lambda/openzfs-export/index')); });
    answers = ['no-actions-old-export', 'completed-quotas'];
    await handler(event('Create', WANTED), { getRemainingTimeInMillis: () => 600_000 });
    answers = ['no-actions-old-export', 'completed'];
    await handler(event('Create'), { getRemainingTimeInMillis: () => 600_000 });
    expect(bodies).toEqual([
      { VolumeId: VOLUME, ClientRequestToken: expect.any(String), OpenZFSConfiguration: { NfsExports: [{ ClientConfigurations: EXPORT }], UserAndGroupQuotas: WANTED } },
      { VolumeId: VOLUME, ClientRequestToken: expect.any(String), OpenZFSConfiguration: { NfsExports: [{ ClientConfigurations: EXPORT }] } },
    ]);
  });
});

describe('the quotas prop at synth', () => {
  const openZfs = (quotas: unknown, backend = Backend.FSX_OPENZFS) =>
    serverStack({ backend, capacityTiB: 1, quotas: quotas as QuotaOptions }).template;
  const exportProps = (t: ReturnType<typeof serverStack>['template']) => Object.values(t.findResources('Custom::FsxOpenZfsExport'))[0].Properties;

  test('user and group limits reach the export resource as FSx takes them; none, no property', () => {
    const t = openZfs({ limits: [{ type: QuotaType.USER, id: 1001, limitGiB: 100 }, { type: QuotaType.GROUP, id: 2000, limitGiB: 500 }] });
    expect(exportProps(t).UserAndGroupQuotas).toEqual(WANTED);
    expect(exportProps(openZfs(undefined)).UserAndGroupQuotas).toBeUndefined();
    expect(exportProps(openZfs({ limits: [] })).UserAndGroupQuotas).toBeUndefined();
  });

  test.each([
    ['a project limit', { limits: [{ type: QuotaType.PROJECT, id: 1, limitGiB: 1, path: '/p' }] }, /^quotas\.limits\[0\]\.type: backend 'fsx-openzfs' takes user and group limits \(FSx for OpenZFS takes user and group quotas only/],
    ['a default user limit', { defaultUserGiB: 10 }, /^quotas\.defaultUserGiB: backend 'fsx-openzfs' takes user and group limits and no default/],
    ['a type that is none', { limits: [{ type: 'owner', id: 1, limitGiB: 1 }] }, /^quotas\.limits\[0\]\.type must be one of user, group, project, got "owner"/],
    ['a path on a user limit', { limits: [{ type: QuotaType.USER, id: 1, limitGiB: 1, path: '/p' }] }, /^quotas\.limits\[0\]\.path is for a project quota only/],
    ['0 GiB', { limits: [{ type: QuotaType.USER, id: 1, limitGiB: 0 }] }, /^quotas\.limits\[0\]\.limitGiB must be an integer of 1-2147483647, got 0/],
    ['a uid past the range', { limits: [{ type: QuotaType.USER, id: -1, limitGiB: 1 }] }, /^quotas\.limits\[0\]\.id must be an integer of 0-2147483647, got -1/],
    ['one group twice', { limits: [{ type: QuotaType.GROUP, id: 7, limitGiB: 1 }, { type: QuotaType.GROUP, id: 7, limitGiB: 2 }] }, /^quotas\.limits\[1\] repeats the group limit of id 7/],
  ])('%s is refused, naming the prop', (_name, quotas, message) => {
    expect(() => openZfs(quotas)).toThrow(message);
  });

});

describe('the app\'s keys, quotaLimits and quotaDefaultUserGiB', () => {
  const exportProps = (context: Record<string, string>) =>
    Object.values(Template.fromStack(appStack(context)).findResources('Custom::FsxOpenZfsExport'))[0].Properties;

  test('-c quotaLimits reaches the export resource on FSx for OpenZFS', () => {
    expect(exportProps({ backend: 'fsx-openzfs', capacityTiB: '4', quotaLimits: 'user:1001:100,group:2000:500' }).UserAndGroupQuotas).toEqual(WANTED);
  });

  test('refusals name the keys as typed, not the prop', () => {
    expect(() => appStack({ backend: 'fsx-openzfs', capacityTiB: '4', quotaDefaultUserGiB: '5' }))
      .toThrow(/^quotaDefaultUserGiB: backend 'fsx-openzfs' takes user and group limits and no default .* give each user a limit in quotaLimits/);
    expect(() => appStack({ backend: 'fsx-openzfs', capacityTiB: '4', quotaLimits: 'user:1:1,user:1:2' }))
      .toThrow(/^quotaLimits entry 2 repeats the user limit of id 1/);
  });
});
