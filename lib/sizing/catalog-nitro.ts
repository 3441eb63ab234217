/**
 * The current-generation Nitro instance types the planner offers with `generation: 'current'`. Pure data, no CDK
 * imports; every number carries its source:
 *
 * - [GP] Amazon EC2 instance types guide, general purpose specifications,
 *   docs.aws.amazon.com/ec2/latest/instancetypes/gp.html: vCPU, memory, network baseline and burst bandwidth, EBS
 *   baseline and maximum bandwidth. It is read in the copy AWS's Karpenter project keeps of that page, saved
 *   2024-05-02: github.com/aws/karpenter-provider-aws, hack/code/bandwidth_gen/example/gp.html at 1d927085. The EBS
 *   figures agree with the EC2 user guide's "Amazon EBS-optimized instance types" table,
 *   https://github.com/awsdocs/amazon-ec2-user-guide/blob/e3707c43/doc_source/ebs-optimized.md. The network baselines
 *   agree with Karpenter's generated bandwidth table of 2026.
 * - [BURST] The same page, note 1. Instances with an "up to" EBS figure "can support maximum performance for 30 minutes
 *   at least once every 24 hours, after which they revert to their baseline performance". Those with an "up to" network
 *   figure "can use a network I/O credit mechanism to burst beyond their baseline bandwidth on a best effort basis",
 *   for 5 to 60 minutes by size, per the EC2 user guide's "Amazon EC2 instance network bandwidth".
 * - [PRICE26] On-demand Linux prices, us-east-1, from Karpenter's price file generated from the AWS Price List:
 *   pkg/providers/pricing/zz_generated.pricing_aws.go at 1d927085, "generated at 2026-07-20T13:44:30Z for us-east-1".
 *
 * m6i and m7i side by side: the two have the same published EBS and network limits at every size both have [GP], and
 * m6i costs 5% less [PRICE26]. The planner weighs only published limits and price, so it chooses m7i only for the size
 * m6i lacks, m7i.48xlarge with 40,000 Mbps EBS and 50 Gbps network. An `instanceType` override may name any. m7i's rows
 * come from [GP] as above, per docs/sources/netopt.md, "m7i", and price [PRICE26].
 */
import { type InstanceTypeSpec, nitro } from './catalog-types';

/** How long an "up to" EBS burst lasts, seconds, at least once a day. [BURST] */
export const EBS_BURST_SECONDS = 30 * 60;

/** m6i then m7i, for the EBS backend of the current generation, smallest first in each. [GP] [PRICE26] */
export const CURRENT_EBS_INSTANCE_TYPES: readonly InstanceTypeSpec[] = [
  nitro('m6i.large', 2, 8, [0.781, 12.5], [650, 10000], 0.096),
  nitro('m6i.xlarge', 4, 16, [1.562, 12.5], [1250, 10000], 0.192),
  nitro('m6i.2xlarge', 8, 32, [3.125, 12.5], [2500, 10000], 0.384),
  nitro('m6i.4xlarge', 16, 64, [6.25, 12.5], [5000, 10000], 0.768),
  nitro('m6i.8xlarge', 32, 128, [12.5, 12.5], [10000, 10000], 1.536),
  nitro('m6i.12xlarge', 48, 192, [18.75, 18.75], [15000, 15000], 2.304),
  nitro('m6i.16xlarge', 64, 256, [25, 25], [20000, 20000], 3.072),
  nitro('m6i.24xlarge', 96, 384, [37.5, 37.5], [30000, 30000], 4.608),
  nitro('m7i.large', 2, 8, [0.781, 12.5], [650, 10000], 0.1008),
  nitro('m7i.xlarge', 4, 16, [1.562, 12.5], [1250, 10000], 0.2016),
  nitro('m7i.2xlarge', 8, 32, [3.125, 12.5], [2500, 10000], 0.4032),
  nitro('m7i.4xlarge', 16, 64, [6.25, 12.5], [5000, 10000], 0.8064),
  nitro('m7i.8xlarge', 32, 128, [12.5, 12.5], [10000, 10000], 1.6128),
  nitro('m7i.12xlarge', 48, 192, [18.75, 18.75], [15000, 15000], 2.4192),
  nitro('m7i.16xlarge', 64, 256, [25, 25], [20000, 20000], 3.2256),
  nitro('m7i.24xlarge', 96, 384, [37.5, 37.5], [30000, 30000], 4.8384),
  nitro('m7i.48xlarge', 192, 768, [50, 50], [40000, 40000], 9.6768),
];
