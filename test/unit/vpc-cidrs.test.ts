/**
 * The VPC CIDRs handler, lambda/vpc-cidrs, OPENZFS-ENDPOINT-CIDR in docs/sources/fsx-rules.md. Against moto's EC2, a
 * VPC with a secondary CIDR block answers both, comma-joined, for the client-mount document's allowed servers. The
 * construct of a looked-up VPC's stack puts that answer there, where the app's own VPC keeps its one block.
 */
import { DescribeVpcsCommand, EC2Client, AssociateVpcCidrBlockCommand, CreateVpcCommand, DisassociateVpcCidrBlockCommand } from '@aws-sdk/client-ec2';
import { Template } from 'aws-cdk-lib/assertions';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { associatedCidrs, parseVpcCidrsProperties, RESOURCE_TYPE } from '../../lambda/vpc-cidrs/contract';
import { TemplatePolicies } from '../support/iam-eval';
import { MOTO_SETUP_TIMEOUT_MS, startMoto, type Moto } from '../support/moto';
import { appStack, lookedUpAppStack } from '../support/stacks';

const event = (requestType: 'Create' | 'Update' | 'Delete', vpcId: unknown): CdkCustomResourceEvent => ({
  RequestType: requestType, ServiceToken: 't', ResponseURL: 'https://example.invalid/', StackId: 's', RequestId: 'r',
  LogicalResourceId: 'VpcCidrs', ResourceType: RESOURCE_TYPE, ResourceProperties: { ServiceToken: 't', VpcId: vpcId },
  ...(requestType === 'Create' ? {} : { PhysicalResourceId: String(vpcId), OldResourceProperties: {} }),
} as CdkCustomResourceEvent);

describe('against moto: the associated blocks of a VPC', () => {
  let moto: Moto;
  let ec2: EC2Client;
  let handler!: typeof import('../../lambda/vpc-cidrs/index').handler;
  const saved = { ...process.env };

  beforeAll(async () => {
    moto = await startMoto();
    Object.assign(process.env, { AWS_ENDPOINT_URL: moto.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing' });
    ec2 = new EC2Client({});
    // A fresh module: its client is made at import, after the endpoint above is set.
    await jest.isolateModulesAsync(async () => { ({ handler } = await import('../../lambda/vpc-cidrs/index')); });
  }, MOTO_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    process.env = saved;
    await moto?.stop();
  });

  test('primary and secondary, in EC2\'s order; a disassociated block is left out', async () => {
    const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.20.0.0/16' }))).Vpc!.VpcId!;
    await ec2.send(new AssociateVpcCidrBlockCommand({ VpcId: vpcId, CidrBlock: '100.64.0.0/16' }));
    const gone = await ec2.send(new AssociateVpcCidrBlockCommand({ VpcId: vpcId, CidrBlock: '10.30.0.0/24' }));
    await expect(handler(event('Create', vpcId))).resolves.toEqual({ PhysicalResourceId: vpcId, Data: { Cidrs: '10.20.0.0/16,100.64.0.0/16,10.30.0.0/24' } });
    await ec2.send(new DisassociateVpcCidrBlockCommand({ AssociationId: gone.CidrBlockAssociation!.AssociationId! }));
    const listed = (await ec2.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }))).Vpcs![0].CidrBlockAssociationSet!;
    // moto keeps the block, marked: the handler reads the state, as on AWS.
    expect(listed.map((a) => `${a.CidrBlock} ${a.CidrBlockState?.State}`)).toContain('10.30.0.0/24 disassociated');
    await expect(handler(event('Update', vpcId))).resolves.toEqual({ PhysicalResourceId: vpcId, Data: { Cidrs: '10.20.0.0/16,100.64.0.0/16' } });
  });

  test('a VPC EC2 does not know fails the deploy; Delete reads nothing', async () => {
    await expect(handler(event('Create', 'vpc-0123456789abcdef0'))).rejects.toThrow(/vpc-0123456789abcdef0/);
    await expect(handler(event('Delete', 'vpc-0123456789abcdef0'))).resolves.toEqual({ PhysicalResourceId: 'vpc-0123456789abcdef0' });
  });
});

