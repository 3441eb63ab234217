// The deploy-time value check of lib/deploy-check.ts and lambda/value-check. Values a synth cannot see go to a check
// resource that every resource carrying them depends on. Its handler holds the resolved values to the rules their
// literal forms meet at synth.
import { App, CfnParameter, Fn, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { CdkCustomResourceEvent } from 'aws-lambda';
import { RESOURCE_TYPE, ValueRule } from '../../lambda/value-check/contract';
import { handler } from '../../lambda/value-check/index';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import { thrown } from '../support/thrown';
import { Backend } from '../../lib/backend-enum';

type Resources = Record<string, { Type: string; Properties?: unknown; DependsOn?: string | string[] }>;

const ENV = { account: '123456789012', region: 'us-east-1' };

function importedVpc(stack: Stack, vpcCidrBlock = '10.20.0.0/16'): ec2.IVpc {
  return ec2.Vpc.fromVpcAttributes(stack, 'Vpc', {
    vpcId: 'vpc-0123456789abcdef0',
    vpcCidrBlock,
    availabilityZones: ['us-east-1a'],
    privateSubnetIds: ['subnet-0123456789abcdef0'],
  });
}

/** A server whose props come from `build`, given the stack, synthesized. */
function synth(build: (stack: Stack) => Partial<StorageServerProps> & Pick<StorageServerProps, 'vpc'>): Resources {
  const stack = new Stack(new App(), 'Tokens', { env: ENV });
  new StorageServer(stack, 'Storage', build(stack));
  return Template.fromStack(stack).toJSON().Resources as Resources;
}

function checkOf(resources: Resources): [string, { Checks: { Name: string; Rule: string; Value: unknown }[] } & Record<string, unknown>] {
  const found = Object.entries(resources).filter(([, r]) => r.Type === RESOURCE_TYPE);
  expect(found).toHaveLength(1);
  const [id, r] = found[0];
  return [id, r.Properties as never];
}

const dependsOn = (r: { DependsOn?: string | string[] }) => [r.DependsOn ?? []].flat();

/** Every resource but the check whose properties carry `expression`, with whether it depends on the check. */
function carriers(resources: Resources, expression: unknown): { id: string; type: string; ordered: boolean }[] {
  const [checkId] = checkOf(resources);
  const text = JSON.stringify(expression);
  return Object.entries(resources)
    .filter(([id, r]) => id !== checkId && JSON.stringify(r.Properties ?? {}).includes(text))
    .map(([id, r]) => ({ id, type: r.Type, ordered: dependsOn(r).includes(checkId) }));
}

describe('what goes to the deploy-time check', () => {
  test('nothing when every value is literal: no check resource, no handler (the default app has none)', () => {
    const resources = synth((stack) => ({ vpc: importedVpc(stack), clientCidrs: ['10.20.1.0/24'] }));
    expect(Object.values(resources).filter((r) => r.Type === RESOURCE_TYPE)).toEqual([]);
  });

  test("a new VPC of the app with a literal CIDR is checked at synth: a public one needs allowPublicClientCidrs", () => {
    const newVpc = (cidr: string) => synth((stack) => ({ vpc: new ec2.Vpc(stack, 'Vpc', { ipAddresses: ec2.IpAddresses.cidr(cidr), maxAzs: 1 }) }));
    expect(Object.values(newVpc('10.30.0.0/16')).filter((r) => r.Type === RESOURCE_TYPE)).toEqual([]);
    expect(thrown(() => newVpc('11.0.0.0/16'))).toMatch(/vpc: its CIDR \(vpcCidrBlock\) is held to the clientCidrs rules.*got '11.0.0.0\/16': public address space/);
  });

  test('a token clientCidrs entry: checked, and every resource that carries it depends on the check', () => {
    const resources = synth((stack) => ({
      vpc: importedVpc(stack),
      clientCidrs: ['10.20.1.0/24', new CfnParameter(stack, 'ClientCidr', { type: 'String' }).valueAsString],
    }));
    const [, props] = checkOf(resources);
    expect(props.Checks).toEqual([{ Name: 'clientCidrs[1]', Rule: ValueRule.CLIENT_CIDR, Value: { Ref: 'ClientCidr' } }]);
    const found = carriers(resources, { Ref: 'ClientCidr' });
    // The group's inline rule and the server's settings, the apply document: both after the check.
    expect(found.map((c) => c.type).sort()).toEqual(['AWS::EC2::SecurityGroup', 'AWS::SSM::Document']);
    expect(found.filter((c) => !c.ordered)).toEqual([]);
  });

  test('a token list as clientCidrs is refused at synth (one rule per CIDR), naming the way that works', () => {
    const list = (stack: Stack) => new CfnParameter(stack, 'Cidrs', { type: 'List<String>' }).valueAsList;
    for (const cidrs of [(s: Stack) => list(s), (s: Stack) => ['10.20.1.0/24', ...list(s)], () => Fn.split(',', Fn.importValue('cidrs'))]) {
      expect(thrown(() => synth((stack) => ({ vpc: importedVpc(stack), clientCidrs: cidrs(stack) })))).toMatch(
        /clientCidrs: a token list \(a List<String> parameter, Fn.split\) cannot be used.*Pass the entries, e.g. \[Fn.select\(0, list\)/,
      );
    }
  });

  test('mountPoint and exportPath must be literal (the scripts that use them are rendered at synth)', () => {
    for (const prop of ['mountPoint', 'exportPath']) {
      expect(thrown(() => synth((stack) => ({ vpc: importedVpc(stack), [prop]: new CfnParameter(stack, 'Path').valueAsString })))).toMatch(
        new RegExp(`^${prop} must be a literal path, not a token \\(a parameter, an import\\)`),
      );
    }
  });

  test('token clientCidrs entries, a token loginIp and a Peer.ipv4 of a token', () => {
    const resources = synth((stack) => {
      const param = (id: string, type = 'String') => new CfnParameter(stack, id, { type });
      const list = param('Cidrs', 'List<String>').valueAsList;
      return {
        vpc: importedVpc(stack),
        clientCidrs: [Fn.select(0, list), Fn.select(1, list)],
        clientPeers: [ec2.Peer.ipv4(param('PeerCidr').valueAsString)],
        clusterware: { loginIp: param('LoginIp').valueAsString },
      };
    });
    const [, props] = checkOf(resources);
    const select = (i: number) => ({ 'Fn::Select': [i, { Ref: 'Cidrs' }] });
    expect(props.Checks).toEqual([
      { Name: 'clientCidrs[0]', Rule: ValueRule.CLIENT_CIDR, Value: select(0) },
      { Name: 'clientCidrs[1]', Rule: ValueRule.CLIENT_CIDR, Value: select(1) },
      { Name: 'clientPeers[0]', Rule: ValueRule.CLIENT_PEER, Value: { Ref: 'PeerCidr' } },
      { Name: 'clusterware.loginIp', Rule: ValueRule.LOGIN_IP, Value: { Ref: 'LoginIp' } },
    ]);
    for (const expression of [select(0), select(1), ...['PeerCidr', 'LoginIp'].map((ref) => ({ Ref: ref }))]) {
      const found = carriers(resources, expression);
      expect({ expression, carried: found.length > 0 }).toEqual({ expression, carried: true });
      expect(found.filter((c) => !c.ordered)).toEqual([]);
    }
  });

  test("an imported VPC whose CIDR is an import, with no clientCidrs: the VPC's CIDR is checked, on FSx too", () => {
    for (const backend of [{}, { backend: Backend.FSX_OPENZFS, capacityTiB: 1 }]) {
      const resources = synth((stack) => ({ vpc: importedVpc(stack, Fn.importValue('network-VpcCidr')), ...backend }));
      const [, props] = checkOf(resources);
      expect(props.Checks).toEqual([{ Name: 'vpc (its vpcCidrBlock)', Rule: ValueRule.VPC_CIDR, Value: { 'Fn::ImportValue': 'network-VpcCidr' } }]);
      const found = carriers(resources, { 'Fn::ImportValue': 'network-VpcCidr' });
      expect(found.length).toBeGreaterThan(0);
      expect(found.filter((c) => !c.ordered)).toEqual([]);
    }
  });
});

/** Resolves the check's properties as CloudFormation would, given the parameters' and imports' values. */
function resolved(node: unknown, values: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((n) => resolved(n, values));
  if (typeof node !== 'object' || node === null) return node;
  const o = node as Record<string, unknown>;
  if (typeof o.Ref === 'string' && o.Ref in values) return values[o.Ref];
  if (Array.isArray(o['Fn::Select'])) {
    const [i, list] = o['Fn::Select'] as [number, unknown];
    return (resolved(list, values) as unknown[])[i];
  }
  if (typeof o['Fn::ImportValue'] === 'string') return values[o['Fn::ImportValue']];
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, resolved(v, values)]));
}

