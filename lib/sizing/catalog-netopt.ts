/**
 * The EBS- and network-optimized types the planner weighs with `generation: 'current'` when a throughput is asked. So
 * the largest single server it plans is the fastest AWS sells for serving EBS over NFS, not the largest general-purpose
 * type. On x86_64 they are c6in, m6in and r6in, with 100 Gbps EBS at 32xlarge. On arm64, Graviton4 with
 * `arch: 'arm64'`, they are c8gb, m8gb and r8gb, with 300 Gbps EBS at 48xlarge. Pure data, no CDK imports; every number
 * carries its source, and docs/sources/netopt.md holds the tables these rows were read from:
 *
 * - [EBS-OPT] Amazon EC2 instance types guide, "Amazon EBS-optimized instance types",
 *   docs.aws.amazon.com/ec2/latest/instancetypes/ebs-optimized.html: EBS baseline and maximum bandwidth per size. It is
 *   AWS's text, read in a copy of the page's source held by the search index this project uses; the copy names no
 *   repository. Every maximum agrees with [KT].
 * - [CO] [MO] [GP] The same guide's compute optimized, memory optimized and general purpose specifications,
 *   docs.aws.amazon.com/ec2/latest/instancetypes/co.html, mo.html and gp.html: network baseline and burst bandwidth,
 *   and r6in's EBS rows in [MO]. They are read in copies as [EBS-OPT], and every network baseline agrees with [KB]. For
 *   m6in it is the general purpose page as AWS's Karpenter project saved it, as in catalog-nitro.ts:
 *   github.com/aws/karpenter-provider-aws, hack/code/bandwidth_gen/example/gp.html at 1d927085.
 * - [KT] Karpenter's generated instance-type reference in the same repository,
 *   https://github.com/aws/karpenter-provider-aws/blob/1d927085/website/content/en/docs/reference/instance-types.md,
 *   filled from EC2's DescribeInstanceTypes: vCPUs, memory and maximum EBS bandwidth.
 * - [KB] Karpenter's generated network baselines in the same repository,
 *   pkg/providers/instancetype/zz_generated.bandwidth.go at 1d927085. r8gb's burst figures were not read, so its "up
 *   to" sizes carry the baseline alone here, never more than the source states.
 * - [BURST] An "up to" EBS figure lasts 30 minutes at least once a day; an "up to" network figure lasts while network
 *   I/O credits last: [GP], note 1, and catalog-nitro.ts.
 * - [PRICE26] On-demand Linux prices, us-east-1, as for m6i: Karpenter's price file generated from the AWS Price List,
 *   pkg/providers/pricing/zz_generated.pricing_aws.go at 1d927085, "generated at 2026-07-20T13:44:30Z for us-east-1", a
 *   copy quoting AWS's price list.
 *
 * Left out, and why:
 * - m6idn and r6idn have the same EBS and network limits as m6in and r6in and cost more; their local SSDs serve nothing
 *   here.
 * - c8gn, m8gn and r8gn are network-optimized, but carry at most 120 Gbps EBS, below c8gb's at the same price.
 * - The metal sizes have the limits of the largest size at the same price or more.
 * - The Intel "b" families reach 300 Gbps EBS only at 96xlarge, at more than twice c8gb.48xlarge's price.
 */
import { type InstanceTypeSpec, nitro } from './catalog-types';

/**
 * c6in, m6in and r6in, x86_64: [network baseline, burst] Gbps [CO] [GP] [MO], [EBS baseline, maximum] Mbps [EBS-OPT]
 * [MO], vCPUs and memory [KT], price [PRICE26]. The three share one EBS and network table per size.
 */
const X86_64: readonly InstanceTypeSpec[] = family(
  [
    ['large', 2, [3.125, 25], [1562, 25000]],
    ['xlarge', 4, [6.25, 30], [3125, 25000]],
    ['2xlarge', 8, [12.5, 40], [6250, 25000]],
    ['4xlarge', 16, [25, 50], [12500, 25000]],
    ['8xlarge', 32, [50, 50], [25000, 25000]],
    ['12xlarge', 48, [75, 75], [37500, 37500]],
    ['16xlarge', 64, [100, 100], [50000, 50000]],
    ['24xlarge', 96, [150, 150], [75000, 75000]],
    ['32xlarge', 128, [200, 200], [100000, 100000]],
  ],
  {
    c6in: { gibPerVcpu: 2, usd: [0.1134, 0.2268, 0.4536, 0.9072, 1.8144, 2.7216, 3.6288, 5.4432, 7.2576] },
    m6in: { gibPerVcpu: 4, usd: [0.13923, 0.27846, 0.55692, 1.11384, 2.22768, 3.34152, 4.45536, 6.68304, 8.91072] },
    r6in: { gibPerVcpu: 8, usd: [0.17433, 0.34866, 0.69732, 1.39464, 2.78928, 4.18392, 5.57856, 8.36784, 11.15712] },
  },
  'x86_64',
);

