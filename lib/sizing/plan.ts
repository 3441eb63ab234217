/**
 * The sizing planner: from the capacity a user asks for to an instance type, its data disks, the
 * throughput clients can expect and the monthly cost. Pure functions, no CDK imports (docs/design.md,
 * section 3); the construct only wires resources from the plan.
 */
import {
  BEYOND_ONE_SERVER,
  EBS_INSTANCE_TYPES,
  EBS_SINGLE_VOLUME_TIERS,
  GIB_BYTES,
  HOURS_PER_MONTH,
  INSTANCE_STORE_TYPES,
  MAX_EBS_CAPACITY_TIB,
  MB_BYTES,
  ST1,
  TIB_BYTES,
  instanceStoreTiB,
} from './catalog';
import { instanceTypeSpec } from './catalog-lookup';
import type { InstanceTypeSpec } from './catalog-types';
import { GP3, MB_PER_MIB, gp3MonthlyUsd, gp3VolumeError } from './catalog-gp3';
import { gp3Stripes, whyGp3 } from './gp3';
import { CURRENT_EBS_INSTANCE_TYPES, EBS_BURST_SECONDS } from './catalog-nitro';
import { GRAVITON_EBS_INSTANCE_TYPES } from './catalog-graviton';
import { NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES } from './catalog-netopt';
import { CURRENT_INSTANCE_STORE_TYPES } from './catalog-d3';
import {
  FsxLustreOptions,
  ResolvedFsxLustreOptions,
  estimateFsxLustreThroughput,
  fsxLustreCapacityFor,
  fsxLustreKey,
  fsxLustreMonthlyCost,
  fsxLustreOptions,
  resolveFsxLustreOptions,
} from './fsx-lustre';
import { ClientRequest, PerClientPlan, counted, perClientOf } from './client-ceiling';
import { describe } from './describe';
import { round2 } from './round';
import type { Backend } from '../../lambda/register/contract';

// One backend type for the planner, the SSM records and the update guard's layout (the public API names it once).
export type { Backend };

/** The instance generation a plan is built on. */
export type Generation = 'previous' | 'current';

/** The processor architecture of the types a plan may choose: x86_64, or AWS Graviton (arm64). */
export type Arch = 'x86_64' | 'arm64';

/** The instance types of one generation and architecture. */
interface Families {
  readonly generation: Generation;
  readonly arch: Arch;
  /** EBS types of the capacity rule (general purpose), smallest first in each family. */
  readonly ebs: readonly InstanceTypeSpec[];
  /**
   * EBS types the cheapest-plan search weighs beside `ebs` when a throughput is asked: the network- and
   * EBS-optimized families (catalog-netopt.ts), whose largest sizes carry the most a single server can serve.
   */
  readonly fastEbs: readonly InstanceTypeSpec[];
  /** Instance-store types (d2; d3 and d3en for `current`); the capacity rule takes the cheapest that holds the request. */
  readonly instanceStore: readonly InstanceTypeSpec[];
}

const ofArch = (arch: Arch) => (t: InstanceTypeSpec) => t.arch === arch;

