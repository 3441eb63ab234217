/**
 * Only context keys CDK owns pass the unknown-key check: the list is derived here from aws-cdk-lib itself, so a key
 * a new aws-cdk-lib adds fails this test until the rule covers it; any other key is refused with the nearest known key.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ContextProvider } from 'aws-cdk-lib/cloud-assembly-schema';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { checkContextKeys } from '../../lib/context';
import { thrown } from '../support/thrown';

/**
 * Every context key aws-cdk-lib exports: its feature flags, current and expired, and each cx-api string constant in
 * CDK's own namespaces. The metadata entry keys are left out, the `*_KEY` that are not `*_CONTEXT_KEY` such as
 * `aws:cdk:path`, since they name template metadata, not context.
 */
function cdkOwnedKeys(): string[] {
  const constants = Object.entries(cxapi as Record<string, unknown>)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .filter(([name, value]) => /^(aws:cdk:|aws-cdk:|@aws-cdk)/.test(value) && (!name.endsWith('_KEY') || name.endsWith('_CONTEXT_KEY')))
    .map(([, value]) => value);
  const lookups = Object.values(ContextProvider).map((p) => `${p}:account=123456789012:region=us-east-1`);
  return [
    ...Object.keys(cxapi.FLAGS), ...cxapi.CURRENT_VERSION_EXPIRED_FLAGS, ...cxapi.FUTURE_FLAGS_EXPIRED,
    ...Object.keys(cxapi.NEW_PROJECT_DEFAULT_CONTEXT), ...constants, ...lookups,
  ];
}

describe('keys CDK owns', () => {
  test('every context key aws-cdk-lib exports passes', () => {
    const keys = cdkOwnedKeys();
    expect(keys.length).toBeGreaterThan(100);
    const refused = keys.filter((k) => { try { checkContextKeys([k]); return false; } catch { return true; } });
    expect(refused).toEqual([]);
  });

  test("cdk.json's context passes", () => {
    const cdkJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'cdk.json'), 'utf8')) as { context: object };
    expect(() => checkContextKeys(Object.keys(cdkJson.context))).not.toThrow();
  });
});

describe('keys shaped like CDK\'s are refused with the nearest known key', () => {
  test.each([
    ['fsx:deploymentType', 'fsxDeploymentType'],
    ['aws:capacityTiB', 'capacityTiB'],
    ['aws:cdk:capacityTB', 'capacityTiB'],
    ['fsx-deployment-type', 'fsxDeploymentType'],
    ['x:serverName', 'serverName'],
  ])('-c %s=... is refused, suggesting %s', (key, guess) => {
    expect(thrown(() => checkContextKeys([key]))).toMatch(
      new RegExp(`^Unknown context key "${key}" \\(did you mean ${guess}\\?\\): the app reads only capacityTiB, `));
  });

  test.each([
    '@aws-cdk/core:notAFlag', 'aws:cdk:not-a-setting', 'cdk-backend', 'vpc:account=1', 'acknowledged-issues', 'x:y',
  ])('%s, not a key CDK owns, is refused', (key) => {
    expect(thrown(() => checkContextKeys([key]))).toMatch(new RegExp(`^Unknown context key "${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`));
  });
});
