/**
 * What one client can reach: "a server can deliver more than one client can take". The server's estimate in
 * throughput.ts is an aggregate over 8 or more clients. One client is bounded by its connections to the server and by
 * its own network. Pure functions, no CDK imports (docs/design.md, section 3). The figures are the shared, cited
 * constants of nfs-client.ts and the catalogue's network baselines:
 *
 * - NFS, on the EBS and instance-store backends: the lesser of nconnect x EC2's single-flow limit and the client's
 *   network baseline when its type is known. The flow limit is 5 Gbps, or 10 Gbps inside one cluster placement group
 *   [EC2-BW]. Each nconnect connection is its own TCP 5-tuple, which is what AWS calls a flow. The product is a bound
 *   derived from AWS's per-flow statement, docs/sources/nconnect.md, F17, not a figure AWS publishes for NFS.
 * - FSx for Lustre: nconnect does not apply, since the Lustre client keeps its own connections to each of the file
 *   system's servers, and how many is not published. So the only bound counted is the client's network baseline.
 *   Without the client's type there is none, and the ceiling says so rather than inventing one.
 *
 * A client type the catalogue does not know is refused, naming it. Its network baseline can be given as a number,
 * `networkGbps`, instead, so any type can be weighed without this project carrying figures it has not cited.
 */
import { MB_BYTES } from './catalog';
import { cataloguedTypeList, instanceTypeSpec, knownInstanceType } from './catalog-lookup';
import { describe } from './describe';
import { capacitySteps } from '../backends/fsx/sizing/lustre';
import { floor2 } from './round';
import { sustainedOf } from './limit';
import { DEFAULT_NCONNECT, NFS_MAX_NCONNECT, SINGLE_FLOW_GBPS, SINGLE_FLOW_PLACEMENT_GROUP_GBPS } from './nfs-client';

/** One client of the storage, a cluster node: its network and how it mounts. */
export interface ClientRequest {
  /**
   * The client's EC2 instance type, one the catalogue knows; its network baseline bounds the client. For another type
   * give `networkGbps`.
   * @default - not given: the client's own network is not counted
   */
  readonly instanceType?: string;
  /**
   * The client's network baseline, Gbps = 10^9 bit/s, for a type the catalogue does not know. It is the "baseline"
   * column of AWS's instance type pages, not the "up to" figure. Not with `instanceType`.
   * @default - not given: the client's own network is not counted
   */
  readonly networkGbps?: number;
  /**
   * NFS connections per mount, `nconnect`, 1 to 16, the Linux client's limit. NFS backends only: for FSx for Lustre it
   * is ignored, and the result says so.
   * @default 16: what the client mount script mounts with, `DEFAULT_NCONNECT`
   */
  readonly nconnect?: number;
  /**
   * Whether the client and the NFS server share one cluster placement group, where one flow reaches up to 10 Gbps
   * instead of 5 Gbps. NFS backends only.
   * @default false
   */
  readonly placementGroup?: boolean;
}

/** What one client can reach, MB/s, that is 10^6 bytes per second, each of read and write. */
export interface ClientCeiling {
  /**
   * The most one client can move: the lesser of `connectionsMBps` and `networkMBps`.
   * @default - none: nothing known bounds it, as on FSx for Lustre without the client's network
   */
  readonly maxMBps?: number;
  /** The bound that binds, in words, both when they tie; or why there is none. */
  readonly limitedBy: string;
  /**
   * NFS: `nconnect` x the single-flow limit, MB/s; a bound derived from AWS's per-flow statement, not an AWS figure.
   * @default - none: FSx for Lustre, where nconnect does not apply
   */
  readonly connectionsMBps?: number;
  /**
   * The client's network baseline, MB/s.
   * @default - none: the client's type or network was not given
   */
  readonly networkMBps?: number;
  /**
   * NFS: the connections counted.
   * @default - none: FSx for Lustre
   */
  readonly nconnect?: number;
  /**
   * NFS: EC2's single-flow limit counted, Gbps: 5, or 10 inside a cluster placement group.
   * @default - none: FSx for Lustre
   */
  readonly perFlowGbps?: number;
  /** Where each figure comes from. */
  readonly sources: string[];
}

/** The file system protocol the client speaks: the EC2 NFS server's, or FSx for Lustre's. */
export type ClientProtocol = 'nfs' | 'lustre';

