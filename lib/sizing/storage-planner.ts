/**
 * The planner for library users, in the shape every jsii language keeps: a class of static methods, since jsii drops
 * free functions from the other languages, and an Error where the internal function returns a reason.
 */
import { BACKENDS } from '../../lambda/register/contract';
import { bestPlanOf } from './best-plan';
import { describe } from './describe';
import { planStorage } from './plan';
import type { Backend, StoragePlan, StorageRequest } from './plan-types';

/**
 * Sizes storage without synthesizing: the plan a `StorageServer` with the same request would deploy, or the best plan
 * of one backend. Pure code: it loads neither aws-cdk-lib nor constructs.
 */
export class StoragePlanner {
  /**
   * The plan for a request: the backend, instance type and volumes, or the FSx file system, with its throughput and
   * monthly cost. It is the plan a `StorageServer` given the same capacity and options deploys.
   *
   * @throws Error naming the field when the request is invalid or no plan meets it
   */
  public static plan(request: StorageRequest): StoragePlan {
    return planStorage(request);
  }

  /**
   * The best plan of one backend for a request, without the options of the others: a row of `npm run plan`'s side by
   * side view of the backends. The request's own `backend`, if any, is not read.
   *
   * @param backendName the backend to plan on; not `backend`, which Python's keyword arguments of the request take
   * @throws Error saying why that backend has no plan for the request
   */
  public static bestPlanOf(backendName: Backend, request: StorageRequest): StoragePlan {
    // A caller in another language passes any string; the internal function indexes the registry with it.
    if (!BACKENDS.includes(backendName)) {
      throw new Error(`backendName must be one of ${BACKENDS.map((b) => `'${b}'`).join(', ')}; got ${describe(backendName)}`);
    }
    const best = bestPlanOf(backendName, request);
    if (typeof best === 'string') throw new Error(best);
    return best;
  }

  // Nothing to hold: every member is static, as aws-cdk-lib's `Fn` is.
  private constructor() {}
}
