import { Token } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { FsxOpenZfsPlan } from './sizing/options';
import type { BackendInputs } from '../plugin';

// The subnets of an FSx for OpenZFS file system, with their route tables. The Single-AZ types have the server's subnet
// alone; MULTI_AZ_1 has the server's subnet, preferred, and a standby subnet in another Availability Zone.

/** The file system's subnets, the preferred first, and the route tables FSx routes a Multi-AZ endpoint through. */
export interface OpenZfsSubnets {
  /** `[preferred]`, or `[preferred, standby]` for MULTI_AZ_1. */
  readonly subnets: readonly ec2.ISubnet[];
  /**
   * The route tables of the VPC's subnets, each once, where MULTI_AZ_1's clients reach the endpoint; empty for
   * Single-AZ.
   */
  readonly routeTableIds: readonly string[];
}

/**
 * The subnets of the plan's deployment type. On MULTI_AZ_1 the standby is `fsxOpenZfs.standbySubnet`, or the first
 * selected subnet in another zone. It is refused when there is none, or when both are in one zone, since FSx needs two
 * zones. OPENZFS-STANDBY-SUBNET: "SubnetIds: ... For MULTI_AZ_1 deployment types, provide exactly two subnet IDs, one
 * for the preferred file server and one for the standby file server", per AWS::FSx::FileSystem in the CloudFormation
 * template reference.
 */
export function openZfsSubnets(p: BackendInputs, options: FsxOpenZfsPlan): OpenZfsSubnets {
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
  // Zones are compared as text: concrete names, or one token per zone for a new VPC in an environment-agnostic stack.
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
  return { subnets: [subnet, standby], routeTableIds: clientRouteTables(p, [subnet, standby]) };
}

/**
 * At most 50 route tables, per CreateFileSystemOpenZFSConfiguration.RouteTableIds in the FSx API reference:
 * OPENZFS-ROUTE-TABLES.
 */
export const MAX_OPENZFS_ROUTE_TABLES = 50;

/**
 * The route tables FSx puts the Multi-AZ endpoint's route in: those of the file system's two subnets and of every other
 * subnet of the VPC, each once. CreateFileSystemOpenZFSConfiguration.RouteTableIds in the FSx API reference says: "You
 * should specify all virtual private cloud (VPC) route tables associated with the subnets in which your clients are
 * located. By default, Amazon FSx selects your VPC's default route table". Clients may sit in any subnet of the VPC,
 * such as a login node in a public subnet or compute in a third zone, and a subnet left out has no route to the
 * endpoint. A subnet whose route table is unknown, in a VPC imported without its route tables, is left out, but the
 * file system's own two must be known. RouteTableIds changes in place, since FSx adds and removes route tables on a
 * live file system, so a new subnet of the VPC later is no replacement.
 */
function clientRouteTables(p: BackendInputs, own: readonly ec2.ISubnet[]): string[] {
  own.forEach((s, i) => {
    if (s.routeTable?.routeTableId === undefined) {
      throw new Error(`${i === 0 ? 'vpcSubnets' : 'fsxOpenZfs.standbySubnet'}: subnet ${s.subnetId} has no known route table, ` +
        'which MULTI_AZ_1 needs for its endpoint; import it with ec2.Subnet.fromSubnetAttributes({ subnetId, availabilityZone, routeTableId }).');
    }
  });
  const vpc = p.server.vpc;
  const all = [...own, ...vpc.privateSubnets, ...vpc.publicSubnets, ...vpc.isolatedSubnets];
  const ids = [...new Set(all.map((s) => s.routeTable?.routeTableId).filter((id): id is string => id !== undefined))];
  if (ids.length > MAX_OPENZFS_ROUTE_TABLES) {
    throw new Error(`deploymentType 'MULTI_AZ_1': the VPC's subnets have ${ids.length} route tables, more than the ` +
      `${MAX_OPENZFS_ROUTE_TABLES} FSx can route a Multi-AZ endpoint through; choose a Single-AZ type.`);
  }
  return ids;
}
