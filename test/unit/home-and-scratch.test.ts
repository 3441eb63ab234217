/**
 * The README's "Several servers in one VPC" recipe, synthesized as written. Its `cdk deploy` commands are read from
 * README.md, and each one's `-c` keys are parsed by the app's own parser into the app's stack, both stacks in one
 * assembly. The second stack's imports are then resolved against the first stack's exports, as CloudFormation resolves
 * them at deploy. The test checks what the recipe promises: one VPC; the scratch server in the subnet the home server
 * uses; its security group admitting the clients' address space; and that address space inside the servers the home
 * stack's client-mount association accepts.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ContextKey, parseContext } from '../../lib/context';
import { StorageServerStack, sharedVpcExportNames } from '../../lib/storage-server-stack';
import { REPO_ROOT, cdkContextOf, shellCommands } from '../support/readme';

const SECTION = 'Several servers in one VPC';
const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

type Json = Record<string, unknown>;

/** The app's stacks for the recipe's commands, in one App, as two `cdk deploy` runs would deploy them. */
function recipeStacks(markdown: string): { contexts: Record<string, string>[]; templates: Json[]; stacks: StorageServerStack[] } {
  const commands = shellCommands(markdown).filter((c) => c.section === SECTION && /\bcdk deploy\b/.test(c.command));
  const contexts = commands.map((c) => cdkContextOf(c.command));
  const app = new App();
  const stacks = contexts.map((context) => {
    const ctx = parseContext((key: ContextKey) => context[key]);
    return new StorageServerStack(app, ctx.stackName, { context: ctx });
  });
  return { contexts, stacks, templates: stacks.map((s) => Template.fromStack(s).toJSON() as Json) };
}

/** Replaces every Fn::ImportValue in `value` by the value the exporting template gives that export. */
function resolveImports(value: unknown, exporter: Json): unknown {
  const outputs = Object.values((exporter.Outputs ?? {}) as Record<string, { Value: unknown; Export?: { Name: string } }>);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const o = v as Json;
      if ('Fn::ImportValue' in o) {
        const found = outputs.find((out) => out.Export?.Name === o['Fn::ImportValue']);
        if (!found) throw new Error(`import ${JSON.stringify(o['Fn::ImportValue'])} has no export in the first stack`);
        return found.Value;
      }
      return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value);
}

function resourcesOf(template: Json, type: string): [string, Json][] {
  return Object.entries(template.Resources as Record<string, { Type: string; Properties: Json }>)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => [id, r.Properties]);
}

const { contexts, stacks, templates } = recipeStacks(README);
const [home, scratch] = templates;
const scratchResolved = resolveImports(scratch, home) as Json;

describe('README: home and scratch in one VPC', () => {
  test('the recipe has two cdk deploy commands, the second joining the first\'s VPC', () => {
    expect(contexts).toHaveLength(2);
    expect(contexts[1].vpcFrom).toBe(stacks[0].stackName);
    expect(contexts[0].vpcFrom).toBeUndefined();
  });

  test('the second stack makes no VPC and no NAT gateway of its own, and imports only what the first exports', () => {
    expect(resourcesOf(home, 'AWS::EC2::VPC')).toHaveLength(1);
    expect(resourcesOf(scratch, 'AWS::EC2::VPC')).toHaveLength(0);
    expect(resourcesOf(scratch, 'AWS::EC2::NatGateway')).toHaveLength(0);
    const imports = [...JSON.stringify(scratch).matchAll(/"Fn::ImportValue":"([^"]+)"/g)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(Object.values(sharedVpcExportNames(stacks[0].stackName))).toEqual(expect.arrayContaining([...new Set(imports)]));
    // Resolving throws on an import the first stack does not export.
    expect(() => resolveImports(scratch, home)).not.toThrow();
  });

  test('the scratch file system is in the subnet and VPC of the home server', () => {
    const [[, eni]] = resourcesOf(home, 'AWS::EC2::NetworkInterface');
    const [[, fs_]] = resourcesOf(scratchResolved, 'AWS::FSx::FileSystem');
    expect(fs_.SubnetIds).toEqual([eni.SubnetId]);
    const [[vpcId]] = resourcesOf(home, 'AWS::EC2::VPC');
    for (const [, sg] of resourcesOf(scratchResolved, 'AWS::EC2::SecurityGroup')) expect(sg.VpcId).toEqual({ Ref: vpcId });
  });

  test('the scratch security group admits the clients\' address space, the home VPC\'s CIDR', () => {
    const [[vpcId]] = resourcesOf(home, 'AWS::EC2::VPC');
    const vpcCidr = { 'Fn::GetAtt': [vpcId, 'CidrBlock'] };
    const ingress = resourcesOf(scratchResolved, 'AWS::EC2::SecurityGroup')
      .flatMap(([, sg]) => (sg.SecurityGroupIngress ?? []) as Json[]);
    // Lustre's ports, 988 and 1018-1023, from the clients.
    expect(ingress).toEqual(expect.arrayContaining([expect.objectContaining({ CidrIp: vpcCidr, FromPort: 988 })]));
    expect(ingress.filter((r) => r.CidrIp !== undefined).every((r) => JSON.stringify(r.CidrIp) === JSON.stringify(vpcCidr))).toBe(true);
  });

  test('the home stack\'s association accepts servers in that CIDR, and the second stack has no client-mount association', () => {
    const [[vpcId]] = resourcesOf(home, 'AWS::EC2::VPC');
    const associations = resourcesOf(home, 'AWS::SSM::Association').filter(([, a]) => (a.Parameters as Json)?.allowedServers);
    expect(associations).toHaveLength(1);
    const allowed = (associations[0][1].Parameters as Json).allowedServers;
    expect(JSON.stringify(allowed)).toContain(JSON.stringify({ 'Fn::GetAtt': [vpcId, 'CidrBlock'] }));
    // Its one association is its file system's quotas (LUSTRE-QUOTAS), which names no allowed servers.
    expect(resourcesOf(scratch, 'AWS::SSM::Association').map(([, a]) => Object.keys(a.Parameters as Json).sort()))
      .toEqual([['action', 'limits', 'mountName', 'mountPoint']]);
    // Both register under the cluster whose records the association reads.
    expect(stacks.map((s) => s.server.clusterName)).toEqual(['hpc1', 'hpc1']);
  });

  test('the check is not vacuous: without vpcFrom the second stack makes its own VPC and the import check fails', () => {
    const broken = README.replace(/ -c vpcFrom=\S+/, '');
    const { templates: [, alone] } = recipeStacks(broken);
    expect(resourcesOf(alone, 'AWS::EC2::VPC')).toHaveLength(1);
    expect(() => resolveImports({ 'Fn::ImportValue': 'StorageServer-hpc1-elsewhere:VpcId' }, home)).toThrow(/has no export/);
  });
});
