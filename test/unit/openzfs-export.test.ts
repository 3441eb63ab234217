/**
 * The FSx for OpenZFS export handler, lambda/openzfs-export, OPENZFS-EXPORT-LIVE in docs/sources/fsx-rules.md. It asks
 * FSx for the export and completes only when DescribeVolumes shows it in effect, failing with FSx's reason. moto has no
 * FSx DescribeVolumes or UpdateVolume, so the states are recorded responses in the API reference's shapes, described in
 * test/support/fsx-responses/README.md. They are judged directly, through the handler's loop, and served over HTTP to
 * the handler's real SDK client, so that the request it sends is the SDK's own.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { exportState, MAX_CLIENT_CONFIGURATIONS, parseExportProperties, type VolumeView } from '../../lambda/openzfs-export/contract';
import { exportHandler, POLL_MS, type ExportDeps } from '../../lambda/openzfs-export/index';
import { startFsxHttp, type FsxHttp } from '../support/fsx-http';

const VOLUME = 'fsvol-0123456789abcdef0';
const SQUASH = ['rw', 'crossmnt', 'root_squash'];
const WANTED = [{ Clients: '10.0.0.0/16', Options: SQUASH }, { Clients: '10.1.0.0/24', Options: SQUASH }];
/** The recorded requests' time, as this test's clock: their RequestTime is 1764230460 s. */
const ASKED_AT = 1764230460_000;

const recorded = (name: string): { Volumes: VolumeView[] } =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'support', 'fsx-responses', `${name}.json`), 'utf8'));
const volumeOf = (name: string) => recorded(name).Volumes[0];

const event = (requestType: string, props: Record<string, unknown> = { VolumeId: VOLUME, ClientConfigurations: WANTED }) =>
  ({ RequestType: requestType, ResourceProperties: { ServiceToken: 'x', ...props }, PhysicalResourceId: VOLUME } as unknown as CdkCustomResourceEvent);

