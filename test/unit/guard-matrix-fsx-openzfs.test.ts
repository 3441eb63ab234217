import { appTemplate, judge } from '../support/guard-matrix';
import { matrixSuite } from '../support/guard-matrix-suite';
import { BASELINES } from './guard-matrix.cases';

// The matrix answers the guard's AWS calls, by test/support/guard-matrix-aws.ts.
jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-matrix-aws').matrixAwsModule());
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

matrixSuite('fsx-openzfs');

// The day-2 changes of the clients and of root squash are live on FSx for OpenZFS. The template's export is a constant,
// since every RootVolumeConfiguration property replaces the file system, and UpdateVolume sets the clients' export in
// lib/backends/openzfs/export-resource.ts. The matrix derives its verdicts; this states the expected one outright.
describe('fsx-openzfs: clients and root squash change live (nothing replaced, the guard accepts)', () => {
  const base = { ...BASELINES['fsx-openzfs'], clientCidrs: '10.0.0.0/17' };
  test.each([
    ['a client CIDR added', { clientCidrs: '10.0.0.0/17,10.0.128.0/17' }],
    ['public client CIDRs with the opt-in', { allowPublicClientCidrs: 'true', clientCidrs: '11.0.1.0/24' }],
    ['root squash off', { openZfsRootSquash: 'false' }],
  ])('%s', async (_name, change) => {
    const verdict = await judge(appTemplate(base), appTemplate({ ...base, ...change }));
    expect(verdict).toEqual(expect.objectContaining({ lost: [], other: [], guard: 'accepted' }));
  });
});
