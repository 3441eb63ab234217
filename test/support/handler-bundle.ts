import * as path from 'path';
import { Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { HANDLER_BUNDLES_ENV } from '../../lib/handler-function';
import { ServerRegistration } from '../../lib/registration';
import { stagedApp } from './staged-app';

/**
 * Synthesizes a stack with one ServerRegistration into `outdir` and returns the directory of the registration handler's
 * asset: the bundle exactly as the app builds it for a deploy, index.js and its source map, by bin/handler-bundle.ts.
 */
export function registrationHandlerAsset(outdir: string): string {
  // Bundled at synth, as the app does, not taken from the bundles npm test prebuilt.
  const prebuilt = process.env[HANDLER_BUNDLES_ENV];
  delete process.env[HANDLER_BUNDLES_ENV];
  try {
    return synthRegistrationAsset(outdir);
  } finally {
    if (prebuilt !== undefined) process.env[HANDLER_BUNDLES_ENV] = prebuilt;
  }
}

function synthRegistrationAsset(outdir: string): string {
  const app = stagedApp({ outdir });
  const stack = new Stack(app, 'Bundle');
  const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 0 });
  const instance = new ec2.Instance(stack, 'Server', {
    vpc,
    instanceType: new ec2.InstanceType('m4.xlarge'),
    machineImage: ec2.MachineImage.latestAmazonLinux2023(),
  });
  new ServerRegistration(stack, 'Registration', {
    instance,
    clusterName: 'hpc1',
    serverName: 'storage1',
    exportPath: '/export/data',
    mountPoint: '/data',
    mountOptions: 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev',
    backend: 'ebs',
  });
  const assembly = app.synth();
  const resources = Object.values(assembly.getStackByName('Bundle').template.Resources) as {
    Type: string;
    Properties: { Runtime?: string; Code?: { S3Key?: string } };
  }[];
  const fn = resources.find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Runtime === 'nodejs22.x');
  const key = fn?.Properties.Code?.S3Key;
  if (!key) throw new Error('the registration function is missing from the synthesized template');
  return path.join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`);
}
