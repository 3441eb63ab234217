/**
 * The update guard's AWS calls as the change matrix answers them; test/support/guard-matrix.ts sets the answers per
 * row. What the stack holds is the first template's resources, described by their tags. The tag search finds the first
 * template's resources tagged as the server. The stack is never rolling back. The calls themselves are tested against
 * moto in test/integration/update-guard.test.ts.
 *
 * Each guard-matrix test file mocks lambda/update-guard/aws with {@link matrixAwsModule}.
 */
import type { HeldDescription, HeldResource } from '../../lambda/update-guard/held';
import type { TaggedResource } from '../../lambda/update-guard/wire';

/** The answers of the current row. */
export const MATRIX_AWS: {
  lookup: (serverId: string) => TaggedResource[];
  held: HeldResource[];
  described: HeldDescription[];
} = { lookup: () => [], held: [], described: [] };

/** The module that stands in for lambda/update-guard/aws in the matrix. */
export function matrixAwsModule(): Record<string, unknown> {
  return {
    ...jest.requireActual('../../lambda/update-guard/aws'),
    findServerResources: async (serverId: string) => MATRIX_AWS.lookup(serverId),
    stackStatus: async () => ({ status: 'UPDATE_IN_PROGRESS' }),
    // The file system is the held one; no storage increase was asked for before, so the 6-hour interval binds no row.
    physicalIdIn: async (_stackId: string, logicalId: string) => MATRIX_AWS.held.find((h) => h.path === logicalId)?.physicalId,
    fileSystemActions: async () => [],
    heldResources: async () => MATRIX_AWS.held,
    describeHeld: async (resources: readonly HeldResource[]) =>
      MATRIX_AWS.described.filter((d) => resources.some((r) => r.physicalId === d.physicalId)),
  };
}
