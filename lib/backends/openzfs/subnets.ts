import { Token } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { FsxOpenZfsPlan } from '../../sizing';
import type { FsxOpenZfsServerProps } from '../fsx-openzfs-props';

// The subnets of an FSx for OpenZFS file system: the server's subnet alone (the Single-AZ types), or the server's
// subnet (preferred) and a standby subnet in another Availability Zone (MULTI_AZ_1), with their route tables.

/** The file system's subnets, the preferred first, and the route tables FSx routes a Multi-AZ endpoint through. */
export interface OpenZfsSubnets {
  /** `[preferred]`, or `[preferred, standby]` for MULTI_AZ_1. */
  readonly subnets: readonly ec2.ISubnet[];
  /** The route tables of those subnets, each once (MULTI_AZ_1); empty for the Single-AZ types. */
  readonly routeTableIds: readonly string[];
}

/**
 * The subnets of the plan's deployment type. MULTI_AZ_1: the standby is `fsxOpenZfs.standbySubnet`, or the first
 * selected subnet in another zone; refused when there is none, or when both are in one zone (FSx needs two zones:
 * "SubnetIds: ... For MULTI_AZ_1 deployment types, provide exactly two subnet IDs, one for the preferred file server
 * and one for the standby file server", AWS::FSx::FileSystem, CloudFormation template reference).
 */
export function openZfsSubnets(p: FsxOpenZfsServerProps, options: FsxOpenZfsPlan): OpenZfsSubnets {
  const { subnet } = p;
  const asked = p.server.fsxOpenZfs?.standbySubnet;
  if (options.deploymentType !== 'MULTI_AZ_1') {
    if (asked !== undefined) {
      throw new Error(`fsxOpenZfs.standbySubnet applies to deploymentType 'MULTI_AZ_1' only (-c openZfsDeploymentType=MULTI_AZ_1); ` +
        `the deployment type is '${options.deploymentType}': leave standbySubnet out.`);
    }
    return { subnets: [subnet], routeTableIds: [] };
  }
  const zone = subnet.availabilityZone;
  // Zones are compared as text: concrete names, or (a new VPC in an environment-agnostic stack) one token per zone.
  const standby = asked ?? p.selectedSubnets.find((s) => s.subnetId !== subnet.subnetId && s.availabilityZone !== zone);
  if (standby === undefined) {
    throw new Error(`fsxOpenZfs.standbySubnet: deploymentType 'MULTI_AZ_1' needs a standby subnet in another Availability Zone ` +
      `than the server's subnet (${Token.isUnresolved(zone) ? 'its zone' : zone}), and the selected subnets have none: give ` +
      'fsxOpenZfs.standbySubnet (-c openZfsStandbySubnetId=subnet-... with vpcId), select subnets in two zones (vpcSubnets), ' +
      "or choose a Single-AZ type such as 'SINGLE_AZ_2'.");
  }
  if (standby.subnetId === subnet.subnetId || standby.availabilityZone === zone) {
    throw new Error(`fsxOpenZfs.standbySubnet (-c openZfsStandbySubnetId) must be in another Availability Zone than the server's ` +
      `subnet ${subnet.subnetId} (${zone}), got ${standby.subnetId} (${standby.availabilityZone}).`);
  }
  const routeTableIds = [...new Set([subnet, standby].map((s) => s.routeTable.routeTableId))];
  return { subnets: [subnet, standby], routeTableIds };
}
