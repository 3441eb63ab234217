import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import type { QuotaSupport } from '../quotas';
import type { StoragePlan, StorageRequest } from '../sizing/plan-types';
import type { StorageServerProps } from '../storage-server/props';
import type { StorageBackend } from './backend';

/** What the facade settles before it builds a backend: the same for every backend, each reading its part. */
export interface BackendInputs {
  /** The facade's props, validated. */
  readonly server: StorageServerProps;
  /** The server's plan, one per server, as lib/storage-server/plan.ts makes it. */
  readonly plan: StoragePlan;
  /** The capacity asked for, TiB. */
  readonly capacityTiB: number;
  /** The cluster the server belongs to. */
  readonly clusterName: string;
  /** The server's name in the cluster, part of its identity `<stack>/<serverName>`. */
  readonly serverName: string;
  /** The server's subnet: the first of the selection. */
  readonly subnet: ec2.ISubnet;
  /** Every subnet `vpcSubnets` selects: a Multi-AZ file system finds its standby among them. */
  readonly selectedSubnets: readonly ec2.ISubnet[];
}

/** What a plan is checked against: the props, the capacity asked for with its default applied, and the request. */
export interface PlanCheck {
  /** The facade's props, their types checked. */
  readonly server: StorageServerProps;
  /** The capacity asked for, TiB. */
  readonly capacityTiB: number;
  /** The planner's request, as the props make it. */
  readonly request: StorageRequest;
}

/**
 * One backend as the facade knows it: what it reads of the props, how it checks the plan, and how to build it from
 * the settled inputs. The facade asks every plugin in turn, whichever backend the plan names, so each refuses its own
 * options on another backend's plan. The construct id is the backend's own, for its resources' logical ids depend on
 * it. lib/backends/registry.ts holds one per backend.
 */
export interface BackendPlugin {
  /** The facade's prop that holds this backend's own options, such as `fsxLustre`; it must be an object. */
  readonly optionsProp?: keyof StorageServerProps;
  /** Checks the types of its options' members, for JavaScript callers; each message names the member. */
  validateOptionTypes?(server: StorageServerProps): void;
  /** Its fields of the planner's request: its options as the planner reads them. */
  requestOptions?(server: StorageServerProps): Partial<StorageRequest>;
  /** Checks `plan`, its own or another backend's, against the props; returns the plan as this backend builds it. */
  checkPlan?(scope: Construct, plan: StoragePlan, asked: PlanCheck): StoragePlan;
  /** Its synth warnings about the planner's own answer, after the plan's shared ones. */
  warnAboutPlan?(scope: Construct, planned: StoragePlan, asked: PlanCheck): void;
  /** The quotas it takes (lib/quotas.ts); none when absent, and the `quotas` prop is refused by name. */
  readonly quotas?: QuotaSupport;
  /** Builds the backend under `scope`: its resources, its guard, what the registration and the monitoring need. */
  build(scope: Construct, inputs: BackendInputs): StorageBackend;
}
