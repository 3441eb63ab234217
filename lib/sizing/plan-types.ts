/**
 * The planner's vocabulary: what a user asks for, `StorageRequest`, and the plan it gets back, `StoragePlan`, with its
 * data volumes, its FSx for Lustre file system and its throughput estimate. Types only. They sit below every file of
 * the planner that builds or reads a plan, and below the construct that wires resources from one.
 */
import type { Backend } from '../backend-enum';
import type { Arch, DataVolumeType, Generation } from './enums';
import type { CachedReadEstimate } from './cached-read';
import type { ClientRequest, PerClientPlan } from './client-ceiling';
// The FSx backends' options and file systems, which the request and the plan carry as members of their own.
import type { FsxLustreOptions, ResolvedFsxLustreOptions } from '../backends/fsx/sizing/lustre';
import type { FsxOpenZfsOptions, FsxOpenZfsPlan } from '../backends/openzfs/sizing/options';

export type { Arch, Backend, DataVolumeType, Generation };

/** A {@link Generation}'s value, the type the planner decides with. */
export type GenerationName = `${Generation}`;

/** An {@link Arch}'s value, the type the planner decides with. */
export type ArchName = `${Arch}`;

/** What the user asks for. */
export interface StorageRequest {
  /** Usable capacity wanted, in TiB, that is 2^40 bytes. */
  readonly capacityTiB: number;
  /**
   * The backend, or none for the planner's choice, `auto`. With no throughput asked, `auto` plans EBS up to 16 TiB and
   * d2 instance store up to 43.6 TiB, or with generation current EBS up to 16 TiB. Beyond that, or when the throughput
   * asked is more than that plan sustains, it plans the cheapest plan of any backend that holds the capacity and
   * sustains the throughput. That includes d3 and d3en with generation current and FSx for Lustre's persistent types,
   * never SCRATCH_2. The string `'auto'` is taken too, from JavaScript.
   * @default - auto: the planner chooses
   */
  readonly backend?: Backend;
  /**
   * The instance generation. `previous` plans on d2 and m4, the original template's families. `current` plans on Nitro
   * types: for EBS m6i with st1, from catalog-nitro.ts, with m7i beside it and the network-optimized families of
   * catalog-netopt.ts when a throughput is asked; for instance store d3 and d3en, from catalog-d3.ts, up to
   * d3en.12xlarge's 305 TiB. AWS publishes no disk throughput for d3 or d3en, so their estimate is a lower bound: each
   * disk at d2's published figure, under the network baseline. `limitedBy` and `reason` say so.
   * @default - Generation.PREVIOUS, or Generation.CURRENT with `arch: Arch.ARM64`
   */
  readonly generation?: Generation;
  /**
   * The processor architecture of the instance types the planner may choose. `arm64` plans on AWS Graviton: m7g and m6g
   * by the capacity rule, and c8gb, m8gb and r8gb beside them when a throughput is asked. It is current generation only
   * and has no instance-store HDD type. The server's image follows the chosen type's architecture.
   * @default Arch.X86_64
   */
  readonly arch?: Arch;
  /**
   * FSx for Lustre options, with backend `fsx-lustre` only; `auto` chooses among the persistent options itself.
   * @default - PERSISTENT_2 SSD at 125 MB/s per TiB; with `throughputMBps`, the cheapest persistent option, SSD or HDD,
   * that sustains it
   */
  readonly fsxLustre?: FsxLustreOptions;
  /**
   * FSx for OpenZFS options, with backend `fsx-openzfs` only.
   * @default - SINGLE_AZ_1 at the smallest throughput capacity that sustains `throughputMBps`
   */
  readonly fsxOpenZfs?: FsxOpenZfsOptions;
  /**
   * Keep exactly this many EBS data volumes: this is how an existing EBS server grows, each volume enlarged in place. A
   * volume added to an existing stripe, or one taken away, would lose or strand data. It implies the EBS backend, with
   * `backend` 'ebs' or 'auto'. Each volume is sized to `capacityTiB / dataVolumeCount`, at most 16 TiB.
   * @default - as many volumes as the capacity needs, one up to 16 TiB
   */
  readonly dataVolumeCount?: number;
  /**
   * The sustained aggregate throughput the cluster needs, MB/s, that is 10^6 bytes per second, read and write alike.
   * When the plan of `auto`, or of the backend asked for, cannot sustain it once every burst credit is spent, the
   * planner picks the cheapest plan of the allowed backends that does, and says so in `reason`. On EBS that search also
   * weighs gp3 stripes of 1-3 volumes, each provisioned with its share of the throughput. Without it, EBS plans are
   * st1.
   * @default - none: the plan follows capacity alone
   */
  readonly throughputMBps?: number;
  /**
   * One client of the storage: its instance type or network, and how it mounts. It shapes `perClient` only, never the
   * server's plan: see lib/sizing/client-ceiling.ts.
   * @default - a client of unknown type mounting with nconnect 16, outside a cluster placement group
   */
  readonly client?: ClientRequest;
  /**
   * The size of the workload's random requests, KiB, 4-1,024. Each figure is then also bounded by the IOPS of the
   * volumes, the instance or the file system times this size, as lib/sizing/io-size.ts computes. The reason names the
   * limit that binds, and gp3 volumes are provisioned with the IOPS the throughput asked needs at this size. Sequential
   * requests of any size are merged toward 1 MiB, on EBS up to its largest I/O, by AWS's words quoted in io-size.ts:
   * leave it out for them.
   * @default 1024 - 1 MiB, the size the figures describe
   */
  readonly ioSizeKiB?: number;
}

