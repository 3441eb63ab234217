/**
 * `StorageServer.grantMount`: a client role may read its server's mount record, as client-mount.sh with `--server`
 * reads it, and its tombstone, and nothing else, decided by the IAM policy simulator over the synthesized template
 * (test/support/iam-eval.ts).
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import { mountParameterName, ringParameterName } from '../../lambda/register/contract';
import { StorageServer } from '../../lib/storage-server';
import { ENV, TemplatePolicies } from '../support/iam-eval';

const STACK = 'GrantTest';

/** A server of cluster `hpc1` named `home`, and a client role it granted, in a resolved template. */
function granted(): TemplatePolicies {
  const stack = new Stack(new App(), STACK, { env: { account: ENV.account, region: ENV.region } });
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
  const server = new StorageServer(stack, 'Storage', { vpc, clusterName: 'hpc1', serverName: 'home', capacityTiB: 1 });
  const role = new iam.Role(stack, 'ClientRole', { assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com') });
  server.grantMount(role);
  return new TemplatePolicies(Template.fromStack(stack).toJSON(), STACK);
}

const t = granted();
const role = t.logicalId('AWS::IAM::Role', /^ClientRole/);
const parameter = (name: string) => t.arn('ssm', `parameter${name}`);
const ask = (action: string, name: string) =>
  t.decide({ principal: t.roleArn(role), identityPolicies: t.identityPolicies(role), action, resources: [parameter(name)] });

test.each([
  ['ssm:GetParameter', mountParameterName('/storage-server', 'hpc1', 'home'), 'Allowed'],
  ['ssm:GetParameters', '/storage-server/hpc1/storage/home/mount', 'Allowed'],
  ['ssm:GetParametersByPath', '/storage-server/hpc1/storage/home', 'Allowed'],
  // Its tombstone, by which client-mount.sh tells its removal from a replacement; no other server's.
  ['ssm:GetParameters', '/storage-server/hpc1/removed/home', 'Allowed'],
  ['ssm:GetParameters', '/storage-server/hpc1/removed/scratch', 'ImplicitlyDenied'],
  ['ssm:GetParametersByPath', '/storage-server/hpc1/removed', 'ImplicitlyDenied'],
  // Another server of the cluster, the cluster's whole path, the ring record, another cluster, and any write.
  ['ssm:GetParameter', '/storage-server/hpc1/storage/scratch/mount', 'ImplicitlyDenied'],
  ['ssm:GetParametersByPath', '/storage-server/hpc1/storage', 'ImplicitlyDenied'],
  ['ssm:GetParameter', ringParameterName('/storage-server', 'hpc1', 'home'), 'ImplicitlyDenied'],
  ['ssm:GetParameter', '/storage-server/hpc2/storage/home/mount', 'ImplicitlyDenied'],
  ['ssm:PutParameter', '/storage-server/hpc1/storage/home/mount', 'ImplicitlyDenied'],
])('the granted role: %s on %s is %s', async (action, name, decision) => {
  expect(await ask(action, name)).toBe(decision);
});
