import { matrixSuite } from '../support/guard-matrix-suite';

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