const SOURCE_FLOW = '[EC2-BW] Amazon EC2 User Guide, "Amazon EC2 instance network bandwidth": single-flow traffic ' +
  `${SINGLE_FLOW_GBPS} Gbps outside a cluster placement group, up to ${SINGLE_FLOW_PLACEMENT_GROUP_GBPS} Gbps inside one; ` +
  'a flow is one TCP 5-tuple (docs/sources/nconnect.md, F7, F8)';
const SOURCE_NCONNECT = `[NFSMAN] nfs(5): nconnect, up to ${NFS_MAX_NCONNECT} TCP connections per mount, each its own flow ` +
  '(docs/sources/nconnect.md, F1)';
const SOURCE_BOUND = 'derived: one mount moves at most nconnect x the single-flow limit, capped by the client\'s network ' +
  '(docs/sources/nconnect.md, F17): a bound, not an AWS figure for NFS';

/** Gbps, 10^9 bit/s, in MB/s, 10^6 bytes/s: 1 Gbps = 125 MB/s. */
export function gbpsToMBps(gbps: number): number {
  return (gbps * 1e9) / 8 / MB_BYTES;
}

/**
 * Checks a request's `client` and returns it. Throws an Error naming the field, such as `client.nconnect`, echoing the
 * value and saying what is allowed.
 */
export function validateClient(client: unknown): ClientRequest {
  if (typeof client !== 'object' || client === null || Array.isArray(client)) {
    throw new Error(`client must be an object { instanceType?, networkGbps?, nconnect?, placementGroup? }; got ${describe(client)}`);
  }
  const c = client as Record<string, unknown>;
  const known = ['instanceType', 'networkGbps', 'nconnect', 'placementGroup'];
  const unknown = Object.keys(c).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new Error(`client has no field ${unknown.join(', ')}; its fields are ${known.join(', ')}`);
  const { instanceType, networkGbps, nconnect, placementGroup } = c;
  if (instanceType !== undefined && (typeof instanceType !== 'string' || !knownInstanceType(instanceType))) {
    // The catalogue's own list of its types, as instanceTypeSpec gives it, with this field's name.
    const allowed = typeof instanceType === 'string' ? `one of ${cataloguedTypeList()}` : 'a type the catalogue knows';
    throw new Error(`client.instanceType must be ${allowed}; got ${describe(instanceType)}. For another type give its ` +
      'network baseline as client.networkGbps');
  }
  if (networkGbps !== undefined && (typeof networkGbps !== 'number' || !Number.isFinite(networkGbps) || networkGbps <= 0)) {
    throw new Error(`client.networkGbps must be a number of Gbps greater than 0 (the client type's network baseline); got ${describe(networkGbps)}`);
  }
  if (instanceType !== undefined && networkGbps !== undefined) {
    throw new Error(`client.instanceType and client.networkGbps both give the client's network: give one; got ${describe(instanceType)} and ${describe(networkGbps)}`);
  }
  if (nconnect !== undefined && (typeof nconnect !== 'number' || !Number.isInteger(nconnect) || nconnect < 1 || nconnect > NFS_MAX_NCONNECT)) {
    throw new Error(`client.nconnect must be a whole number from 1 to ${NFS_MAX_NCONNECT} (the Linux NFS client's limit); got ${describe(nconnect)}`);
  }
  if (placementGroup !== undefined && typeof placementGroup !== 'boolean') {
    throw new Error(`client.placementGroup must be true or false; got ${describe(placementGroup)}`);
  }
  return client as ClientRequest;
}

/**
 * What one client can reach, as the module's comment says. For `nfs` it is the lesser of nconnect x the single-flow
 * limit and the client's network baseline when given. For `lustre` it is the client's network baseline alone, or no
 * bound. Throws naming the field for a bad `client`, by `validateClient`.
 */
