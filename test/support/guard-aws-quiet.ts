// The update guard handler's two AWS questions of aws.ts, answered for a server that does not exist yet in a stack that
// is never rolling back: the handler tests that run without moto mock the module with it. The questions themselves are
// tested against moto in test/integration/update-guard.test.ts and in test/unit/update-guard-watched.test.ts.
export function quietAwsModule(): Record<string, unknown> {
  return {
    ...jest.requireActual('../../lambda/update-guard/aws'),
    findServerResources: async () => [],
    // No FSx file system in CloudFormation's record: the growth interval is update-guard-growth-interval.test.ts's.
    physicalIdIn: async () => undefined,
    stackStatus: async () => ({ status: 'UPDATE_IN_PROGRESS' }),
  };
}
