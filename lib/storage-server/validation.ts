import { Annotations, RemovalPolicy, Stack, Token, Tokenization } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { ownVpcCidr } from '../backends/client-access';
import { DISTINCT_PLUGINS } from '../backends/registry';
import type { NfsOptions } from '../backends/ec2-nfs-server-props';
import type { SnapshotOptions } from '../backends/snapshot-options';
import { SNAPSHOT_INTERVAL_HOURS } from '../snapshot-policy';
import { describeValue, shown, validateObject, validateOneOf } from '../prop-checks';
import { NFS_MAX_NCONNECT } from '../sizing/nfs-client';
import { ValueRule, type ValueToCheck } from '../../lambda/value-check/contract';
import type { StorageServerProps } from './props';
import {
  DASHBOARD_NAME_PATTERN, EMAIL_PATTERN, EMAIL_RULE, IMAGE_ID_PATTERN, NAME_PATTERN, NAME_RULE, REGION_PATTERN,
  TIME_OF_DAY_PATTERN, addressSpaceProblem, cidrProblem, directoryProblem, ipv4Problem, ipv6ClientProblem, topicArnProblem,
  DEFAULT_MOUNT_ROOTS, VPC_PREFIX_RANGE, isLookupPlaceholder, mountPointProblem, mountRootProblem, subnetReservedProblem, vpcCidrProblem,
} from '../validation';

// The facade's props validation: each prop checked, before anything is created, with a message that names it and
// what it must be. The grammars are lib/validation.ts's; a backend's own options are its plugin's to check
// (lib/backends/plugin.ts); the plan's checks are lib/storage-server/plan.ts's.

/** The names the facade settled from its props, their defaults applied. */
export interface ServerNames {
  /** The cluster's name. */
  readonly clusterName: string;
  /** The server's name in the cluster. */
  readonly serverName: string;
  /** The directory clients mount on. */
  readonly mountPoint: string;
}

/**
 * Checks the props in turn, given that they are an object at all, as {@link validateIsObject} makes sure. Returns the
 * values a synth cannot see, the tokens, each with its rule, for the deploy-time check of lib/deploy-check.ts.
 */
export function validateServerProps(scope: Construct, props: StorageServerProps, names: ServerNames): ValueToCheck[] {
  const atDeploy: ValueToCheck[] = [];
  validateName('clusterName', names.clusterName);
  validateName('serverName', names.serverName);
  validateDashboardName(names.serverName, props.monitoring?.dashboard);
  validatePropTypes(props);
  validateClientAddresses(scope, props, atDeploy);
  validateNfsOptions(props.nfs);
  validateSnapshotOptions(props.snapshots);
  validateAlarms(scope, props);
  if (props.exportPath !== undefined) validateDirectory('exportPath', props.exportPath);
  validateMountPoint(names.mountPoint, props.mountRoots, props.allowHomeMountPoint);
  return atDeploy;
}

/** The props themselves: an object, since a JavaScript caller may pass anything. */
export function validateIsObject(props: StorageServerProps): void {
  validateObject('StorageServer props', props, 'an object (StorageServerProps)', undefined, true);
}

function validateName(prop: string, value: string): void {
  if (Token.isUnresolved(value)) return;
  if (typeof value !== 'string' || !NAME_PATTERN.test(value)) {
    throw new Error(`${prop} must be ${NAME_RULE} (it is part of SSM parameter paths), got ${shown(value)}.`);
  }
}

/** The server's dashboard is named after it, and CloudWatch dashboard names take no '.'. */
function validateDashboardName(serverName: string, dashboard: boolean | undefined): void {
  if (Token.isUnresolved(serverName) || dashboard === false || DASHBOARD_NAME_PATTERN.test(serverName)) return;
  throw new Error(`serverName must have no '.' while the server has a dashboard (its name, StorageServer-<stack>-<serverName>, ` +
    `takes A-Z a-z 0-9 _ - only), got '${serverName}': rename the server, or set monitoring.dashboard to false.`);
}

/**
 * What TypeScript's types would refuse, checked at run time for JavaScript callers and `as any`: each prop's type, enum
 * or form. So a wrong value stops synth naming the prop instead of reaching a record, a script or a resource. Numbers
 * with ranges, names, addresses and paths have checks of their own.
 */
