/**
 * Refusing context keys the app does not read, so that a typo such as `-c capacityTB=10` stops synth instead of
 * silently deploying the default. The known keys are CONTEXT_DEFAULTS', only keys CDK itself owns pass, and a near miss
 * is named.
 */
import * as cxapi from 'aws-cdk-lib/cx-api';
import { ContextProvider } from 'aws-cdk-lib/cloud-assembly-schema';
import { CONTEXT_DEFAULTS } from './keys';

/**
 * The context keys aws-cdk-lib reads or the CLI sets, as aws-cdk-lib exports them: every feature flag, current or
 * expired, and the named settings of cx-api. test/unit/unknown-keys.test.ts derives the same list from aws-cdk-lib
 * and fails when a new one is missing here.
 */
const CDK_CONTEXT_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(cxapi.FLAGS),
  ...cxapi.CURRENT_VERSION_EXPIRED_FLAGS,
  ...cxapi.FUTURE_FLAGS_EXPIRED,
  ...Object.keys(cxapi.NEW_PROJECT_DEFAULT_CONTEXT),
  cxapi.PATH_METADATA_ENABLE_CONTEXT,
  cxapi.ASSET_RESOURCE_METADATA_ENABLED_CONTEXT,
  cxapi.ANALYTICS_REPORTING_ENABLED_CONTEXT,
  cxapi.PERFORMANCE_REPORTING_ENABLED_CONTEXT,
  cxapi.DISABLE_ASSET_STAGING_CONTEXT,
  cxapi.DISABLE_METADATA_STACK_TRACE,
  cxapi.DISABLE_LOGICAL_ID_METADATA,
  cxapi.DISABLE_CREATION_STACK_TRACES,
  cxapi.BUNDLING_STACKS,
  cxapi.AVAILABILITY_ZONE_FALLBACK_CONTEXT_KEY,
  cxapi.FAIL_SYNTH_ON_VALIDATION_ERRORS_CONTEXT,
  cxapi.VALIDATION_REPORT_JSON_CONTEXT,
  cxapi.STRICT_CFN_VALIDATE_ERRORS,
  cxapi.CDK_APP_MODE_CONTEXT,
  cxapi.ENABLE_STACK_NAME_DUPLICATES_CONTEXT,
  cxapi.ENABLE_DIFF_NO_FAIL_CONTEXT,
  cxapi.NEW_STYLE_STACK_SYNTHESIS_CONTEXT,
  cxapi.STACK_RELATIVE_EXPORTS_CONTEXT,
]);

/**
 * Keys only the CLI owns, which aws-cdk-lib does not export: `cdk acknowledge`'s list and the telemetry switch in
 * cdk.json, and the key `--no-version-reporting` sets.
 */
const CLI_CONTEXT_KEYS: ReadonlySet<string> = new Set([
  'acknowledged-issue-numbers', 'cli-telemetry', 'aws:cdk:disable-version-reporting',
]);

/**
 * Whether a key belongs to CDK, not to this app: a key it exports or the CLI sets, or a cached lookup in
 * cdk.context.json. The CLI names a lookup `<provider>:<query>` after a ContextProvider, as in
 * `vpc-provider:account=...`.
 */
export function isCdkContextKey(key: string): boolean {
  return CDK_CONTEXT_KEYS.has(key) || CLI_CONTEXT_KEYS.has(key) ||
    Object.values(ContextProvider).some((provider) => key.startsWith(`${provider}:`));
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known key an unknown one was probably meant to be. It may have the same letters in another case or without
 * separators, as `fsx:deploymentType` has; TB for TiB; a typo; or a namespace a user added, as in `aws:capacityTiB`.
 */
function nearMiss(key: string, known: readonly string[]): string | undefined {
  const [whole, ...afterColon] = [key, key.slice(key.lastIndexOf(':') + 1)].map((k) => k.toLowerCase().replace(/[-_:.]/g, ''));
  for (const lower of [whole, ...afterColon.filter((k) => k !== whole && k !== '')]) {
    const swapped = [lower.replace(/tib/g, 'tb'), lower.replace(/tb/g, 'tib')];
    const exact = known.find((k) => k.toLowerCase() === lower || swapped.includes(k.toLowerCase()));
    if (exact !== undefined) return exact;
    const [best] = known
      .map((k) => ({ k, d: editDistance(lower, k.toLowerCase()) }))
      .filter(({ d }) => d <= 2)
      .sort((x, y) => x.d - y.d);
    if (best) return best.k;
  }
  return undefined;
}

/**
 * Refuses context keys the app does not read, so that a typo such as `-c capacityTB=10` stops synth instead of
 * silently deploying the default. `keys` are all the app's context keys, `Object.keys(app.node.getAllContext())`.
 * Only the keys CDK owns are ignored: its feature flags, its settings and cached lookups, as {@link isCdkContextKey}
 * tells. The message suggests the known key a near miss was meant to be and lists every known key.
 */
export function checkContextKeys(keys: readonly string[]): void {
  const known = Object.keys(CONTEXT_DEFAULTS);
  const unknown = keys.filter((k) => !known.includes(k) && !isCdkContextKey(k));
  if (unknown.length === 0) return;
  const described = unknown.map((k) => {
    const guess = nearMiss(k, known);
    return guess === undefined ? JSON.stringify(k) : `${JSON.stringify(k)} (did you mean ${guess}?)`;
  });
  throw new Error(`Unknown context key${unknown.length > 1 ? 's' : ''} ${described.join(', ')}: the app reads only ` +
    `${known.join(', ')} (keys are case-sensitive; only keys CDK owns, such as the feature flags aws-cdk-lib exports, are ignored).`);
}
