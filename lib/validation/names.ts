/**
 * Names and ids the stack takes in, as patterns and their rules in words, for the context parser and the construct
 * alike: the cluster's and server's names, CloudFormation stack names, EC2 resource ids and the client tag key. The
 * names become SSM path segments, the stack name and the dashboard's name.
 */

/**
 * Names valid for `clusterName` and `serverName`. They become segments of SSM parameter paths, of the stack name and of
 * tag values, and an SSM path takes `a-zA-Z0-9_.-`, per the Systems Manager User Guide's "Parameter name requirements
 * and constraints". 1-64 characters, the first a letter or a digit: `.` and `..` would read as path segments of their
 * own, and a leading `-` as a command-line option.
 */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What {@link NAME_PATTERN} allows, in words, for messages. */
export const NAME_RULE = '1-64 characters from A-Z a-z 0-9 _ . -, the first a letter or a digit';

/**
 * The characters of a CloudWatch dashboard name, `[A-Za-z0-9_-]`, per PutDashboard in the CloudWatch API Reference. The
 * server's dashboard is named after `serverName`, so a server with a dashboard has no `.` in its name.
 */
export const DASHBOARD_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * A CloudFormation stack name, per StackName of CreateStack in the CloudFormation API Reference: letters, digits and
 * hyphens, starting with a letter, at most 128 characters.
 */
export const STACK_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;

/**
 * An EC2 resource id of a kind such as `vpc`, `subnet`, `sg`, `ami` or `snap`: the prefix, `-`, and 8 or 17 lower-case
 * hex digits. The EC2 User Guide's "Resource IDs" gives the short form of before 2016 and the long one of after.
 */
export function ec2IdPattern(kind: string): RegExp {
  return new RegExp(`^${kind}-([0-9a-f]{8}|[0-9a-f]{17})$`);
}

/** An image id: `machineImageId`. */
export const IMAGE_ID_PATTERN = ec2IdPattern('ami');

/**
 * The EC2 tag key that selects the cluster's client nodes, `clientTagKey`. A State Manager association targets
 * `tag:<key>`, whose key must match `^[\p{L}\p{Z}\p{N}_.:/=\-@]*$`, per Target, Key in the SSM API Reference. That is
 * within EC2's tag rules in the EC2 User Guide's "Tag restrictions": 1-128 characters, not starting with `aws:` in any
 * case. So it takes letters, digits, spaces and `_ . : / = - @`, but not the `+` EC2 itself would take.
 */
export const TAG_KEY_PATTERN = /^(?![Aa][Ww][Ss]:)[\p{L}\p{Z}\p{N}_.:/=@-]{1,128}$/u;

/** What {@link TAG_KEY_PATTERN} allows, in words, for messages. */
export const TAG_KEY_RULE = "an EC2 tag key State Manager can target: 1-128 letters, digits, spaces or _ . : / = - @, not starting with 'aws:'";
