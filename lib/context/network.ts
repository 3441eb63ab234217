/**
 * The network keys that place the server, each alone or in the combinations that make sense:
 * - `vpcId` and `subnetId`: a looked-up VPC;
 * - `vpcFrom`: another stack's new VPC;
 * - `availabilityZone`: a new VPC's one zone.
 */
import { Token } from 'aws-cdk-lib';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { STACK_NAME_PATTERN, ec2IdPattern } from '../validation/names';
import { ResourceEnvironment } from '../validation/topic-arn';
import { ContextKey } from './keys';
import { STACK_NAME_MAX } from './names';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError } from './values';

/** The VPC keys, each checked against those given before it. */
export function parseVpcKeys(
  values: ContextValues<ContextKey>,
  target: ResourceEnvironment,
): Pick<StorageServerContext, 'vpcId' | 'subnetId' | 'vpcFrom' | 'availabilityZone'> {
  const { optional } = values;
  const vpcId = optional('vpcId', parseVpcId);
  const subnetId = optional('subnetId', parseSubnetId);
  if (subnetId !== undefined && vpcId === undefined) {
    throw contextError('subnetId', subnetId, 'only together with vpcId (a new VPC has no subnet id before deploy)');
  }
  const vpcFrom = optional('vpcFrom', parseVpcFrom);
  if (vpcFrom !== undefined && vpcId !== undefined) {
    throw contextError('vpcFrom', vpcFrom, 'only without vpcId (the server joins either a looked-up VPC or another stack\'s)');
  }
  const availabilityZone = optional('availabilityZone', (key, value) => parseAvailabilityZone(key, value, target));
  if (availabilityZone !== undefined && (vpcId !== undefined || vpcFrom !== undefined)) {
    throw contextError('availabilityZone', availabilityZone, `only for a new VPC (not with ${vpcId !== undefined ? 'vpcId: choose the zone by subnetId' : 'vpcFrom: the server joins that stack\'s subnet'})`);
  }
  return { vpcId, subnetId, vpcFrom, availabilityZone };
}

/** `vpcFrom` names another stack: this stack cannot join its own VPC. */
export function checkVpcFrom(vpcFrom: string | undefined, stackName: string): void {
  if (vpcFrom !== undefined && vpcFrom === stackName) {
    throw contextError('vpcFrom', vpcFrom, `another stack's name (this stack is ${stackName})`);
  }
}

function parseVpcId(key: ContextKey, value: string): string {
  if (!ec2IdPattern('vpc').test(value)) {
    throw contextError(key, value, "a VPC id such as 'vpc-0123456789abcdef0'");
  }
  return value;
}

function parseSubnetId(key: ContextKey, value: string): string {
  if (!ec2IdPattern('subnet').test(value)) {
    throw contextError(key, value, "a subnet id such as 'subnet-0123456789abcdef0'");
  }
  return value;
}

function parseVpcFrom(key: ContextKey, value: string): string {
  if (!STACK_NAME_PATTERN.test(value)) {
    throw contextError(key, value, 'the name of another stack of this app that made its own VPC, e.g. StorageServer-hpc1-home ' +
      `(a CloudFormation stack name: a letter, then letters, digits and hyphens, at most ${STACK_NAME_MAX} characters)`);
  }
  return value;
}

/**
 * An availability zone name: a region CDK knows and a zone letter, in the deploy's region when the CLI gives one.
 * aws-cdk-lib's RegionInfo lists the regions, so the list moves with the library.
 */
function parseAvailabilityZone(key: ContextKey, value: string, target: ResourceEnvironment): string {
  const region = /^(.+\d)([a-z])$/.exec(value)?.[1];
  if (region === undefined || !RegionInfo.regions.some((r) => r.name === region)) {
    throw contextError(key, value, 'an availability zone name: a region and a zone letter, e.g. us-east-1b ' +
      '(aws ec2 describe-availability-zones lists those of a region)');
  }
  if (target.region !== undefined && !Token.isUnresolved(target.region) && target.region !== region) {
    throw contextError(key, value, `a zone of the region this deploy targets, ${target.region} (e.g. ${target.region}a)`);
  }
  return value;
}