function validatePropTypes(props: StorageServerProps): void {
  validateObject('vpc', props.vpc, 'an ec2.IVpc', 'selectSubnets', true);
  validateObject('vpcSubnets', props.vpcSubnets, 'an ec2.SubnetSelection');
  validateObject('instanceType', props.instanceType, "an ec2.InstanceType such as new ec2.InstanceType('m4.xlarge')", 'sameInstanceClassAs');
  validateObject('keyPair', props.keyPair, 'an ec2.IKeyPair such as ec2.KeyPair.fromKeyPairName(...)', 'keyPairName');
  validateObject('placementGroup', props.placementGroup, 'an ec2.IPlacementGroup such as ec2.PlacementGroup.fromPlacementGroupName(...)', 'placementGroupName');
  validateObject('kmsKey', props.kmsKey, 'a kms.IKey', 'keyArn');
  validateObject('securityGroup', props.securityGroup, 'an ec2.ISecurityGroup such as ec2.SecurityGroup.fromSecurityGroupId(...)', 'securityGroupId');
  validateObject('machineImage', props.machineImage, 'an ec2.IMachineImage', 'getImage');
  validateObject('alarmTopic', props.alarmTopic, 'an sns.ITopic such as sns.Topic.fromTopicArn(...)', 'topicArn');
  validateObject('clusterware.tokenSecret', props.clusterware?.tokenSecret, 'a secretsmanager.ISecret', 'secretArn');
  const optionProps = DISTINCT_PLUGINS.flatMap((plugin) => (plugin.optionsProp === undefined ? [] : [plugin.optionsProp]));
  for (const prop of ['nfs', 'snapshots', 'monitoring', ...optionProps, 'clusterware'] as const) {
    validateObject(prop, props[prop], 'an object of options');
  }
  for (const plugin of DISTINCT_PLUGINS) plugin.validateOptionTypes?.(props);
  validateObject('snapshots.crossRegionCopy', props.snapshots?.crossRegionCopy, 'an object { targetRegion, ... }');
  const booleans: [string, unknown][] = [
    ['allowPublicClientCidrs', props.allowPublicClientCidrs], ['terminationProtection', props.terminationProtection],
    ['encryptInstanceStore', props.encryptInstanceStore], ['acceptDataLoss', props.acceptDataLoss],
    ['deleteDataOnDestroy', props.deleteDataOnDestroy], ['acceptFewerSnapshots', props.acceptFewerSnapshots],
    ['legacyVolumeAttachments', props.legacyVolumeAttachments], ['allowHomeMountPoint', props.allowHomeMountPoint],
    ['snapshots.applicationConsistent', props.snapshots?.applicationConsistent],
    ['snapshots.crossRegionCopy.encrypted', props.snapshots?.crossRegionCopy?.encrypted],
    ['monitoring.dashboard', props.monitoring?.dashboard],
  ];
  for (const [prop, value] of booleans) validateOneOf(prop, value, [true, false]);
  validateOneOf('removalPolicy', props.removalPolicy, Object.values(RemovalPolicy));
  const lists = [['clientCidrs', props.clientCidrs], ['clientPeers', props.clientPeers], ['dataVolumeSnapshotIds', props.dataVolumeSnapshotIds],
    ['mountRoots', props.mountRoots]] as const;
  for (const [prop, list] of lists) {
    // A list token, from Token.asList or Fn.split, is an array; a string or number token in its place is not.
    if (list !== undefined && !Array.isArray(list)) throw new Error(`${prop} must be an array, got ${Token.isUnresolved(list) ? 'a token that is not a list' : shown(list)}.`);
  }
  for (const id of props.dataVolumeSnapshotIds ?? []) {
    if (typeof id !== 'string') throw new Error(`dataVolumeSnapshotIds: each entry must be a snapshot id string, got ${shown(id)}.`);
  }
  const image = props.machineImageId;
  if (image !== undefined && !Token.isUnresolved(image) && (typeof image !== 'string' || !IMAGE_ID_PATTERN.test(image))) {
    throw new Error(`machineImageId must be an image id such as 'ami-0123456789abcdef0', got ${shown(image)}.`);
  }
  for (const prop of ['parameterPrefix', 'exportPath', 'mountPoint', 'alarmEmail'] as const) {
    const value = props[prop];
    if (value !== undefined && typeof value !== 'string') throw new Error(`${prop} must be a string, got ${shown(value)}.`);
  }
}

/**
 * Client CIDRs, CIDR peers, the clusterware master and an imported VPC's CIDR: canonical, and in private space unless
 * `allowPublicClientCidrs`, when synth warns. A token CIDR, the new VPC's own, is not checked here. A peer that admits
 * addresses, `ec2.Peer.anyIpv4()`, `ec2.Peer.ipv4(...)` or `ec2.Peer.anyIpv6()`, is held to the clientCidrs rules.
 * Security groups and prefix lists name no addresses here and pass.
 */