const FAMILIES: { readonly [F in `${Generation} ${Arch}`]?: Families } = {
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
const PREVIOUS = FAMILIES['previous x86_64'] as Families;

/** What the user asks for. */
export interface StorageRequest {
  /** Usable capacity wanted, in TiB (2^40 bytes). */
  readonly capacityTiB: number;
  /**
   * The backend, or `auto`: EBS up to 16 TiB and instance store (d2) up to 43.6 TiB when no throughput is asked
   * (generation current: EBS up to 16 TiB); beyond that, or when the throughput asked is more than that plan
   * sustains, the cheapest plan of any backend (d3/d3en with generation current, FSx for Lustre persistent types
   * included, never SCRATCH_2) that holds the capacity and sustains the throughput.
   * @default 'auto'
   */
  readonly backend?: Backend | 'auto';
  /**
   * The instance generation: `previous` plans on d2 and m4 (the original template's families), `current` on
   * Nitro types: m6i with st1 for EBS (catalog-nitro.ts; m7i beside it, and the network-optimized families of
   * catalog-netopt.ts when a throughput is asked), d3 and d3en for instance store (catalog-d3.ts, up to
   * d3en.12xlarge's 305 TiB). AWS publishes no disk throughput for d3 or d3en: their estimate is a lower bound (each
   * disk at d2's published figure, under the network baseline), and `limitedBy` and `reason` say so.
   * @default 'previous' ('current' with `arch: 'arm64'`)
   */
  readonly generation?: Generation;
  /**
   * The processor architecture of the instance types the planner may choose: `arm64` plans on AWS Graviton (m7g and
   * m6g by the capacity rule; c8gb, m8gb, r8gb beside them when a throughput is asked), which is current generation
   * only and has no instance-store HDD type. The server's image follows the chosen type's architecture.
   * @default 'x86_64'
   */
  readonly arch?: Arch;
  /**
   * FSx for Lustre options, with backend `fsx-lustre` only (`auto` chooses among the persistent options itself).
   * @default - PERSISTENT_2 SSD at 125 MB/s per TiB; with `throughputMBps`, the cheapest persistent option (SSD or
   * HDD) that sustains it
   */
  readonly fsxLustre?: FsxLustreOptions;
  /**
   * Keep exactly this many EBS data volumes: how an existing EBS server grows (each volume is enlarged in place;
   * a volume added to an existing stripe, or one taken away, would lose or strand data). Implies the EBS backend
   * (with `backend` 'ebs' or 'auto'); each volume is sized to `capacityTiB / dataVolumeCount`, at most 16 TiB.
   * @default - as many volumes as the capacity needs (one up to 16 TiB)
   */
  readonly dataVolumeCount?: number;
  /**
   * The sustained aggregate throughput the cluster needs, MB/s (10^6 bytes per second), read and write alike.
   * When the plan `auto` (or the backend asked for) would make cannot sustain it once every burst credit is
   * spent, the planner picks the cheapest plan of the allowed backends that does, and says so in `reason`; on EBS
   * that search also weighs gp3 stripes (1-3 volumes, each provisioned with its share of the throughput).
   * Without it, EBS plans are st1.
   * @default - none: the plan follows capacity alone
   */
  readonly throughputMBps?: number;
  /**
   * One client of the storage: its instance type (or network) and how it mounts; shapes `perClient` only, never the
   * server's plan (lib/sizing/client-ceiling.ts).
   * @default - a client of unknown type mounting with nconnect 16, outside a cluster placement group
   */
  readonly client?: ClientRequest;
}

/** The FSx for Lustre file system of a plan. */
export interface FsxLustrePlan extends ResolvedFsxLustreOptions {
  /** Storage capacity, GiB: a valid step of the deployment and storage type. */
  readonly storageCapacityGiB: number;
}

/** One EBS data volume of the plan. */
export interface DataVolumePlan {
  /** EBS volume type: Throughput Optimized HDD (`st1`) or General Purpose SSD (`gp3`). */
  readonly volumeType: 'st1' | 'gp3';
  /** Size, GiB: a whole number, st1 125 to 16384, gp3 1 to 65536. */
  readonly sizeGiB: number;
  /**
   * gp3 only: provisioned throughput, MiB/s (125-2,000; 125 is included in the price).
   * @default - none for st1; gp3's included 125 MiB/s
   */
  readonly throughputMiBps?: number;
  /**
   * gp3 only: provisioned IOPS (3,000-80,000; 3,000 are included in the price).
   * @default - none for st1; gp3's included 3,000 IOPS
   */
  readonly iops?: number;
}

/** Aggregate sequential throughput, MB/s = 10^6 bytes per second. */
export interface ThroughputEstimate {
  /** Sequential read the clients can expect together over the 1 TB workload (`ESTIMATE_TRANSFER_BYTES`) (full credits at the start), MB/s. */
  readonly readMBps: number;
  /** Sequential write the clients can expect together over the same workload, MB/s. */
  readonly writeMBps: number;
  /** Sustained read once every burst credit is spent (st1: each volume's baseline), MB/s. */
  readonly baselineReadMBps: number;
  /** Sustained write once every burst credit is spent, MB/s. */
  readonly baselineWriteMBps: number;
  /** Read while every burst bucket holds credit (st1: each volume's burst); equal to the baseline where nothing bursts (d2), MB/s. */
  readonly burstReadMBps: number;
  /** Write while every burst bucket holds credit, MB/s. */
  readonly burstWriteMBps: number;
  /** The published limit that binds the 1 TB workload, in words. */
  readonly limitedBy: string;
}

/** The planner's answer. */
export interface StoragePlan {
  /** The backend chosen (never `auto`). */
  readonly backend: Backend;
  /**
   * The EC2 instance type chosen, e.g. `m4.2xlarge` or `d2.8xlarge`; for FSx for Lustre the deployment, storage
   * type and per-unit throughput, e.g. `PERSISTENT_2/SSD/125`.
   */
  readonly instanceType: string;
  /** EBS only; empty for instance store. All the same size: they are striped. */
  readonly dataVolumes: DataVolumePlan[];
  /** Instance store only; 0 for EBS. */
  readonly instanceStoreDisks: number;
  /** Raw capacity of the data disks (FSx: of the file system), TiB; never less than the request. */
  readonly rawCapacityTiB: number;
  /**
   * FSx for Lustre only: the file system's options and capacity.
   * @default - none: the plan is an EC2 NFS server
   */
  readonly fsxLustre?: FsxLustrePlan;
  /** Aggregate sequential throughput clients can expect, from published limits only (see `estimateThroughput`). */
  readonly throughput: ThroughputEstimate;
  /**
   * On-demand instance + volumes, 730 h, us-east-1 list price, USD; FSx for Lustre: its storage per GB-month
   * (backups, billed per GB-month stored, are not included).
   */
  readonly monthlyCostUsd: number;
  /** Why this plan, in words (the capacity rule, or the cheapest plan sustaining the throughput asked for). */
  readonly reason: string;
  /**
   * What one client can reach beside the aggregate above (a bound from EC2's per-flow limit and the client's network,
   * lib/sizing/client-ceiling.ts), and how many clients the sustained figure takes. Every plan `planStorage`,
   * `bestPlanOf` and `withInstanceType` return has it.
   * @default - none: a plan built without the planner
   */
  readonly perClient?: PerClientPlan;
}

/**
 * The workload the estimate describes: 8 or more clients moving about 1 TB in total with 1 MiB I/O,
 * starting with full st1 burst credits (docs/design.md, section 3). With 8+ clients no single TCP flow limit binds.
 */
const ESTIMATE_TRANSFER_BYTES = 1e12;

/** What an estimate on disks of unpublished throughput (d3, d3en) says of itself, in `limitedBy` and `reason`. */
const LOWER_BOUND = 'lower bound: per-disk throughput unpublished';

const BACKENDS: readonly (Backend | 'auto')[] = ['auto', 'ebs', 'instance-store', 'fsx-lustre'];
/** Every backend `auto` may choose from when the capacity rule's plan does not do. */
const ALL_BACKENDS: readonly Backend[] = ['ebs', 'instance-store', 'fsx-lustre'];
const LARGEST_INSTANCE_STORE = INSTANCE_STORE_TYPES[INSTANCE_STORE_TYPES.length - 1];
const MAX_INSTANCE_STORE_TIB = instanceStoreTiB(LARGEST_INSTANCE_STORE);
const MAX_SINGLE_VOLUME_TIB = ST1.maxSizeGiB / 1024;
/** The most st1 volumes one EBS stripe holds (48 TiB in 16 TiB volumes). */
const MAX_DATA_VOLUMES = MAX_EBS_CAPACITY_TIB / MAX_SINGLE_VOLUME_TIB;

/**
 * Plans the server for a request. Throws an Error naming the field, the value and the allowed range for
 * a bad request, and pointing to a parallel file system when no single server should hold the capacity.
 */
export function planStorage(request: StorageRequest): StoragePlan {
  const plan = planServer(request);
  return { ...plan, perClient: perClientOf(plan, request.client) };
}

/** The server's plan for a request, without its per-client figure. */
function planServer(request: StorageRequest): StoragePlan {
  if (typeof request !== 'object' || request === null) {
    throw new Error(`request must be an object { capacityTiB, backend? }; got ${describe(request)}`);
  }
  const backend = request.backend ?? 'auto';
  if (!BACKENDS.includes(backend)) {
    throw new Error(
      `backend must be one of ${BACKENDS.map((b) => `'${b}'`).join(', ')}; got ${describe(backend)}`,
    );
  }
  const count = request.dataVolumeCount;
  if (count !== undefined) {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_DATA_VOLUMES) {
      throw new Error(`dataVolumeCount must be a whole number from 1 to ${MAX_DATA_VOLUMES}; got ${describe(count)}`);
    }
    if (backend === 'instance-store' || backend === 'fsx-lustre') {
      throw new Error(`dataVolumeCount applies to the EBS backend only; got backend '${backend}'`);
    }
  }
  if (request.fsxLustre !== undefined && backend !== 'fsx-lustre') {
    throw new Error(
      `fsxLustre options apply to backend 'fsx-lustre' only; got backend '${backend}'` +
        (backend === 'auto' ? " (auto chooses among the persistent FSx options itself: set backend 'fsx-lustre' to choose)" : ''),
    );
  }
  const arch = request.arch ?? 'x86_64';
  if (arch !== 'x86_64' && arch !== 'arm64') {
    throw new Error(`arch must be 'x86_64' or 'arm64' (AWS Graviton); got ${describe(arch)}`);
  }
  const generation = request.generation ?? (arch === 'arm64' ? 'current' : 'previous');
  if (generation !== 'previous' && generation !== 'current') {
    throw new Error(`generation must be 'previous' (d2, m4) or 'current' (Nitro: m6i, m7i, the network-optimized types, d3, d3en); got ${describe(generation)}`);
  }
  const families = FAMILIES[`${generation} ${arch}`];
  if (families === undefined) {
    throw new Error(`arch 'arm64' (AWS Graviton) is current generation only; got generation '${generation}': give generation 'current' or leave it out`);
  }
  if (arch === 'arm64' && backend === 'instance-store') {
    throw new Error("backend 'instance-store' with arch 'arm64': AWS sells no Graviton type with instance-store HDDs; give backend 'ebs', 'fsx-lustre' or 'auto', or arch 'x86_64'");
  }
  const fsxOptions = backend === 'fsx-lustre' && request.fsxLustre !== undefined ? resolveFsxLustreOptions(request.fsxLustre) : undefined;
  const throughput = request.throughputMBps;
  if (throughput !== undefined && (typeof throughput !== 'number' || !Number.isFinite(throughput) || throughput <= 0)) {
    throw new Error(`throughputMBps must be a number of MB/s greater than 0; got ${describe(throughput)}`);
  }
  if (backend === 'fsx-lustre') return planFsx(validatePositive(request.capacityTiB), fsxOptions, throughput);
  const autoLimit = generation === 'current' ? MAX_SINGLE_VOLUME_TIB : MAX_INSTANCE_STORE_TIB;
  if (backend === 'auto' && count === undefined && validatePositive(request.capacityTiB) > autoLimit) {
    return cheapestMeeting(request.capacityTiB, ALL_BACKENDS, throughput ?? 0, generation === 'current'
      ? `generation current: more than one st1 volume holds (${MAX_SINGLE_VOLUME_TIB} TiB)`
      : `more than the capacity rule's largest server holds, ${LARGEST_INSTANCE_STORE.name} with ${formatTiB(MAX_INSTANCE_STORE_TIB)} TiB`,
    families);
  }
  const capacityTiB = validateCapacity(request.capacityTiB, count === undefined ? backend : 'ebs', families);
  const plan = planForCapacity(capacityTiB, backend, count, families);
  if (throughput === undefined || sustains(plan, throughput)) {
    return throughput === undefined ? plan : { ...plan, reason: `${plan.reason}; it sustains the ${throughput} MB/s asked for` };
  }
  if (count !== undefined) {
    throw new Error(
      `throughputMBps ${throughput} is more than ${count} st1 volume(s) for ${capacityTiB} TiB sustain ` +
        `(${sustainedOf(plan)} MB/s once burst credits are spent); dataVolumeCount fixes the layout: ask for less, or ` +
        'deploy a second server',
    );
  }
  return cheapestMeeting(capacityTiB, backend === 'auto' ? ALL_BACKENDS : [backend], throughput,
    `${plan.instanceType}, the capacity rule's choice, sustains ${sustainedOf(plan)} MB/s`, families);
}

