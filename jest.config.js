// Jest and ts-jest are test tools, installed in test/node_modules by test/support/tools.sh: resolved from there.
const tool = (name) => require.resolve(name, { paths: [`${__dirname}/test`] });

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // e2e VM tests are run by `npm run test:e2e`, not by `npm test`.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
  transform: { '^.+\\.tsx?$': tool('ts-jest') },
  snapshotSerializers: ['<rootDir>/test/support/asset-hash-serializer.ts'],
  // Bundles the Lambda handlers and checks the Python venv once per run, not once per test file.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Removes the run's temporary directory (every cdk.out of the run's synths).
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Each test file bundles handlers from the sources as the app does, where a test asks for that.
  setupFiles: ['<rootDir>/test/support/source-bundler.ts', '<rootDir>/test/support/cdk-test-context.ts'],
  // Two workers on the 2 cores CI has (jest's default would be one); the heavy suites spend much of their
  // time waiting on child processes (cdk synth, cfn-lint, moto, the AWS CLI), so two keep both cores busy.
  maxWorkers: 2,
  reporters: ['default', ['<rootDir>/test/support/slowest-suites-reporter.js', { count: 8 }]],
  testTimeout: 60000,
};
