#!/usr/bin/env node
/**
 * The deployable app: context parameters -> StorageServerStack, or ExistingStorageStack with existingStorage
 * (docs/design.md, section 4).
 * Usage: npx cdk deploy -c capacityTiB=10 -c clusterName=hpc1 -c clientCidrs=10.0.0.0/16
 *    or: npx cdk deploy -c existingStorage=efs:fs-0123456789abcdef0 -c vpcId=vpc-... -c serverName=home -c mountPoint=/home ...
 */
import { App } from 'aws-cdk-lib';
import { checkContextKeys, parseAppContext } from '../lib/context';
import { useCachedHandlerBundles } from './handler-bundle';
import { ExistingStorageStack } from '../lib/existing-storage-stack';
import { StorageServerStack } from '../lib/storage-server-stack';

// From the sources, the handlers are bundled into .handler-bundles/ once per state of their inputs, not at every
// synth.
useCachedHandlerBundles();
const app = new App();
try {
  // A misspelt key such as -c capacityTB=10 would otherwise be ignored and the default deployed.
  checkContextKeys(Object.keys(app.node.getAllContext()));
  // Where the CLI deploys, the account and region of the credentials, unset offline: an alarm topic elsewhere is refused.
  const target = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  // Looking up an existing VPC needs a concrete account and region; a new VPC, as in an offline synth, does not.
  const lookupEnv = (vpcId: string | undefined) => (vpcId !== undefined ? target : undefined);
  const { existing, server } = parseAppContext((key) => app.node.tryGetContext(key), target);
  // The name is the stackName key, or StorageServer-<clusterName>-<serverName> for names no other pair shares
  // (StorageServerExisting-... for existing storage).
  if (existing !== undefined) {
    // Storage that exists already: its registration alone, nothing planned.
    new ExistingStorageStack(app, existing.stackName, { context: existing, env: lookupEnv(existing.vpcId) });
  } else {
    // The plan the context was checked against goes down to the server: one plan per synth.
    const { context, planned, stated } = server;
    new StorageServerStack(app, context.stackName, {
      context,
      planned,
      statedKeys: stated,
      // No description here: the stack writes one naming what its backend deploys, such as an NFS server.
      env: lookupEnv(context.vpcId),
    });
  }
} catch (e) {
  // A bad parameter is the user's to fix: print the message alone, without a stack trace.
  console.error(`Error: ${(e as Error).message}`);
  process.exit(1);
}