/**
 * The cheapest catalogued plan of `backends` that holds `capacityTiB` and sustains `targetMBps`, with `why` (what
 * the capacity rule could not do) in its reason; throws naming the best any of them sustains when none does.
 */
function cheapestMeeting(
  capacityTiB: number, backends: readonly Backend[], targetMBps: number, why: string, families: Families = PREVIOUS,
): StoragePlan {
  const candidates = candidatePlans(capacityTiB, backends, targetMBps, families);
  const meeting = candidates.filter((c) => sustains(c, targetMBps)).sort((a, b) => a.monthlyCostUsd - b.monthlyCostUsd);
  const asked = targetMBps > 0 ? ` and sustains ${targetMBps} MB/s` : '';
  if (meeting.length === 0) {
    const best = candidates.length > 0 ? Math.max(...candidates.map(sustainedOf)) : 0;
    const only = backends.length === 1 ? `${backends[0]} ` : '';
    throw new Error(
      `throughputMBps ${targetMBps} is more than any single ${only}server sustains for ${capacityTiB} TiB (at most ` +
        `${best} MB/s once burst credits are spent); beyond that ${BEYOND_ONE_SERVER}` +
        (backends.includes('fsx-lustre') ? '' : " (backend 'fsx-lustre', or 'auto')"),
    );
  }
  return {
    ...meeting[0],
    reason: `the cheapest plan that holds ${capacityTiB} TiB${asked} (${why})${whyGp3(meeting[0], targetMBps)}${lowerBound(meeting[0])}`,
  };
}

/**
 * A plan on another EBS instance type than the planner chose (the `instanceType` override): the same volumes, that
 * type's estimate and cost. Throws naming the catalogued types when `instanceType` is not one the planner knows.
 */
