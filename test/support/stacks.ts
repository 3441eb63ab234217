import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ContextKey, parseContext } from '../../lib/context';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { StorageServerStack } from '../../lib/storage-server-stack';

/** The app's stack for a set of context values, as `cdk synth -c key=value ...` would build it. */
export function appStack(context: Partial<Record<ContextKey, string>> = {}, app = new App()): StorageServerStack {
  const ctx = parseContext((key) => context[key]);
  return new StorageServerStack(app, 'StorageServer', { context: ctx });
}

/** A StorageServer in a bare stack with its own VPC, for construct-level assertions. */
export function serverStack(props: Partial<StorageServerProps> = {}): { stack: Stack; server: StorageServer; template: Template } {
  const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  const server = new StorageServer(stack, 'Storage', { vpc, ...props });
  return { stack, server, template: Template.fromStack(stack) };
}

/** The variants the issue names: every one must synthesize, lint clean and carry the planner's choice. */
export const VARIANTS: { name: string; context: Partial<Record<ContextKey, string>> }[] = [
  { name: 'defaults', context: {} },
  { name: 'capacityTiB=2', context: { capacityTiB: '2' } },
  { name: 'capacityTiB=5', context: { capacityTiB: '5' } },
  { name: 'capacityTiB=10', context: { capacityTiB: '10' } },
  { name: 'capacityTiB=16', context: { capacityTiB: '16' } },
  { name: 'capacityTiB=20', context: { capacityTiB: '20' } },
  { name: 'capacityTiB=40', context: { capacityTiB: '40' } },
  { name: 'backend=ebs capacityTiB=30', context: { backend: 'ebs', capacityTiB: '30' } },
  { name: 'backend=instance-store capacityTiB=3', context: { backend: 'instance-store', capacityTiB: '3' } },
  { name: 'loginIp=10.0.1.10 clientCidrs=10.0.0.0/16', context: { loginIp: '10.0.1.10', clientCidrs: '10.0.0.0/16' } },
];