export function clientCeiling(client: ClientRequest = {}, protocol: ClientProtocol = 'nfs'): ClientCeiling {
  const c = validateClient(client);
  const network = networkOf(c);
  const sources = network ? [network.source] : [];
  if (protocol === 'lustre') {
    const unused = [c.nconnect !== undefined ? `nconnect ${c.nconnect}` : '', c.placementGroup ? 'placementGroup' : ''].filter(Boolean);
    const note = `FSx for Lustre: nconnect does not apply${unused.length > 0 ? ` (${unused.join(' and ')} ignored)` : ''}, the Lustre ` +
      'client keeps its own connections to each file server';
    if (!network) {
      return { limitedBy: `no bound counted: ${note}; give the client's instance type or network for its own limit`, sources };
    }
    return { maxMBps: network.mbps, limitedBy: `${network.label}; ${note}`, networkMBps: network.mbps, sources };
  }
  const nconnect = c.nconnect ?? DEFAULT_NCONNECT;
  const perFlowGbps = c.placementGroup ? SINGLE_FLOW_PLACEMENT_GROUP_GBPS : SINGLE_FLOW_GBPS;
  const connections = {
    mbps: floor2(nconnect * gbpsToMBps(perFlowGbps)),
    label: `nconnect=${nconnect}: ${nconnect} TCP flow${nconnect > 1 ? 's' : ''} x ${perFlowGbps} Gbps, ` +
      `${c.placementGroup ? 'inside' : 'outside'} a cluster placement group`,
  };
  const limits = network ? [connections, network] : [connections];
  const max = Math.min(...limits.map((l) => l.mbps));
  return {
    maxMBps: max,
    limitedBy: limits.filter((l) => l.mbps === max).map((l) => l.label).join(' and '),
    connectionsMBps: connections.mbps,
    networkMBps: network?.mbps,
    nconnect,
    perFlowGbps,
    sources: [SOURCE_FLOW, SOURCE_NCONNECT, SOURCE_BOUND, ...sources],
  };
}

/**
 * What one EFS client can reach: the lesser of EFS's published per-client limit for the mode and the NFS client's own
 * bounds. The limit is `perClientMBps`, [PERF] in efs.ts: 1,500 MiB/s Elastic, 500 MiB/s Provisioned and Bursting. The
 * client's bounds are those of {@link clientCeiling}: nconnect x the single-flow limit, and the client's network when
 * given. EFS is NFS, and its mount helper takes nconnect as any NFS mount does.
 */
export function efsClientCeiling(perClientMBps: number, mode: string, client: ClientRequest = {}): ClientCeiling {
  const nfs = clientCeiling(client, 'nfs');
  const efs = { mbps: floor2(perClientMBps), label: `EFS ${mode}'s per-client limit, ${floor2(perClientMBps)} MB/s` };
  const max = Math.min(efs.mbps, nfs.maxMBps as number);
  const limitedBy = [efs.mbps === max ? efs.label : '', nfs.maxMBps === max ? nfs.limitedBy : ''].filter(Boolean).join(' and ');
  return {
    ...nfs,
    maxMBps: max,
    limitedBy,
    sources: ['[EFS-PERF] Amazon EFS User Guide, "Amazon EFS performance specifications": per client 1,500 MiBps (Elastic), ' +
      '500 MiBps (Provisioned, Bursting) (lib/sizing/efs.ts)', ...nfs.sources],
  };
}

/** How many such clients it takes to move `aggregateMBps` together: ceil(aggregate / ceiling); undefined without a ceiling. */
export function clientsToReach(aggregateMBps: number, ceiling: Pick<ClientCeiling, 'maxMBps'>): number | undefined {
  if (ceiling.maxMBps === undefined || !(ceiling.maxMBps > 0)) return undefined;
  return Math.max(1, Math.ceil(aggregateMBps / ceiling.maxMBps - 1e-9));
}

/** The client's network baseline as a limit, when its type or figure is given. */
function networkOf(c: ClientRequest): { mbps: number; label: string; source: string } | undefined {
  if (c.instanceType !== undefined) {
    const spec = instanceTypeSpec(c.instanceType);
    return {
      mbps: floor2(gbpsToMBps(spec.networkBaselineGbps)),
      label: `the client's network baseline, ${spec.name}: ${spec.networkBaselineGbps} Gbps`,
      source: `the catalogue's network baseline of ${spec.name} (lib/sizing, cited where the type is listed)`,
    };
  }
  if (c.networkGbps !== undefined) {
    return {
      mbps: floor2(gbpsToMBps(c.networkGbps)),
      label: `the client's network baseline: ${c.networkGbps} Gbps as given`,
      source: `the client's network baseline as given: ${c.networkGbps} Gbps`,
    };
  }
  return undefined;
}

/** A plan's per-client figure: what one client can reach, and how many such clients the server's sustained figure takes. */
export interface PerClientPlan extends ClientCeiling {
  /**
   * How many clients, each at `maxMBps`, it takes to move the server's sustained aggregate, the lesser of its baseline
   * read and write: ceil(sustained / maxMBps).
   * @default - none: no ceiling is known, `maxMBps` being absent
   */
  readonly clientsToSustain?: number;
  /**
   * FSx for Lustre: what one file can move, whoever reads it, under the file system's default layout. It is a bound:
   * see `lustreFileCeiling`.
   * @default - none: an NFS plan, where one server serves every file
   */
  readonly oneFile?: LustreFileCeiling;
}

