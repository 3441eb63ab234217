import type { CfnResource } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { type DataHolder, refuseDestroy } from '../../deletion';
import type { Ec2ServerLayout } from './layout';

// What cdk destroy does to the EC2 server (docs/design.md, section 5). The EBS data volumes go by their removal policy.
// An instance-store server's data is its instance, which no removal policy can keep apart from what the instance needs
// to run. So the stack's termination protection refuses the destroy until the deploy says the data may go.

/** The resources that hold the data: each EBS data volume, or the instance-store instance with its disks. */
export function ec2DataHolders(layout: Ec2ServerLayout, instance: ec2.Instance, dataVolumes: readonly ec2.Volume[]): DataHolder[] {
  if (layout.instanceStore) {
    const disks = layout.instanceStoreDevices.length;
    return [{
      what: `the instance (${layout.instanceType.toString()}) and its ${disks} instance-store disk${disks === 1 ? '' : 's'}`,
      resource: instance.node.defaultChild as CfnResource,
    }];
  }
  return dataVolumes.map((v, i) => ({ what: `EBS data volume ${i}`, resource: v.node.defaultChild as CfnResource }));
}

/**
 * Turns on the stack's termination protection where a destroy must not start. One case is an instance-store server
 * without `deleteDataOnDestroy`, since the destroy would delete the data. The other is an instance that refuses
 * termination, since the destroy would stop half-way in DELETE_FAILED with the other resources deleted.
 */
export function protectFromDestroy(scope: Construct, layout: Ec2ServerLayout): void {
  if (layout.instanceStore && !layout.deleteDataOnDestroy) {
    refuseDestroy(scope, 'the instance-store instance holds the data and a destroy would delete it with the instance; ' +
      'deploy with deleteDataOnDestroy=true (context) or deleteDataOnDestroy: true (prop) first to let cdk destroy delete the data');
  } else if (layout.terminationProtection) {
    refuseDestroy(scope, 'terminationProtection is on, and EC2 would refuse to terminate the instance half-way through a ' +
      'destroy; deploy with terminationProtection=false (context) or terminationProtection: false (prop) first');
  }
}
