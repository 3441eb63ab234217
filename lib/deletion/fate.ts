/**
 * What `cdk destroy` does to one resource, decided from its DeletionPolicy and type alone: docs/design.md, section 5,
 * "What cdk destroy does". It is pure, with no CDK imports, so the rule is tested directly.
 *
 * CloudFormation's rules, from its DeletionPolicy attribute reference,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-attribute-deletionpolicy.html:
 * - "If a resource has no DeletionPolicy attribute, AWS CloudFormation deletes the resource by default".
 * - `Retain` keeps it.
 * - `RetainExceptOnCreate` "behaves like Retain for stack operations, except for the stack operation that initially
 *   created the resource".
 * - `Snapshot` applies to "resources that support snapshots", which CloudFormation "creates a snapshot for ... before
 *   deleting it".
 *
 * And from "Protect CloudFormation stacks from being deleted",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-protect-stacks.html: "If a user attempts to
 * delete a stack with termination protection enabled, the deletion fails and the stack, including its status, remains
 * unchanged."
 */

/**
 * The types CloudFormation can snapshot before it deletes them: the DeletionPolicy reference's list, which
 * aws-cdk-lib's `applyRemovalPolicy` checks too. An EBS volume is one; an EC2 instance and an FSx file system are not.
 */
export const SNAPSHOT_TYPES: readonly string[] = [
  'AWS::DocDB::DBCluster', 'AWS::EC2::Volume', 'AWS::ElastiCache::CacheCluster', 'AWS::ElastiCache::ReplicationGroup',
  'AWS::Neptune::DBCluster', 'AWS::RDS::DBCluster', 'AWS::RDS::DBInstance', 'AWS::Redshift::Cluster',
];

/**
 * What a destroy does to one resource:
 * - `kept`: retained, data and all;
 * - `snapshot`: deleted after a snapshot that holds its data;
 * - `deleted`: gone with its data;
 * - `refused`: the stack's termination protection fails the destroy before anything is deleted;
 * - `unsupported`: a Snapshot policy on a type CloudFormation cannot snapshot.
 */
export type DestroyFate = 'kept' | 'snapshot' | 'deleted' | 'refused' | 'unsupported';

/** The fate of a resource of `type` with `deletionPolicy` as the template has it, undefined when absent. */
export function destroyFate(deletionPolicy: string | undefined, type: string, stackProtected: boolean): DestroyFate {
  if (stackProtected) return 'refused';
  if (isRetained(deletionPolicy)) return 'kept';
  if (deletionPolicy === 'Snapshot') return SNAPSHOT_TYPES.includes(type) ? 'snapshot' : 'unsupported';
  return 'deleted';
}

/** Whether a stack deletion leaves the resource in place: `Retain` or `RetainExceptOnCreate`. */
export function isRetained(deletionPolicy: string | undefined): boolean {
  return deletionPolicy === 'Retain' || deletionPolicy === 'RetainExceptOnCreate';
}