export function withInstanceType(plan: StoragePlan, instanceType: string): StoragePlan {
  if (plan.backend !== 'ebs') throw new Error(`withInstanceType applies to EBS plans only; got backend '${plan.backend}'`);
  if (instanceType === plan.instanceType) return plan;
  const spec = instanceTypeSpec(instanceType);
  if (spec.instanceStore) throw new Error(`instanceType ${instanceType} has instance-store disks; an EBS plan needs an EBS type`);
  const replanned = ebsPlan(spec, plan.dataVolumes);
  return {
    ...replanned,
    reason: `${plan.reason}; instanceType ${instanceType} as asked (the planner chose ${plan.instanceType})`,
    perClient: plan.perClient && counted(plan.perClient, replanned),
  };
}

/**
 * The best plan of one backend for a request, or the reason there is none (`npm run plan`'s side-by-side view):
 * what `planStorage` gives with that backend, except that FSx for Lustre without options is its cheapest persistent
 * option that holds the capacity (and sustains the throughput), as `auto` would weigh it.
 */
export function bestPlanOf(backend: Backend, request: StorageRequest): StoragePlan | string {
  try {
    if (backend === 'fsx-lustre' && request.fsxLustre === undefined) {
      planStorage({ ...request, backend: 'fsx-lustre' }); // refuses what the request gets wrong, with its message
      const plan = cheapestMeeting(request.capacityTiB, ['fsx-lustre'], request.throughputMBps ?? 0, 'backend fsx-lustre, persistent options');
      return { ...plan, perClient: perClientOf(plan, request.client) };
    }
    return planStorage({ ...request, backend, fsxLustre: backend === 'fsx-lustre' ? request.fsxLustre : undefined });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * FSx for Lustre: with options, the file system of those options that holds the capacity and sustains the
 * throughput; without, the cheapest persistent option that does (PERSISTENT_2 SSD 125 when nothing is asked).
 */
function planFsx(capacityTiB: number, options: ResolvedFsxLustreOptions | undefined, targetMBps: number | undefined): StoragePlan {
  if (options === undefined) {
    if (targetMBps === undefined) {
      return { ...fsxPlan(resolveFsxLustreOptions(), capacityTiB), reason: 'backend fsx-lustre: PERSISTENT_2 SSD at 125 MB/s per TiB, the default' };
    }
    return cheapestMeeting(capacityTiB, ['fsx-lustre'], targetMBps, 'backend fsx-lustre, persistent options');
  }
  const plan = fsxPlan(options, capacityTiB, targetMBps);
  const sized = plan.rawCapacityTiB > capacityTiB && targetMBps !== undefined && fsxPlan(options, capacityTiB).rawCapacityTiB < plan.rawCapacityTiB;
  return {
    ...plan,
    reason: `backend fsx-lustre, ${fsxLustreKey(options)} as asked` +
      (sized ? `, sized up to ${plan.fsxLustre?.storageCapacityGiB} GiB to sustain ${targetMBps} MB/s` : ''),
  };
}

/** The file system of `options` that holds `capacityTiB` and (its baseline) sustains `targetMBps`. */
function fsxPlan(options: ResolvedFsxLustreOptions, capacityTiB: number, targetMBps = 0): StoragePlan {
  const storageCapacityGiB = fsxLustreCapacityFor(capacityTiB, options, targetMBps);
  const t = estimateFsxLustreThroughput(options, storageCapacityGiB);
  return {
    backend: 'fsx-lustre',
    instanceType: fsxLustreKey(options),
    dataVolumes: [],
    instanceStoreDisks: 0,
    rawCapacityTiB: storageCapacityGiB / 1024,
    fsxLustre: { ...options, storageCapacityGiB },
    // FSx publishes no burst credit sizes, so the 1 TB workload is estimated at the baseline, which is
    // what a file system sustains once its credits are spent.
    throughput: {
      readMBps: t.baselineReadMBps,
      writeMBps: t.baselineWriteMBps,
      baselineReadMBps: t.baselineReadMBps,
      baselineWriteMBps: t.baselineWriteMBps,
      burstReadMBps: t.burstReadMBps,
      burstWriteMBps: t.burstWriteMBps,
      limitedBy: `${t.limitedBy}; burst credits (size unpublished) not counted`,
    },
    monthlyCostUsd: fsxLustreMonthlyCost(options, storageCapacityGiB),
    reason: '',
  };
}

/** The plan for capacity alone: the capacity rule of `auto` (docs/design.md, section 3), or the backend asked for. */
function planForCapacity(capacityTiB: number, backend: Backend | 'auto', count: number | undefined, families: Families): StoragePlan {
  if (count !== undefined) {
    if (capacityTiB > count * MAX_SINGLE_VOLUME_TIB) {
      throw new Error(
        `capacityTiB ${capacityTiB} does not fit in dataVolumeCount ${count} st1 volume(s) of at most ` +
          `${MAX_SINGLE_VOLUME_TIB} TiB each (at most ${count * MAX_SINGLE_VOLUME_TIB} TiB); an existing stripe ` +
          'cannot take more volumes: deploy a second server for the rest',
      );
    }
    return { ...planEbs(capacityTiB, families, count), reason: `dataVolumeCount ${count}: the volumes of an existing stripe, each grown` };
  }
  if (backend === 'instance-store') {
    const plan = planInstanceStore(capacityTiB, families);
    return {
      ...plan,
      reason: families.generation === 'current'
        ? `backend instance-store, generation current: the cheapest d3 or d3en that holds the capacity${lowerBound(plan)}`
        : 'backend instance-store: the smallest d2 that holds the capacity',
    };
  }
  if (backend === 'auto' && capacityTiB > MAX_SINGLE_VOLUME_TIB && families.generation === 'previous') {
    return {
      ...planInstanceStore(capacityTiB, families),
      reason: `auto: above ${MAX_SINGLE_VOLUME_TIB} TiB (one st1 volume), the smallest d2 that holds the capacity`,
    };
  }
  const current = families.generation === 'current';
  return {
    ...planEbs(capacityTiB, families),
    reason: backend === 'auto'
      ? current
        ? `auto, generation current: up to ${MAX_SINGLE_VOLUME_TIB} TiB, one st1 volume on the ${gpName(families)} whose EBS and network baselines carry its st1 baseline`
        : `auto: up to ${MAX_SINGLE_VOLUME_TIB} TiB, one st1 volume on the original template's m4 tier`
      : current
        ? `backend ebs, generation current: st1 volumes of at most 16 TiB, striped, on the ${gpName(families)} whose EBS and network baselines carry their st1 baseline`
        : 'backend ebs: st1 volumes of at most 16 TiB, striped, on an m4 whose EBS bandwidth carries their burst',
  };
}

/** The capacity rule's types in a reason: x86_64 keeps the words it has always had (m6i is cheaper than m7i). */
function gpName(families: Families): string {
  return families.arch === 'arm64' ? 'cheapest Graviton type (m7g, m6g)' : 'smallest m6i';
}

/** The sustained figure of a plan: the lesser of read and write once every credit is spent, MB/s. */
function sustainedOf(plan: Omit<StoragePlan, 'reason'>): number {
  return Math.min(plan.throughput.baselineReadMBps, plan.throughput.baselineWriteMBps);
}

function sustains(plan: Omit<StoragePlan, 'reason'>, mbps: number): boolean {
  return sustainedOf(plan) >= mbps;
}

/**
 * The single-server plans that hold the capacity: each d2 (d3, d3en) that fits; on EBS each type of the generation
 * (and, when a throughput is asked, of its network-optimized families) with 1 to 3 st1 volumes, each volume its
 * share of the capacity or, where that is larger, the smallest size whose baseline
 * carries its share of `targetMBps` (st1's baseline grows with size: a larger volume sustains more, 40 MiB/s per
 * TiB), and, when a throughput is asked, with 1 to 3 gp3 volumes provisioned for it (`gp3Stripes`).
 */
function candidatePlans(capacityTiB: number, backends: readonly Backend[], targetMBps: number, families: Families): StoragePlan[] {
  const plans: StoragePlan[] = [];
  if (backends.includes('instance-store')) {
    for (const spec of families.instanceStore.filter((t) => instanceStoreTiB(t) >= capacityTiB)) {
      plans.push({ ...instanceStorePlan(spec), reason: '' });
    }
  }
  if (backends.includes('fsx-lustre')) {
    for (const options of fsxLustreOptions(true)) plans.push(fsxPlan(options, capacityTiB, targetMBps));
  }
  if (backends.includes('ebs')) {
    const types = targetMBps > 0 ? [...families.ebs, ...families.fastEbs] : families.ebs;
    for (let count = 1; count <= MAX_DATA_VOLUMES; count++) {
      const shareGiB = Math.max(ST1.minSizeGiB, Math.ceil((capacityTiB * 1024) / count));
      if (shareGiB > ST1.maxSizeGiB) continue;
      const targetGiB = Math.ceil((((targetMBps / count) * MB_BYTES) / 1024 ** 2 / ST1.baselineMiBpsPerTiB) * 1024);
      const sizeGiB = Math.min(ST1.maxSizeGiB, Math.max(shareGiB, targetGiB));
      for (const spec of types) plans.push({ ...ebsPlan(spec, st1Volumes(count, sizeGiB)), reason: '' });
    }
    if (targetMBps > 0) {
      for (const volumes of gp3Stripes(capacityTiB, targetMBps)) {
        for (const spec of types) plans.push({ ...ebsPlan(spec, volumes), reason: '' });
      }
    }
  }
  return plans;
}

/**
 * Estimates the aggregate sequential throughput of a server from published limits only: the data disks
 * (st1 baseline, burst and credits; gp3's provisioned throughput, which does not burst; or instance-store HDDs),
 * the instance's EBS bandwidth and its network baseline. Pass the st1 or gp3 volumes for an EBS-backed type; none
 * for an instance-store type, whose local disks are used. A d3/d3en's disks have no published figure: each counts
 * at d2's, a lower bound, and `limitedBy` ends with "lower bound: per-disk throughput unpublished".
 */
export function estimateThroughput(
  instanceType: string,
  dataVolumes: DataVolumePlan[] = [],
): ThroughputEstimate {
  const spec = instanceTypeSpec(instanceType);
  const network: Limit = {
    mbps: (spec.networkBaselineGbps * 1e9) / 8 / MB_BYTES,
    label: `network baseline of ${spec.name} (${spec.networkBaselineGbps} Gbps)`,
  };
  const disks = spec.instanceStore;
  if (disks) {
    if (dataVolumes.length > 0) {
      throw new Error(
        `dataVolumes must be empty for ${spec.name}: its data lives on its ${disks.disks} instance-store disks; got ${dataVolumes.length} volume(s)`,
      );
    }
    // Local HDDs do not burst. d2's network is flat: sustained, burst and the 1 TB figure are one. A d3/d3en's network
    // bursts on credits for an unpublished time: the burst figure may use it, the 1 TB figure only its baseline.
    const bound = disks.throughputBound === 'lower';
    const each = (mbps: number) => (bound ? ` at d2's ${round2(mbps)} MB/s each` : '');
    const readDisks: Limit = { mbps: disks.disks * disks.diskReadMBps, label: `${disks.disks} instance-store HDDs of ${spec.name}${each(disks.diskReadMBps)} (read)` };
    const writeDisks: Limit = { mbps: disks.disks * disks.diskWriteMBps, label: `${disks.disks} instance-store HDDs of ${spec.name}${each(disks.diskWriteMBps)} (write)` };
    const networkBurst: Limit = spec.networkBurstGbps !== undefined && spec.networkBurstGbps > spec.networkBaselineGbps
      ? { mbps: (spec.networkBurstGbps * 1e9) / 8 / MB_BYTES, label: `network burst of ${spec.name} (up to ${spec.networkBurstGbps} Gbps, while credits last)` }
      : network;
    const read = binding([readDisks, network]);
    const write = binding([writeDisks, network]);
    const estimate = combine(read, write, { read, write }, { read: binding([readDisks, networkBurst]), write: binding([writeDisks, networkBurst]) });
    // AWS publishes no disk figure for d3/d3en: every figure rests on the lower bound, whichever limit binds.
    return bound ? { ...estimate, limitedBy: `${estimate.limitedBy}; ${LOWER_BOUND}` } : estimate;
  }

  const volume = validateVolumes(spec, dataVolumes);
  const sizeGiB = volume.sizeGiB;
  const count = dataVolumes.length;
  const gp3 = volume.volumeType === 'gp3';
  // gp3 does not burst: its burst and baseline are the provisioned throughput, with no credit bucket.
  const st1 = gp3 ? gp3Limits(volume) : st1Volume(sizeGiB);
  const nitroEbs = spec.ebsBurstMbps !== undefined && spec.ebsBurstMbps > (spec.ebsBandwidthMbps ?? 0);
  const ebs: Limit = {
    mbps: (spec.ebsBandwidthMbps ?? 0) / 8,
    label: nitroEbs
      ? `EBS baseline of ${spec.name} (${spec.ebsBandwidthMbps} Mbps)`
      : `EBS bandwidth of ${spec.name} (${spec.ebsBandwidthMbps} Mbps)`,
  };
  const ebsBurst: Limit = nitroEbs
    ? { mbps: (spec.ebsBurstMbps ?? 0) / 8, label: `EBS burst of ${spec.name} (up to ${spec.ebsBurstMbps} Mbps, 30 minutes a day)` }
    : ebs;
  const networkBurst: Limit = spec.networkBurstGbps !== undefined && spec.networkBurstGbps > spec.networkBaselineGbps
    ? { mbps: (spec.networkBurstGbps * 1e9) / 8 / MB_BYTES, label: `network burst of ${spec.name} (up to ${spec.networkBurstGbps} Gbps, while credits last)` }
    : network;
  const gp3Label = `gp3 provisioned throughput of ${count} x ${volume.throughputMiBps} MiB/s (${sizeGiB} GiB each)`;
  const st1Burst: Limit = { mbps: count * st1.burstMBps, label: gp3 ? gp3Label : `st1 burst of ${count} x ${sizeGiB} GiB` };
  const st1Baseline: Limit = { mbps: count * st1.baselineMBps, label: gp3 ? gp3Label : `st1 baseline of ${count} x ${sizeGiB} GiB` };
  const steady = binding([st1Burst, ebs, network]);
  const baseline = binding([st1Baseline, ebs, network]);
  const burst = binding([st1Burst, ebsBurst, networkBurst]);
  // st1 reads and writes draw on the same limits and the same credits, so one figure serves both. A Nitro type's
  // EBS burst lasts its 30 minutes; its network burst is best effort for an unpublished time, so the 1 TB
  // workload counts only the network baseline.
  const workload = nitroEbs
    ? transferWithBursts({ st1Burst, st1Baseline, st1, count, ebs, ebsBurst, network })
    : gp3 ? steady : afterBurstCredits(steady, st1, count);
  return combine(workload, workload, { read: baseline, write: baseline }, { read: burst, write: burst });
}

/** The limits of an st1 stripe on a Nitro type whose EBS bandwidth bursts. */
interface BurstingLimits {
  readonly st1Burst: Limit;
  readonly st1Baseline: Limit;
  readonly st1: St1Volume;
  readonly count: number;
  readonly ebs: Limit;
  readonly ebsBurst: Limit;
  readonly network: Limit;
}

/**
 * Average throughput over the 1 TB transfer on a Nitro type: phase by phase, the lesser of the stripe
 * (st1 burst while each volume's bucket holds credit, then its baseline), the EBS bandwidth (its burst for the
 * first 30 minutes, then its baseline) and the network baseline. The label names each phase's binding limit.
 */
function transferWithBursts(l: BurstingLimits): Limit {
  let seconds = 0;
  let moved = 0;
  let credit = l.st1.bucketBytes; // per volume
  const phases: { label: string; bytes: number }[] = [];
  for (let step = 0; step < 8 && moved < ESTIMATE_TRANSFER_BYTES; step++) {
    const ebsBursting = seconds < EBS_BURST_SECONDS;
    const now = binding([credit > 0 ? l.st1Burst : l.st1Baseline, ebsBursting ? l.ebsBurst : l.ebs, l.network]);
    const rate = now.mbps * MB_BYTES;
    const drain = Math.max(0, rate / l.count - l.st1.baselineMBps * MB_BYTES);
    const until = Math.min(
      drain > 0 && credit > 0 ? credit / drain : Infinity,
      ebsBursting ? EBS_BURST_SECONDS - seconds : Infinity,
      (ESTIMATE_TRANSFER_BYTES - moved) / rate,
    );
    moved += rate * until;
    credit = Math.max(0, credit - drain * until);
    seconds += until;
    const last = phases[phases.length - 1];
    if (last?.label === now.label) last.bytes += rate * until;
    else phases.push({ label: now.label, bytes: rate * until });
  }
  return {
    mbps: ESTIMATE_TRANSFER_BYTES / seconds / MB_BYTES,
    label: phases.length === 1
      ? phases[0].label
      : phases.map((p, i) => (i < phases.length - 1 ? `${p.label} for ${Math.round(p.bytes / 1e9)} GB` : `then ${p.label}`)).join(', '),
  };
}

/** A throughput limit in MB/s and the words that name it. */
interface Limit {
  readonly mbps: number;
  readonly label: string;
}

/** One st1 volume's published limits, in MB/s and bytes. */
interface St1Volume {
  readonly burstMBps: number;
  readonly baselineMBps: number;
  readonly bucketBytes: number;
}

/** A capacity for FSx for Lustre (no single-server limit): a finite number greater than 0. */
function validatePositive(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`capacityTiB must be a number greater than 0; got ${describe(value)}`);
  }
  return value;
}

