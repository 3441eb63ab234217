/**
 * The closed sets of the planner's public vocabulary, as enums; the backend's is lib/backend-enum.ts. jsii turns a
 * union of string literals into a plain string in the other languages, an enum into a type of its own. Each value is
 * the string the context keys, the guard's layout and the templates already hold, so a value crosses from an enum to
 * them unchanged. The planner inside lib/ keeps the literal types, to which an enum value assigns; a literal becomes an
 * enum value where a public struct is built.
 */
import type { DataVolumeType as DataVolumeTypeName } from '../../lambda/update-guard/volume-types';

/** The instance generation a plan is built on. */
export enum Generation {
  /** d2 and m4, the original template's families. */
  PREVIOUS = 'previous',
  /** Nitro types: m6i and m7i with EBS, d3 and d3en with instance store, and the network-optimized families. */
  CURRENT = 'current',
}

/** The processor architecture of the instance types a plan may choose. */
export enum Arch {
  /** 64-bit x86 (Intel and AMD). */
  X86_64 = 'x86_64',
  /** 64-bit Arm: AWS Graviton, current generation only. */
  ARM64 = 'arm64',
}

/** The EBS volume type of a data volume. */
export enum DataVolumeType {
  /** Throughput-optimized HDD: the cheapest per TiB for large sequential I/O, with burst credits. */
  ST1 = 'st1',
  /** General-purpose SSD, provisioned with its share of the throughput asked. */
  GP3 = 'gp3',
}

// Each volume type the guard's layout knows, to the enum member of that value: a type added to its list fails to
// compile here until the enum has it too.
const VOLUME_TYPE_OF: { readonly [T in DataVolumeTypeName]: DataVolumeType } = {
  st1: DataVolumeType.ST1,
  gp3: DataVolumeType.GP3,
};

/** The {@link Generation} of its value; the value's type is the enum's values, so the cast holds. */
export function generationOf(name: `${Generation}`): Generation {
  return name as Generation;
}

/** The {@link Arch} of its value; the value's type is the enum's values, so the cast holds. */
export function archOf(name: `${Arch}`): Arch {
  return name as Arch;
}

/** The {@link DataVolumeType} of a volume type's name, for a plan the planner builds. */
export function dataVolumeTypeOf(name: DataVolumeTypeName): DataVolumeType {
  return VOLUME_TYPE_OF[name];
}
