/**
 * The calls that describe existing storage at deploy: FSx's and EFS's file system, their network interfaces or mount
 * targets, and the security group rules on those. The answers are passed on in the API's own shapes; check.ts judges
 * them. Clients are created once per container, with the retries and timeouts of ../aws.ts.
 */
import {
  DescribeNetworkInterfacesCommand,
  EC2Client,
  paginateDescribeSecurityGroupRules,
  paginateDescribeSubnets,
  paginateGetManagedPrefixListEntries,
  type Subnet,
} from '@aws-sdk/client-ec2';
import {
  DescribeFileSystemsCommand as DescribeEfsCommand,
  DescribeMountTargetSecurityGroupsCommand,
  EFSClient,
  paginateDescribeMountTargets,
  type FileSystemDescription,
  type MountTargetDescription,
} from '@aws-sdk/client-efs';
import { DescribeFileSystemsCommand, FSxClient, paginateDescribeVolumes, type FileSystem, type Volume } from '@aws-sdk/client-fsx';
import { CLIENT_CONFIG } from '../aws';
import { errorName } from '../log';
import { withPrefixListEntries, type GroupRule } from './access';

const ec2 = new EC2Client(CLIENT_CONFIG);
const efs = new EFSClient(CLIENT_CONFIG);
const fsx = new FSxClient(CLIENT_CONFIG);

/** Every item of every page of one of the SDK's paginators. */
async function everyPage<P, T>(pages: AsyncIterable<P>, items: (page: P) => T[] | undefined): Promise<T[]> {
  const found: T[] = [];
  for await (const page of pages) found.push(...(items(page) ?? []));
  return found;
}

/** The FSx file system, or undefined when FSx knows no file system of that id in this Region. */
export async function describeFsx(fileSystemId: string): Promise<FileSystem | undefined> {
  try {
    const out = await fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: [fileSystemId] }));
    return out.FileSystems?.find((f) => f.FileSystemId === fileSystemId);
  } catch (err) {
    if (errorName(err) === 'FileSystemNotFound') return undefined;
    throw err;
  }
}

/** The EFS file system, or undefined when EFS knows no file system of that id in this Region. */
export async function describeEfs(fileSystemId: string): Promise<FileSystemDescription | undefined> {
  try {
    const out = await efs.send(new DescribeEfsCommand({ FileSystemId: fileSystemId }));
    return out.FileSystems?.find((f) => f.FileSystemId === fileSystemId);
  } catch (err) {
    if (errorName(err) === 'FileSystemNotFound') return undefined;
    throw err;
  }
}

/** Every subnet of a VPC, every page. */
export function vpcSubnets(vpcId: string): Promise<Subnet[]> {
  return everyPage(paginateDescribeSubnets({ client: ec2 }, { Filters: [{ Name: 'vpc-id', Values: [vpcId] }] }), (p) => p.Subnets);
}

/** Every volume of an FSx file system, every page. */
export function fsxVolumes(fileSystemId: string): Promise<Volume[]> {
  return everyPage(paginateDescribeVolumes({ client: fsx }, { Filters: [{ Name: 'file-system-id', Values: [fileSystemId] }] }), (p) => p.Volumes);
}

/** Every mount target of an EFS file system, every page. */
export function efsMountTargets(fileSystemId: string): Promise<MountTargetDescription[]> {
  return everyPage(paginateDescribeMountTargets({ client: efs }, { FileSystemId: fileSystemId }), (p) => p.MountTargets);
}

/** The security groups of an EFS mount target. */
export async function mountTargetGroups(mountTargetId: string): Promise<string[]> {
  const out = await efs.send(new DescribeMountTargetSecurityGroupsCommand({ MountTargetId: mountTargetId }));
  return out.SecurityGroups ?? [];
}

/** The security groups of each network interface, by its id; an interface EC2 does not return is absent. */
export async function interfaceGroups(networkInterfaceIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = await ec2.send(new DescribeNetworkInterfacesCommand({ NetworkInterfaceIds: [...networkInterfaceIds] }));
  return new Map((out.NetworkInterfaces ?? []).map((n) => [n.NetworkInterfaceId ?? '', (n.Groups ?? []).map((g) => g.GroupId ?? '')]));
}

/**
 * The IPv4 and IPv6 CIDRs of a managed prefix list, every page; undefined where EC2 refuses them (a list of another
 * account not shared with this one, or an AWS-managed list this role may not read).
 */
async function prefixListEntries(prefixListId: string): Promise<string[] | undefined> {
  try {
    const entries = await everyPage(paginateGetManagedPrefixListEntries({ client: ec2 }, { PrefixListId: prefixListId }), (p) => p.Entries);
    return entries.map((e) => e.Cidr ?? '').filter((c) => c !== '');
  } catch (err) {
    if (/^(UnauthorizedOperation|AccessDenied|InvalidPrefixListID)/.test(errorName(err))) return undefined;
    throw err;
  }
}

/** The rules of the groups, ingress and egress, every page; a rule naming a prefix list as one per entry. */
export async function groupRules(groupIds: readonly string[]): Promise<GroupRule[]> {
  if (groupIds.length === 0) return [];
  const pages = paginateDescribeSecurityGroupRules({ client: ec2 }, { Filters: [{ Name: 'group-id', Values: [...groupIds] }] });
  return withPrefixListEntries(await everyPage(pages, (p) => p.SecurityGroupRules), prefixListEntries);
}
