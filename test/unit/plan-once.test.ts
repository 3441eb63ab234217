/**
 * Plan once: one synth plans one server once. The app's context parser plans to check its keys and hands that plan
 * down, by lib/storage-server/planned.ts, and the facade takes it for the same request. The planner's own what-ifs, the
 * type tier and the excess warning, are part of that planning, not calls of their own. No backend plans.
 */
import * as planModule from '../../lib/sizing/plan';
import { appStack, serverStack } from '../support/stacks';

const original = planModule.planStorage;
let calls = 0;

beforeAll(() => {
  // The module's export is what every caller reaches through, since lib/sizing/index.ts re-exports it by reference.
  (planModule as { planStorage: typeof original }).planStorage = (request) => {
    calls += 1;
    return original(request);
  };
});

afterAll(() => {
  (planModule as { planStorage: typeof original }).planStorage = original;
});

test.each([
  ['ebs, 5 TiB (with the type-tier warning\'s search)', { capacityTiB: '5' }],
  ['ebs, generation current', { capacityTiB: '5', generation: 'current' }],
  ['instance-store, 20 TiB', { capacityTiB: '20', backend: 'instance-store' }],
  ['fsx-lustre (with the excess warning\'s re-plan)', { capacityTiB: '5', backend: 'fsx-lustre' }],
  ['fsx-openzfs', { capacityTiB: '1', backend: 'fsx-openzfs' }],
  ['auto with a throughput', { capacityTiB: '10', throughputMBps: '400' }],
])('the app: %s plans once', (_name, context) => {
  calls = 0;
  appStack(context);
  expect(calls).toBe(1);
});

test('a library user\'s server plans once too', () => {
  calls = 0;
  serverStack({ capacityTiB: 5 });
  expect(calls).toBe(1);
});

test('the counter sees every call (a check that cannot fail is no check)', () => {
  calls = 0;
  planModule.planStorage({ capacityTiB: 1 });
  serverStack({ capacityTiB: 5 });
  expect(calls).toBe(2);
});