/**
 * What one file of FSx for Lustre can move under the default progressive file layout. AWS's guide, in its 2022 text in
 * docs/sources/lustre-performance.md, section c, says: "files under 1GiB in size are stored in one stripe, and larger
 * files are assigned a stripe count of five", that is `lfs setstripe -E 1G -c 1 -E -1 -c 5`. A file is served by the
 * storage targets, OSTs, it is striped over. AWS publishes no throughput per OST: "Each OST is approximately 1 to 2 TiB
 * in size", per the same text, and the disk throughput is per TiB. So one OST moves at most max(2 TiB, the type's
 * capacity step) x the per-unit throughput: a bound derived from AWS's figures, not one AWS states.
 */
export interface LustreFileCeiling {
  /** A file under 1 GiB, one stripe, MB/s: at most one OST's bound and the file system's sustained figure. */
  readonly smallFileMBps: number;
  /** A file of 1 GiB or more, five stripes, MB/s. */
  readonly largeFileMBps: number;
  /** The bound of one OST, MB/s: max(2 TiB, the capacity step) x MB/s per TiB. */
  readonly ostMBps: number;
  /** How the bound is made and how to change the layout, in words. */
  readonly limitedBy: string;
}

/** The default layout's stripe counts under 1 GiB and from 1 GiB: the 2022 guide's PFL. */
export const LUSTRE_DEFAULT_STRIPES = { small: 1, large: 5 } as const;

/** The largest OST AWS's text names, TiB: "approximately 1 to 2 TiB". */
const LUSTRE_OST_TIB = 2;

/**
 * The figures of a plan this module reads, as a type, so that plan.ts and this file do not import each other's values.
 */
interface PlanFigures {
  readonly throughput: { readonly baselineReadMBps: number; readonly baselineWriteMBps: number };
  readonly fsxLustre?: { readonly perUnitStorageThroughput: number; readonly storageType: string };
}

/**
 * The per-client figure of `plan` for `client`, mounting by `protocol`, its backend's. FSx for Lustre adds one file's
 * bound.
 */
export function perClientOf(plan: PlanFigures, client: ClientRequest | undefined, protocol: ClientProtocol): PerClientPlan {
  const ceiling = counted(clientCeiling(client === undefined ? {} : client, protocol), plan);
  return plan.fsxLustre === undefined ? ceiling : { ...ceiling, oneFile: lustreFileCeiling(plan, plan.fsxLustre) };
}

/**
 * One file's bound on FSx for Lustre, `LustreFileCeiling`: stripes x one OST's bound, at most the file system's
 * sustained figure. The type's storage step is `capacitySteps` of lib/backends/fsx/sizing/lustre.ts: 1,800 or 6,000 GiB
 * on HDD, 2,400 on SSD.
 */
export function lustreFileCeiling(plan: PlanFigures, fs: { perUnitStorageThroughput: number; storageType: string }): LustreFileCeiling {
  const { step } = capacitySteps(fs.storageType, fs.perUnitStorageThroughput);
  const ostTiB = Math.max(LUSTRE_OST_TIB, step / 1024);
  const ost = ostTiB * fs.perUnitStorageThroughput;
  const ostMBps = floor2(ost);
  const sustained = sustainedOf(plan);
  return {
    smallFileMBps: floor2(Math.min(sustained, LUSTRE_DEFAULT_STRIPES.small * ost)),
    largeFileMBps: floor2(Math.min(sustained, LUSTRE_DEFAULT_STRIPES.large * ost)),
    ostMBps,
    limitedBy: `the default layout (lfs setstripe -E 1G -c 1 -E -1 -c 5): ${LUSTRE_DEFAULT_STRIPES.small} stripe under 1 GiB, ` +
      `${LUSTRE_DEFAULT_STRIPES.large} from 1 GiB, each OST at most ${floor2(ostTiB)} TiB x ${fs.perUnitStorageThroughput} MB/s per TiB = ` +
      `${ostMBps} MB/s (a bound: AWS gives OSTs of about 1 to 2 TiB and no throughput per OST); stripe a directory wider with ` +
      "lfs setstripe -c <count> (-1: every OST) before writing its files",
  };
}

/**
 * `ceiling` with the count of clients that `plan`'s sustained figure takes, again for a plan re-estimated on another
 * type.
 */
export function counted(ceiling: ClientCeiling, plan: PlanFigures): PerClientPlan {
  const sustained = sustainedOf(plan);
  return { ...ceiling, clientsToSustain: clientsToReach(sustained, ceiling) };
}