const event = (requestType: 'Create' | 'Update' | 'Delete', properties: unknown) =>
  ({ RequestType: requestType, ResourceProperties: properties, PhysicalResourceId: 'storage-server-value-check' }) as unknown as CdkCustomResourceEvent;

describe('the handler on the values CloudFormation resolved', () => {
  const tokenStack = (allowPublic = false) =>
    checkOf(
      synth((stack) => {
        const param = (id: string, type = 'String') => new CfnParameter(stack, id, { type });
        const list = param('Cidrs', 'List<String>').valueAsList;
        return {
          vpc: importedVpc(stack),
          allowPublicClientCidrs: allowPublic,
          clientCidrs: [Fn.select(0, list), Fn.select(1, list)],
          clientPeers: [ec2.Peer.ipv4(param('PeerCidr').valueAsString)],
          clusterware: { loginIp: param('LoginIp').valueAsString },
        };
      }),
    )[1];
  const good = { Cidrs: ['10.20.1.0/24', '10.20.2.0/24'], PeerCidr: '10.20.3.0/24', LoginIp: '10.20.0.10' };

  test('good values pass', async () => {
    await expect(handler(event('Create', resolved(tokenStack(), good)))).resolves.toEqual({ PhysicalResourceId: 'storage-server-value-check' });
  });

  test.each([
    ['a world-open clientCidrs entry', { Cidrs: ['10.20.1.0/24', '0.0.0.0/0'] }, /clientCidrs\[1\] resolved at deploy to "0.0.0.0\/0": allowed is a canonical IPv4 CIDR in private address space.*: a \/0 \(every IPv4 address\) is refused/],
    ['a public clientCidrs entry', { Cidrs: ['8.8.8.0/24', '10.20.2.0/24'] }, /clientCidrs\[0\] resolved at deploy to "8.8.8.0\/24".*public address space/],
    ['a duplicate entry', { Cidrs: ['10.20.1.0/24', '10.20.1.0/24'] }, /clientCidrs\[1\] resolved at deploy to "10.20.1.0\/24", which clientCidrs already holds/],
    ['a peer of every address', { PeerCidr: '0.0.0.0/0' }, /clientPeers\[0\] resolved at deploy to "0.0.0.0\/0"/],
    ['a non-canonical loginIp', { LoginIp: '10.20.0.010' }, /clusterware.loginIp resolved at deploy to "10.20.0.010"/],
    ['an IPv6 peer outside fc00::/7', { PeerCidr: '::/1' }, /clientPeers\[0\] resolved at deploy to "::\/1"/],
  ])('%s is refused, naming the prop and the value', async (_, bad, message) => {
    await expect(handler(event('Update', resolved(tokenStack(), { ...good, ...bad })))).rejects.toThrow(message);
  });

  test('public space passes where allowPublicClientCidrs was set; /0 never does', async () => {
    await expect(handler(event('Create', resolved(tokenStack(true), { ...good, Cidrs: ['8.8.8.0/24', '10.20.2.0/24'] })))).resolves.toBeDefined();
    await expect(handler(event('Create', resolved(tokenStack(true), { ...good, Cidrs: ['0.0.0.0/0', '10.20.2.0/24'] })))).rejects.toThrow(/\/0/);
  });

  test('Delete checks nothing: a stack with a bad value can still be deleted', async () => {
    await expect(handler(event('Delete', resolved(tokenStack(), { ...good, Cidrs: ['0.0.0.0/0', '10.20.2.0/24'] })))).resolves.toEqual({
      PhysicalResourceId: 'storage-server-value-check',
    });
  });

  test.each([
    ['no Checks', {}, /Checks must be a non-empty list/],
    ['an unknown rule', { Checks: [{ Name: 'x', Rule: 'anything', Value: 'y' }] }, /Checks\[0\].Rule must be one of client-cidr/],
    ['a value of another type', { Checks: [{ Name: 'x', Rule: 'client-cidr', Value: ['10.0.0.0/8'] }] }, /Checks\[0\].Value \(x\) must be a string, got \["10.0.0.0\/8"\]/],
    ['a flag that is not a boolean', { Checks: [{ Name: 'x', Rule: 'client-cidr', Value: '10.0.0.0/8' }], AllowPublic: 'yes' }, /AllowPublic must be 'true' or 'false'/],
  ])('malformed properties are refused before any value is judged: %s', async (_, properties, message) => {
    await expect(handler(event('Create', properties))).rejects.toThrow(message);
  });
});