describe('what the handler reads and returns', () => {
  const VPC = 'vpc-0123456789abcdef0';
  const block = (CidrBlock: string, State = 'associated') => ({ CidrBlock, CidrBlockState: { State } });

  test.each([[undefined], [''], ['vpc-123'], ['subnet-0123456789abcdef0'], [['vpc-0123456789abcdef0']]])('VpcId %j is refused, naming it', (vpcId) => {
    expect(() => parseVpcCidrsProperties({ VpcId: vpcId })).toThrow(/^ResourceProperties\.VpcId must be a VPC id such as 'vpc-0123456789abcdef0', got/);
  });

  test('only associated blocks; associating and disassociating ones are not yet or no longer the VPC\'s', () => {
    expect(associatedCidrs(VPC, { VpcId: VPC, CidrBlockAssociationSet: [block('10.0.0.0/16'), block('10.1.0.0/16', 'associating'), block('10.2.0.0/16', 'disassociating')] }))
      .toEqual(['10.0.0.0/16']);
  });

  test.each([
    ['a block that is not a CIDR', '10.0.0/16', /"10\.0\.0\/16" as a CIDR block of vpc-0123456789abcdef0: not an IPv4 CIDR/],
    ['a block with host bits set', '10.0.0.1/16', /host bits are set/],
    ['a block wider than EC2 gives a VPC', '10.0.0.0/8', /not \/16 to \/28, as EC2 gives a VPC/],
    ['two blocks in one', '10.0.0.0/16,0.0.0.0/1', /not an IPv4 CIDR/],
  ])('%s is refused before it reaches every node', (_name, cidr, message) => {
    expect(() => associatedCidrs(VPC, { VpcId: VPC, CidrBlockAssociationSet: [block('10.9.0.0/16'), block(cidr)] })).toThrow(message);
  });

  test('no block, or another VPC, is refused', () => {
    expect(() => associatedCidrs(VPC, { VpcId: VPC, CidrBlockAssociationSet: [block('10.0.0.0/16', 'disassociated')] })).toThrow(/no associated IPv4 CIDR block/);
    expect(() => associatedCidrs(VPC, { VpcId: 'vpc-0fedcba9876543210' })).toThrow(/did not return vpc-0123456789abcdef0/);
    expect(() => associatedCidrs(VPC, undefined)).toThrow(/did not return/);
  });
});

describe('the app: the nodes\' allowed servers', () => {
  const allowed = (t: Template) => Object.values(t.findResources('AWS::SSM::Document'))
    .map((d) => d.Properties.Content.parameters?.allowedServers?.default).find((v) => v !== undefined);

  test('a looked-up VPC (-c vpcId): every block EC2 lists at deploy, by the custom resource', () => {
    const t = Template.fromStack(lookedUpAppStack({ backend: 'fsx-openzfs', capacityTiB: '1', vpcId: 'vpc-0123456789abcdef0' }, '10.0.0.0/16', [
      { subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: '10.0.0.0/24', availabilityZone: 'us-east-1a' },
    ]));
    const [id] = Object.keys(t.findResources(RESOURCE_TYPE));
    expect(t.findResources(RESOURCE_TYPE)[id].Properties.VpcId).toBe('vpc-0123456789abcdef0');
    expect(allowed(t)).toEqual({ 'Fn::GetAtt': [id, 'Cidrs'] });
  });

  test('the app\'s own VPC: its one block, and no custom resource', () => {
    const t = Template.fromStack(appStack({ backend: 'fsx-openzfs', capacityTiB: '1' }));
    t.resourceCountIs(RESOURCE_TYPE, 0);
    expect(allowed(t)).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Vpc/), 'CidrBlock'] });
  });
});

describe('the function\'s permissions, by the IAM policy simulator', () => {
  const t = new TemplatePolicies(Template.fromStack(lookedUpAppStack(
    { backend: 'ebs', capacityTiB: '3', vpcId: 'vpc-0123456789abcdef0' }, '10.0.0.0/16',
    [{ subnetId: 'subnet-0aaaaaaaaaaaaaaa1', cidr: '10.0.0.0/24', availabilityZone: 'us-east-1a' }],
  )).toJSON(), 'StorageServer');
  const role = t.logicalId('AWS::IAM::Role', /^StorageServerVpcCidrsProviderRole/);
  const as = (action: string, resources: string[]) => t.decide({ principal: t.roleArn(role), identityPolicies: t.identityPolicies(role), action, resources });

  test.each([
    ['may read the VPCs (ec2:DescribeVpcs, which takes no resource)', 'ec2:DescribeVpcs', ['*'], 'Allowed'],
    ['may not read the subnets', 'ec2:DescribeSubnets', ['*'], 'ImplicitlyDenied'],
    ['may not add a CIDR block to the VPC', 'ec2:AssociateVpcCidrBlock', [t.arn('ec2', 'vpc/vpc-0123456789abcdef0')], 'ImplicitlyDenied'],
    ['may not write a parameter', 'ssm:PutParameter', [t.arn('ssm', 'parameter/storage-server/cluster/storage1')], 'ImplicitlyDenied'],
  ])('%s', async (_claim, action, resources, decision) => {
    await expect(as(action, resources)).resolves.toBe(decision);
  });
});
