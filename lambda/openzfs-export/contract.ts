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
 * - OpenZFSUserOrGroupQuota: Type USER or GROUP, Id and StorageCapacityQuotaGiB integers of 0-2147483647; a volume takes
 *   at most 500 of them (UpdateOpenZFSVolumeConfiguration.UserAndGroupQuotas): OPENZFS-USER-QUOTAS.
 *
 * It imports nothing, since it is bundled into the Lambda and also imported by the construct at synth time.
 */

/** The CloudFormation type. */
export const RESOURCE_TYPE = 'Custom::FsxOpenZfsExport';

/** ResourceProperties names. */
export const PROP = { VOLUME_ID: 'VolumeId', CLIENT_CONFIGURATIONS: 'ClientConfigurations', QUOTAS: 'UserAndGroupQuotas' } as const;

/** One client configuration of the export, as UpdateVolume takes it. */
export interface ClientConfiguration {
  readonly Clients: string;
  readonly Options: string[];
}

/** One user or group quota of the volume, as UpdateVolume takes it. */
export interface UserOrGroupQuota {
  readonly Type: 'USER' | 'GROUP';
  readonly Id: number;
  readonly StorageCapacityQuotaGiB: number;
}

/** What the handler is asked to do. */
export interface ExportRequest {
  readonly volumeId: string;
  readonly clientConfigurations: ClientConfiguration[];
  /** The quotas this stack sets; none: the handler leaves the volume's quotas alone. */
  readonly quotas: UserOrGroupQuota[];
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
    readonly UserAndGroupQuotas?: readonly { readonly Type?: string; readonly Id?: number; readonly StorageCapacityQuotaGiB?: number }[];
  };
}

/** The export's state: in effect, still changing, or failed with FSx's reason. */
export type ExportState = { readonly state: 'done' } | { readonly state: 'waiting'; readonly why: string } | { readonly state: 'failed'; readonly why: string };

/**
 * OPENZFS-EXPORT-CLIENTS: an export takes at most 25 client configurations, per OpenZFSNfsExport in the API reference.
 */
export const MAX_CLIENT_CONFIGURATIONS = 25;
/** OPENZFS-USER-QUOTAS: a volume takes at most 500 user and group quotas, per UpdateOpenZFSVolumeConfiguration. */
export const MAX_QUOTAS = 500;
/** OPENZFS-USER-QUOTAS: an Id or a StorageCapacityQuotaGiB is an integer of 0-2147483647, per OpenZFSUserOrGroupQuota. */
export const MAX_QUOTA_VALUE = 2147483647;
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
  return { volumeId, clientConfigurations, quotas: parseQuotas(props?.[PROP.QUOTAS]) };
}

/**
 * Reads ResourceProperties.UserAndGroupQuotas: absent, none; else 1-500 quotas, each (Type, Id) once. CloudFormation
 * hands a custom resource its numbers as strings, so a string of digits is taken as the integer it spells. A limit of
 * 0 GiB is refused: the handler sends 0 only to lift a quota this stack set before (OPENZFS-USER-QUOTAS).
 */
export function parseQuotas(value: unknown): UserOrGroupQuota[] {
  if (value === undefined) return [];
  const where = `ResourceProperties.${PROP.QUOTAS}`;
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_QUOTAS) {
    throw new Error(`${where} must be a list of 1-${MAX_QUOTAS} user or group quotas, got ${JSON.stringify(value)}`);
  }
  const seen = new Set<string>();
  return value.map((q: unknown, i): UserOrGroupQuota => {
    const { Type, Id, StorageCapacityQuotaGiB } = (q ?? {}) as Record<string, unknown>;
    if (Type !== 'USER' && Type !== 'GROUP') throw new Error(`${where}[${i}].Type must be USER or GROUP, got ${JSON.stringify(Type)}`);
    const id = integer(Id, 0);
    if (id === undefined) throw new Error(`${where}[${i}].Id must be an integer of 0-${MAX_QUOTA_VALUE}, got ${JSON.stringify(Id)}`);
    const gib = integer(StorageCapacityQuotaGiB, 1);
    if (gib === undefined) {
      throw new Error(`${where}[${i}].StorageCapacityQuotaGiB must be an integer of 1-${MAX_QUOTA_VALUE}, got ${JSON.stringify(StorageCapacityQuotaGiB)}`);
    }
    const key = `${Type}:${id}`;
    if (seen.has(key)) throw new Error(`${where}[${i}] repeats the quota of ${Type} ${id}: give each user or group one quota`);
    seen.add(key);
    return { Type, Id: id, StorageCapacityQuotaGiB: gib };
  });
}

