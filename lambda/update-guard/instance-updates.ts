/**
 * How an update of each AWS::EC2::Instance property happens, for the properties that CloudFormation's resource
 * specification does not mark as replacing: its `causesReplacement` is `maybe` or `no`. The specification says what
 * replaces, not what stops and starts, and for an instance-store server a stop and start loses the data as surely as a
 * replacement. So this classification is kept by hand, from the "Update requires" line of each property in AWS's
 * reference, "AWS::EC2::Instance" in the AWS CloudFormation Template Reference:
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-ec2-instance.html
 *
 * test/unit/replacement-rules.test.ts fails when a synthesized instance carries a property that is neither replacing in
 * the specification nor in one of these two lists. So a property the project starts to set is classified before it
 * ships.
 */

/** "Update requires: Some interruptions", where the instance is stopped and started, or replacement in some cases. */
export const INSTANCE_INTERRUPTING = [
  'AdditionalInfo',
  'Affinity',
  'BlockDeviceMappings',
  'EbsOptimized',
  'HostId',
  'InstanceType',
  'KernelId',
  'PrivateDnsNameOptions',
  'RamdiskId',
  'SecurityGroupIds',
  'Tenancy',
  'UserData',
] as const;

/** "Update requires: No interruption". */
export const INSTANCE_NO_INTERRUPTION = [
  'CreditSpecification',
  'DisableApiTermination',
  'IamInstanceProfile',
  'InstanceInitiatedShutdownBehavior',
  'MetadataOptions',
  'Monitoring',
  'PropagateTagsToVolumeOnCreation',
  'SourceDestCheck',
  'SsmAssociations',
  'Tags',
  'Volumes',
] as const;
