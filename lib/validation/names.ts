/**
 * Names and ids the stack takes in: the cluster's and server's names (SSM path segments, the stack name, the
 * dashboard's name), CloudFormation stack names, EC2 resource ids and the client tag key. Patterns and their rules in
 * words, for the context parser and the construct alike.
 */

/**
 * Names valid for `clusterName` and `serverName`: they become segments of SSM parameter paths (whose characters are
 * `a-zA-Z0-9_.-`: Systems Manager User Guide, "Parameter name requirements and constraints"), of the stack name and
 * of tag values. 1-64 characters, the first a letter or a digit: `.` and `..` would read as path segments of their
 * own, and a leading `-` as a command-line option.
 */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What {@link NAME_PATTERN} allows, in words, for messages. */
export const NAME_RULE = '1-64 characters from A-Z a-z 0-9 _ . -, the first a letter or a digit';

/**
 * The characters of a CloudWatch dashboard name (`[A-Za-z0-9_-]`, CloudWatch API Reference, PutDashboard): the
 * server's dashboard is named after `serverName`, so a server with a dashboard has no `.` in its name.
 */
export const DASHBOARD_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * A CloudFormation stack name (CloudFormation API Reference, CreateStack, StackName): letters, digits and hyphens,
 * starting with a letter, at most 128 characters.
 */
export const STACK_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;

/**
 * An EC2 resource id of a kind (`vpc`, `subnet`, `sg`, `ami`, `snap`): the prefix, `-`, and 8 or 17 lower-case hex
 * digits (EC2 User Guide, "Resource IDs": the short form before 2016, the long one after).
 */
export function ec2IdPattern(kind: string): RegExp {
  return new RegExp(`^${kind}-([0-9a-f]{8}|[0-9a-f]{17})$`);
}

/** An image id (`machineImageId`). */
export const IMAGE_ID_PATTERN = ec2IdPattern('ami');

/**
 * The EC2 tag key that selects the cluster's client nodes (`clientTagKey`): a State Manager association targets
 * `tag:<key>`, whose key must match `^[\p{L}\p{Z}\p{N}_.:/=\-@]*$` (SSM API Reference, Target, Key), within EC2's tag
 * rules (EC2 User Guide, "Tag restrictions": 1-128 characters, not starting with `aws:` in any case). So letters,
 * digits, spaces and `_ . : / = - @`, but not the `+` EC2 itself would take.
 */
export const TAG_KEY_PATTERN = /^(?![Aa][Ww][Ss]:)[\p{L}\p{Z}\p{N}_.:/=@-]{1,128}$/u;

/** What {@link TAG_KEY_PATTERN} allows, in words, for messages. */
export const TAG_KEY_RULE = "an EC2 tag key State Manager can target: 1-128 letters, digits, spaces or _ . : / = - @, not starting with 'aws:'";