function validateClientAddresses(scope: Construct, props: StorageServerProps, atDeploy: ValueToCheck[]): void {
  const space = { allowPublic: props.allowPublicClientCidrs ?? false };
  const isPublic = (cidr: string) => addressSpaceProblem(cidr) !== undefined;
  const publicOnes: string[] = [];
  const seen = new Set<string>();
  // The VPC's CIDR is where clients may be without clientCidrs. It is held to their rules at synth when known, for a
  // looked-up one on the synth after the lookup, and at deploy when it is a token.
  const vpcCidr = ownVpcCidr(props.vpc);
  // Clients may be anywhere in the VPC only when no clientCidrs narrow them.
  if (Token.isUnresolved(vpcCidr) && props.clientCidrs === undefined) atDeploy.push({ name: 'vpc (its vpcCidrBlock)', rule: ValueRule.VPC_CIDR, value: vpcCidr });
  if (!Token.isUnresolved(vpcCidr) && !isLookupPlaceholder(vpcCidr)) {
    const problem = typeof vpcCidr === 'string' ? vpcCidrProblem(vpcCidr, space) : 'not a string';
    if (problem) {
      throw new Error(`vpc: its CIDR (vpcCidrBlock) is held to the clientCidrs rules, as clients may be anywhere in it: a ` +
        `canonical IPv4 CIDR of /${VPC_PREFIX_RANGE.largest} to /${VPC_PREFIX_RANGE.smallest} in private address space unless ` +
        `allowPublicClientCidrs, got ${shown(vpcCidr)}: ${problem}.`);
    }
    if (isPublic(vpcCidr)) publicOnes.push(`${vpcCidr} (the VPC's CIDR)`);
  }
  // Each CIDR is a rule of its own in the security group: a list whose length synth cannot know has no rules to make.
  const clientCidrs = props.clientCidrs ?? [];
  const notText = clientCidrs.find((c) => typeof c !== 'string');
  if (notText !== undefined) throw new Error(`clientCidrs: each entry must be a canonical IPv4 CIDR in private address space, got ${shown(notText)}: not a string.`);
  if (Token.isUnresolved(clientCidrs) || clientCidrs.some((c) => Tokenization.reverseList([c]) !== undefined)) {
    throw new Error('clientCidrs: a token list (a List<String> parameter, Fn.split) cannot be used: each CIDR becomes a security ' +
      'group rule of its own, so synth must know how many there are. Pass the entries, e.g. [Fn.select(0, list), Fn.select(1, list)]: ' +
      'each is checked when the deploy resolves it.');
  }
  for (const [i, cidr] of clientCidrs.entries()) {
    if (Token.isUnresolved(cidr)) {
      atDeploy.push({ name: `clientCidrs[${i}]`, rule: ValueRule.CLIENT_CIDR, value: cidr });
      continue;
    }
    const problem = typeof cidr === 'string' ? cidrProblem(cidr) ?? addressSpaceProblem(cidr, space) : 'not a string';
    if (problem) throw new Error(`clientCidrs: each entry must be a canonical IPv4 CIDR in private address space, got ${shown(cidr)}: ${problem}.`);
    if (seen.has(cidr)) throw new Error(`clientCidrs: each entry must appear once, got '${cidr}' twice.`);
    seen.add(cidr);
    if (isPublic(cidr)) publicOnes.push(cidr);
  }
  for (const [i, peer] of (props.clientPeers ?? []).entries()) {
    for (const cidr of peerCidrs(peer, i)) {
      if (Token.isUnresolved(cidr)) {
        atDeploy.push({ name: `clientPeers[${i}]`, rule: ValueRule.CLIENT_PEER, value: cidr });
        continue;
      }
      const v6 = cidr.includes(':');
      const problem = v6 ? ipv6ClientProblem(cidr, space) : cidrProblem(cidr) ?? addressSpaceProblem(cidr, space);
      if (problem) {
        throw new Error(`clientPeers[${i}] admits ${cidr}: a peer that admits addresses must follow the clientCidrs rules (a canonical ` +
          `CIDR in private address space${v6 ? ', fc00::/7 for IPv6' : ''}, never /0, unless allowPublicClientCidrs): ${problem}. ` +
          'Security groups are admitted as they are.');
      }
      if (v6 ? ipv6ClientProblem(cidr) !== undefined : isPublic(cidr)) publicOnes.push(cidr);
    }
  }
  const loginIp = props.clusterware?.loginIp;
  if (loginIp !== undefined && typeof loginIp !== 'string') {
    throw new Error(`clusterware.loginIp must be the canonical IPv4 address of one host in private address space, got ${shown(loginIp)}: not a string.`);
  }
  if (loginIp !== undefined && Token.isUnresolved(loginIp)) {
    atDeploy.push({ name: 'clusterware.loginIp', rule: ValueRule.LOGIN_IP, value: loginIp });
  } else if (loginIp !== undefined) {
    const problem = ipv4Problem(loginIp) ?? addressSpaceProblem(loginIp, space);
    if (problem) throw new Error(`clusterware.loginIp must be the canonical IPv4 address of one host in private address space, got ${shown(loginIp)}: ${problem}.`);
    for (const subnetCidr of knownSubnetCidrs(props.vpc)) {
      const reserved = subnetReservedProblem(loginIp, subnetCidr);
      if (reserved) throw new Error(`clusterware.loginIp must be an address an instance can have, got ${shown(loginIp)}: ${reserved}.`);
    }
    if (isPublic(loginIp)) publicOnes.push(loginIp);
  }
  if (publicOnes.length > 0) {
    Annotations.of(scope).addWarningV2('storage-server:publicClientCidrs',
      `allowPublicClientCidrs: ${publicOnes.join(', ')} ${publicOnes.length > 1 ? 'are' : 'is'} public address space; ` +
      'NFS (TCP 2049) and the export are open to it. Make sure that is intended.');
  }
}

