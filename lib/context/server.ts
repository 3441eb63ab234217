/**
 * The server's own keys, by what they decide:
 * - how it is reached and placed: `keyPair`, `placementGroup`;
 * - how it is kept: `snapshotRetain`, `terminationProtection`, `encryptInstanceStore`;
 * - how it is watched: `alarmEmail`, `alarmTopicArn`;
 * - how it is changed: `machineImageId`, and the update guard's opt-ins `acceptDataLoss`, `acceptFewerSnapshots` and
 *   `legacyVolumeAttachments`;
 * - how it is destroyed: `deleteDataOnDestroy`.
 */
import { EMAIL_PATTERN, EMAIL_RULE } from '../validation/email';
import { IMAGE_ID_PATTERN } from '../validation/names';
import { ResourceEnvironment, topicArnProblem } from '../validation/topic-arn';
import { CONTEXT_DEFAULTS, ContextKey } from './keys';
import { StorageServerContext } from './storage-server-context';
import { ContextValues, contextError, matching, parseBoolean } from './values';

/** The server's keys, in the order they are checked; `target` is where the stack deploys, when known. */
export function parseServerKeys(values: ContextValues<ContextKey>, target: ResourceEnvironment): Pick<StorageServerContext,
  'keyPair' | 'placementGroup' | 'snapshotRetain' | 'terminationProtection' | 'encryptInstanceStore' | 'alarmEmail' |
  'alarmTopicArn' | 'machineImageId' | 'acceptDataLoss' | 'acceptFewerSnapshots' | 'deleteDataOnDestroy' |
  'legacyVolumeAttachments'> {
  const { optional } = values;
  return {
    keyPair: optional('keyPair', parseKeyPairName),
    placementGroup: optional('placementGroup', parsePlacementGroupName),
    snapshotRetain: optional('snapshotRetain', parseSnapshotRetain) ?? CONTEXT_DEFAULTS.snapshotRetain,
    terminationProtection: optional('terminationProtection', parseBoolean),
    encryptInstanceStore: optional('encryptInstanceStore', parseBoolean),
    alarmEmail: optional('alarmEmail', (key, value) => matching(key, value, EMAIL_PATTERN, EMAIL_RULE)),
    alarmTopicArn: optional('alarmTopicArn', (key, value) => parseTopicArn(key, value, target)),
    machineImageId: optional('machineImageId', parseImageId),
    acceptDataLoss: optional('acceptDataLoss', parseBoolean) ?? CONTEXT_DEFAULTS.acceptDataLoss,
    acceptFewerSnapshots: optional('acceptFewerSnapshots', parseBoolean) ?? CONTEXT_DEFAULTS.acceptFewerSnapshots,
    deleteDataOnDestroy: optional('deleteDataOnDestroy', parseBoolean) ?? CONTEXT_DEFAULTS.deleteDataOnDestroy,
    legacyVolumeAttachments: optional('legacyVolumeAttachments', parseBoolean) ?? CONTEXT_DEFAULTS.legacyVolumeAttachments,
  };
}

function parseKeyPairName(key: ContextKey, value: string): string {
  if (value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw contextError(key, value, 'the name of an existing EC2 key pair (1-255 printable ASCII characters)');
  }
  return value;
}

function parsePlacementGroupName(key: ContextKey, value: string): string {
  if (value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw contextError(key, value, 'the name of an existing cluster placement group (1-255 printable ASCII characters)');
  }
  return value;
}

function parseSnapshotRetain(key: ContextKey, value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > 1000) {
    throw contextError(key, value, 'a whole number of snapshots from 0 (snapshots off) to 1000');
  }
  return n;
}

function parseTopicArn(key: ContextKey, value: string, target: ResourceEnvironment): string {
  const problem = topicArnProblem(value, target);
  if (problem) {
    throw contextError(key, value, 'the ARN of a standard SNS topic in the stack\'s region and account, such as ' +
      `arn:aws:sns:us-east-1:123456789012:storage-alarms (${problem})`);
  }
  return value;
}

function parseImageId(key: ContextKey, value: string): string {
  if (!IMAGE_ID_PATTERN.test(value)) {
    throw contextError(key, value, "an image id such as 'ami-0123456789abcdef0'");
  }
  return value;
}
