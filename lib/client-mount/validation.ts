import { Duration, Fn, Token } from 'aws-cdk-lib';
import { MAX_READ_AHEAD_KIB, mountRootProblem } from '../validation';
import { neverClientRow, parseNetwork } from '../../lambda/value-check/special-purpose';

/**
 * The checks of a `ClientMount`'s props at synth time. Each refuses what the client script or State Manager would
 * refuse on the nodes: the schedule, the tag key, the allowed servers, the mount roots, the read-ahead.
 */

/**
 * An IPv4 CIDR as the client script accepts it in `--allowed-servers`: a canonical dotted quad, with no leading zeros
 * and each number 0-255, and a prefix of 1-32 bits. The document's allowedPattern repeats it.
 */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
export const CIDR = `${OCTET}(\\.${OCTET}){3}/(3[0-2]|[12][0-9]|[1-9])`;

/** `rate(...)` for a State Manager schedule: whole minutes, at least 30. */
export function rateExpression(schedule: Duration): string {
  if (Token.isUnresolved(schedule.toSeconds()))
    throw new Error('schedule must be a concrete Duration, got a token.');
  const seconds = schedule.toSeconds();
  if (seconds % 60 !== 0 || seconds < 30 * 60) {
    throw new Error(
      `schedule must be whole minutes, at least 30 (State Manager's shortest rate), got ${schedule.toHumanString()}.`,
    );
  }
  const minutes = seconds / 60;
  const [value, unit] =
    minutes % 1440 === 0
      ? [minutes / 1440, 'day']
      : minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : [minutes, 'minute'];
  return `rate(${value} ${unit}${value === 1 ? '' : 's'})`;
}

/**
 * An EC2 tag key that a State Manager target accepts: 1-128 characters, not starting with 'aws:'. Its `tag:<key>` must
 * match `^[\p{L}\p{Z}\p{N}_.:/=\-@]*$`, per Target.Key in the SSM API, so no '+' and no tab.
 */
export function validateTagKey(key: string): void {
  if (Token.isUnresolved(key))
    throw new Error('clientTagKey must be a concrete string (the association target), got a token.');
  if (!/^[\p{L}\p{Z}\p{N}_.:/=@-]{1,128}$/u.test(key) || /^aws:/i.test(key)) {
    throw new Error(
      'clientTagKey must be an EC2 tag key that State Manager can target: 1-128 letters, digits, spaces or ' +
        `_ . : / = @ -, not starting with 'aws:', got ${JSON.stringify(key)}.`,
    );
  }
}

/**
 * The allowedServers value: the CIDRs comma-joined, each concrete one checked against what the client script accepts.
 * Tokens, such as a new VPC's CIDR, pass unchecked. So does a looked-up VPC's placeholder CIDR on the synth before the
 * lookup, `1.2.3.4/5`, which has the right form.
 */
export function allowedServersParameter(cidrs: string[]): string {
  if (Token.isUnresolved(cidrs)) return Fn.join(',', cidrs);
  if (cidrs.length === 0) {
    throw new Error(
      "allowedServerCidrs must name at least one IPv4 CIDR (e.g. the VPC's, [vpc.vpcCidrBlock]), got [].",
    );
  }
  const pattern = new RegExp(`^${CIDR}$`);
  for (const cidr of cidrs) {
    if (Token.isUnresolved(cidr)) continue;
    if (!pattern.test(cidr)) {
      throw new Error(
        'allowedServerCidrs must be IPv4 CIDRs such as 10.0.0.0/16 (no leading zeros, each number 0-255, prefix ' +
          `/1-/32), got ${JSON.stringify(cidr)}.`,
      );
    }
    // The IANA registries' never-a-host blocks, which a wide CIDR would let a forged record point the nodes at.
    const never = neverClientRow(parseNetwork(cidr)!);
    if (never !== undefined) {
      throw new Error(`allowedServerCidrs ${JSON.stringify(cidr)} holds addresses of ${never.cidr}, "${never.name}" in the ` +
        `${never.registry} (${never.rfc}), which are no storage server's (169.254.169.254, the instance metadata service, ` +
        'is link-local): name the VPC\'s CIDRs, or the servers\' own.');
    }
  }
  return cidrs.join(',');
}

/** Each mount root concrete and outside the system directories; the script refuses the others at run time. */
export function validateMountRoots(roots: string[]): void {
  if (Token.isUnresolved(roots) || roots.length === 0) {
    throw new Error(`mountRoots must name at least one concrete directory such as /data, got ${Token.isUnresolved(roots) ? 'a token' : '[]'}.`);
  }
  for (const root of roots) {
    const problem = Token.isUnresolved(root) ? 'a token' : mountRootProblem(root);
    if (problem) {
      throw new Error(`mountRoots must be absolute directories outside the system directories, got ${JSON.stringify(root)}: ${problem}.`);
    }
  }
}

/** How long the first run of a boot retries failed mounts unless told otherwise, minutes: the script's default. */
export const DEFAULT_READY_TIMEOUT_MINUTES = 10;

/**
 * The step's time beyond the first run's wait, seconds: the wait for another run's lock (600 s, `flock -w 600`), the
 * package installs and the calls, as the step had before the wait (900 s).
 */
export const STEP_OVERHEAD_SECONDS = 900;

/**
 * The most an aws:runShellScript step's timeoutSeconds may be, seconds. AWS's own Command document AWS-RunShellScript,
 * which passes its executionTimeout parameter to that plugin's timeoutSeconds, describes it as "The time in seconds for
 * a command to be completed before it is considered to have failed. Default is 3600 (1 hour). Maximum is 172800 (48
 * hours)." (`aws ssm describe-document --name AWS-RunShellScript`; docs/sources/ssm-timeout.md).
 */
export const MAX_STEP_TIMEOUT_SECONDS = 172_800;

/**
 * The longest first-run wait, minutes: what the step's largest timeout leaves past its overhead, whole minutes. The
 * step's timeout is the overhead plus the wait, so the step always outlasts the script's own bound.
 */
export const MAX_READY_TIMEOUT_MINUTES = Math.floor((MAX_STEP_TIMEOUT_SECONDS - STEP_OVERHEAD_SECONDS) / 60);

/** readyTimeoutMinutes: a concrete whole number of minutes from 1 to MAX_READY_TIMEOUT_MINUTES. */
export function validateReadyTimeout(minutes: number): void {
  if (Token.isUnresolved(minutes) || typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 ||
    minutes > MAX_READY_TIMEOUT_MINUTES) {
    throw new Error(`readyTimeoutMinutes must be a whole number of minutes from 1 to ${MAX_READY_TIMEOUT_MINUTES} (the ` +
      "SSM step's 48-hour limit less its 15 minutes of other work), got " +
      `${Token.isUnresolved(minutes) ? 'a token' : JSON.stringify(minutes)}.`);
  }
}

/** readAheadKiB: a concrete whole number of KiB, from 0, the kernel's own, to MAX_READ_AHEAD_KIB. */
export function validateReadAhead(kib: number): void {
  if (Token.isUnresolved(kib) || typeof kib !== 'number' || !Number.isInteger(kib) || kib < 0 || kib > MAX_READ_AHEAD_KIB) {
    throw new Error(`readAheadKiB must be a whole number of KiB from 0 (the kernel's own read-ahead) to ${MAX_READ_AHEAD_KIB} ` +
      `(1 GiB), got ${Token.isUnresolved(kib) ? 'a token' : JSON.stringify(kib)}.`);
  }
}
