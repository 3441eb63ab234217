/**
 * Where the storage server's bootstrap lives on the server: the scripts, their settings, the unit, and the file a
 * failed run leaves its reason in. It is one list, shared by the settings file, the unit and the apply step that
 * install them. lib/scripts/storage-bootstrap.sh names the same paths.
 */

/** Paths on the server, shared by the apply step, the unit and the script. */
export const BOOTSTRAP_PATHS = {
  script: '/usr/local/sbin/storage-bootstrap',
  /** lib/scripts/storage-attach.sh, beside the bootstrap, which runs it. */
  attach: '/usr/local/sbin/storage-attach',
  /** lib/scripts/storage-metrics.sh, run by the storage-metrics timer the bootstrap installs. */
  metrics: '/usr/local/sbin/storage-metrics',
  /** The CloudWatch agent's configuration, when metrics are on. */
  agentConfig: '/etc/storage-server/cloudwatch-agent.json',
  env: '/etc/storage-server/bootstrap.env',
  unit: '/etc/systemd/system/storage-bootstrap.service',
  /** Written by the script when it fails; its last line becomes the CloudFormation failure reason. */
  failureReason: '/run/storage-server/failure-reason',
} as const;
