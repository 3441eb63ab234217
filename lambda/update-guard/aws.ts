/**
 * The update guard's two questions to AWS: does anything already hold this server's data (before a Create),
 * and is the stack rolling back (before a refusal). Everything else the guard decides from the event alone.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  DescribeInstancesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeVolumesCommand,
  EC2Client,
  type Filter,
} from '@aws-sdk/client-ec2';
import { DescribeFileSystemsCommand, FSxClient } from '@aws-sdk/client-fsx';

import { SERVER_ID_TAG, type TaggedResource } from './wire';
import { STATUS_CLIENT_CONFIG, STATUS_DEADLINE_MS, attemptsOf, statusReadError, type StackStatusRead } from './status-read';

/**
 * The live resources tagged with `serverId`: instances not terminated, volumes, network interfaces, FSx file
 * systems not being deleted. Paginated to the end.
 */
export async function findServerResources(serverId: string): Promise<TaggedResource[]> {
  const ec2 = new EC2Client({});
  const fsx = new FSxClient({});
  const tag: Filter = { Name: `tag:${SERVER_ID_TAG}`, Values: [serverId] };
  const found: TaggedResource[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await ec2.send(new DescribeInstancesCommand({
        Filters: [tag, { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }],
        NextToken: token,
      }));
      for (const r of page.Reservations ?? []) for (const i of r.Instances ?? []) found.push({ kind: 'instance', id: i.InstanceId ?? '?' });
      token = page.NextToken;
    } while (token);
    do {
      const page = await ec2.send(new DescribeVolumesCommand({ Filters: [tag], NextToken: token }));
      for (const v of page.Volumes ?? []) found.push({ kind: 'volume', id: v.VolumeId ?? '?' });
      token = page.NextToken;
    } while (token);
    do {
      const page = await ec2.send(new DescribeNetworkInterfacesCommand({ Filters: [tag], NextToken: token }));
      for (const n of page.NetworkInterfaces ?? []) found.push({ kind: 'network-interface', id: n.NetworkInterfaceId ?? '?' });
      token = page.NextToken;
    } while (token);
    do {
      // DescribeFileSystems has no tag filter: the tags come with each file system.
      const page = await fsx.send(new DescribeFileSystemsCommand({ NextToken: token }));
      for (const f of page.FileSystems ?? []) {
        const tagged = (f.Tags ?? []).some((t) => t.Key === SERVER_ID_TAG && t.Value === serverId);
        if (tagged && f.Lifecycle !== 'DELETING') found.push({ kind: 'file-system', id: f.FileSystemId ?? '?' });
      }
      token = page.NextToken;
    } while (token);
  } finally {
    // The clients' keep-alive sockets would keep a process alive after the handler returns.
    ec2.destroy();
    fsx.destroy();
  }
  return found;
}

/** The stack status in which CloudFormation sends the guard the Update back to the last good properties. */
export const ROLLBACK_STATUS = 'UPDATE_ROLLBACK_IN_PROGRESS';

/**
 * The stack's status (`StackId` from the event), or why the guard could not read it. DescribeStacks is retried by the
 * SDK within the bounds of status-read.ts (attempts, deadline), so throttling while CloudFormation rolls back does not
 * read as "not rolling back".
 */
export async function stackStatus(stackId: string): Promise<StackStatusRead> {
  const cfn = new CloudFormationClient(STATUS_CLIENT_CONFIG);
  const started = Date.now();
  try {
    const out = await cfn.send(new DescribeStacksCommand({ StackName: stackId }), { abortSignal: AbortSignal.timeout(STATUS_DEADLINE_MS) });
    const status = out.Stacks?.[0]?.StackStatus;
    const read = { attempts: out.$metadata.attempts, elapsedMs: Date.now() - started };
    return status === undefined ? { error: 'DescribeStacks answered without the stack', ...read } : { status, ...read };
  } catch (err) {
    return { error: statusReadError(err), attempts: attemptsOf(err), elapsedMs: Date.now() - started };
  } finally {
    cfn.destroy();
  }
}
