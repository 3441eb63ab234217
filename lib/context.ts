/**
 * Context parameters of the deployable app (docs/design.md#4-the-context-contract): `cdk synth|deploy -c key=value`.
 *
 * Pure parsing and validation, no CDK constructs. Every bad value stops synth with a message that names the key,
 * echoes the value and says what is allowed. Values arrive as strings from `-c` or as JSON values from cdk.json, and
 * both are accepted.
 *
 * This module assembles the context. The key table lives in lib/context/keys.ts and
 * lib/context/storage-server-context.ts, and the parsers under lib/context/, one file per group of keys. A backend's
 * own keys live in its planner descriptor, in the shape lib/context/backend-context.ts gives, and lib/context/ reaches
 * the descriptors through the registry alone.
 */
import type { PlannedRequest } from './storage-server/planned';
import { ResourceEnvironment } from './validation/topic-arn';
import { refuseExclusiveKeys } from './context/backends';
import { clientAddressSpace, parseClientKeys } from './context/clients';
import { parseClientMountKeys } from './context/client-mount';
import { CONTEXT_DEFAULTS, type ContextKey, ContextReader } from './context/keys';
import { type ExistingStorageContext, namesExistingStorage, parseExistingStorageKeys, refuseExistingOnlyKeys } from './context/existing';
import { parseNameKeys } from './context/names';
import { checkVpcFrom, parseVpcKeys } from './context/network';
import { parseServerKeys } from './context/server';
import { parseQuotaKeys } from './context/quotas';
import { checkedPlan, parseInstanceTypeKey, parseSizingKeys } from './context/sizing';
import { StorageServerContext } from './context/storage-server-context';
import { contextValues, parseBoolean } from './context/values';

// The key table, the stack name, the unknown-key check and the backend's props: the app and the tests import them from
// this module.
export { CONTEXT_DEFAULTS } from './context/keys';
export type { ContextKey } from './context/keys';
export type { StorageServerContext } from './context/storage-server-context';
export type { ExistingStorageContext } from './context/existing';
export { appStackName, hasOwnStackName, stackName } from './context/names';
export { contextError } from './context/values';
export { backendProps } from './context/backends';
export { checkContextKeys } from './context/unknown-keys';

/**
 * Parses and validates every key of {@link CONTEXT_DEFAULTS} (docs/design.md, section 4), and throws on the first bad
 * value. `target` is where the stack deploys when known, from the CLI's CDK_DEFAULT_REGION and CDK_DEFAULT_ACCOUNT: an
 * alarm topic elsewhere is refused. The keys are checked group by group in this order, which decides the message when
 * several are bad.
 */
export function parseContext(read: ContextReader, target: ResourceEnvironment = {}): StorageServerContext {
  return parseContextAndPlan(read, target).context;
}

/** What the app builds from its context: a server's stack, or, with `existingStorage`, a stack that registers it. */
export type AppContext =
  | { readonly existing: ExistingStorageContext; readonly server?: undefined }
  | { readonly existing?: undefined; readonly server: ReturnType<typeof parseContextAndPlan> };

/**
 * The app's context, whichever stack it makes: {@link parseContextAndPlan}'s, or an existing storage's keys when
 * `existingStorage` is given.
 */
export function parseAppContext(read: ContextReader, target: ResourceEnvironment = {}): AppContext {
  const values = contextValues(read);
  return namesExistingStorage(values)
    ? { existing: parseExistingStorageKeys(values, target) }
    : { server: parseContextAndPlan(read, target) };
}

/**
 * {@link parseContext}, with the plan it checked the keys against and the request that plan answers, when the planner
 * took the request. The app hands both down to the server, so that a synth plans once.
 */
export function parseContextAndPlan(read: ContextReader, target: ResourceEnvironment = {}): {
  context: StorageServerContext;
  planned?: PlannedRequest;
  /** The keys given, which the stack's notes are about; the rest took their defaults. */
  stated: ContextKey[];
} {
  const values = contextValues(read);
  // A caller's mistake, not the user's: the app reads these keys with parseAppContext.
  if (namesExistingStorage(values)) throw new Error('existingStorage is read by parseAppContext: it makes no server to plan');
  refuseExistingOnlyKeys(values);
  const vpc = parseVpcKeys(values, target);
  const allowPublicClientCidrs = values.optional('allowPublicClientCidrs', parseBoolean) ?? CONTEXT_DEFAULTS.allowPublicClientCidrs;
  const names = parseNameKeys(values);
  checkVpcFrom(vpc.vpcFrom, names.stackName);
  // A backend's own keys are checked against the network keys too.
  const sizingKeys = parseSizingKeys(values, vpc);
  const allowHomeMountPoint = values.optional('allowHomeMountPoint', parseBoolean) ?? CONTEXT_DEFAULTS.allowHomeMountPoint;
  const { request, plan } = checkedPlan(values, sizingKeys);
  const instanceType = parseInstanceTypeKey(values, plan, sizingKeys.sizing);
  const parsed: StorageServerContext = {
    ...sizingKeys.sizing,
    ...names,
    ...vpc,
    ...parseClientKeys(values, clientAddressSpace(allowPublicClientCidrs)),
    allowPublicClientCidrs,
    ...parseServerKeys(values, target),
    ...parseQuotaKeys(values),
    allowHomeMountPoint,
    ...parseClientMountKeys(values, allowHomeMountPoint, plan),
    instanceType,
  };
  // After the values' own grammars, so that a malformed value is told what it must look like first.
  refuseExclusiveKeys(values, plan);
  const stated = (Object.keys(CONTEXT_DEFAULTS) as ContextKey[]).filter((key) => values.raw(key) !== undefined);
  return { context: parsed, planned: plan === undefined ? undefined : { request, plan }, stated };
}
