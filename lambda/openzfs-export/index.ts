/**
 * onEvent handler of the FSx for OpenZFS root volume export, built by lib/backends/openzfs/export-resource.ts.
 *
 * On Create and Update it asks FSx for the export through UpdateVolume's OpenZFSConfiguration.NfsExports, and for the
 * user and group quotas this stack sets through its UserAndGroupQuotas (OPENZFS-USER-QUOTAS), unless DescribeVolumes shows
 * them in effect already. It then waits until DescribeVolumes shows the export in effect, so that
 * the deploy completes only when clients can mount by it: OPENZFS-EXPORT-LIVE. When the volume update fails, it fails
 * the deploy with FSx's own reason. Delete does nothing, since the volume goes or stays with its file system.
 *
 * Errors are thrown, never returned: the Provider framework reports FAILED only for a thrown error.
 */
import { DescribeVolumesCommand, FSxClient, UpdateVolumeCommand } from '@aws-sdk/client-fsx';
import type { CdkCustomResourceEvent, CdkCustomResourceResponse, Context } from 'aws-lambda';
import { exportState, parseExportProperties, PROP, parseQuotas, quotasToSend, type ClientConfiguration, type UserOrGroupQuota, type VolumeView } from './contract';

/** Between two DescribeVolumes calls, ms. */
export const POLL_MS = 10_000;
/** Kept back from the Lambda's remaining time to fail with a message rather than time out, ms. */
export const RESERVE_MS = 20_000;

/** What the handler calls: FSx, the clock and a pause. Tests give their own. */
export interface ExportDeps {
  readonly updateVolume: (volumeId: string, configs: ClientConfiguration[], quotas: UserOrGroupQuota[]) => Promise<void>;
  readonly describeVolume: (volumeId: string) => Promise<VolumeView | undefined>;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

// Endpoint, region and credentials come from the environment; the SDK retries throttling and 5xx itself.
const fsx = new FSxClient({ maxAttempts: 6 });
const AWS_DEPS: ExportDeps = {
  updateVolume: async (volumeId, configs, quotas) => {
    await fsx.send(new UpdateVolumeCommand({
      VolumeId: volumeId,
      // No quotas to send: the field is left out, so quotas set by hand are never touched.
      OpenZFSConfiguration: { NfsExports: [{ ClientConfigurations: configs }], ...(quotas.length > 0 ? { UserAndGroupQuotas: quotas } : {}) },
    }));
  },
  describeVolume: async (volumeId) => (await fsx.send(new DescribeVolumesCommand({ VolumeIds: [volumeId] }))).Volumes?.[0] as VolumeView | undefined,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The handler over `deps`. */
export function exportHandler(deps: ExportDeps) {
  return async (event: CdkCustomResourceEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<CdkCustomResourceResponse> => {
    const requestType = event?.RequestType;
    if (requestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
    if (requestType !== 'Create' && requestType !== 'Update') {
      throw new Error(`RequestType must be Create, Update or Delete, got ${JSON.stringify(requestType)}`);
    }
    const { volumeId, clientConfigurations, quotas: wanted } = parseExportProperties(event.ResourceProperties);
    const askedAt = deps.now();
    const deadline = askedAt + (context?.getRemainingTimeInMillis() ?? 600_000) - RESERVE_MS;
    const volume = await deps.describeVolume(volumeId);
    const previous = requestType === 'Update' ? previousQuotas((event as { OldResourceProperties?: Record<string, unknown> }).OldResourceProperties) : [];
    const quotas = quotasToSend(wanted, previous, volume);
    // Already in effect, as after a rollback to the export a failed update left, or at an upgrade's first deploy:
    // nothing to ask.
    if (exportState(volume, clientConfigurations, askedAt, quotas).state === 'done') {
      log({ level: 'info', msg: 'export already in effect', volumeId });
      return { PhysicalResourceId: volumeId };
    }
    await deps.updateVolume(volumeId, clientConfigurations, quotas);
    for (;;) {
      const judged = exportState(await deps.describeVolume(volumeId), clientConfigurations, askedAt, quotas);
      log({ level: judged.state === 'failed' ? 'error' : 'info', msg: 'export', volumeId, ...judged });
      if (judged.state === 'done') return { PhysicalResourceId: volumeId };
      if (judged.state === 'failed') throw new Error(`The NFS export of ${volumeId} did not take effect: ${judged.why}.`);
      if (deps.now() + POLL_MS > deadline) {
        throw new Error(`The NFS export of ${volumeId} is not in effect after ${Math.round((deps.now() - askedAt) / 1000)} s (${judged.why}); ` +
          `see aws fsx describe-volumes --volume-ids ${volumeId} (AdministrativeActions), then deploy again.`);
      }
      await deps.sleep(POLL_MS);
    }
  };
}

/**
 * The quotas the previous deploy set, to lift those no longer wanted. Properties this handler once took are taken
 * again; any that would not parse name nothing to lift, since they were never sent.
 */
function previousQuotas(old: Record<string, unknown> | undefined): UserOrGroupQuota[] {
  try {
    return parseQuotas(old?.[PROP.QUOTAS]);
  } catch {
    return [];
  }
}

function log(entry: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(entry)}\n`);
}

export const handler = exportHandler(AWS_DEPS);
