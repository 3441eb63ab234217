/**
 * The update guard's questions to AWS. What does the stack hold now, by CloudFormation's record and by what EC2 and FSx
 * say of each resource? Before a Create: does anything outside the stack already hold this server's data? Before a
 * refusal: is the stack rolling back? The guard decides everything else from the event alone.
 */
import { CloudFormationClient, DescribeStacksCommand, paginateListStackResources } from '@aws-sdk/client-cloudformation';
import {
  DescribeInstanceTypesCommand,
  EC2Client,
  paginateDescribeInstances,
  paginateDescribeNetworkInterfaces,
  paginateDescribeVolumes,
  type Filter,
} from '@aws-sdk/client-ec2';
import { DescribeFileSystemsCommand, FSxClient, paginateDescribeFileSystems } from '@aws-sdk/client-fsx';

import type { AdministrativeActionView } from './growth-interval';
import { HELD_TYPES, type HeldDescription, type HeldResource, type HeldType } from './held';
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
  try {
    const live = { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] };
    for await (const page of paginateDescribeInstances({ client: ec2 }, { Filters: [tag, live] })) {
      for (const r of page.Reservations ?? []) for (const i of r.Instances ?? []) found.push({ kind: 'instance', id: i.InstanceId ?? '?' });
    }
    for await (const page of paginateDescribeVolumes({ client: ec2 }, { Filters: [tag] })) {
      for (const v of page.Volumes ?? []) found.push({ kind: 'volume', id: v.VolumeId ?? '?' });
    }
    for await (const page of paginateDescribeNetworkInterfaces({ client: ec2 }, { Filters: [tag] })) {
      for (const n of page.NetworkInterfaces ?? []) found.push({ kind: 'network-interface', id: n.NetworkInterfaceId ?? '?' });
    }
    // DescribeFileSystems has no tag filter: the tags come with each file system.
    for await (const page of paginateDescribeFileSystems({ client: fsx }, {})) {
      for (const f of page.FileSystems ?? []) {
        const tagged = (f.Tags ?? []).some((t) => t.Key === SERVER_ID_TAG && t.Value === serverId);
        if (tagged && f.Lifecycle !== 'DELETING') found.push({ kind: 'file-system', id: f.FileSystemId ?? '?' });
      }
    }
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
 * The stack's status, by the event's `StackId`, or why the guard could not read it. The SDK retries DescribeStacks
 * within the attempts of status-read.ts and `deadlineMs`, so throttling while CloudFormation rolls back does not read
 * as "not rolling back".
 */
export async function stackStatus(stackId: string, deadlineMs: number = STATUS_DEADLINE_MS): Promise<StackStatusRead> {
  const cfn = new CloudFormationClient(STATUS_CLIENT_CONFIG);
  const started = Date.now();
  try {
    const out = await cfn.send(new DescribeStacksCommand({ StackName: stackId }), { abortSignal: AbortSignal.timeout(deadlineMs) });
    const status = out.Stacks?.[0]?.StackStatus;
    const read = { attempts: out.$metadata.attempts, elapsedMs: Date.now() - started };
    return status === undefined ? { error: 'DescribeStacks answered without the stack', ...read } : { status, ...read };
  } catch (err) {
    return { error: statusReadError(err, deadlineMs), attempts: attemptsOf(err), elapsedMs: Date.now() - started };
  } finally {
    cfn.destroy();
  }
}

/** Nested stacks deeper than this are not followed; CloudFormation's own nesting is far shallower in practice. */
const MAX_NESTING = 15;

/**
 * The resources of held types that CloudFormation holds now in the guard's root stack and every nested stack below it.
 * They are read with ListStackResources, paginated, since DescribeStackResources returns only the first 100. The root
 * is DescribeStacks' `RootId`, "the stack ID of the top-level stack to which the nested stack ultimately belongs" per
 * the CloudFormation API reference, or else the stack itself. Deleted resources and resources without a physical id are
 * left out.
 */
export async function heldResources(stackId: string): Promise<HeldResource[]> {
  const cfn = new CloudFormationClient({});
  const held: HeldResource[] = [];
  const walk = async (stackName: string, prefix: string, depth: number): Promise<void> => {
    for await (const page of paginateListStackResources({ client: cfn }, { StackName: stackName })) {
      for (const r of page.StackResourceSummaries ?? []) {
        const id = r.PhysicalResourceId ?? '';
        if (id === '' || r.ResourceStatus === 'DELETE_COMPLETE') continue;
        const path = `${prefix}${r.LogicalResourceId ?? '?'}`;
        if (r.ResourceType === 'AWS::CloudFormation::Stack') {
          if (depth >= MAX_NESTING) throw new Error(`nested stacks deeper than ${MAX_NESTING} below the root at ${path}`);
          await walk(id, `${path}/`, depth + 1);
        } else if ((HELD_TYPES as readonly string[]).includes(r.ResourceType ?? '')) {
          held.push({ path, type: r.ResourceType as HeldType, physicalId: id });
        }
      }
    }
  };
  try {
    const own = await cfn.send(new DescribeStacksCommand({ StackName: stackId }));
    await walk(own.Stacks?.[0]?.RootId ?? stackId, '', 0);
  } finally {
    cfn.destroy();
  }
  return held;
}

