/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // e2e VM tests are run by `npm run test:e2e`, not by `npm test`.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
  transform: { '^.+\\.tsx?$': 'ts-jest' },
  snapshotSerializers: ['<rootDir>/test/support/asset-hash-serializer.ts'],
  testTimeout: 60000,
};
