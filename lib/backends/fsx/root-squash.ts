import { Annotations, Stack, Token } from 'aws-cdk-lib';
import type * as cr from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import type { StorageServerProps } from '../../storage-server/props';
import { type Setting, SettingNames } from '../../setting-names';
import { fsxApiResource } from './api-call';

// Root squash of an FSx for Lustre file system: the setting and its NIDs, checked, and the custom resource that applies
// them through the FSx API, since CloudFormation has no such property.

/**
 * The `UID:GID` that root on a client becomes with root squash on: 65534, nobody and nogroup or nfsnobody, as NFS's
 * root_squash maps it. LustreRootSquashConfiguration in the FSx API reference says: "A non-zero value for UID and GID
 * enables root squash"; "A value of 0 (zero) for UID and GID indicates root, and therefore disables root squash". See
 * https://docs.aws.amazon.com/fsx/latest/APIReference/API_LustreRootSquashConfiguration.html.
 */
export const FSX_ROOT_SQUASH = '65534:65534';
/** The `UID:GID` that turns root squash off, per the same reference. */
export const FSX_NO_ROOT_SQUASH = '0:0';
/**
 * At most 64 NIDs, each 11-43 characters matching this, per LustreRootSquashConfiguration.NoSquashNids in the API
 * reference.
 */
const NO_SQUASH_NID = /^([0-9[\]-]*\.){3}([0-9[\]-]*)@tcp$/;
const MAX_NO_SQUASH_NIDS = 64;

/** Root squash is on unless `fsxLustre.rootSquash` is false. */
export function rootSquashOn(props: StorageServerProps): boolean {
  return props.fsxLustre?.rootSquash ?? true;
}

/** The addresses a NID covers, per octet [low, high]; undefined for a form this check does not read. */
function nidBox(nid: string): Array<[number, number]> | undefined {
  const octets = nid.replace(/@tcp$/, '').split('.');
  const box = octets.map((o): [number, number] | undefined => {
    const range = /^\[(\d{1,3})-(\d{1,3})\]$/.exec(o);
    if (range) return [Number(range[1]), Number(range[2])];
    return /^\d{1,3}$/.test(o) ? [Number(o), Number(o)] : undefined;
  });
  return box.length === 4 && box.every((b) => b !== undefined) ? (box as Array<[number, number]>) : undefined;
}

/** The addresses of an IPv4 CIDR per octet: any CIDR is such a box. */
function cidrBox(cidr: string): Array<[number, number]> | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m) return undefined;
  const prefix = Number(m[5]);
  return [1, 2, 3, 4].map((i): [number, number] => {
    const bits = Math.min(8, Math.max(0, prefix - (i - 1) * 8));
    const low = Number(m[i]) & (0xff << (8 - bits)) & 0xff;
    return [low, low | (0xff >> bits)];
  });
}

/** Every client address: what a NID must not cover when the clients are not known at synth. */
const EVERY_IPV4 = '0.0.0.0/0';

/**
 * `noSquashNids`: only with root squash on, at most 64, each a Lustre NID as the FSx API accepts it. None may exempt
 * every client, that is `clientCidrs`, or every address when they are not literal. That would be root squash off under
 * another name, which `rootSquash: false` says openly.
 */
