import { INSTANCE_INTERRUPTING, INSTANCE_NO_INTERRUPTION } from '../../lambda/update-guard/instance-updates';
import { fullDiff, ResourceImpact } from '@aws-cdk/cloudformation-diff';
import { REPLACEMENT_RULES } from '../../lambda/update-guard/replacement-rules';
import {
  EFFECTIVE_RULES,
  SPEC_OVERRIDES,
  withOverrides,
  type SpecOverride,
  type TypeRules,
  type UpdateImpact,
} from '../../lambda/update-guard/spec-overrides';
import { WATCHED_TYPES } from '../../lambda/update-guard/watched-types';
import { valueAt, watchedPropertyNames } from '../../lib/update-guard';
import { renderRules, specImpact, specRules, RULES_FILE } from '../support/replacement-rules';
import { appTemplate, followOverrides } from '../support/guard-matrix';
import * as fs from 'fs';
import * as path from 'path';
import { venvBin } from '../support/venv';

// The guard's coverage comes from CloudFormation's resource specification, the one `cdk diff` uses, through a generated
// table, corrected where AWS's reference says otherwise in spec-overrides.ts. These tests keep the table equal to the
// specification and each override alive. They keep the hand-kept part, how an instance's non-replacing properties
// update, complete for everything the project's templates set.

test('the generated table is what the specification says today (npm run gen:replacement-rules to refresh)', () => {
  expect(fs.readFileSync(RULES_FILE, 'utf8')).toBe(renderRules(specRules()));
});

/** The class a table gives a path: a list that holds it, else `updates`; a nested path that updates is in none. */
function classOf(rules: TypeRules, path: string): UpdateImpact {
  if (rules.replaces.includes(path)) return 'replaces';
  if (rules.mayReplace.includes(path)) return 'mayReplace';
  return 'updates';
}

/** The class an "Update requires" line of AWS's CloudFormation reference names. */
function classOfLine(line: string): UpdateImpact | undefined {
  if (line === 'Update requires: Replacement') return 'replaces';
  if (line === 'Update requires: No interruption' || line === 'Update requires: Some interruptions') return 'updates';
  return undefined;
}