/** A number, or a string of decimal digits, that is an integer of `min`-MAX_QUOTA_VALUE; else undefined. */
function integer(value: unknown, min: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^(0|[1-9][0-9]{0,9})$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= min && n <= MAX_QUOTA_VALUE ? n : undefined;
}

/**
 * What UpdateVolume is sent for the quotas: those wanted, and each quota set before (`previous`, from the old
 * properties) and no longer wanted at 0 GiB, which lifts it (ZFS: a quota of none). Whether FSx replaces the volume's
 * list or merges into it, AWS's reference does not say; sent this way, either leaves exactly the quotas wanted of those
 * this stack manages, and a quota someone set by hand outside them is never lifted.
 *
 * UpdateVolume takes at most MAX_QUOTAS, lifts included. Past it, only the lifts of quotas `volume` still shows are
 * kept, so that the rollback of an update refused here lifts nothing that was never set; still past it, this throws.
 */
export function quotasToSend(wanted: readonly UserOrGroupQuota[], previous: readonly UserOrGroupQuota[], volume?: VolumeView): UserOrGroupQuota[] {
  const key = (q: { Type?: string; Id?: number }) => `${q.Type}:${q.Id}`;
  const kept = new Set(wanted.map(key));
  let lifted = previous.filter((q) => !kept.has(key(q))).map((q) => ({ ...q, StorageCapacityQuotaGiB: 0 }));
  if (wanted.length + lifted.length > MAX_QUOTAS && volume !== undefined) {
    const shown = new Set((volume.OpenZFSConfiguration?.UserAndGroupQuotas ?? []).filter((q) => (q.StorageCapacityQuotaGiB ?? 0) > 0).map(key));
    lifted = lifted.filter((q) => shown.has(key(q)));
  }
  if (wanted.length + lifted.length > MAX_QUOTAS) {
    throw new Error(`The quotas prop (or quotaLimits key), as ResourceProperties.${PROP.QUOTAS}: UpdateVolume takes at most ${MAX_QUOTAS} ` +
      `user and group quotas, and this update would send ${wanted.length + lifted.length}: the ${wanted.length} wanted and ` +
      `${lifted.length} dropped since the last deploy, lifted at 0 GiB. Deploy twice: first with only the quotas kept, ` +
      'which lifts the dropped ones, then with the new ones.');
  }
  return [...wanted, ...lifted];
}

/**
 * Whether `volume` shows every quota of `sent` in effect: each with its GiB, and each sent at 0 absent or at 0. Quotas
 * that were not sent are not judged, so one set by hand does not hold the deploy.
 */
export function quotasShown(volume: VolumeView, sent: readonly UserOrGroupQuota[]): boolean {
  const shown = new Map((volume.OpenZFSConfiguration?.UserAndGroupQuotas ?? []).map((q) => [`${q.Type}:${q.Id}`, q.StorageCapacityQuotaGiB ?? 0]));
  return sent.every((q) => (shown.get(`${q.Type}:${q.Id}`) ?? 0) === q.StorageCapacityQuotaGiB);
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
 * - done when the volume shows the export and the `quotas` asked for, whatever failed before, since a rollback asks
 *   for the export still in effect after the forward update FAILED;
 * - failed, quoting FSx's message, when a volume update asked for since then FAILED and, where FSx shows its target,
 *   was aimed at this export;
 * - waiting otherwise.
 */
export function exportState(
  volume: VolumeView | undefined, wanted: readonly ClientConfiguration[], askedAt: number, quotas: readonly UserOrGroupQuota[] = [],
): ExportState {
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
  const exportShown = canonical(shown) === canonical(wanted);
  if (exportShown && quotasShown(volume, quotas)) return { state: 'done' };
  // A failure counts when it was asked for since this request, with a minute's margin for the two clocks, and aimed at
  // this export where FSx shows a target. An older failure, or one aimed at another export, is not this request's: the
  // forward update that a rollback undoes is such a one.
  const failed = updates.find((a) => a.Status === 'FAILED' && !(time(a.RequestTime) < askedAt - 60_000) && (aimedAt(a, wanted) ?? true));
  if (failed) return { state: 'failed', why: `FSx reports the volume update FAILED${failed.FailureDetails?.Message ? `: ${failed.FailureDetails.Message}` : ''}` };
  return { state: 'waiting', why: exportShown ? 'the volume does not show the new user and group quotas yet' : 'the volume does not show the new export yet' };
}

/** Whether an action's TargetVolumeValues name `wanted` as the export; undefined when they name no export. */
function aimedAt(action: NonNullable<VolumeView['AdministrativeActions']>[number], wanted: readonly ClientConfiguration[]): boolean | undefined {
  const target = action.TargetVolumeValues?.OpenZFSConfiguration?.NfsExports?.[0]?.ClientConfigurations;
  return target === undefined ? undefined : canonical(target) === canonical(wanted);
}
