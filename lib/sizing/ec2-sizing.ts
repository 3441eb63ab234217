/**
 * The EC2 NFS server's backends, EBS and instance store, as the planner of backend-sizing.ts knows them. Their plans
 * stay in this folder, beside the capacity rule of `auto` that chooses between them and the EC2 catalogue that the
 * client ceiling reads too. This file is what the shared planner, and the stack's outputs, ask of each.
 */
import { GP3_DEFAULTS } from '../gp3-defaults';
import type { BackendSizing, ExcessQuery, StackOutputText } from './backend-sizing';
import { EC2_CONTEXT } from './ec2-context';
import { Backend } from '../backend-enum';
import { ST1, instanceStoreTiB } from './catalog';
import { GP3 } from './catalog-gp3';
import { instanceTypeSpec } from './catalog-lookup';
import type { Families } from './families';
import { gp3Stripes, wideGp3Stripe } from './gp3';
import { UPPER_BOUND, ebsPlanIops } from './io-size';
import { ebsPlan, st1Stripes } from './plan-ebs';
import { instanceStorePlan } from './plan-instance-store';
import type { DataVolumePlan, StoragePlan, StorageRequest } from './plan-types';

/** What an estimate at a smaller request size says: AWS publishes no IOPS for instance-store HDDs. */
const INSTANCE_STORE_IOPS_UNPUBLISHED = `IOPS of instance-store HDDs unpublished: ${UPPER_BOUND}`;

/**
 * Each EBS type the search weighs with each stripe it weighs: st1, and gp3 when a throughput is asked; and, where a
 * type carries more than three gp3 volumes do, its wider gp3 stripe.
 */
function ebsCandidates(capacityTiB: number, targetMBps: number, families: Families, ioSizeKiB: number): StoragePlan[] {
  const types = targetMBps > 0 ? [...families.ebs, ...families.fastEbs] : families.ebs;
  const stripes = [...st1Stripes(capacityTiB, targetMBps), ...(targetMBps > 0 ? gp3Stripes(capacityTiB, targetMBps, ioSizeKiB) : [])];
  const wide = targetMBps > 0
    ? types.flatMap((spec) => {
      const volumes = wideGp3Stripe(capacityTiB, targetMBps, spec, ioSizeKiB);
      return volumes === undefined ? [] : [{ ...ebsPlan(spec, volumes), reason: '' }];
    })
    : [];
  return [...stripes.flatMap((volumes) => types.map((spec) => ({ ...ebsPlan(spec, volumes), reason: '' }))), ...wide];
}

/** Why an EBS plan holds more than asked: gp3's IOPS per GiB or whole GiB, st1's baseline or its smallest size. */
function ebsExcess(plan: StoragePlan, request: StorageRequest): string {
  const count = plan.dataVolumes.length;
  const sizeGiB = plan.dataVolumes[0].sizeGiB;
  const iops = plan.dataVolumes[0].iops;
  if (plan.dataVolumes[0].volumeType === 'gp3') {
    return iops !== undefined && sizeGiB * GP3.maxIopsPerGiB === iops
      ? `gp3 allows at most ${GP3.maxIopsPerGiB} IOPS per GiB: ${count} x ${iops} IOPS (the fewest gp3 and their throughput allow) take ${count} x ${sizeGiB} GiB`
      : `gp3 volumes are whole GiB, ${count} x ${sizeGiB} GiB`;
  }
  const shareGiB = Math.max(ST1.minSizeGiB, Math.ceil(Math.ceil(request.capacityTiB * 1024) / count));
  if (sizeGiB > shareGiB) {
    return `st1's baseline grows with its size (${ST1.baselineMiBpsPerTiB} MiB/s per TiB): ${count} x ${sizeGiB} GiB sustain ` +
      `throughputMBps ${request.throughputMBps}, where ${count} x ${shareGiB} GiB would hold the capacity`;
  }
  return `an st1 volume is at least ${ST1.minSizeGiB} GiB`;
}

/** The data volumes of an EBS plan in words. */
function volumesOf(plan: StoragePlan): string {
  const first = plan.dataVolumes[0];
  const each = first?.volumeType === 'gp3'
    ? `${first.sizeGiB} GiB, ${first.throughputMiBps} MiB/s, ${first.iops} IOPS${plan.dataVolumes.length > 1 ? ' each' : ''}`
    : plan.dataVolumes.map((v) => `${v.sizeGiB} GiB`).join(', ');
  return `${plan.dataVolumes.length} x ${first?.volumeType ?? 'st1'} (${each})` + (plan.dataVolumes.length > 1 ? ', striped' : '');
}

/** What an EC2 server's monthly cost counts, and where its prices come from. */
const COST_NOTE = 'on demand, us-east-1, 730 h';
const PRICE_SOURCE = 'on-demand list prices, us-east-1, 730 h, as cited in lib/sizing/catalog*.ts';

