import { appTemplate, constructTemplate, judge, type Template } from '../support/guard-matrix';
import { Backend } from '../../lib/backend-enum';

// With backend auto, the default, the planner chooses on every synth, and a new catalogue or a new throughputMBps can
// choose another backend for a deployed server. Whatever else the deploy changes, the refusal names the backend to pin.
// Between the EC2 backends the guard stays, and its Update meets the Backend row. Between constructs, EC2 and FSx or
// Lustre and OpenZFS, the guard is new, and its Create meets the old backend's resources, which say only whether they
// are an EC2 server's or an FSx file system's.
jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-matrix-aws').matrixAwsModule());
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

type Synth = { template: Template; stackName: string };
const backendOf = (s: Synth): string =>
  String(Object.values(s.template.Resources).find((r) => r.Type === 'Custom::StorageServerUpdateGuard')?.Properties?.Backend);
const guardId = (s: Synth): string =>
  Object.entries(s.template.Resources).find(([, r]) => r.Type === 'Custom::StorageServerUpdateGuard')![0];

async function refusal(before: Synth, after: Synth): Promise<string> {
  const verdict = await judge(before, after);
  expect(verdict.guard).toBe('refused');
  return verdict.message!;
}

/** The safe path offers something besides acceptDataLoss: text between "Safe path:" and the acceptDataLoss sentence. */
function safePathBesidesAcceptDataLoss(message: string): string {
  const m = /Safe path: (.*?)\. (To accept the loss|To create beside them anyway)/.exec(message);
  return m ? m[1].replace(/acceptDataLoss\S*/g, '').trim() : '';
}

// Between constructs the new guard's Create finds the old backend's resources, held by CloudFormation and dropped by
// the new template, by lambda/update-guard/held.ts. EC2 and FSx say which backend they are: a file system's type, an
// instance's instance store, volumes. The tag search's own wording, for resources outside the stack, is tested in
// test/unit/update-guard-safe-paths.test.ts.
describe('backend auto chooses another backend: the refusal names the one to pin', () => {
  test('auto, 2 TiB, then throughputMBps 500: ebs -> fsx-openzfs, a new guard; its Create names -c backend=ebs', async () => {
    const before = appTemplate({ capacityTiB: '2' });
    const after = appTemplate({ capacityTiB: '2', throughputMBps: '500' });
    expect([backendOf(before), backendOf(after)]).toEqual(['ebs', 'fsx-openzfs']);
    expect(guardId(after)).not.toBe(guardId(before));
    const message = await refusal(before, after);
    // CloudFormation holds the EBS server's volumes and the new template drops them: named first, with the backend to pin.
    expect(message).toMatch(/^StorageServer update refused, nothing was changed: Backend ebs \(storage-server:id=\S+\) -> fsx-openzfs: .*Safe path: keep backend 'ebs' \(-c backend=ebs, prop backend: 'ebs'\)/);
    expect(safePathBesidesAcceptDataLoss(message)).not.toBe('');
  });

  test('fsx-lustre -> fsx-openzfs: a new guard; its Create names fsx-lustre (the held file system\'s type)', async () => {
    const before = appTemplate({ backend: 'fsx-lustre', capacityTiB: '12' });
    const after = appTemplate({ backend: 'fsx-openzfs', capacityTiB: '4' });
    const message = await refusal(before, after);
    expect(message).toMatch(/^StorageServer update refused, nothing was changed: Backend fsx-lustre \(storage-server:id=\S+\) -> fsx-openzfs: .*Safe path: keep backend 'fsx-lustre' \(-c backend=fsx-lustre/);
    // No EBS restore path for a file system.
    expect(message).not.toContain('restoreSnapshotIds');
    expect(safePathBesidesAcceptDataLoss(message)).not.toBe('');
  });

  test('fsx-openzfs -> ebs, and the construct renamed in the same deploy: still named', async () => {
    const before = constructTemplate({ backend: Backend.FSX_OPENZFS, capacityTiB: 4 });
    const after = constructTemplate({ backend: Backend.EBS, capacityTiB: 4 }, {}, ['StorageRenamed']);
    const message = await refusal(before, after);
    expect(message).toMatch(/^StorageServer update refused, nothing was changed: Backend fsx-openzfs \(storage-server:id=\S+\) -> ebs: .*Safe path: keep backend 'fsx-openzfs' \(-c backend=fsx-openzfs, prop backend: 'fsx-openzfs'\), under the construct's old id and place/);
  });

  test('ebs -> fsx-lustre with a cluster of other changes (capacity, alarm e-mail, mount point): still named', async () => {
    const before = appTemplate({ backend: 'ebs', capacityTiB: '5' });
    const after = appTemplate({ backend: 'fsx-lustre', capacityTiB: '12', alarmEmail: 'ops@example.com', mountPoint: '/scratch' });
    expect(await refusal(before, after)).toContain('-c backend=ebs');
  });

  test('auto, capacity up past what EBS holds on one server: ebs -> instance-store, the same guard; its Update names -c backend=ebs first', async () => {
    const before = appTemplate({ capacityTiB: '5' });
    const after = appTemplate({ capacityTiB: '20' });
    expect([backendOf(before), backendOf(after)]).toEqual(['ebs', 'instance-store']);
    expect(guardId(after)).toBe(guardId(before));
    const message = await refusal(before, after);
    expect(message).toMatch(/^StorageServer update refused, nothing was changed: Backend ebs -> instance-store: .*Safe path: keep backend 'ebs' \(-c backend=ebs, prop backend/);
  });
});
