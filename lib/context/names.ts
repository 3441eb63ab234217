/**
 * The name keys: `clusterName`, `serverName`, and the stack name they give unless `stackName` is given. A derived stack
 * name is kept only where no other pair of names gives the same, so that no deployed stack is renamed.
 */
import { DASHBOARD_NAME_PATTERN, NAME_PATTERN, NAME_RULE, STACK_NAME_PATTERN } from '../validation/names';
import { CONTEXT_DEFAULTS, ContextKey } from './keys';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError } from './values';

/** CloudFormation's limit on a stack name. */
export const STACK_NAME_MAX = 128;
const STACK_NAME_PREFIX = 'StorageServer-';
/**
 * The CDK bootstrap stack's default name, which `cdk bootstrap` deploys and every `cdk deploy` reads: see "cdk
 * bootstrap" in the CDK v2 guide. A test compares it with the CLI's DEFAULT_TOOLKIT_STACK_NAME. An app stack of that
 * name would update the bootstrap stack into a storage server.
 */
export const BOOTSTRAP_STACK_NAME = 'CDKToolkit';

/**
 * The stack name the app gives a cluster and server, which deployed stacks carry:
 * `StorageServer-<clusterName>-<serverName>`. `_` and `.` are valid in names but not in stack names, so they are
 * written as `-`. The mapping is not one-to-one: `a_b`, `a-b` and `a` with server `b-...` all give
 * `StorageServer-a-b-...`. {@link appStackName} uses it only where it is.
 */
export function stackName(clusterName: string, serverName: string): string {
  return `${STACK_NAME_PREFIX}${clusterName}-${serverName}`.replace(/[_.]/g, '-');
}

/**
 * Whether {@link stackName} gives this pair a name no other pair of valid names gets: a clusterName of letters and
 * digits only and a serverName without `_` and `.`. Then the name reads back as the pair: the cluster up to the first
 * `-` after the prefix, the server after it. So these names are kept and no deployed stack of such a pair is renamed.
 * Any other pair shares its name with one of these, as `a_b`/`storage1` does with `a`/`b-storage1`.
 */
export function hasOwnStackName(clusterName: string, serverName: string): boolean {
  return /^[A-Za-z0-9]+$/.test(clusterName) && /^[A-Za-z0-9-]+$/.test(serverName);
}

/**
 * The app's stack name: the `stackName` key when given, else {@link stackName} for a pair that owns it by
 * {@link hasOwnStackName}. It is undefined for a pair whose name another pair shares. The app refuses such a pair
 * rather than guess whether a stack of that name is this pair's, since renaming it would deploy a second server beside
 * it. So distinct pairs of names never get the same derived name.
 */
export function appStackName(clusterName: string, serverName: string, explicit?: string): string | undefined {
  if (explicit !== undefined) return explicit;
  return hasOwnStackName(clusterName, serverName) ? stackName(clusterName, serverName) : undefined;
}

/** A valid pair that {@link stackName} maps to the same name as `clusterName` and `serverName`, if there is one. */
function sharedWith(clusterName: string, serverName: string): [string, string] | undefined {
  const name = stackName(clusterName, serverName).slice(STACK_NAME_PREFIX.length);
  const split = name.indexOf('-');
  const other: [string, string] = [name.slice(0, split), name.slice(split + 1)];
  const valid = other.every((n) => NAME_PATTERN.test(n) && DASHBOARD_NAME_PATTERN.test(n));
  return valid && (other[0] !== clusterName || other[1] !== serverName) ? other : undefined;
}

/** clusterName, serverName and the stack name, in that order, so that a bad name is reported before the stack name. */
export function parseNameKeys(values: ContextValues<ContextKey>): Pick<StorageServerContext, 'clusterName' | 'serverName' | 'stackName'> {
  const clusterName = values.optional('clusterName', parseName) ?? CONTEXT_DEFAULTS.clusterName;
  const serverName = values.optional('serverName', parseServerName) ?? CONTEXT_DEFAULTS.serverName;
  return { clusterName, serverName, stackName: parseStackName(values.raw, clusterName, serverName) };
}

function parseName(key: ContextKey, value: string): string {
  if (!NAME_PATTERN.test(value)) throw contextError(key, value, NAME_RULE);
  return value;
}

function parseServerName(key: ContextKey, value: string): string {
  if (!NAME_PATTERN.test(value) || !DASHBOARD_NAME_PATTERN.test(value)) {
    throw contextError(key, value, `${NAME_RULE}, but no '.' (it names the server's CloudWatch dashboard, whose name ` +
      'takes A-Z a-z 0-9 _ - only)');
  }
  return value;
}

/**
 * The stack name: `stackName` when given, else the derived name of a pair that owns it; a pair whose derived name
 * another pair shares is refused, naming the key to change and how to keep a deployed stack's name.
 */
function parseStackName(raw: (key: ContextKey) => string | undefined, clusterName: string, serverName: string): string {
  const given = raw('stackName');
  if (given !== undefined && !STACK_NAME_PATTERN.test(given)) {
    throw contextError('stackName', given, 'a CloudFormation stack name: a letter, then letters, digits and hyphens, at most ' +
      `${STACK_NAME_MAX} characters`);
  }
  if (given === BOOTSTRAP_STACK_NAME) {
    throw contextError('stackName', given, `a CloudFormation stack name other than ${BOOTSTRAP_STACK_NAME}, the CDK bootstrap stack's ` +
      'default name: deploying there would turn the bootstrap stack into this one');
  }
  const name = appStackName(clusterName, serverName, given);
  const legacy = stackName(clusterName, serverName);
  if (name === undefined) {
    const key: ContextKey = /^[A-Za-z0-9]+$/.test(clusterName) ? 'serverName' : 'clusterName';
    const other = sharedWith(clusterName, serverName);
    throw contextError(key, key === 'serverName' ? serverName : clusterName,
      'names whose stack name no other pair of names shares: a clusterName of letters and digits only, a serverName ' +
      `without '_' and '.' (clusterName=${clusterName} serverName=${serverName} would be ${legacy}` +
      (other ? `, which clusterName=${other[0]} serverName=${other[1]} gives too` : ', which other names give too') +
      `). A stack deployed under that name keeps it with -c stackName=${legacy}; for a new stack choose such names, ` +
      'or name the stack yourself with -c stackName=<name>');
  }
  if (given === undefined && name.length > STACK_NAME_MAX) {
    const key: ContextKey = raw('serverName') !== undefined ? 'serverName' : 'clusterName';
    throw contextError(
      key,
      key === 'serverName' ? serverName : clusterName,
      `names that keep the stack name ${STACK_NAME_PREFIX}<clusterName>-<serverName> within CloudFormation's ` +
        `${STACK_NAME_MAX} characters: clusterName and serverName together at most ` +
        `${STACK_NAME_MAX - STACK_NAME_PREFIX.length - 1} characters (got ${clusterName.length} + ${serverName.length}), ` +
        'or -c stackName=<name>',
    );
  }
  return name;
}
