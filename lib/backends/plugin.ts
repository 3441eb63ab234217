import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import type { StoragePlan } from '../sizing';
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

/**
 * One backend as the facade knows it: how to build it from the settled inputs. The construct id is the backend's
 * own, for its resources' logical ids depend on it. lib/backends/registry.ts holds one per backend.
 */
export interface BackendPlugin {
  /** Builds the backend under `scope`: its resources, its guard, what the registration and the monitoring need. */
  build(scope: Construct, inputs: BackendInputs): StorageBackend;
}