/** The IPv4 CIDRs of the VPC's subnets that synth knows; an imported subnet may have none. */
function knownSubnetCidrs(vpc: ec2.IVpc): string[] {
  const cidrs: string[] = [];
  for (const subnet of [...vpc.publicSubnets, ...vpc.privateSubnets, ...vpc.isolatedSubnets]) {
    try {
      const cidr = subnet.ipv4CidrBlock;
      if (typeof cidr === 'string' && !Token.isUnresolved(cidr)) cidrs.push(cidr);
    } catch {
      // An imported subnet without ipv4CidrBlock: nothing known about it.
    }
  }
  return cidrs;
}

/**
 * The CIDRs a client peer admits. For an `ec2.IPeer` such as `Peer.anyIpv4()` they are its own. For any other
 * connectable they are the peer rules its connections carry, `new ec2.Connections({ peer })`, read from the CDK's list
 * of them. A security group or prefix list admits none by address.
 */
function peerCidrs(peer: ec2.IConnectable, index: number): string[] {
  if (typeof peer !== 'object' || peer === null || typeof peer.connections !== 'object' || peer.connections === null) {
    throw new Error(`clientPeers[${index}] must be an ec2.IConnectable (a security group, an instance, ...), got ${shown(peer)}.`);
  }
  const cidrOf = (p: unknown): string | undefined => {
    if (typeof (p as ec2.IPeer)?.toIngressRuleConfig !== 'function') return undefined;
    const rule = (p as ec2.IPeer).toIngressRuleConfig() as { cidrIp?: string; cidrIpv6?: string };
    return rule.cidrIp ?? rule.cidrIpv6;
  };
  const rules = (peer.connections as unknown as { _securityGroupRules?: { asArray?: () => unknown[] } })._securityGroupRules;
  const peers = [peer, ...(typeof rules?.asArray === 'function' ? rules.asArray() : [])];
  return [...new Set(peers.map(cidrOf).filter((c): c is string => c !== undefined))];
}

/**
 * The alarm address and topic: one address by the e-mail grammar, and a topic in the stack's region and account when
 * both are known, since an alarm notifies a topic of its own region.
 */
function validateAlarms(scope: Construct, props: StorageServerProps): void {
  const email = props.alarmEmail;
  if (email !== undefined && !Token.isUnresolved(email) && !EMAIL_PATTERN.test(email)) {
    throw new Error(`alarmEmail must be ${EMAIL_RULE}, got ${shown(email)}.`);
  }
  const arn = props.alarmTopic?.topicArn;
  if (arn === undefined || Token.isUnresolved(arn)) return;
  const stack = Stack.of(scope);
  const problem = topicArnProblem(arn, { region: stack.region, account: stack.account });
  if (problem) throw new Error(`alarmTopic must be a standard SNS topic in the stack's region and account, got ${arn}: ${problem}.`);
}

