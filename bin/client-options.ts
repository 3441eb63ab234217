/**
 * `npm run plan`'s client options: what one client is and how it mounts, for the plan's per-client
 * ceiling of lib/sizing/client-ceiling.ts. Malformed values are UsageErrors, exit 2, each naming its option.
 */
import { OVERRIDE_EBS_INSTANCE_TYPES, OVERRIDE_INSTANCE_STORE_TYPES, familyList, type ClientRequest } from '../lib/sizing';
import { NFS_MAX_NCONNECT } from '../lib/sizing/nfs-client';
import { BACKEND_SIZING } from '../lib/sizing/registry';
import { BACKENDS, type Backend } from '../lambda/register/contract';
import { OptionSpec, ParsedArgs, UsageError, didYouMean } from './args';

/** The client types `--client-instance-type` takes: every type the catalogue has figures for, as the library's clientCeiling does. */
const CLIENT_TYPES: readonly string[] = [...OVERRIDE_EBS_INSTANCE_TYPES, ...OVERRIDE_INSTANCE_STORE_TYPES].map((t) => t.name);

/** The options, in the order `--help` lists them. */
export const CLIENT_OPTIONS: readonly OptionSpec[] = [
  { name: '--client-instance-type', value: 'type', help: `one client's instance type, for its network limit: ${familyList(CLIENT_TYPES)}` },
  { name: '--client-network-gbps', value: 'Gbps', help: "one client's network baseline, Gbps, for a type the catalogue does not know" },
  { name: '--nconnect', value: `1-${NFS_MAX_NCONNECT}`, help: 'NFS connections per client mount (default 16), each one flow of at most 5 Gbps (10 in a placement group)' },
  { name: '--placement-group', help: 'the clients and the NFS server share one cluster placement group (a flow reaches 10 Gbps)' },
];

/** The client the command line describes, or undefined when it names none; a UsageError for anything malformed. */
export function readClient(parsed: ParsedArgs, backend: Backend | 'auto' | undefined): ClientRequest | undefined {
  const instanceType = parsed.values.get('--client-instance-type');
  const network = parsed.values.get('--client-network-gbps');
  const nconnect = parsed.values.get('--nconnect');
  const placementGroup = parsed.flags.has('--placement-group');
  if (instanceType !== undefined && !CLIENT_TYPES.includes(instanceType)) {
    const guess = didYouMean(instanceType, CLIENT_TYPES);
    throw new UsageError(`--client-instance-type must be one of ${familyList(CLIENT_TYPES)}; got '${instanceType}'` +
      `${guess === undefined ? '' : ` (did you mean ${guess}?)`}; for another type give its network baseline with --client-network-gbps`);
  }
  if (network !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(network) && Number(network) > 0)) {
    throw new UsageError(`--client-network-gbps must be a positive number of Gbps, e.g. 12.5; got '${network}'`);
  }
  if (instanceType !== undefined && network !== undefined) {
    throw new UsageError("--client-instance-type and --client-network-gbps both give the client's network: give one");
  }
  if (nconnect !== undefined && !(/^[1-9][0-9]?$/.test(nconnect) && Number(nconnect) <= NFS_MAX_NCONNECT)) {
    throw new UsageError(`--nconnect must be a whole number from 1 to ${NFS_MAX_NCONNECT} (the Linux NFS client's limit); got '${nconnect}'`);
  }
  if (backend !== undefined && backend !== 'auto' && BACKEND_SIZING[backend].clientProtocol === 'lustre') {
    const nfsOnly = [nconnect !== undefined ? '--nconnect' : '', placementGroup ? '--placement-group' : ''].filter(Boolean);
    const nfs = BACKENDS.filter((b) => BACKEND_SIZING[b].clientProtocol === 'nfs');
    if (nfsOnly.length > 0) {
      throw new UsageError(`${nfsOnly.join(' and ')} appl${nfsOnly.length > 1 ? 'y' : 'ies'} to NFS backends (${nfs.join(', ')}) only; ` +
        `got backend '${backend}' (the Lustre client keeps its own connections to each file server)`);
    }
  }
  if (instanceType === undefined && network === undefined && nconnect === undefined && !placementGroup) return undefined;
  return {
    instanceType,
    networkGbps: network === undefined ? undefined : Number(network),
    nconnect: nconnect === undefined ? undefined : Number(nconnect),
    placementGroup: placementGroup || undefined,
  };
}
