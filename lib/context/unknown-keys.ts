/**
 * Refusing context keys the app does not read, so that a typo (`-c capacityTB=10`) stops synth instead of silently
 * deploying the default: the known keys are CONTEXT_DEFAULTS'; the CDK's own keys pass; a near miss is named.
 */
import { CONTEXT_DEFAULTS } from './keys';

/**
 * Context keys that belong to the CDK, not to this app: feature flags (`@aws-cdk/...`), keys the CLI injects
 * (`aws:cdk:enable-path-metadata`, `aws:cdk:bundling-stacks`, ...: shown by printing `getAllContext()` under
 * `cdk synth`), cached lookups in cdk.context.json (`vpc-provider:account=...`, `availability-zones:...`: a
 * lower-case provider name and a colon) and `cdk acknowledge`'s list.
 */
function isCdkContextKey(key: string): boolean {
  return ['@aws-cdk/', '@aws-cdk-containers/', 'aws:', 'aws-cdk:', 'cdk-'].some((p) => key.startsWith(p)) ||
    /^[a-z][a-z0-9-]*:/.test(key) ||
    key === 'acknowledged-issue-numbers';
}

/** Levenshtein distance (insertions, deletions, substitutions). */
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

/** The known key an unknown one was probably meant to be: same letters in another case, TB for TiB, or a typo. */
function nearMiss(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const swapped = [lower.replace(/tib/g, 'tb'), lower.replace(/tb/g, 'tib')];
  const exact = known.find((k) => k.toLowerCase() === lower || swapped.includes(k.toLowerCase()));
  if (exact !== undefined) return exact;
  const [best] = known
    .map((k) => ({ k, d: editDistance(lower, k.toLowerCase()) }))
    .filter(({ d }) => d <= 2)
    .sort((x, y) => x.d - y.d);
  return best?.k;
}

/**
 * Refuses context keys the app does not read, so that a typo (`-c capacityTB=10`) stops synth instead of
 * silently deploying the default. `keys` are all the app's context keys (`Object.keys(app.node.getAllContext())`);
 * the CDK's own (feature flags, keys the CLI injects, cached lookups) are ignored. The message suggests the
 * known key a near miss was meant to be and lists every known key.
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
    `${known.join(', ')} (keys are case-sensitive; CDK's own keys such as @aws-cdk/... feature flags are ignored).`);
}
