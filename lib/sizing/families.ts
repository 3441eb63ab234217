/**
 * The instance types the planner chooses among, by generation and architecture: for each, the general-purpose EBS
 * types of the capacity rule, the network-optimized ones a throughput search adds, and the instance-store types.
 * Data, assembled from the catalogue's families.
 */
import { EBS_INSTANCE_TYPES, INSTANCE_STORE_TYPES } from './catalog';
import { CURRENT_INSTANCE_STORE_TYPES } from './catalog-d3';
import { GRAVITON_EBS_INSTANCE_TYPES } from './catalog-graviton';
import { NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES } from './catalog-netopt';
import { CURRENT_EBS_INSTANCE_TYPES } from './catalog-nitro';
import type { InstanceTypeSpec } from './catalog-types';
import type { ArchName, GenerationName } from './plan-types';

/** The instance types of one generation and architecture. */
export interface Families {
  readonly generation: GenerationName;
  readonly arch: ArchName;
  /** EBS types of the capacity rule, general purpose, smallest first in each family. */
  readonly ebs: readonly InstanceTypeSpec[];
  /**
   * EBS types the cheapest-plan search weighs beside `ebs` when a throughput is asked: the network- and EBS-optimized
   * families of catalog-netopt.ts, whose largest sizes carry the most a single server can serve.
   */
  readonly fastEbs: readonly InstanceTypeSpec[];
  /**
   * Instance-store types, d2, or d3 and d3en for `current`; the capacity rule takes the cheapest that holds the
   * request.
   */
  readonly instanceStore: readonly InstanceTypeSpec[];
}

const ofArch = (arch: ArchName) => (t: InstanceTypeSpec) => t.arch === arch;

/** The families of each generation and architecture the planner offers; Graviton has the current generation only. */
export const FAMILIES: { readonly [F in `${GenerationName} ${ArchName}`]?: Families } = {
  'previous x86_64': { generation: 'previous', arch: 'x86_64', ebs: EBS_INSTANCE_TYPES, fastEbs: [], instanceStore: INSTANCE_STORE_TYPES },
  'current x86_64': {
    generation: 'current',
    arch: 'x86_64',
    ebs: CURRENT_EBS_INSTANCE_TYPES,
    fastEbs: NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES.filter(ofArch('x86_64')),
    instanceStore: CURRENT_INSTANCE_STORE_TYPES,
  },
  'current arm64': {
    generation: 'current',
    arch: 'arm64',
    ebs: GRAVITON_EBS_INSTANCE_TYPES,
    fastEbs: NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES.filter(ofArch('arm64')),
    instanceStore: [],
  },
};

/** The families a plan is built on when the request names none: the search's default. */
export const PREVIOUS = FAMILIES['previous x86_64'] as Families;
