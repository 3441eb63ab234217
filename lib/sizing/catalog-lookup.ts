/**
 * The whole catalogue, assembled from its families: m4 and d2 in catalog.ts, and catalog-nitro.ts, catalog-graviton.ts,
 * catalog-netopt.ts and catalog-d3.ts. It gives the types an `instanceType` override may name, the lookup by name, and
 * the lists of names the messages show. It sits above every family file, so that no family imports the list it is part
 * of.
 */
import { EBS_INSTANCE_TYPES, INSTANCE_STORE_TYPES } from './catalog';
import { CURRENT_INSTANCE_STORE_TYPES } from './catalog-d3';
import { GRAVITON_EBS_INSTANCE_TYPES } from './catalog-graviton';
import { NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES } from './catalog-netopt';
import { CURRENT_EBS_INSTANCE_TYPES } from './catalog-nitro';
import type { InstanceTypeSpec } from './catalog-types';

/**
 * Every type with EBS data volumes an `instanceType` override may name: the planner's m4, m6i and m7i; Graviton m7g and
 * m6g; and the network-optimized families c6in, m6in and r6in, and on Graviton c8gb, m8gb and r8gb. The planner chooses
 * Graviton types only when asked for `arch: 'arm64'`.
 */
export const OVERRIDE_EBS_INSTANCE_TYPES: readonly InstanceTypeSpec[] = [
  ...EBS_INSTANCE_TYPES, ...CURRENT_EBS_INSTANCE_TYPES, ...GRAVITON_EBS_INSTANCE_TYPES, ...NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES,
];

/**
 * Every instance-store type an `instanceType` override may name: d2, and d3 and d3en of generation current, whichever
 * generation the plan was made for, as on EBS.
 */
export const OVERRIDE_INSTANCE_STORE_TYPES: readonly InstanceTypeSpec[] = [...INSTANCE_STORE_TYPES, ...CURRENT_INSTANCE_STORE_TYPES];

const ALL_TYPES = new Map([...OVERRIDE_EBS_INSTANCE_TYPES, ...OVERRIDE_INSTANCE_STORE_TYPES].map((t) => [t.name, t]));

/** The catalogue entry for `name`; throws naming the known types when there is none. */
export function instanceTypeSpec(name: string): InstanceTypeSpec {
  const spec = ALL_TYPES.get(name);
  if (!spec) {
    throw new Error(`instanceType must be one of ${cataloguedTypeList()}; got ${JSON.stringify(name)}`);
  }
  return spec;
}

/** Whether the catalogue knows `name`. */
export function knownInstanceType(name: string): boolean {
  return ALL_TYPES.has(name);
}

/** Every type the catalogue knows, grouped by family by `familyList`, for the messages that list them. */
export function cataloguedTypeList(): string {
  return familyList([...ALL_TYPES.keys()]);
}

/**
 * Instance type names grouped by family for a message, in the shell's brace form: `m4.{xlarge,2xlarge}, m6i.large`.
 * The catalogue holds over a hundred types: one name after another would bury the message.
 */
export function familyList(names: readonly string[]): string {
  const families = new Map<string, string[]>();
  for (const name of names) {
    const dot = name.indexOf('.');
    const family = name.slice(0, dot);
    families.set(family, [...(families.get(family) ?? []), name.slice(dot + 1)]);
  }
  return [...families].map(([family, sizes]) => (sizes.length === 1 ? `${family}.${sizes[0]}` : `${family}.{${sizes.join(',')}}`)).join(', ');
}