describe('the judge: is the export asked for in effect?', () => {
  test.each([
    ['pending', 'waiting', /^the volume update is PENDING$/],
    ['in-progress', 'waiting', /^the volume update is IN_PROGRESS$/],
    ['no-actions-old-export', 'waiting', /^the volume does not show the new export yet$/],
    ['failed', 'failed', /^FSx reports the volume update FAILED: The NFS export configuration is invalid\.$/],
    ['misconfigured', 'failed', /^the volume is MISCONFIGURED: The volume's configuration could not be applied\.$/],
  ])('%s: %s', (name, state, why) => {
    expect(exportState(volumeOf(name), WANTED, ASKED_AT)).toEqual({ state, why: expect.stringMatching(why) });
  });

  test('completed, its client configurations in another order: done', () => {
    expect(exportState(volumeOf('completed'), WANTED, ASKED_AT)).toEqual({ state: 'done' });
  });

  test('a failure of a day before this request is not this request\'s: done', () => {
    expect(exportState(volumeOf('older-failure'), WANTED, ASKED_AT)).toEqual({ state: 'done' });
  });

  test('a rollback after a failed update: the export asked for (the old one) is in effect, whatever failed: done', () => {
    const old = [{ Clients: '10.0.0.0/16', Options: SQUASH }];
    expect(exportState(volumeOf('rollback-after-failure'), old, ASKED_AT)).toEqual({ state: 'done' });
    // The forward request itself, asking for the export the failed action aimed at: failed. An hour later, that old
    // failure is not a new request's, since FSx may not show the new action yet.
    const aimed = [{ Clients: '10.9.0.0/16', Options: SQUASH }];
    expect(exportState(volumeOf('rollback-after-failure'), aimed, ASKED_AT)).toEqual({ state: 'failed', why: expect.stringMatching(/FAILED: The NFS export/) });
    expect(exportState(volumeOf('rollback-after-failure'), aimed, ASKED_AT + 3_600_000)).toEqual({ state: 'waiting', why: 'the volume does not show the new export yet' });
  });

  test('no such volume: failed', () => {
    expect(exportState(undefined, WANTED, ASKED_AT)).toEqual({ state: 'failed', why: 'DescribeVolumes returned no such volume' });
  });
});

describe('the properties, validated before any call', () => {
  test.each([
    ['a volume id of another form', { VolumeId: 'vol-1', ClientConfigurations: WANTED }, /^ResourceProperties\.VolumeId must be an FSx volume id/],
    ['no client configuration', { VolumeId: VOLUME, ClientConfigurations: [] }, /^ResourceProperties\.ClientConfigurations must be a list of 1-25/],
    ['26 client configurations', { VolumeId: VOLUME, ClientConfigurations: Array(MAX_CLIENT_CONFIGURATIONS + 1).fill(WANTED[0]) }, /must be a list of 1-25/],
    ['clients with a space', { VolumeId: VOLUME, ClientConfigurations: [{ Clients: '10.0.0.0/16 *', Options: SQUASH }] }, /ClientConfigurations\[0\]\.Clients must be 1-128 characters without spaces/],
    ['an option that is no option', { VolumeId: VOLUME, ClientConfigurations: [{ Clients: '10.0.0.0/16', Options: ['rw;reboot'] }] }, /ClientConfigurations\[0\]\.Options must be 1-20 NFS export options/],
    ['a control character in the clients', { VolumeId: VOLUME, ClientConfigurations: [{ Clients: '10.0.0.0/16\u0000', Options: SQUASH }] }, /Clients must be 1-128 characters without spaces/],
    ['every client as *', { VolumeId: VOLUME, ClientConfigurations: [{ Clients: '*', Options: SQUASH }] }, /never '\*' or a \/0/],
    ['every client as a /0', { VolumeId: VOLUME, ClientConfigurations: [{ Clients: '0.0.0.0/0', Options: SQUASH }] }, /never '\*' or a \/0/],
  ])('%s is refused', (_name, props, message) => {
    expect(() => parseExportProperties(props)).toThrow(message);
  });

  test('options with values AWS documents (sec=sys, anonuid=65534) are taken', () => {
    const configs = [{ Clients: '10.0.0.0/16', Options: ['rw', 'sec=krb5p', 'anonuid=65534', 'no_subtree_check'] }];
    expect(parseExportProperties({ VolumeId: VOLUME, ClientConfigurations: configs }).clientConfigurations).toEqual(configs);
  });
});

/** Deps answering DescribeVolumes with the recorded `states` in turn, on a clock that sleeps instantly. */
function scripted(states: string[], remainingMs = 600_000) {
  let clock = ASKED_AT;
  const calls: string[] = [];
  const deps: ExportDeps = {
    updateVolume: async (id, configs) => { calls.push(`UpdateVolume ${id} ${configs.map((c) => c.Clients).join(',')}`); },
    describeVolume: async (id) => {
      calls.push(`DescribeVolumes ${id}`);
      return volumeOf(states[Math.min(calls.filter((c) => c.startsWith('Describe')).length - 1, states.length - 1)]);
    },
    now: () => clock,
    sleep: async (ms) => { calls.push(`sleep ${ms}`); clock += ms; },
  };
  return { handler: exportHandler(deps), calls, context: { getRemainingTimeInMillis: () => remainingMs } };
}

describe('the handler waits for the export, and fails with FSx\'s reason', () => {
  test('Create: DescribeVolumes, UpdateVolume once, then DescribeVolumes until the export shows, every 10 s', async () => {
    const { handler, calls, context } = scripted(['no-actions-old-export', 'pending', 'in-progress', 'completed']);
    await expect(handler(event('Create'), context)).resolves.toEqual({ PhysicalResourceId: VOLUME });
    expect(calls).toEqual([
      `DescribeVolumes ${VOLUME}`, `UpdateVolume ${VOLUME} 10.0.0.0/16,10.1.0.0/24`,
      `DescribeVolumes ${VOLUME}`, `sleep ${POLL_MS}`, `DescribeVolumes ${VOLUME}`, `sleep ${POLL_MS}`, `DescribeVolumes ${VOLUME}`,
    ]);
  });

  test('the export already in effect (a rollback, the upgrade\'s first deploy): no UpdateVolume at all', async () => {
    const { handler, calls, context } = scripted(['completed']);
    await expect(handler(event('Update'), context)).resolves.toEqual({ PhysicalResourceId: VOLUME });
    expect(calls).toEqual([`DescribeVolumes ${VOLUME}`]);
  });

  test('Update: a failed volume update fails the deploy, quoting FSx', async () => {
    const { handler, context } = scripted(['no-actions-old-export', 'pending', 'failed']);
    await expect(handler(event('Update'), context)).rejects.toThrow(
      `The NFS export of ${VOLUME} did not take effect: FSx reports the volume update FAILED: The NFS export configuration is invalid..`);
  });

  test('never in effect before the Lambda\'s time runs out: fails saying what FSx last showed and how to look', async () => {
    const { handler, calls, context } = scripted(['no-actions-old-export', 'in-progress'], 60_000);
    await expect(handler(event('Create'), context)).rejects.toThrow(
      new RegExp(`^The NFS export of ${VOLUME} is not in effect after 40 s \\(the volume update is IN_PROGRESS\\); see aws fsx describe-volumes --volume-ids ${VOLUME}`));
    // 60 s left less the 20 s kept back: DescribeVolumes before asking, then at 0, 10, 20, 30 and 40 s.
    expect(calls.filter((c) => c.startsWith('Describe'))).toHaveLength(6);
  });

  test('Delete calls nothing; a bad request type or property calls nothing and fails', async () => {
    const { handler, calls, context } = scripted(['completed']);
    await expect(handler(event('Delete'), context)).resolves.toEqual({ PhysicalResourceId: VOLUME });
    await expect(handler(event('Replace'), context)).rejects.toThrow(/^RequestType must be Create, Update or Delete, got "Replace"$/);
    await expect(handler(event('Create', { VolumeId: 'fsvol-1' }), context)).rejects.toThrow(/VolumeId must be an FSx volume id/);
    expect(calls).toEqual([]);
  });
});

describe('the real SDK client against recorded responses over HTTP', () => {
  const seen: { target: string; body: Record<string, unknown> }[] = [];
  let answers: string[] = [];
  let fsx: FsxHttp;

  beforeAll(async () => {
    fsx = await startFsxHttp((target, body) => {
      seen.push({ target, body });
      // UpdateVolume's response is the volume too; the handler keeps nothing of it.
      // The recorded actions were asked for now, as the handler's own request was.
      const served = recorded(target.endsWith('.UpdateVolume') ? 'pending' : answers.shift() ?? 'completed');
      for (const a of served.Volumes[0].AdministrativeActions ?? []) Object.assign(a, { RequestTime: Date.now() / 1000 });
      return target.endsWith('.UpdateVolume') ? { Volume: served.Volumes[0] } : served;
    });
  });
  afterAll(() => fsx.stop());

  test('UpdateVolume carries the export as the API takes it; DescribeVolumes asks for the one volume', async () => {
    let handler!: typeof import('../../lambda/openzfs-export/index').handler;
    // A fresh module: its client is made at import, after the endpoint above is set.
    await jest.isolateModulesAsync(async () => { ({ handler } = await import('../../lambda/openzfs-export/index')); });
    seen.length = 0;
    answers = ['no-actions-old-export', 'completed'];
    await expect(handler(event('Create'), { getRemainingTimeInMillis: () => 600_000 })).resolves.toEqual({ PhysicalResourceId: VOLUME });
    expect(seen).toEqual([
      { target: 'AWSSimbaAPIService_v20180301.DescribeVolumes', body: { VolumeIds: [VOLUME] } },
      { target: 'AWSSimbaAPIService_v20180301.UpdateVolume', body: expect.objectContaining({ VolumeId: VOLUME, OpenZFSConfiguration: { NfsExports: [{ ClientConfigurations: WANTED }] } }) },
      { target: 'AWSSimbaAPIService_v20180301.DescribeVolumes', body: { VolumeIds: [VOLUME] } },
    ]);
    answers = ['no-actions-old-export', 'failed'];
    await expect(handler(event('Update'), { getRemainingTimeInMillis: () => 600_000 })).rejects.toThrow(/FSx reports the volume update FAILED: The NFS export configuration is invalid/);
  });
});