/**
 * What EC2 and FSx say of `resources`: each one's `storage-server:id` tag and, for instances, whether the type has
 * instance store. It filters by id rather than passing the ids parameter, so a resource already gone is simply not
 * described.
 */
export async function describeHeld(resources: readonly HeldResource[]): Promise<HeldDescription[]> {
  const ids = (type: HeldType) => resources.filter((r) => r.type === type).map((r) => r.physicalId);
  const tagOf = (tags: readonly { Key?: string; Value?: string }[] | undefined) => tags?.find((t) => t.Key === SERVER_ID_TAG)?.Value;
  const ec2 = new EC2Client({});
  const fsx = new FSxClient({});
  const out: HeldDescription[] = [];
  try {
    const instances = ids('AWS::EC2::Instance');
    const types = new Map<string, string[]>();
    for (const chunk of chunks(instances)) {
      const filters = [{ Name: 'instance-id', Values: chunk }, { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }];
      for await (const page of paginateDescribeInstances({ client: ec2 }, { Filters: filters })) {
        for (const r of page.Reservations ?? []) {
          for (const i of r.Instances ?? []) {
            const serverId = tagOf(i.Tags);
            if (serverId === undefined || !i.InstanceId || !i.InstanceType) continue;
            types.set(i.InstanceType, [...(types.get(i.InstanceType) ?? []), `${i.InstanceId}\n${serverId}`]);
          }
        }
      }
    }
    for (const chunk of chunks([...types.keys()])) {
      const page = await ec2.send(new DescribeInstanceTypesCommand({ InstanceTypes: chunk as never }));
      for (const t of page.InstanceTypes ?? []) {
        for (const entry of types.get(t.InstanceType ?? '') ?? []) {
          const [physicalId, serverId] = entry.split('\n');
          out.push({ physicalId, serverId, instanceStore: t.InstanceStorageSupported === true });
        }
      }
    }
    for (const chunk of chunks(ids('AWS::EC2::Volume'))) {
      for await (const page of paginateDescribeVolumes({ client: ec2 }, { Filters: [{ Name: 'volume-id', Values: chunk }] })) {
        for (const v of page.Volumes ?? []) if (v.VolumeId) out.push({ physicalId: v.VolumeId, serverId: tagOf(v.Tags) });
      }
    }
    for (const chunk of chunks(ids('AWS::EC2::NetworkInterface'))) {
      const filters = [{ Name: 'network-interface-id', Values: chunk }];
      for await (const page of paginateDescribeNetworkInterfaces({ client: ec2 }, { Filters: filters })) {
        for (const n of page.NetworkInterfaces ?? []) {
          if (n.NetworkInterfaceId) out.push({ physicalId: n.NetworkInterfaceId, serverId: tagOf(n.TagSet) });
        }
      }
    }
    const fileSystems = new Set(ids('AWS::FSx::FileSystem'));
    if (fileSystems.size > 0) {
      // By the whole list: DescribeFileSystems with FileSystemIds fails when one of them is gone.
      for await (const page of paginateDescribeFileSystems({ client: fsx }, {})) {
        for (const f of page.FileSystems ?? []) {
          if (f.FileSystemId && fileSystems.has(f.FileSystemId) && f.Lifecycle !== 'DELETING') {
            out.push({ physicalId: f.FileSystemId, serverId: tagOf(f.Tags), fileSystemType: f.FileSystemType });
          }
        }
      }
    }
  } finally {
    ec2.destroy();
    fsx.destroy();
  }
  return out;
}

/** Ids in batches of 100: a bound chosen small, as AWS's references for these calls publish no figure this code relies on. */
function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += 100) out.push(list.slice(i, i + 100));
  return out;
}

/** The physical id of the resource `logicalId` among the stack's own resources, not a nested stack's; or undefined. */
export async function physicalIdIn(stackId: string, logicalId: string): Promise<string | undefined> {
  const cfn = new CloudFormationClient({});
  try {
    for await (const page of paginateListStackResources({ client: cfn }, { StackName: stackId })) {
      const found = (page.StackResourceSummaries ?? []).find((r) => r.LogicalResourceId === logicalId && r.ResourceStatus !== 'DELETE_COMPLETE');
      if (found?.PhysicalResourceId) return found.PhysicalResourceId;
    }
    return undefined;
  } finally {
    cfn.destroy();
  }
}

/** The administrative actions DescribeFileSystems lists for the file system; none when FSx does not know it. */
export async function fileSystemActions(fileSystemId: string): Promise<AdministrativeActionView[]> {
  const fsx = new FSxClient({});
  try {
    const out = await fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: [fileSystemId] }));
    return (out.FileSystems?.[0]?.AdministrativeActions ?? []) as AdministrativeActionView[];
  } catch (err) {
    if ((err as { name?: string }).name === 'FileSystemNotFound') return [];
    throw err;
  } finally {
    fsx.destroy();
  }
}

