/**
 * The FSx for OpenZFS root volume export custom resource. It defines what the construct sends as ResourceProperties,
 * how the handler reads them, and how it judges from DescribeVolumes that the export it asked for is in effect:
 * OPENZFS-EXPORT-LIVE in docs/sources/fsx-rules.md. The handler validates every value, since each crosses from the
 * template into an API call.
 *
 * The shapes and values are those of the FSx API reference:
 * - Volume: Lifecycle is CREATING, CREATED, DELETING, FAILED, MISCONFIGURED, PENDING or AVAILABLE; "MISCONFIGURED - The
 *   volume is in a failed but recoverable state".
 * - AdministrativeAction: AdministrativeActionType VOLUME_UPDATE is "A volume update to an Amazon FSx for OpenZFS
 *   volume initiated from the Amazon FSx console, API (UpdateVolume), or CLI"; Status is FAILED, IN_PROGRESS, PENDING,
 *   COMPLETED, UPDATED_OPTIMIZING, OPTIMIZING, PAUSED or CANCELLED; FailureDetails.Message gives the reason.
 * - OpenZFSNfsExport holds at most 25 client configurations.
 * - OpenZFSClientConfiguration: Clients of 1-128 characters, Options of 1-20 items.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */

/** The CloudFormation type. */
export const RESOURCE_TYPE = 'Custom::FsxOpenZfsExport';

/** ResourceProperties names. */
export const PROP = { VOLUME_ID: 'VolumeId', CLIENT_CONFIGURATIONS: 'ClientConfigurations' } as const;

/** One client configuration of the export, as UpdateVolume takes it. */
export interface ClientConfiguration {
  readonly Clients: string;
  readonly Options: string[];
}

/** What the handler is asked to do. */
export interface ExportRequest {
  readonly volumeId: string;
  readonly clientConfigurations: ClientConfiguration[];
}

/** The parts of a DescribeVolumes Volume the judge reads, named as in the API reference. */
export interface VolumeView {
  readonly VolumeId?: string;
  readonly Lifecycle?: string;
  readonly LifecycleTransitionReason?: { readonly Message?: string };
  readonly AdministrativeActions?: readonly {
    readonly AdministrativeActionType?: string;
    readonly Status?: string;
    readonly RequestTime?: Date | string | number;
    readonly FailureDetails?: { readonly Message?: string };
    /** The volume as the action would leave it: AdministrativeAction.TargetVolumeValues in the API reference. */
    readonly TargetVolumeValues?: Pick<VolumeView, 'OpenZFSConfiguration'>;
  }[];
  readonly OpenZFSConfiguration?: {
    readonly NfsExports?: readonly { readonly ClientConfigurations?: readonly { readonly Clients?: string; readonly Options?: readonly string[] }[] }[];
  };
}

/** The export's state: in effect, still changing, or failed with FSx's reason. */
export type ExportState = { readonly state: 'done' } | { readonly state: 'waiting'; readonly why: string } | { readonly state: 'failed'; readonly why: string };

/**
 * OPENZFS-EXPORT-CLIENTS: an export takes at most 25 client configurations, per OpenZFSNfsExport in the API reference.
 */
export const MAX_CLIENT_CONFIGURATIONS = 25;
/** An FSx volume id, as FSx gives it: `fsvol-` and 17 hex digits. */
export const VOLUME_ID = /^fsvol-[0-9a-f]{17}$/;

/** Reads and validates the ResourceProperties; throws naming the property and what it must be. */
export function parseExportProperties(props: Record<string, unknown> | undefined): ExportRequest {
  const volumeId = props?.[PROP.VOLUME_ID];
  if (typeof volumeId !== 'string' || !VOLUME_ID.test(volumeId)) {
    throw new Error(`ResourceProperties.${PROP.VOLUME_ID} must be an FSx volume id such as 'fsvol-0123456789abcdef0', got ${JSON.stringify(volumeId)}`);
  }
  const configs = props?.[PROP.CLIENT_CONFIGURATIONS];
  if (!Array.isArray(configs) || configs.length < 1 || configs.length > MAX_CLIENT_CONFIGURATIONS) {
    throw new Error(`ResourceProperties.${PROP.CLIENT_CONFIGURATIONS} must be a list of 1-${MAX_CLIENT_CONFIGURATIONS} client configurations, got ${JSON.stringify(configs)}`);
  }
  const clientConfigurations = configs.map((c: unknown, i): ClientConfiguration => {
    const { Clients, Options } = (c ?? {}) as { Clients?: unknown; Options?: unknown };
    // Never every address: the construct refuses a /0 client CIDR, and `*` is the same. The API's pattern is ^[
    // -~]{1,128}$, printable ASCII; a space would split the export line.
    if (typeof Clients !== 'string' || !/^[!-~]{1,128}$/.test(Clients) || Clients === '*' || /\/0$/.test(Clients)) {
      throw new Error(`ResourceProperties.${PROP.CLIENT_CONFIGURATIONS}[${i}].Clients must be 1-128 characters without spaces, a CIDR or host, never '*' or a /0, got ${JSON.stringify(Clients)}`);
    }
    if (!Array.isArray(Options) || Options.length < 1 || Options.length > 20 || Options.some((o) => typeof o !== 'string' || o.length > 128 || !/^[a-z_]+(=[!-~]+)?$/.test(o))) {
      throw new Error(`ResourceProperties.${PROP.CLIENT_CONFIGURATIONS}[${i}].Options must be 1-20 NFS export options such as 'rw' or 'root_squash', got ${JSON.stringify(Options)}`);
    }
    return { Clients, Options: [...Options] };
  });
  return { volumeId, clientConfigurations };
}