/**
 * c8gb, m8gb and r8gb, arm64 on Graviton4: [network baseline, burst] Gbps [CO] [GP] [KB], [EBS baseline, maximum] Mbps
 * [EBS-OPT] [MO], vCPUs and memory [KT], price [PRICE26]. The three share one table per size.
 */
const GRAVITON4_B: readonly Size[] = [
  ['large', 2, [4.166, 20], [3125, 25000]],
  ['xlarge', 4, [8.333, 26.666], [6250, 25000]],
  ['2xlarge', 8, [16.666, 33.333], [12500, 25000]],
  ['4xlarge', 16, [33.33, 33.33], [25000, 25000]],
  ['8xlarge', 32, [66.66, 66.66], [50000, 50000]],
  ['12xlarge', 48, [100, 100], [75000, 75000]],
  ['16xlarge', 64, [133.33, 133.33], [100000, 100000]],
  ['24xlarge', 96, [200, 200], [150000, 150000]],
  ['48xlarge', 192, [400, 400], [300000, 300000]],
];

const ARM64: readonly InstanceTypeSpec[] = [
  ...family(
    GRAVITON4_B,
    {
      c8gb: { gibPerVcpu: 2, usd: [0.1185, 0.237, 0.474, 0.948, 1.896, 2.844, 3.792, 5.688, 11.376] },
      m8gb: { gibPerVcpu: 4, usd: [0.1455, 0.291, 0.582, 1.164, 2.328, 3.492, 4.656, 6.984, 13.968] },
    },
    'arm64',
  ),
  // r8gb: network baselines from [KB] only; its "up to" sizes' bursts were not read, so none is claimed.
  ...family(
    GRAVITON4_B.map(([size, vcpus, [baseline], ebs]): Size => [size, vcpus, [baseline, baseline], ebs]),
    { r8gb: { gibPerVcpu: 8, usd: [0.18218, 0.36436, 0.72872, 1.45744, 2.91488, 4.37232, 5.82976, 8.74464, 17.48928] } },
    'arm64',
  ),
];

/**
 * The types with two EBS cards, and one card's [baseline Mbps, baseline IOPS]: EC2's DescribeInstanceTypes,
 * `EbsInfo.EbsCards`, as moto's copy of AWS's answer holds it (test/unit/catalog-ebs-attachments.test.ts holds these to
 * it).
 */
export const EBS_CARDS: { readonly [type: string]: readonly [number, number] } = {
  'c8gb.48xlarge': [150_000, 720_000], 'm8gb.48xlarge': [150_000, 720_000], 'r8gb.48xlarge': [150_000, 720_000],
};

/** The network- and EBS-optimized types, x86_64 then arm64, each family smallest first. */
export const NETWORK_OPTIMIZED_EBS_INSTANCE_TYPES: readonly InstanceTypeSpec[] = [...X86_64, ...ARM64]
  .map((t) => (EBS_CARDS[t.name] === undefined ? t : { ...t, ebsCardMbps: EBS_CARDS[t.name][0], ebsCardIops: EBS_CARDS[t.name][1] }));

/** One size of a table: [size, vCPUs, [network baseline, burst] Gbps, [EBS baseline, maximum] Mbps]. */
type Size = [string, number, [number, number], [number, number]];

/** The families that share `sizes`, each with its memory per vCPU [KT] and its prices, size by size [PRICE26]. */
function family(
  sizes: readonly Size[],
  families: Record<string, { gibPerVcpu: number; usd: readonly number[] }>,
  arch: InstanceTypeSpec['arch'],
): InstanceTypeSpec[] {
  return Object.entries(families).flatMap(([name, { gibPerVcpu, usd }]) => {
    if (usd.length !== sizes.length) throw new Error(`catalog-netopt: ${name} has ${usd.length} prices for ${sizes.length} sizes`);
    return sizes.map(([size, vcpus, network, ebs], i) => nitro(`${name}.${size}`, vcpus, vcpus * gibPerVcpu, network, ebs, usd[i], arch));
  });
}