function validateWholeNumber(prop: string, value: number | undefined, min: number, max: number, meaning = ''): void {
  if (value === undefined || Token.isUnresolved(value)) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${prop} must be a whole number from ${min}${meaning} to ${max}, got ${describeValue(value)}.`);
  }
}

/** NFS settings: the version reaches the mount record and every client's fstab, so only the two offered. */
function validateNfsOptions(nfs: NfsOptions | undefined): void {
  // The thread count is written into the server's settings at synth: a token would reach them unresolved.
  if (Token.isUnresolved(nfs?.threads)) throw new Error('nfs.threads must be a whole number given at synth (it is written into the server\'s settings), got a token.');
  validateWholeNumber('nfs.threads', nfs?.threads, 1, 1024);
  validateOneOf('nfs.exportMode', nfs?.exportMode, ['sync', 'async']);
  validateOneOf('nfs.version', nfs?.version, ['4.1', '4.2']);
  validateWholeNumber('nfs.nconnect', nfs?.nconnect, 1, NFS_MAX_NCONNECT, ' (one connection: no nconnect option)');
}

/**
 * Checked here, before anything is created, and for every backend. A bad value such as `retain: -1` or `NaN` must never
 * silently turn snapshots off, nor be ignored because the backend has no snapshots.
 */
function validateSnapshotOptions(snapshots: SnapshotOptions | undefined): void {
  validateWholeNumber('snapshots.retain', snapshots?.retain, 0, 1000, ' (snapshots off)');
  const hours = snapshots?.intervalHours;
  if (hours !== undefined && !Token.isUnresolved(hours) && !(SNAPSHOT_INTERVAL_HOURS as readonly unknown[]).includes(hours)) {
    throw new Error(`snapshots.intervalHours must be one of ${SNAPSHOT_INTERVAL_HOURS.join(', ')} (DLM), got ${describeValue(hours)}.`);
  }
  validateWholeNumber('snapshots.crossRegionCopy.retainDays', snapshots?.crossRegionCopy?.retainDays, 1, 36500);
  const start = snapshots?.startTimeUtc;
  if (start !== undefined && !Token.isUnresolved(start) && (typeof start !== 'string' || !TIME_OF_DAY_PATTERN.test(start))) {
    throw new Error(`snapshots.startTimeUtc must be HH:MM in UTC, 00:00 to 23:59, got ${shown(start)}.`);
  }
  const region = snapshots?.crossRegionCopy?.targetRegion;
  if (snapshots?.crossRegionCopy !== undefined && !Token.isUnresolved(region) && (typeof region !== 'string' || !REGION_PATTERN.test(region))) {
    throw new Error(`snapshots.crossRegionCopy.targetRegion must be a region name such as eu-west-1, got ${shown(region)}.`);
  }
}

/** Why a path cannot be a token: the scripts that use it are rendered at synth. */
function literalPathOnly(prop: string): string {
  return `${prop} must be a literal path, not a token (a parameter, an import): it is written into the server's and the ` +
    "nodes' scripts, which synth renders and checks.";
}

/** The record's mountPoint against the clients' rule, which lib/scripts/client-mount.sh applies on every node too. */
function validateMountPoint(mountPoint: string, mountRoots: string[] | undefined, allowHome = false): void {
  for (const root of mountRoots ?? []) {
    const problem = typeof root !== 'string' ? 'not a string' : Token.isUnresolved(root) ? 'a token' : mountRootProblem(root);
    if (problem) throw new Error(`mountRoots must be absolute directories outside the system directories, got ${typeof root === 'string' ? `'${root}'` : shown(root)}: ${problem}.`);
  }
  if (Token.isUnresolved(mountPoint)) throw new Error(literalPathOnly('mountPoint'));
  const roots = mountRoots ?? DEFAULT_MOUNT_ROOTS;
  const problem = typeof mountPoint === 'string' ? mountPointProblem(mountPoint, { mountRoots: roots, allowHome }) : 'not a string';
  if (problem) {
    throw new Error(`mountPoint must be an absolute directory path at or below one of mountRoots (${roots.join(' ')}` +
      `${allowHome ? ' /home' : ''}), got '${mountPoint}': ${problem}.`);
  }
}

function validateDirectory(prop: string, path: string): void {
  if (Token.isUnresolved(path)) throw new Error(literalPathOnly(prop));
  const problem = typeof path === 'string' ? directoryProblem(path) : 'not a string';
  if (problem) throw new Error(`${prop} must be an absolute directory path outside the system directories, got '${path}': ${problem}.`);
}