/** The FSx for Lustre file system of a plan. */
export interface FsxLustrePlan extends ResolvedFsxLustreOptions {
  /** Storage capacity, GiB: a valid step of the deployment and storage type. */
  readonly storageCapacityGiB: number;
}

/** One EBS data volume of the plan. */
export interface DataVolumePlan {
  /** EBS volume type: Throughput Optimized HDD, `st1`, or General Purpose SSD, `gp3`. */
  readonly volumeType: DataVolumeType;
  /** Size, GiB: a whole number, st1 125 to 16384, gp3 1 to 65536. */
  readonly sizeGiB: number;
  /**
   * gp3 only: provisioned throughput, MiB/s, 125-2,000; 125 is included in the price.
   * @default - none for st1; gp3's included 125 MiB/s
   */
  readonly throughputMiBps?: number;
  /**
   * gp3 only: provisioned IOPS, 3,000-80,000; 3,000 are included in the price.
   * @default - none for st1; gp3's included 3,000 IOPS
   */
  readonly iops?: number;
}

/** Aggregate sequential throughput, MB/s = 10^6 bytes per second. */
export interface ThroughputEstimate {
  /**
   * Sequential read the clients can expect together over the 1 TB workload, `ESTIMATE_TRANSFER_BYTES`, with full
   * credits at the start, MB/s.
   */
  readonly readMBps: number;
  /** Sequential write the clients can expect together over the same workload, MB/s. */
  readonly writeMBps: number;
  /** Sustained read once every burst credit is spent, MB/s; on st1, each volume's baseline. */
  readonly baselineReadMBps: number;
  /** Sustained write once every burst credit is spent, MB/s. */
  readonly baselineWriteMBps: number;
  /**
   * Read while every burst bucket holds credit, MB/s: on st1 each volume's burst, and the baseline where nothing
   * bursts, as on d2.
   */
  readonly burstReadMBps: number;
  /** Write while every burst bucket holds credit, MB/s. */
  readonly burstWriteMBps: number;
  /** The published limit that binds the 1 TB workload, in words. */
  readonly limitedBy: string;
  /**
   * FSx: reads of a working set that fits the file servers' memory, beside the disk-bound figures above.
   * @default - none: the backend publishes no server memory figure, as for EC2 NFS servers, or it reads no faster
   */
  readonly cachedRead?: CachedReadEstimate;
  /**
   * The random request size the figures are bounded for, `StorageRequest.ioSizeKiB`, KiB.
   * @default - 1 MiB requests, or sequential ones of any size: no IOPS term
   */
  readonly ioSizeKiB?: number;
  /**
   * True when AWS publishes no IOPS figure for the storage, as for instance-store HDDs and FSx for Lustre. The figures
   * are then the 1 MiB ones, an upper bound for the random requests of `ioSizeKiB`. The search counts no such plan as
   * sustaining a throughput at that size.
   * @default false
   */
  readonly upperBoundAtIoSize?: boolean;
}

/** The planner's answer. */
export interface StoragePlan {
  /** The backend chosen, never `auto`. */
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
  /** Raw capacity of the data disks, or of the FSx file system, TiB; never less than the request. */
  readonly rawCapacityTiB: number;
  /**
   * FSx for Lustre only: the file system's options and capacity.
   * @default - none: the plan is an EC2 NFS server
   */
  readonly fsxLustre?: FsxLustrePlan;
  /**
   * FSx for OpenZFS only: the file system's deployment type, throughput capacity and storage.
   * @default - none
   */
  readonly fsxOpenZfs?: FsxOpenZfsPlan;
  /** Aggregate sequential throughput clients can expect, from published limits only: see `estimateThroughput`. */
  readonly throughput: ThroughputEstimate;
  /**
   * On-demand instance and volumes, 730 h, us-east-1 list price, USD; for FSx for Lustre, its storage per GB-month.
   * Backups, billed per GB-month stored, are not included.
   */
  readonly monthlyCostUsd: number;
  /** Why this plan, in words: the capacity rule, or the cheapest plan sustaining the throughput asked for. */
  readonly reason: string;
  /**
   * What one client can reach beside the aggregate above, and how many clients the sustained figure takes. It is a
   * bound from EC2's per-flow limit and the client's network, by lib/sizing/client-ceiling.ts. Every plan that
   * `planStorage`, `bestPlanOf` and `withInstanceType` return has it.
   * @default - none: a plan built without the planner
   */
  readonly perClient?: PerClientPlan;
}