function validateCapacity(value: unknown, backend: Backend | 'auto', families: Families): number {
  const limit = capacityLimit(backend, families);
  const allowed = `a number greater than 0 and at most ${formatTiB(limit.maxTiB)} for backend '${backend}' (${limit.why})`;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`capacityTiB must be ${allowed}; got ${describe(value)}`);
  }
  if (value > limit.maxTiB) {
    throw new Error(`capacityTiB must be ${allowed}; got ${value}. ${limit.beyond}`);
  }
  return value;
}

/** The most a backend can hold (instance store: the generation's largest), why, and where to go beyond it. */
function capacityLimit(backend: Backend | 'auto', families: Families): { maxTiB: number; why: string; beyond: string } {
  // Graviton has no instance store: `auto` on arm64 holds what EBS holds (planStorage refuses instance-store there).
  if (backend === 'ebs' || families.instanceStore.length === 0) {
    return {
      maxTiB: MAX_EBS_CAPACITY_TIB,
      why: `striped st1 volumes of at most ${MAX_SINGLE_VOLUME_TIB} TiB each`,
      beyond: `Beyond that ${BEYOND_ONE_SERVER}.`,
    };
  }
  const largest = largestInstanceStore(families);
  return {
    maxTiB: instanceStoreTiB(largest),
    why: `the largest instance store, ${largest.name}, holds ${formatTiB(instanceStoreTiB(largest))} TiB`,
    // 'auto' never reaches here above its limit: planStorage weighs every backend beyond it.
    beyond: `Beyond that ${BEYOND_ONE_SERVER}.`,
  };
}