export function validateNoSquashNids(rootSquash: boolean, nids: string[] | undefined, clientCidrs?: string[]): void {
  if (nids === undefined) return;
  if (!Array.isArray(nids) || nids.some((n) => typeof n !== 'string')) {
    throw new Error(`fsxLustre.noSquashNids must be an array of NID strings such as ['10.0.1.6@tcp'], got ${Token.isUnresolved(nids) ? 'a token that is not a list' : JSON.stringify(nids)}.`);
  }
  if (!rootSquash && nids.length > 0) {
    throw new Error('fsxLustre.noSquashNids applies only with root squash on: leave it out, or set fsxLustre.rootSquash ' +
      `to true (-c fsxRootSquash=true); got rootSquash false and ${JSON.stringify(nids)}.`);
  }
  if (nids.length > MAX_NO_SQUASH_NIDS) {
    throw new Error(`fsxLustre.noSquashNids takes at most ${MAX_NO_SQUASH_NIDS} NIDs, got ${nids.length}.`);
  }
  const bad = nids.find((n) => !Token.isUnresolved(n) && (n.length < 11 || n.length > 43 || !NO_SQUASH_NID.test(n)));
  if (bad !== undefined) {
    throw new Error('fsxLustre.noSquashNids entries must be Lustre NIDs of 11-43 characters, an IPv4 address or a range ' +
      `with @tcp such as 10.0.1.6@tcp or 10.0.[2-10].[1-255]@tcp; got ${JSON.stringify(bad)}.`);
  }
  const known = clientCidrs !== undefined && clientCidrs.length > 0 && clientCidrs.every((c) => !Token.isUnresolved(c))
    ? clientCidrs
    : [EVERY_IPV4];
  const boxes = nids.filter((n) => !Token.isUnresolved(n)).map((n) => [n, nidBox(n)] as const);
  const covering = known.map((c) => {
    const client = cidrBox(c);
    return client && boxes.find(([, b]) => b !== undefined && b.every(([lo, hi], i) => lo <= client[i][0] && client[i][1] <= hi))?.[0];
  });
  if (covering.every((n) => n !== undefined)) {
    throw new Error(`fsxLustre.noSquashNids exempts every client (${known.join(', ')}) from root squash ` +
      `(${[...new Set(covering)].join(', ')}): list only the hosts that need root, or turn root squash off openly with ` +
      `fsxLustre.rootSquash false; got ${JSON.stringify(nids)}.`);
  }
}

/** Root squash off lets root on any client act as root on the file system's files: said at every synth. */
export function warnRootSquashOff(scope: Construct, setting: Setting): void {
  const names = SettingNames.of(scope);
  Annotations.of(scope).addWarningV2('storage-server:rootSquashOff',
    `${names.name(setting)} is false: root on every client is root on the file system's files (no root squash). Set ` +
    `${names.set(setting, 'true')} unless the clients are administered by the same people as the file system.`);
}

/**
 * Root squash on the file system, through the FSx API. CloudFormation's AWS::FSx::FileSystem has no
 * RootSquashConfiguration: the resource specification aws-cdk-lib is built from lists none in its LustreConfiguration.
 * FSx creates a file system with root squash off: "When you create a new FSx for Lustre file system, root squash is
 * disabled by default", per the FSx for Lustre guide, "Lustre root squash",
 * https://docs.aws.amazon.com/fsx/latest/LustreGuide/root-squash.html. aws-cdk-lib's AwsCustomResource calls
 * UpdateFileSystem on create and on every change of the setting. On delete it calls nothing, since the file system's
 * own resource retains or deletes it. The call may update this one file system only.
 *
 * FSx applies the update after UpdateFileSystem returns; nothing here waits for it, nor does the registration.
 */
export function rootSquashResource(scope: Construct, fileSystemId: string, squash: boolean, nids: string[] | undefined): cr.AwsCustomResource {
  return fsxApiResource(scope, 'RootSquash', {
    resourceType: 'Custom::FsxLustreRootSquash',
    action: 'UpdateFileSystem',
    parameters: {
      FileSystemId: fileSystemId,
      LustreConfiguration: {
        // With squash on, an empty list clears NIDs an earlier deployment set.
        RootSquashConfiguration: squash ? { RootSquash: FSX_ROOT_SQUASH, NoSquashNids: nids ?? [] } : { RootSquash: FSX_NO_ROOT_SQUASH },
      },
    },
    physicalResourceId: fileSystemId,
    // The response describes the whole file system; only the setting is kept.
    outputPath: 'FileSystem.LustreConfiguration.RootSquashConfiguration.RootSquash',
    resourceArn: Stack.of(scope).formatArn({ service: 'fsx', resource: 'file-system', resourceName: fileSystemId }),
    target: 'file system',
    setting: 'its root squash',
    changing: 'its root squash',
    roleDescription: 'AwsCustomResource function that sets root squash on the FSx for Lustre file systems of this stack',
  });
}
