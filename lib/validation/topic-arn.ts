/**
 * The SNS topic the alarms notify, `alarmTopicArn`: AWS partitions, region names, account ids, standard topic names,
 * and where the topic must be, which is the stack's region and account.
 */
import { Token } from 'aws-cdk-lib';

/**
 * AWS partitions and the region names each holds, per the AWS General Reference's "ARN format" and "AWS Regions" and
 * the SDKs' partitions.json. A region belongs to the first partition whose pattern matches it.
 */
export const PARTITIONS: readonly { readonly partition: string; readonly regions: RegExp }[] = [
  { partition: 'aws-cn', regions: /^cn-/ },
  { partition: 'aws-us-gov', regions: /^us-gov-/ },
  { partition: 'aws-iso', regions: /^us-iso-/ },
  { partition: 'aws-iso-b', regions: /^us-isob-/ },
  { partition: 'aws-iso-e', regions: /^eu-isoe-/ },
  { partition: 'aws-iso-f', regions: /^us-isof-/ },
  { partition: 'aws-eusc', regions: /^eusc-/ },
  { partition: 'aws', regions: /^/ },
];

/**
 * A region name: an area such as `us`, `eu`, `ap`, `cn` or `eusc`, one or two words, and a number, as in `us-east-1`,
 * `us-gov-west-1`, `ap-southeast-5` and `eusc-de-east-1`.
 */
export const REGION_PATTERN = /^[a-z]{2,4}(-[a-z]+){1,2}-[1-9][0-9]?$/;

/** An AWS account id: 12 digits, per the AWS Account Management Reference Guide's "View AWS account identifiers". */
export const ACCOUNT_PATTERN = /^[0-9]{12}$/;

/**
 * An SNS topic name CloudWatch alarms can publish to: 1-256 letters, digits, `_` and `-`, per Name of CreateTopic in
 * the SNS API Reference. A FIFO topic, `.fifo`, is refused, since alarm actions need a standard topic.
 */
export const TOPIC_NAME_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** The partition that holds a region. */
export function partitionOf(region: string): string {
  return PARTITIONS.find((p) => p.regions.test(region))!.partition;
}

/** Where a resource must be: the stack's region and account, for a topic ARN given in context or props. */
export interface ResourceEnvironment {
  /**
   * The stack's region, when known; an env-agnostic stack's is not.
   * @default - unknown: the region is not checked
   */
  readonly region?: string;
  /**
   * The stack's account, when known.
   * @default - unknown: the account is not checked
   */
  readonly account?: string;
}

/**
 * Validates the ARN of the standard SNS topic the alarms notify, `alarmTopicArn`:
 * `arn:<partition>:sns:<region>:<account>:<topic>` with a known partition that holds the region, a 12-digit account and
 * a standard topic's name. The topic must be in the stack's region, since CloudWatch alarm actions notify a topic of
 * the alarm's own region, and in its account when known. Returns the reason it is bad, or undefined.
 */
export function topicArnProblem(arn: string, where: ResourceEnvironment = {}): string | undefined {
  if (typeof arn !== 'string') return 'not a string';
  const parts = arn.split(':');
  if (parts.length !== 6 || parts[0] !== 'arn' || parts[2] !== 'sns') {
    return 'not an SNS topic ARN arn:<partition>:sns:<region>:<account>:<topic>';
  }
  const [, partition, , region, account, name] = parts;
  if (!PARTITIONS.some((p) => p.partition === partition)) {
    return `unknown partition '${partition}' (one of ${PARTITIONS.map((p) => p.partition).join(', ')})`;
  }
  if (!REGION_PATTERN.test(region)) return `'${region}' is not a region name such as us-east-1`;
  if (partitionOf(region) !== partition) return `region ${region} is in partition ${partitionOf(region)}, not ${partition}`;
  if (!ACCOUNT_PATTERN.test(account)) return `'${account}' is not a 12-digit account id`;
  if (!TOPIC_NAME_PATTERN.test(name)) {
    return `'${name}' is not a standard topic's name (1-256 of A-Z a-z 0-9 _ -; alarms cannot notify a FIFO topic)`;
  }
  if (where.region !== undefined && !Token.isUnresolved(where.region) && region !== where.region) {
    return `the topic is in ${region}, but the stack deploys to ${where.region}: alarms notify a topic of their own region`;
  }
  if (where.account !== undefined && !Token.isUnresolved(where.account) && account !== where.account) {
    return `the topic is in account ${account}, but the stack deploys to account ${where.account}`;
  }
  return undefined;
}