/**
 * The cheapest instance-store type of the generation that holds the capacity (d2: the smallest that does; d3 or d3en:
 * d3.xlarge up to its 5.4 TiB, then the d3en that holds it, d3en being the cheaper per TiB at every size).
 */
function planInstanceStore(capacityTiB: number, families: Families): Omit<StoragePlan, 'reason'> {
  // validateCapacity guarantees the largest type fits.
  const holding = families.instanceStore.filter((t) => instanceStoreTiB(t) >= capacityTiB);
  const cheapest = holding.reduce<InstanceTypeSpec | undefined>(
    (best, t) => (best === undefined || t.onDemandUsdPerHour < best.onDemandUsdPerHour ? t : best), undefined);
  return instanceStorePlan(cheapest ?? largestInstanceStore(families));
}

/** The instance-store type of the generation with the most raw capacity. */
function largestInstanceStore(families: Families): InstanceTypeSpec {
  return families.instanceStore.reduce((a, b) => (instanceStoreTiB(b) > instanceStoreTiB(a) ? b : a));
}

/** The note a plan on disks of unpublished throughput carries in its reason ('' for any other plan). */
function lowerBound(plan: Omit<StoragePlan, 'reason'>): string {
  if (plan.backend !== 'instance-store' || instanceTypeSpec(plan.instanceType).instanceStore?.throughputBound !== 'lower') return '';
  return `; its throughput is a ${LOWER_BOUND} (npm run bench:cluster measures the real figure)`;
}