/** A client configuration list in one order, options sorted: FSx may return them in another. */
function canonical(configs: readonly { readonly Clients?: string; readonly Options?: readonly string[] }[]): string {
  return JSON.stringify(configs.map((c) => [c.Clients ?? '', [...(c.Options ?? [])].sort()]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
}

/**
 * A RequestTime in ms. The SDK gives a Date; the JSON protocol and a recorded response give seconds since the epoch.
 */
const time = (t: Date | string | number | undefined): number =>
  (t === undefined ? NaN : typeof t === 'number' ? t * 1000 : new Date(t).getTime());

/**
 * Whether the export `wanted`, asked for at `askedAt` in ms, is in effect on `volume`:
 * - failed when the volume is FAILED or MISCONFIGURED;
 * - waiting while a volume update is PENDING or IN_PROGRESS, or the volume is not AVAILABLE;
 * - done when the volume shows the export asked for, whatever failed before, since a rollback asks for the export still
 *   in effect after the forward update FAILED;
 * - failed, quoting FSx's message, when a volume update asked for since then FAILED and, where FSx shows its target,
 *   was aimed at this export;
 * - waiting otherwise.
 */
export function exportState(volume: VolumeView | undefined, wanted: readonly ClientConfiguration[], askedAt: number): ExportState {
  if (volume === undefined) return { state: 'failed', why: 'DescribeVolumes returned no such volume' };
  const reason = volume.LifecycleTransitionReason?.Message;
  if (volume.Lifecycle === 'FAILED' || volume.Lifecycle === 'MISCONFIGURED') {
    return { state: 'failed', why: `the volume is ${volume.Lifecycle}${reason ? `: ${reason}` : ''}` };
  }
  const updates = (volume.AdministrativeActions ?? []).filter((a) => a.AdministrativeActionType === 'VOLUME_UPDATE');
  const running = updates.find((a) => a.Status === 'PENDING' || a.Status === 'IN_PROGRESS');
  if (running) return { state: 'waiting', why: `the volume update is ${running.Status}` };
  if (volume.Lifecycle !== 'AVAILABLE') return { state: 'waiting', why: `the volume is ${volume.Lifecycle ?? 'in no state'}` };
  const shown = volume.OpenZFSConfiguration?.NfsExports?.[0]?.ClientConfigurations ?? [];
  if (canonical(shown) === canonical(wanted)) return { state: 'done' };
  // A failure counts when it was asked for since this request, with a minute's margin for the two clocks, and aimed at
  // this export where FSx shows a target. An older failure, or one aimed at another export, is not this request's: the
  // forward update that a rollback undoes is such a one.
  const failed = updates.find((a) => a.Status === 'FAILED' && !(time(a.RequestTime) < askedAt - 60_000) && (aimedAt(a, wanted) ?? true));
  if (failed) return { state: 'failed', why: `FSx reports the volume update FAILED${failed.FailureDetails?.Message ? `: ${failed.FailureDetails.Message}` : ''}` };
  return { state: 'waiting', why: 'the volume does not show the new export yet' };
}

/** Whether an action's TargetVolumeValues name `wanted` as the export; undefined when they name no export. */
function aimedAt(action: NonNullable<VolumeView['AdministrativeActions']>[number], wanted: readonly ClientConfiguration[]): boolean | undefined {
  const target = action.TargetVolumeValues?.OpenZFSConfiguration?.NfsExports?.[0]?.ClientConfigurations;
  return target === undefined ? undefined : canonical(target) === canonical(wanted);
}
