/**
 * What the synth-time tests of ClientMount and mountStorageOn in test/unit/client-mount-*.test.ts share: the script as
 * the document carries it, a stack made as the project's cdk.json makes one, and a stand-in storage server.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, CfnWaitCondition, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ClientMount, ClientMountProps, MountableStorageServer } from '../../lib/client-mount';
import { wholeScript } from '../../lib/script-parts';

const SCRIPTS_DIR = path.join(__dirname, '../../lib/scripts');
export const SCRIPT_PATH = path.join(SCRIPTS_DIR, 'client-mount.sh');
/**
 * The script as the document carries it: client-mount.sh with its parts, client-mount-*.sh and client_mount.py, in
 * place.
 */
export const SCRIPT = wholeScript('client-mount.sh', fs.readFileSync(SCRIPT_PATH, 'utf8'), (part) =>
  fs.readFileSync(path.join(SCRIPTS_DIR, part), 'utf8'),
);
export const ALLOWED = ['10.0.0.0/16'];

/** Auto Scaling groups get a launch template, as with the project's cdk.json, not a launch configuration. */
export const CONTEXT = { '@aws-cdk/aws-autoscaling:generateLaunchTemplateInsteadOfLaunchConfig': true };
export const IMAGE = ec2.MachineImage.latestAmazonLinux2023();

export function newStack(app = new App({ context: CONTEXT })): Stack {
  return new Stack(app, 'Test');
}

export function clientMountStack(props: Partial<ClientMountProps> = {}): { stack: Stack; mount: ClientMount } {
  const stack = newStack();
  const mount = new ClientMount(stack, 'ClientMount', {
    clusterName: 'hpc1',
    allowedServerCidrs: ALLOWED,
    ...props,
  });
  return { stack, mount };
}

/** A stand-in for StorageServer: a security group on TCP 2049, an IP token, a readiness resource. */
export function fakeServer(
  stack: Stack,
  vpc: ec2.IVpc,
): MountableStorageServer & { securityGroup: ec2.SecurityGroup; ready: CfnWaitCondition } {
  const securityGroup = new ec2.SecurityGroup(stack, 'ServerSg', { vpc, description: 'fake storage server' });
  const ready = new CfnWaitCondition(stack, 'ServerReady', {});
  const eni = new ec2.CfnNetworkInterface(stack, 'ServerEni', {
    subnetId: vpc.selectSubnets({ subnetType: ec2.SubnetType.PRIVATE_ISOLATED }).subnetIds[0],
    groupSet: [securityGroup.securityGroupId],
  });
  return {
    clusterName: 'hpc1',
    serverName: 'storage1',
    mountAddress: eni.attrPrimaryPrivateIpAddress,
    exportPath: '/export/data',
    mountPoint: '/data',
    mountOptions: 'nfsvers=4.1,hard,_netdev',
    connections: new ec2.Connections({ securityGroups: [securityGroup], defaultPort: ec2.Port.tcp(2049) }),
    securityGroup,
    ready,
  };
}