function instanceStorePlan(spec: InstanceTypeSpec): Omit<StoragePlan, 'reason'> {
  return {
    backend: 'instance-store',
    instanceType: spec.name,
    dataVolumes: [],
    instanceStoreDisks: spec.instanceStore?.disks ?? 0,
    rawCapacityTiB: instanceStoreTiB(spec),
    throughput: estimateThroughput(spec.name),
    monthlyCostUsd: monthlyCost(spec, []),
  };
}

function planEbs(capacityTiB: number, families: Families, fixedCount?: number): Omit<StoragePlan, 'reason'> {
  // Multiplying by a power of two is exact in floating point, so the ceiling never rounds a request down.
  const requiredGiB = Math.max(ST1.minSizeGiB, Math.ceil(capacityTiB * 1024));
  const count = fixedCount ?? Math.ceil(requiredGiB / ST1.maxSizeGiB);
  // Equal sizes: an LVM stripe uses the same extent count on every volume, so extra size would be wasted.
  const sizeGiB = Math.max(ST1.minSizeGiB, Math.ceil(requiredGiB / count));
  const spec = families.generation === 'current'
    ? sustainingNitro(families.ebs, count * st1Volume(sizeGiB).baselineMBps)
    : count === 1 ? singleVolumeTier(capacityTiB) : matchingEbsBandwidth(count * st1Volume(sizeGiB).burstMBps);
  return ebsPlan(spec, st1Volumes(count, sizeGiB));
}

/** `count` st1 volumes of `sizeGiB` each. */
function st1Volumes(count: number, sizeGiB: number): DataVolumePlan[] {
  return Array.from({ length: count }, () => ({ volumeType: 'st1', sizeGiB }));
}

/** The striped `dataVolumes` on the EBS type `spec`: their estimate and cost. */
function ebsPlan(spec: InstanceTypeSpec, dataVolumes: DataVolumePlan[]): Omit<StoragePlan, 'reason'> {
  return {
    backend: 'ebs',
    instanceType: spec.name,
    dataVolumes,
    instanceStoreDisks: 0,
    rawCapacityTiB: dataVolumes.reduce((sum, v) => sum + v.sizeGiB, 0) / 1024,
    throughput: estimateThroughput(spec.name, dataVolumes),
    monthlyCostUsd: monthlyCost(spec, dataVolumes),
  };
}

/** The original template's tier for one volume (`auto` keeps them: docs/design.md, section 3). */
function singleVolumeTier(capacityTiB: number): InstanceTypeSpec {
  const tier = EBS_SINGLE_VOLUME_TIERS.find((t) => capacityTiB <= t.maxCapacityTiB);
  if (!tier) throw new Error(`capacityTiB ${capacityTiB} is over the largest single-volume tier`);
  return instanceTypeSpec(tier.instanceType);
}

/**
 * Generation current: the cheapest type whose EBS baseline and network baseline carry the volumes' st1 baseline,
 * so that what the disks sustain reaches the clients (their burst rides on the type's EBS burst while it lasts).
 */
function sustainingNitro(types: readonly InstanceTypeSpec[], volumesBaselineMBps: number): InstanceTypeSpec {
  const carried = (t: InstanceTypeSpec) => Math.min((t.ebsBandwidthMbps ?? 0) / 8, (t.networkBaselineGbps * 1e9) / 8 / MB_BYTES);
  const carrying = types.filter((t) => carried(t) >= volumesBaselineMBps);
  // The cheapest that carries it (m6i before m7i at the same limits); when none does, the one that carries most.
  const pool = carrying.length > 0 ? carrying : types.filter((t) => carried(t) === Math.max(...types.map(carried)));
  return pool.reduce((best, t) => (t.onDemandUsdPerHour < best.onDemandUsdPerHour ? t : best));
}

/** The smallest m4 whose EBS bandwidth carries the volumes' burst throughput, else the largest m4. */
function matchingEbsBandwidth(volumesMBps: number): InstanceTypeSpec {
  return (
    EBS_INSTANCE_TYPES.find((t) => (t.ebsBandwidthMbps ?? 0) / 8 >= volumesMBps) ??
    EBS_INSTANCE_TYPES[EBS_INSTANCE_TYPES.length - 1]
  );
}

