import { CfnOutput, Stack } from 'aws-cdk-lib';
import { fstabLine } from '../lambda/register/contract';
import { benchEstimate } from './bench-document';
import type { ClientMount } from './client-mount';
import type { StoragePlan, ThroughputEstimate } from './sizing';
import { BACKEND_SIZING } from './sizing/registry';
import type { StorageServer } from './storage-server';

/**
 * The app stack's description and outputs, per backend: what an administrator reads after a deploy, and what
 * `npm run bench:cluster` reads: BenchDocumentName, ClientTag, BenchEstimate, MountParameterName; what `npm run copy`
 * reads: CopyDocumentName and ClientTag; and what another app
 * imports the server by: MountParameterName's record and SecurityGroupId. An output that means nothing for a backend is
 * left out, such as PrivateIp or clusterware on FSx, or a file system id on an NFS server. The descriptions name what
 * there is: a server, or a file system. A backend's own words are its planner descriptor's
 * `outputs`, reached through lib/sizing/registry.ts.
 */

/** The stack's description: `NFS server <server> of HPC cluster <cluster>`, or the FSx file system. */
export function stackDescription(server: StorageServer): string {
  const { what } = BACKEND_SIZING[server.plan.backend].outputs;
  return `${what} ${server.serverName} of HPC cluster ${server.clusterName}`;
}

/** Adds to `stack` the outputs of `server`, and of the cluster's client mount when this stack has it. */
export function addStackOutputs(stack: Stack, server: StorageServer, clientTag: string, clientMount?: ClientMount): void {
  const words = BACKEND_SIZING[server.plan.backend].outputs;
  const fileSystemId = server.fileSystemId;
  const it = fileSystemId !== undefined ? 'the file system' : 'the server';
  const output = (id: string, description: string, value: string) => new CfnOutput(stack, id, { description, value });

  output('PlanSummary', 'What the planner chose: layout, sustained and burst throughput, monthly cost', planSummary(server.plan));
  if (fileSystemId !== undefined) {
    output('FileSystemId', `Id of the ${words.what} (aws fsx describe-file-systems --file-system-ids)`, fileSystemId);
    output('FileSystemDnsName', `DNS name of the ${words.what} (clients mount it)`, server.mountAddress);
  } else {
    output('PrivateIp', 'Stable private IP of the NFS server (its network interface, kept when the instance is replaced)',
      server.mountAddress);
  }
  // The source as the fstab line a client writes has it, in the form of the file system type.
  const [source] = fstabLine(server.mountAddress, server.exportPath, server.mountPoint, server.mountOptions, server.fsType).split(' ');
  output('MountCommand', words.mountCommand,
    `sudo mkdir -p ${server.mountPoint} && sudo mount -t ${server.fsType} -o ${server.mountOptions} ${source} ${server.mountPoint}`);
  output('RingParameterName', `SSM parameter with the ring record of ${it}`, server.ringParameterName);
  output('MountParameterName', 'SSM parameter with the mount configuration clients read', server.mountParameterName);
  // One group per backend today; another app imports the server with it (StorageServer.fromStorageServerAttributes).
  const groups = server.connections.securityGroups;
  if (groups.length === 1) {
    output('SecurityGroupId', `Security group of ${it}: another CDK app imports it by this and the mount record`,
      groups[0].securityGroupId);
  }
  output('AlarmTopicArn', `SNS topic the alarms of ${it} notify (subscribe to it; alarmEmail did so for one address)`,
    server.alarmTopic.topicArn);
  output('BenchDocumentName', 'SSM document of the cluster benchmark (npm run bench:cluster -- --stack <this stack>)',
    server.benchDocumentName);
  output('CopyDocumentName', `SSM document that copies another storage of the cluster into ${it} (npm run copy -- --to ${server.serverName})`,
    server.copyDocumentName);
  if (server.quotaDocumentName !== undefined) {
    output('QuotaDocumentName', `SSM document that sets ${it}'s quotas on a node, or with action=report prints use by id`,
      server.quotaDocumentName);
  }
  output('BenchEstimate', fileSystemId !== undefined
    ? 'The plan\'s sustained and burst throughput of the file system, read by npm run bench:cluster'
    : 'The plan\'s sustained and burst throughput and the server\'s memory, read by npm run bench:cluster',
  JSON.stringify(benchEstimate(server.plan)));
  const dashboard = server.monitoring.dashboard;
  if (dashboard) output('DashboardName', `CloudWatch dashboard of ${it}`, dashboard.dashboardName);
  output('ClientTag', 'Tag client nodes with this (key=value) and State Manager mounts the storage on them', clientTag);
  if (clientMount) {
    output('ClientReadPolicyArn', 'Attach to client nodes\' instance role: lets the mount script read the mount configs',
      clientMount.readPolicy.managedPolicyArn);
    output('ClientMountDocumentName',
      'SSM document that mounts the cluster\'s storage on a node (run it by hand or let the association run it)',
      clientMount.document.ref);
  }
  if (server.clusterware) {
    output('ClusterwareTokenSecretArn', 'Secret holding the clusterware token: configure the master (loginIp) with its value',
      server.clusterware.tokenSecret.secretArn);
    output('ClusterwareUuid', 'Cluster uuid to configure on the clusterware master', server.clusterware.clusterUuid);
  }
}

/**
 * One line: the backend's name and what it chose, in its descriptor's words, the throughput it plans for, and its cost.
 * The throughput is the sustained one once every burst credit is spent, the burst while credits last, and the average
 * over a 1 TB transfer that starts with full credits where that differs, as on an NFS server.
 */
export function planSummary(plan: StoragePlan): string {
  const t = plan.throughput;
  const { outputs } = BACKEND_SIZING[plan.backend];
  const transfer = t.readMBps === t.baselineReadMBps && t.writeMBps === t.baselineWriteMBps
    ? ''
    : `; ${mbps(t.readMBps)} read / ${mbps(t.writeMBps)} write averaged over a 1 TB transfer`;
  return `${plan.backend} ${outputs.layout(plan)}; ${sustainedAndBurst(t)}${transfer} (limited by ${t.limitedBy}); ` +
    `~$${plan.monthlyCostUsd.toFixed(0)}/month ${outputs.costNote}`;
}

/** `sustained R read / W write, burst up to R read / W write`; one figure where the burst is the sustained one. */
function sustainedAndBurst(t: ThroughputEstimate): string {
  if (t.burstReadMBps === t.baselineReadMBps && t.burstWriteMBps === t.baselineWriteMBps) {
    return `sustained and burst ${mbps(t.baselineReadMBps)} read / ${mbps(t.baselineWriteMBps)} write`;
  }
  return `sustained ${mbps(t.baselineReadMBps)} read / ${mbps(t.baselineWriteMBps)} write, ` +
    `burst up to ${mbps(t.burstReadMBps)} read / ${mbps(t.burstWriteMBps)} write`;
}

function mbps(value: number): string {
  return `${Math.round(value)} MB/s`;
}
