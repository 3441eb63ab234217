import { matrixSuite } from '../support/guard-matrix-suite';

// The matrix answers the guard's AWS calls, by test/support/guard-matrix-aws.ts.
jest.mock('../../lambda/update-guard/aws', () => jest.requireActual('../support/guard-matrix-aws').matrixAwsModule());
jest.spyOn(console, 'log').mockImplementation(() => undefined);
jest.spyOn(console, 'warn').mockImplementation(() => undefined);
jest.spyOn(console, 'error').mockImplementation(() => undefined);

matrixSuite('ebs');