/** A gp3 volume in the terms of the st1 model: burst = baseline = its provisioned throughput, no credit. */
function gp3Limits(volume: DataVolumePlan): St1Volume {
  const mbps = (volume.throughputMiBps ?? GP3.minMiBps) * MB_PER_MIB;
  return { burstMBps: mbps, baselineMBps: mbps, bucketBytes: 0 };
}

function st1Volume(sizeGiB: number): St1Volume {
  const tib = sizeGiB / 1024;
  const mibps = (perTiB: number) => (Math.min(perTiB * tib, ST1.maxMiBpsPerVolume) * 1024 ** 2) / MB_BYTES;
  return {
    burstMBps: mibps(ST1.burstMiBpsPerTiB),
    baselineMBps: mibps(ST1.baselineMiBpsPerTiB),
    bucketBytes: ST1.bucketTiBPerTiB * tib * TIB_BYTES,
  };
}

/**
 * Average throughput over the whole transfer when the stripe runs at `steady`. Each volume carries an
 * equal share; above its baseline it drains credits at (rate - baseline), and once the bucket is empty
 * it falls back to its baseline for the rest of its share.
 */
function afterBurstCredits(steady: Limit, st1: St1Volume, count: number): Limit {
  const perVolumeMBps = steady.mbps / count;
  const shareBytes = ESTIMATE_TRANSFER_BYTES / count;
  if (perVolumeMBps <= st1.baselineMBps) return steady;
  const burstSeconds = st1.bucketBytes / ((perVolumeMBps - st1.baselineMBps) * MB_BYTES);
  const burstBytes = perVolumeMBps * MB_BYTES * burstSeconds;
  if (burstBytes >= shareBytes) return steady;
  const seconds = burstSeconds + (shareBytes - burstBytes) / (st1.baselineMBps * MB_BYTES);
  return {
    mbps: ESTIMATE_TRANSFER_BYTES / seconds / MB_BYTES,
    label:
      `st1 burst credits of ${count} x ${st1.bucketBytes / GIB_BYTES} GiB (empty after ` +
      `${Math.round((count * burstBytes) / 1e9)} GB, then st1 baseline ${round2(count * st1.baselineMBps)} MB/s)`,
  };
}

/** The smallest limit; every limit that ties with it is named. */
function binding(limits: Limit[]): Limit {
  const mbps = Math.min(...limits.map((l) => l.mbps));
  const tied = limits.filter((l) => l.mbps - mbps <= 1e-9 * mbps);
  return { mbps, label: tied.map((l) => l.label).join(' and ') };
}

/** A read and a write limit. */
interface ReadWrite {
  readonly read: Limit;
  readonly write: Limit;
}

function combine(read: Limit, write: Limit, baseline: ReadWrite, burst: ReadWrite): ThroughputEstimate {
  return {
    readMBps: round2(read.mbps),
    writeMBps: round2(write.mbps),
    baselineReadMBps: round2(baseline.read.mbps),
    baselineWriteMBps: round2(baseline.write.mbps),
    burstReadMBps: round2(burst.read.mbps),
    burstWriteMBps: round2(burst.write.mbps),
    limitedBy: read.label === write.label ? read.label : `read: ${read.label}; write: ${write.label}`,
  };
}

/** Checks the volumes given for an EBS-backed type and returns the first (they are striped: all alike). */
function validateVolumes(spec: InstanceTypeSpec, dataVolumes: DataVolumePlan[]): DataVolumePlan {
  if (dataVolumes.length === 0) {
    throw new Error(
      `dataVolumes must hold at least one st1 or gp3 volume for ${spec.name}, which has no local disks; got none`,
    );
  }
  for (const [i, v] of dataVolumes.entries()) {
    if (v.volumeType !== 'st1' && v.volumeType !== 'gp3') {
      throw new Error(`dataVolumes[${i}].volumeType must be 'st1' or 'gp3'; got ${describe(v.volumeType)}`);
    }
    if (v.volumeType === 'gp3') {
      const error = gp3VolumeError(v, `dataVolumes[${i}]`);
      if (error) throw new Error(error);
      continue;
    }
    if (v.throughputMiBps !== undefined || v.iops !== undefined) {
      throw new Error(`dataVolumes[${i}]: throughputMiBps and iops apply to gp3 only; got an st1 volume with them`);
    }
    if (!Number.isInteger(v.sizeGiB) || v.sizeGiB < ST1.minSizeGiB || v.sizeGiB > ST1.maxSizeGiB) {
      throw new Error(
        `dataVolumes[${i}].sizeGiB must be a whole number from ${ST1.minSizeGiB} to ${ST1.maxSizeGiB}; got ${describe(v.sizeGiB)}`,
      );
    }
  }
  const sizes = new Set(dataVolumes.map((v) => v.sizeGiB));
  if (sizes.size > 1) {
    throw new Error(
      `dataVolumes must all have the same sizeGiB, since they are striped together; got ${[...sizes].join(', ')}`,
    );
  }
  const kinds = new Set(dataVolumes.map((v) => `${v.volumeType} ${v.throughputMiBps ?? '-'} MiB/s ${v.iops ?? '-'} IOPS`));
  if (kinds.size > 1) {
    throw new Error(
      `dataVolumes must all have the same volumeType, throughputMiBps and iops, since they are striped together; got ${[...kinds].join(', ')}`,
    );
  }
  return dataVolumes[0];
}

/**
 * On demand for 730 h plus each volume: st1 sizeGiB x $0.045; gp3 sizeGiB x $0.08 + (IOPS - 3,000) x $0.005 +
 * (MiB/s - 125) x $0.04 (catalog-gp3.ts); rounded to the cent once, at the end.
 */
function monthlyCost(spec: InstanceTypeSpec, dataVolumes: DataVolumePlan[]): number {
  const volumesUsd = dataVolumes.reduce((sum, v) => sum + (v.volumeType === 'gp3' ? gp3MonthlyUsd(v) : v.sizeGiB * ST1.usdPerGiBMonth), 0);
  return round2(spec.onDemandUsdPerHour * HOURS_PER_MONTH + volumesUsd);
}

/** Rounds down, so a maximum shown in a message is never above the real one. */
function formatTiB(value: number): string {
  return String(Math.floor(value * 100) / 100);
}
