/** A stack with an instance for ServerRegistration to point at, and the registration the unit tests make of it. */
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ServerRegistration, type ServerRegistrationProps } from '../../lib/registration';
import { OPTIONS } from '../integration/fixtures';
import { stagedApp } from './staged-app';

/**
 * An App that skips asset bundling by esbuild for the construct assertions; one test bundles for real, and reads the
 * bundle.
 */
export function app(bundle = false): App {
  return bundle ? stagedApp() : new App({ context: { 'aws:cdk:bundling-stacks': [] } });
}

const ENV = { account: '123456789012', region: 'us-east-1' };

/**
 * A stack with a VPC and an instance for registrations to point at, in account 123456789012 and us-east-1. With
 * `agnostic`, the region and account are CloudFormation pseudo parameters.
 */
export function fixture(
  scope: App = app(),
  id = 'Test',
  agnostic = false,
): { stack: Stack; vpc: ec2.Vpc; instance: ec2.Instance } {
  const stack = new Stack(scope, id, agnostic ? {} : { env: ENV });
  const vpc = new ec2.Vpc(stack, 'Vpc', {
    maxAzs: 1,
    natGateways: 0,
    subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }],
  });
  const instance = new ec2.Instance(stack, 'Server', {
    vpc,
    instanceType: new ec2.InstanceType('m4.xlarge'),
    machineImage: ec2.MachineImage.latestAmazonLinux2023(),
    requireImdsv2: true,
  });
  return { stack, vpc, instance };
}

/** A registration of `instance` as server storage1, of backend ebs, of cluster hpc1, with `overrides`. */
export function register(
  stack: Stack,
  instance: ec2.Instance,
  id = 'Registration',
  overrides: Partial<ServerRegistrationProps> = {},
): ServerRegistration {
  return new ServerRegistration(stack, id, {
    instance,
    clusterName: 'hpc1',
    serverName: 'storage1',
    exportPath: '/export/data',
    mountPoint: '/data',
    mountOptions: OPTIONS,
    backend: 'ebs',
    ...overrides,
  });
}
