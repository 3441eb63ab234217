/**
 * AWS Graviton, arm64, types with EBS data volumes: m7g on Graviton3 and m6g on Graviton2. They come in the sizes of
 * the m6i the planner offers, up to m7g's and m6g's largest, 16xlarge, since neither family has a 24xlarge. Only an
 * explicit `instanceType` chooses them: the planner's automatic choice stays on x86_64, though a later `--arch` may
 * widen it. Pure data, no CDK imports; every number carries its source:
 *
 * - [GP] Amazon EC2 instance types guide, "General purpose instances" specifications,
 *   docs.aws.amazon.com/ec2/latest/instancetypes/gp.html: vCPUs and memory from the performance specifications, network
 *   baseline and burst bandwidth from the network specifications, EBS baseline and maximum bandwidth from the Amazon
 *   EBS specifications. It is read, as in catalog-nitro.ts, in the copy AWS's Karpenter project keeps of that page:
 *   github.com/aws/karpenter-provider-aws, hack/code/bandwidth_gen/example/gp.html at 1d927085.
 * - [EBS-OPT] The EC2 user guide's "Amazon EBS-optimized instance types" table agrees with [GP] on every EBS figure
 *   here, for m7g at https://github.com/awsdocs/amazon-ec2-user-guide/blob/d2899614/doc_source/ebs-optimized.md and for
 *   m6g at https://github.com/awsdocs/amazon-ec2-user-guide/blob/e3707c43/doc_source/ebs-optimized.md. Karpenter's
 *   generated network table, pkg/providers/instancetype/zz_generated.bandwidth.go at 1d927085, agrees with [GP] on
 *   every network baseline.
 * - [BURST] An "up to" EBS figure lasts 30 minutes at least once a day, and an "up to" network figure while network I/O
 *   credits last: [GP], note 1, and catalog-nitro.ts.
 * - [PRICE26] On-demand Linux prices, us-east-1, as for m6i: Karpenter's price file generated from the AWS Price List,
 *   pkg/providers/pricing/zz_generated.pricing_aws.go at 1d927085, "generated at 2026-07-20T13:44:30Z for us-east-1", a
 *   copy quoting AWS's price list.
 */
import { type InstanceTypeSpec, nitro } from './catalog-types';

/** m7g then m6g, smallest first in each: [network baseline, burst] Gbps, [EBS baseline, maximum] Mbps. [GP] [PRICE26] */
export const GRAVITON_EBS_INSTANCE_TYPES: readonly InstanceTypeSpec[] = [
  nitro('m7g.large', 2, 8, [0.937, 12.5], [630, 10000], 0.0816, 'arm64'),
  nitro('m7g.xlarge', 4, 16, [1.876, 12.5], [1250, 10000], 0.1632, 'arm64'),
  nitro('m7g.2xlarge', 8, 32, [3.75, 15], [2500, 10000], 0.3264, 'arm64'),
  nitro('m7g.4xlarge', 16, 64, [7.5, 15], [5000, 10000], 0.6528, 'arm64'),
  nitro('m7g.8xlarge', 32, 128, [15, 15], [10000, 10000], 1.3056, 'arm64'),
  nitro('m7g.12xlarge', 48, 192, [22.5, 22.5], [15000, 15000], 1.9584, 'arm64'),
  nitro('m7g.16xlarge', 64, 256, [30, 30], [20000, 20000], 2.6112, 'arm64'),
  nitro('m6g.large', 2, 8, [0.75, 10], [630, 4750], 0.077, 'arm64'),
  nitro('m6g.xlarge', 4, 16, [1.25, 10], [1188, 4750], 0.154, 'arm64'),
  nitro('m6g.2xlarge', 8, 32, [2.5, 10], [2375, 4750], 0.308, 'arm64'),
  nitro('m6g.4xlarge', 16, 64, [5, 10], [4750, 4750], 0.616, 'arm64'),
  nitro('m6g.8xlarge', 32, 128, [12, 12], [9500, 9500], 1.232, 'arm64'),
  nitro('m6g.12xlarge', 48, 192, [20, 20], [14250, 14250], 1.848, 'arm64'),
  nitro('m6g.16xlarge', 64, 256, [25, 25], [19000, 19000], 2.464, 'arm64'),
];