/** `2 x st1 1024 GiB + 1024 GiB`; gp3 volumes with their IOPS and throughput; mixed types volume by volume. */
function volumeSummary(volumes: readonly DataVolumePlan[]): string {
  const one = (v: DataVolumePlan): string => v.volumeType === 'gp3'
    ? `${v.sizeGiB} GiB ${v.iops ?? GP3_DEFAULTS.iops} IOPS ${v.throughputMiBps ?? GP3_DEFAULTS.throughputMiBps} MiB/s`
    : `${v.sizeGiB} GiB`;
  const types = new Set(volumes.map((v) => v.volumeType));
  return types.size <= 1
    ? `${volumes.length} x ${volumes[0]?.volumeType ?? 'st1'} ${volumes.map(one).join(' + ')}`
    : `${volumes.length} volumes: ${volumes.map((v) => `${v.volumeType} ${one(v)}`).join(' + ')}`;
}

/** An EC2 server in the stack's outputs, `storage` its data volumes or disks in PlanSummary's words. */
function ec2Outputs(storage: (plan: StoragePlan) => string): StackOutputText {
  return {
    what: 'NFS server',
    layout: (plan) => `on ${plan.instanceType}, ${storage(plan)}, ${plan.rawCapacityTiB.toFixed(2)} TiB raw`,
    costNote: 'on demand',
    mountCommand: 'Mount the export on a client by hand',
  };
}

/** The EC2 NFS server's plugin, loaded only when the facade builds: the planner loads no CDK. */
const ec2Plugin = () => (require('../backends/ec2-nfs-server') as typeof import('../backends/ec2-nfs-server')).EC2_NFS_PLUGIN;

/** EBS in the planner: striped st1 volumes, or gp3 for a throughput, on an EBS type. */
export const EBS_SIZING: BackendSizing = {
  candidates: ({ capacityTiB, targetMBps, families, ioSizeKiB }) => ebsCandidates(capacityTiB, targetMBps, families, ioSizeKiB),
  iops: ebsPlanIops,
  clientProtocol: 'nfs',
  mountedAs: 'NFS',
  plugin: ec2Plugin,
  scalesOut: false,
  excessReason: ({ request, plan }) => ebsExcess(plan, request),
  table: {
    instanceLabel: 'instance',
    storageLabel: 'volumes',
    storage: volumesOf,
    summary: (plan) => `${plan.instanceType}, ${volumesOf(plan)}`,
    costNote: COST_NOTE,
    priceSource: () => PRICE_SOURCE,
  },
  outputs: ec2Outputs((plan) => volumeSummary(plan.dataVolumes)),
  context: EC2_CONTEXT,
};

/** Why an instance-store plan holds more than asked: a d2, d3 or d3en comes with all of its disks. */
function instanceStoreExcess({ request, plan, instanceType, replan }: ExcessQuery): string {
  const asked = request.capacityTiB;
  const store = instanceTypeSpec(instanceType).instanceStore;
  const disks = `${store?.disks} disks of ${(store?.diskBytes ?? 0) / 1e12} TB`;
  const family = instanceType.split('.')[0];
  if (instanceType !== plan.instanceType) return `instanceType ${instanceType} as asked: its ${disks} come with it`;
  // The capacity rule's choice for the request's generation: the smallest d2, or the cheapest d3 or d3en, that holds it.
  const byCapacity = replan({ capacityTiB: asked, backend: Backend.INSTANCE_STORE, generation: request.generation });
  if (byCapacity.instanceType !== instanceType) {
    return `${instanceType} and its ${disks} were chosen for throughput (${plan.reason}); a ${family}'s disks come with it`;
  }
  const rule = family === 'd2' ? 'the smallest d2' : 'the cheapest d3 or d3en';
  return `a ${family} comes with all of its disks: ${instanceType}, with ${disks}, is ${rule} that holds ${asked} TiB`;
}

/** Instance store in the planner: a d2, d3 or d3en and its local HDDs, striped. */
export const INSTANCE_STORE_SIZING: BackendSizing = {
  candidates: ({ capacityTiB, families }) =>
    families.instanceStore.filter((t) => instanceStoreTiB(t) >= capacityTiB).map((spec) => ({ ...instanceStorePlan(spec), reason: '' })),
  iops: () => ({ baseline: [], burst: [], unpublished: INSTANCE_STORE_IOPS_UNPUBLISHED }),
  iopsUnpublished: 'instance-store HDDs',
  clientProtocol: 'nfs',
  mountedAs: 'NFS',
  plugin: ec2Plugin,
  scalesOut: false,
  excessReason: instanceStoreExcess,
  table: {
    instanceLabel: 'instance',
    storageLabel: 'disks',
    storage: (plan) => {
      const diskTB = (instanceTypeSpec(plan.instanceType).instanceStore?.diskBytes ?? 0) / 1e12; // d2 2, d3 1.98, d3en 13.98
      return `${plan.instanceStoreDisks} x ${diskTB} TB instance-store HDD, striped (lost on stop/terminate)`;
    },
    summary: (plan) => plan.instanceType,
    costNote: COST_NOTE,
    priceSource: () => PRICE_SOURCE,
  },
  outputs: ec2Outputs((plan) => `${plan.instanceStoreDisks} x instance-store HDD`),
  context: EC2_CONTEXT,
};
