/**
 * The current-generation (Nitro) instance types the planner offers with `generation: 'current'` (issue 17). Pure
 * data, no CDK imports; every number carries its source:
 *
 * - [GP]      Amazon EC2 instance types guide, general purpose specifications
 *             (docs.aws.amazon.com/ec2/latest/instancetypes/gp.html): vCPU, memory, network baseline / burst
 *             bandwidth, EBS baseline / maximum bandwidth. Read in the copy AWS's Karpenter project keeps of that
 *             page (github.com/aws/karpenter-provider-aws, hack/code/bandwidth_gen/example/gp.html at 1d927085,
 *             saved 2024-05-02); the EBS figures agree with the EC2 user guide's "Amazon EBS-optimized instance
 *             types" table (github.com/awsdocs/amazon-ec2-user-guide, doc_source/ebs-optimized.md at e3707c43)
 *             and the network baselines with Karpenter's generated bandwidth table of 2026.
 * - [BURST]   Same page, note 1: instances with an "up to" EBS figure "can support maximum performance for 30
 *             minutes at least once every 24 hours, after which they revert to their baseline performance";
 *             those with an "up to" network figure "can use a network I/O credit mechanism to burst beyond their
 *             baseline bandwidth on a best effort basis" (5 to 60 minutes by size, EC2 user guide, "Amazon EC2
 *             instance network bandwidth").
 * - [PRICE26] On-demand Linux prices, us-east-1, from Karpenter's price file generated from the AWS Price List
 *             (pkg/providers/pricing/zz_generated.pricing_aws.go at 1d927085, "generated at 2026-07-20T13:44:30Z for
 *             us-east-1").
 *
 * m6i rather than m7i: the two have the same published EBS and network limits at every size [GP], and m6i costs
 * 5% less [PRICE26]; the planner weighs only published limits and price, so m7i would never win.
 */
import type { InstanceTypeSpec } from './catalog';

/** How long an "up to" EBS burst lasts, seconds, at least once a day. [BURST] */
export const EBS_BURST_SECONDS = 30 * 60;

/** m6i types for the EBS backend of the current generation, smallest first. [GP] [PRICE26] */
export const CURRENT_EBS_INSTANCE_TYPES: readonly InstanceTypeSpec[] = [
  nitro('m6i.large', 2, 8, [0.781, 12.5], [650, 10000], 0.096),
  nitro('m6i.xlarge', 4, 16, [1.562, 12.5], [1250, 10000], 0.192),
  nitro('m6i.2xlarge', 8, 32, [3.125, 12.5], [2500, 10000], 0.384),
  nitro('m6i.4xlarge', 16, 64, [6.25, 12.5], [5000, 10000], 0.768),
  nitro('m6i.8xlarge', 32, 128, [12.5, 12.5], [10000, 10000], 1.536),
  nitro('m6i.12xlarge', 48, 192, [18.75, 18.75], [15000, 15000], 2.304),
  nitro('m6i.16xlarge', 64, 256, [25, 25], [20000, 20000], 3.072),
  nitro('m6i.24xlarge', 96, 384, [37.5, 37.5], [30000, 30000], 4.608),
];

/** One Nitro type: [network baseline, burst] Gbps and [EBS baseline, maximum] Mbps; x86_64 unless said. */
export function nitro(
  name: string,
  vcpus: number,
  memoryGiB: number,
  [networkBaselineGbps, networkBurstGbps]: [number, number],
  [ebsBandwidthMbps, ebsBurstMbps]: [number, number],
  onDemandUsdPerHour: number,
  arch: InstanceTypeSpec['arch'] = 'x86_64',
): InstanceTypeSpec {
  return { name, arch, vcpus, memoryGiB, networkBaselineGbps, networkBurstGbps, ebsBandwidthMbps, ebsBurstMbps, onDemandUsdPerHour };
}
