/**
 * What the shared planner asks of each backend (docs/design.md, section 3): its candidates in the cheapest-plan
 * search, its own plan when asked for by name, its IOPS, why it holds more than asked, its lines in `npm run plan`'s
 * tables and its command-line options; what the app's context parser asks of it, whose keys make the request; and its
 * words in the app stack's outputs. Types only and no CDK imports, so that `npm run plan` never loads the CDK;
 * lib/sizing/registry.ts holds one per backend.
 */
import type { BackendPlugin } from '../backends/plugin';
import type { BackendContext, NoContextKeys } from '../context/backend-context';
import type { ClientProtocol } from './client-ceiling';
import type { Families } from './families';
import type { PlanIops } from './io-size';
import type { StoragePlan, StorageRequest } from './plan-types';

/** What the cheapest-plan search weighs every backend's candidates for. */
export interface CandidateQuery {
  /** The capacity to hold, TiB. */
  readonly capacityTiB: number;
  /** The throughput to sustain, MB/s; 0 when none is asked. */
  readonly targetMBps: number;
  /** The instance types of the generation and architecture asked for. */
  readonly families: Families;
  /** The random request size, KiB. */
  readonly ioSizeKiB: number;
}

/** A request for a backend asked for by name, its fields checked. */
export interface AskedQuery {
  /** The request as given, the backend's options unresolved. */
  readonly request: StorageRequest;
  /** The capacity, TiB: a finite number greater than 0. */
  readonly capacityTiB: number;
  /** The throughput asked, MB/s. */
  readonly throughputMBps: number | undefined;
  /** The random request size, KiB. */
  readonly ioSizeKiB: number;
  /** The cheapest of this backend's candidates that sustains the throughput asked, `why` in its reason. */
  readonly cheapest: (why: string) => StoragePlan;
}

/** A plan that holds more than asked, and what the excess warning may ask of the planner. */
export interface ExcessQuery {
  readonly request: StorageRequest;
  readonly plan: StoragePlan;
  /** The instance type deployed: an override's, or the plan's. */
  readonly instanceType: string;
  /** The server's plan for another request, as the planner makes it. */
  readonly replan: (request: StorageRequest) => StoragePlan;
}

/** A backend's options object in the request, such as `fsxLustre`: the backend asked for by name reads it. */
export interface BackendOptions {
  /** The request's field. */
  readonly field: keyof StorageRequest;
  /**
   * Checks the options at their place in the request's check, so that its messages keep their order; throws naming
   * the field.
   */
  readonly check?: (request: StorageRequest) => void;
  /** Refused with any other backend; for `auto`, what it does instead, in words. Undefined: ignored elsewhere. */
  readonly refusedElsewhere?: string;
}

/** A backend's lines in the tables of `npm run plan`, which plan-table.ts prints. */
export interface PlanTableText {
  /** The label of the plan's `instanceType` row: `instance`, or `deployment` for a file system. */
  readonly instanceLabel: string;
  /** The label of the storage row: `volumes`, `disks`, `storage`. */
  readonly storageLabel: string;
  /** The plan's storage in words. */
  readonly storage: (plan: StoragePlan) => string;
  /** The plan in the comparison's last column. */
  readonly summary: (plan: StoragePlan) => string;
  /** What the plan's monthly cost counts. */
  readonly costNote: string;
  /** Where its price comes from; `plan` is the row's, undefined when the backend cannot serve the request. */
  readonly priceSource: (plan: StoragePlan | undefined) => string;
}

/** A backend's words in the app stack's description and outputs, which lib/stack-outputs.ts writes. */
export interface StackOutputText {
  /** What it deploys: `NFS server`, or a file system such as `FSx for Lustre file system`. */
  readonly what: string;
  /**
   * The plan in PlanSummary, between the backend's name and the throughput: `on <instance type>, <its storage>, <raw>
   * TiB raw`, or the file system's options and size.
   */
  readonly layout: (plan: StoragePlan) => string;
  /** What PlanSummary's monthly cost counts, after `~$<cost>/month`: `on demand`, `(backups extra)`. */
  readonly costNote: string;
  /** The MountCommand output's description: what a client mounts by hand, and what it needs first. */
  readonly mountCommand: string;
}

/** One option of `npm run plan` a backend adds: a value among `values`, which only that backend and `auto` take. */
export interface BackendCliOption {
  /** The option, e.g. `--openzfs-deployment-type`. */
  readonly name: string;
  /** The values as `--help` shows them. */
  readonly value: string;
  readonly help: string;
  readonly values: readonly string[];
  /** The request field the planner's messages name for it, e.g. `fsxOpenZfs.deploymentType`. */
  readonly field: string;
  /** The part of the request the value sets. */
  readonly request: (value: string) => Partial<StorageRequest>;
}

/**
 * One backend as the planner and the app's context parser know it. `S` is its slice of the app's typed context: the
 * members of its own keys.
 */
export interface BackendSizing<S extends object = NoContextKeys> {
  /**
   * The managed file system in words, such as `FSx for Lustre`, for a backend that has no instance.
   * @default - none: an EC2 server, whose instance type the plan chooses
   */
  readonly fileSystem?: string;
  /** The plans the cheapest-plan search weighs; none where the backend has nothing to offer for the query. */
  readonly candidates: (query: CandidateQuery) => StoragePlan[];
  /**
   * The backend's plan when it is asked for by name.
   * @default - the capacity rule's plan for the backend
   */
  readonly planAsked?: (query: AskedQuery) => StoragePlan;
  /**
   * The `why` of its cheapest candidate when that, rather than the plan asked, is its best for a request in the
   * comparison's row; else undefined.
   * @default - its best is the plan asked
   */
  readonly bestAsCheapest?: (request: StorageRequest) => string | undefined;
  /** @default - none */
  readonly options?: BackendOptions;
  /** The published IOPS limits of a plan of this backend, in the shape io-size.ts gives them. */
  readonly iops: (plan: StoragePlan) => PlanIops;
  /**
   * The storage in the words of a refusal, such as `FSx for Lustre`, when AWS publishes no IOPS for it.
   * @default - its IOPS are published
   */
  readonly iopsUnpublished?: string;
  /** How a client mounts it: NFS, where nconnect and a placement group apply, or the Lustre client. */
  readonly clientProtocol: ClientProtocol;
  /** How the client mount script mounts it, in its SSM document's description: `NFS`, `FSx for OpenZFS by its DNS name`. */
  readonly mountedAs: string;
  /**
   * Its construct's plugin, loaded when called, so that the planner and the context parser, which never call it, load
   * no CDK. lib/backends/registry.ts calls each one for the facade.
   */
  readonly plugin: () => BackendPlugin;
  /** Whether it goes beyond one server, where the search points when no single server sustains the throughput. */
  readonly scalesOut: boolean;
  /** Why a plan of this backend holds more than asked: the rule of the backend that made it so. */
  readonly excessReason: (query: ExcessQuery) => string;
  readonly table: PlanTableText;
  /** Its words in the app stack's description and outputs. */
  readonly outputs: StackOutputText;
  /** @default - none */
  readonly cliOptions?: readonly BackendCliOption[];
  /**
   * Its context keys and refusals, as lib/context/backend-context.ts defines them.
   * @default - no keys of its own, and every other kind's exclusive keys refused
   */
  readonly context?: BackendContext<S>;
}
