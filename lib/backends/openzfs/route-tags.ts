import { Annotations, Tags } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';

// The tag FSx's service-linked role needs on a route table to route a Multi-AZ endpoint through it. AWS's managed
// policy AmazonFSxServiceRolePolicy allows ec2:CreateRoute, ReplaceRoute and DeleteRoute only where
// "aws:ResourceTag/AmazonFSx": "ManagedByAmazonFSx". See OPENZFS-ROUTE-TAG in docs/sources/fsx-rules.md.

/** The tag's key and value. */
export const FSX_ROUTE_TABLE_TAG = { key: 'AmazonFSx', value: 'ManagedByAmazonFSx' } as const;

/**
 * Tags every route table of `subnets` that this app makes, that is of a subnet of a VPC it makes. So failover can move
 * the endpoint's routes, and a later update of the route table keeps the tag. Warns naming the route tables of imported
 * subnets, whose tags only their owner can add.
 */
export function tagRouteTablesForFsx(scope: Construct, subnets: readonly ec2.ISubnet[]): void {
  const imported = new Set<string>();
  for (const subnet of subnets) {
    const made = subnet instanceof ec2.Subnet ? subnet.node.tryFindChild('RouteTable') : undefined;
    if (made instanceof ec2.CfnRouteTable) Tags.of(made).add(FSX_ROUTE_TABLE_TAG.key, FSX_ROUTE_TABLE_TAG.value);
    else if (subnet.routeTable?.routeTableId !== undefined) imported.add(subnet.routeTable.routeTableId);
  }
  if (imported.size === 0) return;
  Annotations.of(scope).addWarningV2('storage-server:fsxRouteTableTag',
    `MULTI_AZ_1 routes its endpoint through route tables this app does not make (${[...imported].join(', ')}): FSx's ` +
    `service-linked role changes routes on failover only in route tables tagged ${FSX_ROUTE_TABLE_TAG.key}=` +
    `${FSX_ROUTE_TABLE_TAG.value} (AmazonFSxServiceRolePolicy). FSx may tag them at creation when the deploying role may ` +
    'tag route tables; make sure they carry it, or tag them: aws ec2 create-tags --resources ' +
    `${[...imported].join(' ')} --tags Key=${FSX_ROUTE_TABLE_TAG.key},Value=${FSX_ROUTE_TABLE_TAG.value}`);
}
