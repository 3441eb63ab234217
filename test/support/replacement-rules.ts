/**
 * The replacement rules of the resource types the update guard watches, rendered as
 * lambda/update-guard/replacement-rules.ts. They are read from the CloudFormation resource specification that
 * `cdk diff` uses, @aws-cdk/aws-service-spec, through @aws-cdk/cloudformation-diff's own loader.
 *
 * `npm run gen:replacement-rules` rewrites that file. test/unit/replacement-rules.test.ts fails when the file differs
 * from what the specification says today, as when a new devDependency release adds or reclassifies a property. So the
 * guard's coverage follows the authority instead of a hand list. The file stays the specification's word: where AWS's
 * CloudFormation reference says otherwise, lambda/update-guard/spec-overrides.ts says so, and the guard uses the two
 * together as `EFFECTIVE_RULES`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import { WATCHED_TYPES } from '../../lambda/update-guard/watched-types';

/** Where the generated table lives. */
export const RULES_FILE = path.join(__dirname, '..', '..', 'lambda', 'update-guard', 'replacement-rules.ts');

/** One type's properties by their `causesReplacement` in the specification. */
export interface TypeRules {
  readonly replaces: string[];
  readonly mayReplace: string[];
  readonly updates: string[];
}

type SpecProperty = { causesReplacement?: string; type: SpecType };
type SpecType = { type: string; element?: SpecType; reference?: { $ref: string } };

/**
 * The rules of every watched type, straight from the specification: each top-level property by its `causesReplacement`,
 * and, inside a property that does not replace as a whole, each nested property that does. A nested property is a path,
 * such as `LustreConfiguration.DeploymentType`, where `[]` marks a list's elements. `cdk diff` itself reads only the
 * top level. The nested rules are the specification's too, and a nested create-only property replaces the resource as
 * surely.
 */
export function specRules(): Record<string, TypeRules> {
  const db = loadAwsServiceSpecSync();
  const rules: Record<string, TypeRules> = {};
  const nested = (type: SpecType, path: string, depth: number, out: Record<string, string[]>): void => {
    if (depth > 4) return;
    if (type.type === 'array' && type.element) return nested(type.element, `${path}[]`, depth, out);
    if (type.type !== 'ref' || !type.reference) return;
    const definition = db.get('typeDefinition', type.reference.$ref) as unknown as { properties: Record<string, SpecProperty> };
    for (const [name, p] of Object.entries(definition.properties)) {
      const impact = p.causesReplacement ?? 'no';
      if (impact !== 'no') out[impact].push(`${path}.${name}`);
      else nested(p.type, `${path}.${name}`, depth + 1, out);
    }
  };
  for (const type of WATCHED_TYPES) {
    const resource = db.lookup('resource', 'cloudFormationType', 'equals', type).only() as unknown as { properties: Record<string, SpecProperty> };
    const out: Record<string, string[]> = { yes: [], maybe: [], no: [] };
    for (const [name, p] of Object.entries(resource.properties)) {
      const impact = p.causesReplacement ?? 'no';
      out[impact].push(name);
      if (impact === 'no') nested(p.type, name, 1, out);
    }
    rules[type] = { replaces: out.yes.sort(), mayReplace: out.maybe.sort(), updates: out.no.sort() };
  }
  return rules;
}

/**
 * What the specification says of one property, by the path form of the generated file, with `[]` after a list's name.
 * It is the class of its `causesReplacement`, or of the nearest enclosing property that replaces or may replace, since
 * a nested property's change is its parent's change. Undefined when the specification has no such property.
 */
export function specImpact(type: string, propertyPath: string): 'replaces' | 'mayReplace' | 'updates' | undefined {
  const db = loadAwsServiceSpecSync();
  const CLASS = { yes: 'replaces', maybe: 'mayReplace', no: 'updates' } as const;
  const resource = db.lookup('resource', 'cloudFormationType', 'equals', type).only() as unknown as { properties: Record<string, SpecProperty> };
  let properties = resource.properties;
  const segments = propertyPath.split('.');
  for (const [i, segment] of segments.entries()) {
    const name = segment.replace(/(\[\])+$/, '');
    const p = properties[name];
    if (p === undefined) return undefined;
    const impact = (p.causesReplacement ?? 'no') as keyof typeof CLASS;
    if (i === segments.length - 1 || impact !== 'no') return CLASS[impact];
    let t = p.type;
    while (t.type === 'array' && t.element) t = t.element;
    if (t.type !== 'ref' || !t.reference) return undefined;
    properties = (db.get('typeDefinition', t.reference.$ref) as unknown as { properties: Record<string, SpecProperty> }).properties;
  }
  return undefined;
}

/** The generated file's text. */
export function renderRules(rules: Record<string, TypeRules>): string {
  const specVersion = JSON.parse(
    fs.readFileSync(require.resolve('@aws-cdk/aws-service-spec/package.json'), 'utf8'),
  ).version as string;
  const list = (names: string[]): string => `[${names.map((n) => `'${n}'`).join(', ')}]`;
  const entries = Object.entries(rules).map(([type, r]) =>
    `  '${type}': {\n    replaces: ${list(r.replaces)},\n    mayReplace: ${list(r.mayReplace)},\n    updates: ${list(r.updates)},\n  },`,
  );
  return [
    '// Generated by `npm run gen:replacement-rules` from the CloudFormation resource specification of',
    `// @aws-cdk/aws-service-spec ${specVersion}, the one \`cdk diff\` uses; the generator is test/support/replacement-rules.ts.`,
    '// Do not edit: test/unit/replacement-rules.test.ts fails when this differs from the specification. Where AWS\'s',
    '// CloudFormation reference says otherwise, spec-overrides.ts says so, and the guard uses both as EFFECTIVE_RULES.',
    "import type { WatchedType } from './watched-types';",
    '',
    '/**',
    ' * Per watched type, its properties by `causesReplacement`: yes replaces, maybe may replace, and no lists the',
    ' * top-level properties that update. A path with dots is a nested property whose change replaces the resource',
    " * although its top-level property does not; `[]` stands for a list's elements.",
    ' */',
    'export const REPLACEMENT_RULES: {',
    '  readonly [T in WatchedType]: {',
    '    readonly replaces: readonly string[];',
    '    readonly mayReplace: readonly string[];',
    '    readonly updates: readonly string[];',
    '  };',
    '} = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

if (require.main === module) {
  fs.writeFileSync(RULES_FILE, renderRules(specRules()));
  console.log(`wrote ${path.relative(process.cwd(), RULES_FILE)}`);
}
