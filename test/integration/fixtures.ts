import {
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeImagesCommand,
  DescribeInstancesCommand,
  EC2Client,
  RunInstancesCommand,
  type Instance,
  type _InstanceType,
} from '@aws-sdk/client-ec2';
import type {
  CloudFormationCustomResourceCreateEvent,
  CloudFormationCustomResourceDeleteEvent,
  CloudFormationCustomResourceUpdateEvent,
} from 'aws-lambda';

/** ResourceProperties as the construct passes them: strings only, plus the ServiceToken CloudFormation adds. */
export type Props = Record<string, string>;

export const OPTIONS = 'nfsvers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,_netdev';

export function props(instanceId: string, overrides: Props = {}): Props {
  return {
    ServiceToken: 'arn:aws:lambda:us-east-1:123456789012:function:provider',
    InstanceId: instanceId,
    ClusterName: 'hpc1',
    ServerName: 'storage1',
    ParameterPrefix: '/storage-server',
    ExportPath: '/export/data',
    MountPoint: '/data',
    MountOptions: OPTIONS,
    Backend: 'ebs',
    ...overrides,
  };
}

/** The stack the events come from, unless a test says another. */
export const STACK_ID = 'arn:aws:cloudformation:us-east-1:123456789012:stack/storage/guid';
/** A second stack that registers the same names: another server's registration. */
export const OTHER_STACK_ID = 'arn:aws:cloudformation:us-east-1:123456789012:stack/other/guid-2';

const common = {
  ServiceToken: 'arn:aws:lambda:us-east-1:123456789012:function:provider',
  // A presigned URL is a credential; the handler must never log it.
  ResponseURL: 'https://example.invalid/response?X-Amz-Signature=SECRET-SIGNATURE',
  StackId: STACK_ID,
  RequestId: 'request-1',
  LogicalResourceId: 'Registration',
  ResourceType: 'Custom::StorageServerRegistration',
};

/** The event as another stack's registration, or another resource of the same stack, sends it. */
export function from<E extends { StackId: string; LogicalResourceId: string }>(
  event: E,
  stackId: string,
  logicalResourceId = 'Registration',
): E {
  return { ...event, StackId: stackId, LogicalResourceId: logicalResourceId };
}

/** The owner mark the handler writes for the events above, by lambda/register/owner.ts. */
export function ownerMark(
  record: 'ring' | 'mount',
  clusterName: string,
  serverName: string,
  stackId = STACK_ID,
  logicalResourceId = 'Registration',
): Record<string, string> {
  return { stackId, logicalResourceId, record, clusterName, serverName };
}

/** The ring record the handler writes for `instance` registered as `serverName` of cluster hpc1. */
export function expectedRing(instance: Instance, serverName: string, backend: string, stackId?: string): Record<string, unknown> {
  return {
    name: serverName,
    role: 'storage',
    instanceId: instance.InstanceId,
    privateIp: instance.PrivateIpAddress,
    privateDnsName: instance.PrivateDnsName,
    availabilityZone: instance.Placement?.AvailabilityZone,
    instanceType: instance.InstanceType,
    backend,
    registeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    owner: ownerMark('ring', 'hpc1', serverName, stackId),
  };
}

export function createEvent(resourceProperties: Props): CloudFormationCustomResourceCreateEvent {
  return { ...common, RequestType: 'Create', ResourceProperties: resourceProperties as never };
}

export function updateEvent(
  physicalResourceId: string,
  resourceProperties: Props,
  oldResourceProperties: Props,
): CloudFormationCustomResourceUpdateEvent {
  return {
    ...common,
    RequestType: 'Update',
    PhysicalResourceId: physicalResourceId,
    ResourceProperties: resourceProperties as never,
    OldResourceProperties: oldResourceProperties as never,
  };
}

export function deleteEvent(
  physicalResourceId: string,
  resourceProperties: Props,
): CloudFormationCustomResourceDeleteEvent {
  return {
    ...common,
    RequestType: 'Delete',
    PhysicalResourceId: physicalResourceId,
    ResourceProperties: resourceProperties as never,
  };
}

/** A VPC and a subnet in moto, created through the EC2 API. */
export async function createSubnet(ec2: EC2Client): Promise<string> {
  const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.20.0.0/16' }));
  const subnet = await ec2.send(
    new CreateSubnetCommand({ VpcId: vpc.Vpc?.VpcId, CidrBlock: '10.20.1.0/24' }),
  );
  return subnet.Subnet?.SubnetId ?? '';
}

/** Launches one instance in the subnet and returns its description as EC2 reports it. */
export async function launchInstance(
  ec2: EC2Client,
  subnetId: string,
  instanceType: _InstanceType = 'm4.xlarge',
): Promise<Instance> {
  const images = await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }));
  const imageId = images.Images?.[0]?.ImageId;
  const run = await ec2.send(
    new RunInstancesCommand({
      ImageId: imageId,
      MinCount: 1,
      MaxCount: 1,
      InstanceType: instanceType,
      SubnetId: subnetId,
    }),
  );
  const id = run.Instances?.[0]?.InstanceId;
  const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id ?? ''] }));
  const instance = described.Reservations?.[0]?.Instances?.[0];
  if (!instance?.PrivateIpAddress)
    throw new Error(`moto did not launch a usable instance: ${JSON.stringify(run)}`);
  return instance;
}

/** Collects what the code under test writes to stdout, the handler's JSON log lines, and keeps it off the console. */
export function captureStdout(): { lines: () => string[]; restore: () => void } {
  const written: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(chunk.toString());
    return true;
  });
  return {
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter((l) => l !== ''),
    restore: () => spy.mockRestore(),
  };
}
