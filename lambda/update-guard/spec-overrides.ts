/**
 * Where AWS's CloudFormation reference says otherwise than the resource specification: the table of overrides, and the
 * rules the guard uses, {@link EFFECTIVE_RULES}. Those are the specification's rules, in the generated
 * replacement-rules.ts that is never edited, with these rows applied.
 *
 * The specification lags AWS's documentation: it is @aws-cdk/aws-service-spec, the one `cdk diff` reads. A property FSx
 * learned to change in place can stay "replaces" there for months, and the guard would then refuse a change
 * CloudFormation applies live. A row names the property, what the specification says, what AWS's reference says, the
 * page and the day it was read. The reference's "Update requires" line is quoted. test/unit/replacement-rules.test.ts
 * fails when a row says the same as the specification, as it does once the specification catches up: remove the row
 * then. It also checks that the effective rules are the specification's with exactly these rows applied.
 *
 * Only the reference's answer to "does the update replace the resource" is taken here. What else the guard refuses
 * stays in its policy table, policies.ts, with the backend's rows in its descriptor in backends/. An FSx for Lustre
 * throughput change on HDD, which FSx cannot make, is such a refusal.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */
import { REPLACEMENT_RULES } from './replacement-rules';
import { WATCHED_TYPES, type WatchedType } from './watched-types';

/** What a change of a property does to its resource: the specification's `causesReplacement` yes, maybe and no. */
export type UpdateImpact = 'replaces' | 'mayReplace' | 'updates';

/** One type's properties by {@link UpdateImpact}, in the form of replacement-rules.ts. */
export interface TypeRules {
  /** Top-level names and nested paths whose change replaces the resource. */
  readonly replaces: readonly string[];
  /** Likewise, may replace it. */
  readonly mayReplace: readonly string[];
  /** Top-level names whose change updates the resource. A nested path that updates is in no list. */
  readonly updates: readonly string[];
}

/** The rules of every watched type. */
export type ReplacementRules = { readonly [T in WatchedType]: TypeRules };

/** One property where AWS's CloudFormation reference and the resource specification disagree. */
export interface SpecOverride {
  readonly type: WatchedType;
  /** A top-level name, or a nested path as replacement-rules.ts writes it, where `[]` stands for a list's elements. */
  readonly path: string;
  /** What the specification says, in replacement-rules.ts. */
  readonly spec: UpdateImpact;
  /** What AWS's reference says: the class the guard applies. */
  readonly reference: UpdateImpact;
  /** The reference's line for the property, quoted exactly. */
  readonly updateRequires: string;
  /** The reference page, at the property's anchor. */
  readonly source: string;
  /** The day the page was read, as YYYY-MM-DD. */
  readonly read: string;
  /** Where AWS's own texts disagree: which one the row follows, and why. */
  readonly note: string;
}

/** The overrides. Add a row only from AWS's reference page, never from memory; the test keeps each one alive. */
export const SPEC_OVERRIDES: readonly SpecOverride[] = [
  {
    type: 'AWS::FSx::FileSystem',
    path: 'LustreConfiguration.PerUnitStorageThroughput',
    spec: 'replaces',
    reference: 'updates',
    updateRequires: 'Update requires: No interruption',
    source: 'https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/' +
      'aws-properties-fsx-filesystem-lustreconfiguration.html#cfn-fsx-filesystem-lustreconfiguration-perunitstoragethroughput',
    read: '2026-11-26',
    note: 'The line as issue 37 quotes the page (which keeps CopyTagsToBackups and DeploymentType at "Update requires: ' +
      'Replacement"); the copy of the page at hand on the day read held only its opening, so the line is the issue\'s ' +
      'reading: re-read it at the next review. The page\'s source as archived on GitHub (2023) said "Replacement", ' +
      'what the specification still carries. CloudFormation\'s own resource schema for AWS::FSx::FileSystem, as cfn-lint ' +
      '1.58 carries it (cfnlint/data/schemas, the registry schema AWS publishes), agrees with the reference: its ' +
      'createOnlyProperties are KmsKeyId, SecurityGroupIds, FileSystemType, SubnetIds and BackupId, no LustreConfiguration ' +
      'path. The FSx for Lustre guide ("Modifying throughput capacity", ' +
      'https://docs.aws.amazon.com/fsx/latest/LustreGuide/increase-throughput-capacity.html) says of the same change ' +
      '"Your file system may experience a very brief period of unavailability during the update." The row follows ' +
      'the CloudFormation reference: the question here is whether CloudFormation replaces the file system, and both ' +
      'texts say it does not (FSx changes the tier in place, UpdateFileSystem); a brief unavailability loses no data. ' +
      'FSx changes it on persistent SSD only (guide, "Managing throughput capacity": PERSISTENT_1 SSD 50, 100, 200; ' +
      'PERSISTENT_2 SSD 125, 250, 500, 1000 MB/s/TiB): the guard\'s policy refuses the rest (LUSTRE-THROUGHPUT-IN-PLACE).',
  },
];

/**
 * `rules` with `overrides` applied: each row's path leaves the list the specification put it in and joins the list of
 * the reference's class. A nested path that updates joins none, since `updates` holds top-level names only.
 */
export function withOverrides(rules: ReplacementRules, overrides: readonly SpecOverride[]): ReplacementRules {
  const apply = (type: WatchedType): TypeRules => {
    const rows = overrides.filter((o) => o.type === type);
    const moved = new Set(rows.map((o) => o.path));
    const list = (impact: UpdateImpact, spec: readonly string[]): string[] => [
      ...spec.filter((p) => !moved.has(p)),
      ...rows.filter((o) => o.reference === impact && (impact !== 'updates' || !o.path.includes('.'))).map((o) => o.path),
    ].sort();
    const r = rules[type];
    return { replaces: list('replaces', r.replaces), mayReplace: list('mayReplace', r.mayReplace), updates: list('updates', r.updates) };
  };
  return Object.fromEntries(WATCHED_TYPES.map((type) => [type, apply(type)])) as unknown as ReplacementRules;
}

/** The rules the guard and the construct use: the specification's with {@link SPEC_OVERRIDES} applied. */
export const EFFECTIVE_RULES: ReplacementRules = withOverrides(REPLACEMENT_RULES, SPEC_OVERRIDES);
