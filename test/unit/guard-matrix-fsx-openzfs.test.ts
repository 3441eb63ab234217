import { appTemplate, judge } from '../support/guard-matrix';
import { matrixSuite } from '../support/guard-matrix-suite';
import { BASELINES } from './guard-matrix.cases';

// The guard's two AWS questions are answered by the matrix: the resources of the first template exist (a Create
// finds them), and the stack is never rolling back. The handler's calls themselves are tested against moto
// (test/integration/update-guard.test.ts).
let lookup: (serverId: string) => { kind: string; id: string }[] = () => [];
jest.mock('../../lambda/update-guard/aws', () => ({
  ...jest.requireActual('../../lambda/update-guard/aws'),
  findServerResources: async (serverId: string) => lookup(serverId),
  stackStatus: async () => ({ status: 'UPDATE_IN_PROGRESS' }),
}));
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

matrixSuite('fsx-openzfs', (f) => { lookup = f; });

// The day-2 changes of the clients and of root squash are live on FSx for OpenZFS: the template's export is a constant
// and the clients' export is set by UpdateVolume (lib/backends/openzfs/export-resource.ts). Before that, each
// replaced the file system (every RootVolumeConfiguration property replaces it) and the guard refused them. The
// matrix derives its verdicts; this states the expected one outright.
describe('fsx-openzfs: clients and root squash change live (nothing replaced, the guard accepts)', () => {
  const base = { ...BASELINES['fsx-openzfs'], clientCidrs: '10.0.0.0/17' };
  test.each([
    ['a client CIDR added', { clientCidrs: '10.0.0.0/17,10.0.128.0/17' }],
    ['public client CIDRs with the opt-in', { allowPublicClientCidrs: 'true', clientCidrs: '198.51.100.0/24' }],
    ['root squash off', { openZfsRootSquash: 'false' }],
  ])('%s', async (_name, change) => {
    const verdict = await judge(appTemplate(base), appTemplate({ ...base, ...change }), (f) => { lookup = f; });
    expect(verdict).toEqual(expect.objectContaining({ lost: [], other: [], guard: 'accepted' }));
  });
});
