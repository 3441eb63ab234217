import { INSTANCE_INTERRUPTING, INSTANCE_NO_INTERRUPTION } from '../../lambda/update-guard/instance-updates';
import { REPLACEMENT_RULES } from '../../lambda/update-guard/replacement-rules';
import { WATCHED_TYPES } from '../../lambda/update-guard/watched-types';
import { valueAt, watchedPropertyNames } from '../../lib/update-guard';
import { renderRules, specRules, RULES_FILE } from '../support/replacement-rules';
import { appTemplate } from '../support/guard-matrix';
import * as fs from 'fs';

// The guard's coverage comes from CloudFormation's resource specification (the one `cdk diff` uses), through
// a generated table; these tests keep the table equal to the specification and the hand-kept part (how an
// instance's non-replacing properties update) complete for everything the project's templates set.

test('the generated table is what the specification says today (npm run gen:replacement-rules to refresh)', () => {
  expect(fs.readFileSync(RULES_FILE, 'utf8')).toBe(renderRules(specRules()));
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
  const rules = REPLACEMENT_RULES['AWS::EC2::Instance'];
  const classified = new Set<string>([...rules.replaces, ...rules.mayReplace, ...INSTANCE_INTERRUPTING, ...INSTANCE_NO_INTERRUPTION]);
  const set = new Set<string>();
  for (const t of templates) {
    for (const r of Object.values(t.Resources)) if (r.Type === 'AWS::EC2::Instance') Object.keys(r.Properties ?? {}).forEach((p) => set.add(p));
  }
  expect(set.size).toBeGreaterThan(10);
  expect([...set].filter((p) => !classified.has(p))).toEqual([]);
  // The hand lists say nothing the specification contradicts: no replacing property is called "no interruption".
  expect(INSTANCE_NO_INTERRUPTION.filter((p) => [...rules.replaces, ...rules.mayReplace].includes(p))).toEqual([]);
  // And every property of the specification is in one of its three lists (a new one would be in `updates`).
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