describe('the overrides (spec-overrides.ts): where AWS\'s reference says otherwise than the specification', () => {
  // Plain loops, not test.each: the table empties once every row is caught up, and test.each refuses an empty table.
  test('each row still differs from the specification (when it caught up, the row has done its work: remove it)', () => {
    for (const o of SPEC_OVERRIDES) {
      const key = `${o.type} ${o.path}`;
      // The row says what the specification says today, and the reference says otherwise.
      expect({ key, spec: specImpact(o.type, o.path) }).toEqual({ key, spec: o.spec });
      expect({ key, differs: o.reference !== o.spec }).toEqual({ key, differs: true });
      // The generated table says the same as the specification, since it is generated from it.
      expect({ key, table: classOf(REPLACEMENT_RULES[o.type], o.path) }).toEqual({ key, table: o.spec });
    }
  });

  test('each row agrees with CloudFormation\'s registry schema (cfn-lint\'s copy): an update is no create-only path', () => {
    const dir = path.join(venvBin(), '..', 'lib');
    const [python] = fs.readdirSync(dir).filter((d) => d.startsWith('python'));
    const schemas = path.join(dir, python, 'site-packages', 'cfnlint', 'data', 'schemas', 'resources');
    const byType = new Map<string, { createOnlyProperties?: string[] }>();
    for (const f of fs.readdirSync(schemas)) {
      const text = fs.readFileSync(path.join(schemas, f), 'utf8');
      const type = /"typeName":\s*"([^"]+)"/.exec(text)?.[1];
      if (type !== undefined && SPEC_OVERRIDES.some((o) => o.type === type)) byType.set(type, JSON.parse(text));
    }
    for (const o of SPEC_OVERRIDES) {
      const createOnly = byType.get(o.type)?.createOnlyProperties;
      expect({ type: o.type, found: createOnly !== undefined }).toEqual({ type: o.type, found: true });
      // The path and every prefix of it: a create-only parent replaces whatever changes inside it.
      const parts = o.path.replace(/\[\]/g, '').split('.');
      const pointers = parts.map((_, i) => `/properties/${parts.slice(0, i + 1).join('/')}`);
      const replacing = pointers.filter((p) => createOnly!.includes(p));
      expect({ key: `${o.type} ${o.path}`, createOnly: replacing.length > 0 }).toEqual({ key: `${o.type} ${o.path}`, createOnly: o.reference !== 'updates' });
    }
  });

  test('each row quotes its source: the "Update requires" line, the page at the property, the day read', () => {
    for (const o of SPEC_OVERRIDES) {
      const key = `${o.type} ${o.path}`;
      expect({ key, impact: classOfLine(o.updateRequires) }).toEqual({ key, impact: o.reference });
      expect(o.source).toMatch(/^https:\/\/docs\.aws\.amazon\.com\/AWSCloudFormation\/latest\/TemplateReference\/aws-(resource|properties)-[a-z0-9-]+\.html#cfn-[a-z0-9-]+$/);
      expect(o.read).toMatch(/^20\d\d-[01]\d-[0-3]\d$/);
      expect({ key, note: o.note.length > 0 }).toEqual({ key, note: true });
    }
  });

  test('one row per property', () => {
    const keys = SPEC_OVERRIDES.map((o) => `${o.type} ${o.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('the effective rules are the specification\'s with exactly the rows applied, nothing else moved', () => {
    const spec = specRules();
    for (const type of WATCHED_TYPES) {
      const rows = new Map<string, SpecOverride>(SPEC_OVERRIDES.filter((o) => o.type === type).map((o) => [o.path, o]));
      const paths = new Set([...spec[type].replaces, ...spec[type].mayReplace, ...spec[type].updates, ...rows.keys()]);
      for (const path of paths) {
        const expected = rows.get(path)?.reference ?? classOf(spec[type], path);
        expect({ type, path, impact: classOf(EFFECTIVE_RULES[type], path) }).toEqual({ type, path, impact: expected });
      }
      const listed = [...EFFECTIVE_RULES[type].replaces, ...EFFECTIVE_RULES[type].mayReplace, ...EFFECTIVE_RULES[type].updates];
      expect(listed.filter((p) => !paths.has(p))).toEqual([]);
      expect(new Set(listed).size).toBe(listed.length);
      // `updates` keeps holding top-level names only.
      expect(EFFECTIVE_RULES[type].updates.filter((p) => p.includes('.'))).toEqual([]);
    }
    expect(EFFECTIVE_RULES).toEqual(withOverrides(REPLACEMENT_RULES, SPEC_OVERRIDES));
  });

  test('Lustre: the per-unit throughput updates in place; deployment type and backup tags still replace', () => {
    const fsx = EFFECTIVE_RULES['AWS::FSx::FileSystem'];
    expect(REPLACEMENT_RULES['AWS::FSx::FileSystem'].replaces).toContain('LustreConfiguration.PerUnitStorageThroughput');
    expect(fsx.replaces).not.toContain('LustreConfiguration.PerUnitStorageThroughput');
    expect(fsx.replaces).toEqual(expect.arrayContaining(['LustreConfiguration.DeploymentType', 'LustreConfiguration.CopyTagsToBackups']));
    expect(watchedPropertyNames('AWS::FSx::FileSystem')).not.toContain('LustreConfiguration.PerUnitStorageThroughput');
    expect(watchedPropertyNames('AWS::FSx::FileSystem')).toContain('LustreConfiguration.DeploymentType');
  });

  test('a nested path moved to updates joins no list; a top-level one joins `updates`; one moved to replaces joins it', () => {
    const row = (type: SpecOverride['type'], path: string, spec: UpdateImpact, reference: UpdateImpact): SpecOverride => ({
      type, path, spec, reference, updateRequires: '', source: '', read: '', note: '',
    });
    const rules = withOverrides(REPLACEMENT_RULES, [
      row('AWS::EC2::Instance', 'InstanceType', 'mayReplace', 'updates'),
      row('AWS::EC2::Volume', 'AvailabilityZone', 'updates', 'replaces'),
      row('AWS::FSx::FileSystem', 'OpenZFSConfiguration.DeploymentType', 'replaces', 'updates'),
    ]);
    expect(rules['AWS::EC2::Instance'].mayReplace).not.toContain('InstanceType');
    expect(rules['AWS::EC2::Instance'].updates).toContain('InstanceType');
    expect(rules['AWS::EC2::Volume'].replaces).toEqual(['AvailabilityZone']);
    expect(rules['AWS::EC2::Volume'].updates).not.toContain('AvailabilityZone');
    expect(rules['AWS::FSx::FileSystem'].replaces).not.toContain('OpenZFSConfiguration.DeploymentType');
    expect(rules['AWS::FSx::FileSystem'].updates).not.toContain('OpenZFSConfiguration.DeploymentType');
  });

  test('cdk diff reads the top level only: a nested row changes nothing in its verdict, a top-level row is followed', () => {
    const fs1 = (perUnit: number) => ({ Resources: { Fs: { Type: 'AWS::FSx::FileSystem', Properties: {
      FileSystemType: 'LUSTRE', SubnetIds: ['subnet-1'], LustreConfiguration: { DeploymentType: 'PERSISTENT_2', PerUnitStorageThroughput: perUnit },
    } } } });
    const lustre = fullDiff(fs1(125) as never, fs1(250) as never).resources.get('Fs');
    expect(lustre.changeImpact).toBe(ResourceImpact.WILL_UPDATE);
    followOverrides(lustre);
    expect(lustre.changeImpact).toBe(ResourceImpact.WILL_UPDATE);

    const instance = (type: string) => ({ Resources: { I: { Type: 'AWS::EC2::Instance', Properties: { ImageId: 'ami-1', InstanceType: type } } } });
    const bigger = fullDiff(instance('m5.large') as never, instance('m5.xlarge') as never).resources.get('I');
    expect(bigger.changeImpact).toBe(ResourceImpact.MAY_REPLACE);
    followOverrides(bigger, [{
      type: 'AWS::EC2::Instance', path: 'InstanceType', spec: 'mayReplace', reference: 'updates',
      updateRequires: 'Update requires: Some interruptions', source: '', read: '', note: '',
    }]);
    expect(bigger.changeImpact).toBe(ResourceImpact.WILL_UPDATE);
  });
});

test('the table covers every watched type, and the subnet, key and launch template replace', () => {
  expect(Object.keys(REPLACEMENT_RULES).sort()).toEqual([...WATCHED_TYPES].sort());
  expect(REPLACEMENT_RULES['AWS::EC2::Instance'].replaces).toEqual(expect.arrayContaining(['SubnetId', 'LaunchTemplate', 'KeyName', 'ImageId']));
  expect(REPLACEMENT_RULES['AWS::EC2::NetworkInterface'].replaces).toContain('SubnetId');
  expect(REPLACEMENT_RULES['AWS::FSx::FileSystem'].replaces).toEqual(expect.arrayContaining(['SubnetIds', 'KmsKeyId', 'LustreConfiguration.DeploymentType']));
});

const VARIANTS = [
  { backend: 'ebs', capacityTiB: '5', keyPair: 'ops', placementGroup: 'hpc', machineImageId: 'ami-0123456789abcdef0', terminationProtection: 'true' },
  { backend: 'instance-store', capacityTiB: '3', loginIp: '10.0.1.10' },
  { backend: 'ebs', capacityTiB: '10', generation: 'current' },
  { backend: 'fsx-lustre', capacityTiB: '12', fsxDataRepositoryPath: 's3://hpc-inputs' },
] as const;
const templates = VARIANTS.map((v) => appTemplate({ ...v }).template);

test('every instance property the templates set is classified: replacing by the specification, or by hand from AWS\'s reference', () => {
  const rules = EFFECTIVE_RULES['AWS::EC2::Instance'];
  const classified = new Set<string>([...rules.replaces, ...rules.mayReplace, ...INSTANCE_INTERRUPTING, ...INSTANCE_NO_INTERRUPTION]);
  const set = new Set<string>();
  for (const t of templates) {
    for (const r of Object.values(t.Resources)) if (r.Type === 'AWS::EC2::Instance') Object.keys(r.Properties ?? {}).forEach((p) => set.add(p));
  }
  expect(set.size).toBeGreaterThan(10);
  expect([...set].filter((p) => !classified.has(p))).toEqual([]);
  // The hand lists say nothing the specification contradicts: no replacing property is called "no interruption".
  expect(INSTANCE_NO_INTERRUPTION.filter((p) => [...rules.replaces, ...rules.mayReplace].includes(p))).toEqual([]);
  // And every property of the specification is in one of its three lists; a new one would be in `updates`.
  expect(INSTANCE_NO_INTERRUPTION.filter((p) => !rules.updates.includes(p))).toEqual([]);
});

test('the guard records, for each watched resource, exactly the template\'s values of its watched properties', () => {
  for (const t of templates) {
    const [guard] = Object.values(t.Resources).filter((r) => r.Type === 'Custom::StorageServerUpdateGuard');
    const watched = guard.Properties!.Watched as Record<string, { Type: string; LogicalId: string; Watching: string[]; Properties: Record<string, unknown> }>;
    expect(Object.keys(watched).length).toBeGreaterThan(0);
    for (const w of Object.values(watched)) {
      const resource = t.Resources[w.LogicalId];
      expect(resource.Type).toBe(w.Type);
      expect(w.Watching).toEqual(watchedPropertyNames(w.Type as never));
      const expected = Object.fromEntries(w.Watching.map((p) => [p, valueAt(resource.Properties ?? {}, p)]).filter(([, v]) => v !== undefined));
      expect(w.Properties).toEqual(expected);
    }
    // Every data resource of the template is watched.
    const watchedIds = new Set(Object.values(watched).map((w) => w.LogicalId));
    for (const [id, r] of Object.entries(t.Resources)) {
      const dataHolding = ['AWS::EC2::Volume', 'AWS::EC2::NetworkInterface', 'AWS::FSx::FileSystem', 'AWS::EC2::Instance'].includes(r.Type);
      if (dataHolding) expect({ id, watched: watchedIds.has(id) }).toEqual({ id, watched: true });
    }
  }
});

test('the guard references no resource that depends on it (a cycle CloudFormation refuses)', () => {
  // A reference from the guard to a resource that depends on the guard is a cycle CloudFormation refuses.
  for (const t of templates) {
    const [[guardId, guard]] = Object.entries(t.Resources).filter(([, r]) => r.Type === 'Custom::StorageServerUpdateGuard');
    const refs = JSON.stringify(guard.Properties).match(/"(?:Ref|Fn::GetAtt)":\s*\[?"([A-Za-z0-9]+)"/g) ?? [];
    for (const ref of refs) {
      const id = /"([A-Za-z0-9]+)"$/.exec(ref)![1];
      const dependsOn = (t.Resources[id] as { DependsOn?: string[] } | undefined)?.DependsOn ?? [];
      expect({ id, dependsOnGuard: dependsOn.includes(guardId) }).toEqual({ id, dependsOnGuard: false });
    }
  }
});
