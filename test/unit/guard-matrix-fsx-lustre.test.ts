import { matrixSuite } from '../support/guard-matrix-suite';

// The guard's AWS calls are answered by the matrix (test/support/guard-matrix-aws.ts).
jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-matrix-aws').matrixAwsModule());
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

matrixSuite('fsx-lustre');
