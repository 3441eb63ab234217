import { Backend, StoragePlanner } from '../../lib';
import { bestPlanOf, planStorage } from '../../lib/sizing';

// StoragePlanner is the planner as jsii's other languages see it: the same answers as the internal functions, and an
// Error where the internal bestPlanOf returns its reason as a string.
describe('StoragePlanner', () => {
  test('plan gives what planStorage gives', () => {
    // GIVEN
    const request = { capacityTiB: 10, throughputMBps: 400 };

    // THEN
    expect(StoragePlanner.plan(request)).toEqual(planStorage(request));
  });

  test('plan throws the message planStorage throws', () => {
    expect(() => StoragePlanner.plan({ capacityTiB: -1 })).toThrow(/^capacityTiB must be a number greater than 0; got -1 \(number\)$/);
  });

  test('bestPlanOf gives the plan bestPlanOf gives when the backend has one, whatever the request\'s own backend', () => {
    // GIVEN
    const request = { capacityTiB: 20, backend: Backend.FSX_LUSTRE };

    // WHEN
    const best = StoragePlanner.bestPlanOf(Backend.EBS, request);

    // THEN
    expect(best).toEqual(bestPlanOf(Backend.EBS, request));
    expect(best.backend).toBe(Backend.EBS);
  });

  test.each([
    [Backend.INSTANCE_STORE, { capacityTiB: 2000 }, /^capacityTiB must be a number greater than 0 and at most 43\.65 for backend 'instance-store'/],
    [Backend.FSX_OPENZFS, { capacityTiB: 10, throughputMBps: 1_000_000 }, /^throughputMBps 1000000 is more than FSx for OpenZFS SINGLE_AZ_1 sustains/],
  ] as const)('bestPlanOf throws, as an Error, the reason %s has no plan', (backend, request, message) => {
    // GIVEN: the internal function's answer is the reason itself
    const reason = bestPlanOf(backend, request);
    expect(typeof reason).toBe('string');

    // THEN
    expect(() => StoragePlanner.bestPlanOf(backend, request)).toThrow(new Error(reason as string));
    expect(() => StoragePlanner.bestPlanOf(backend, request)).toThrow(message);
  });

  test('bestPlanOf names the backends when given one it does not know, as a caller in another language may', () => {
    expect(() => StoragePlanner.bestPlanOf('efs' as never, { capacityTiB: 1 })).toThrow(
      /^backendName must be one of 'ebs', 'instance-store', 'fsx-lustre', 'fsx-openzfs'; got "efs"$/,
    );
  });
});
