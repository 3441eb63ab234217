import { Annotations, Token } from 'aws-cdk-lib';
import * as fsx from 'aws-cdk-lib/aws-fsx';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct, type IConstruct } from 'constructs';
import { DEFAULT_CLIENT_TAG_KEY } from '../../client-mount';
import { validateTagKey } from '../../client-mount/validation';
import { checkProjectTrees, checkQuotas, QuotaType, type QuotaLimit, type QuotaSupport } from '../../quotas';
import { linuxShellDocument, readScript, tempScriptCommand } from '../../script-file';
import { SettingNames } from '../../setting-names';
import type { StorageServerProps } from '../../storage-server/props';

// FSx for Lustre's quotas, LUSTRE-QUOTAS: AWS's guide sets them from a client, so a State Manager association runs
// lib/scripts/storage-lustre-quota.sh on the cluster's nodes with the stack's limits.

/** LUSTRE-QUOTAS: user, group and project limits; "Default quotas aren't supported". */
export const LUSTRE_QUOTAS: QuotaSupport = {
  types: [QuotaType.USER, QuotaType.GROUP, QuotaType.PROJECT], defaultUser: false,
  why: "AWS's guide, \"Using Lustre storage quotas\", says \"Default quotas aren't supported.\"",
};

/** File name of the node's part under lib/scripts. */
export const LUSTRE_QUOTA_SCRIPT_NAME = 'storage-lustre-quota.sh';

/** The parameter patterns SSM checks before the node runs anything; the script checks each entry again. */
export const LUSTRE_QUOTA_PARAMETERS = {
  mountName: { pattern: '^[A-Za-z0-9_-]{1,8}$', description: "The file system's Lustre mount name" },
  mountPoint: { pattern: '^(/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254})+$', description: 'Where the nodes mount the file system' },
  limits: {
    pattern: '^((user|group):[0-9]{1,10}:[0-9]{1,10}|project:[0-9]{1,10}:[0-9]{1,10}(:(/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254})+))?' +
      '(,((user|group):[0-9]{1,10}:[0-9]{1,10}|project:[0-9]{1,10}:[0-9]{1,10}(:(/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254})+)))*$',
    description: 'user:<uid>:<GiB>, group:<gid>:<GiB> and project:<id>:<GiB>:/<dir>, comma-separated; empty lifts what this node set',
  },
  action: { pattern: '^(apply|report)$', description: 'apply: set the limits; report: print use and limit by id, fullest first' },
} as const;

const HEREDOC_END = 'STORAGE_SERVER_LUSTRE_QUOTA_SH';

/** The `quotas` prop checked for FSx for Lustre: project limits need Lustre 2.15, root's limit is not enforced. */
export function lustreQuotaLimits(scope: IConstruct, props: StorageServerProps): QuotaLimit[] {
  const limits = checkQuotas(scope, props.quotas, 'fsx-lustre', LUSTRE_QUOTAS);
  const names = SettingNames.of(scope);
  const version = props.fsxLustre?.fileSystemTypeVersion;
  const entry = (i: number) => (names.byContext ? `quotaLimits entry ${i + 1}` : `quotas.limits[${i}]`);
  limits.forEach((l, i) => {
    const at = entry(i);
    if (l.type === QuotaType.PROJECT && version !== fsx.FileSystemTypeVersion.V_2_15) {
      throw new Error(`${at}: project quotas need Lustre 2.15 ("Project quotas are only supported on Lustre version 2.15 ` +
        `on FSx for Lustre file systems"); set ${names.name({ prop: 'fsxLustre.fileSystemTypeVersion', key: 'fsxFileSystemTypeVersion' })} ` +
        `to 2.15 on a new file system, or leave the project limit out.`);
    }
    if (l.type === QuotaType.PROJECT && (l.path === undefined || Token.isUnresolved(l.path) || !isProjectPath(l.path))) {
      throw new Error(`${at}.path must be the project's directory under the file system's root, /<dir>[/<dir>...] of ` +
        `[A-Za-z0-9._-] segments without '..', written out in the app; got ${JSON.stringify(l.path)}.`);
    }
    if (!Token.isUnresolved(l.id) && l.id === 0 && l.type !== QuotaType.GROUP) {
      throw new Error(l.type === QuotaType.USER
        ? `${at}.id: FSx for Lustre does not enforce the root user's quota ("Quotas set for the root user are not enforced"); leave it out.`
        : `${at}.id: project 0 is every file without a project; give the project another id.`);
    }
  });
  checkProjectTrees(limits, entry);
  return limits;
}

function isProjectPath(path: string): boolean {
  return /^(\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254})+$/.test(path) && !/\/\.\.(\/|$)/.test(path);
}

/** The association's `limits`: tokens stay tokens, joined at deploy, and are checked by the script on the node. */
export function renderLustreLimits(limits: readonly QuotaLimit[]): string {
  return limits.map((l) => [l.type, l.id, l.limitGiB, ...(l.path !== undefined ? [l.path] : [])].join(':')).join(',');
}

/** The document content: the script in a quoted here-document, the parameters checked by SSM first. */
export function renderLustreQuotaDocument(script: string = readScript(LUSTRE_QUOTA_SCRIPT_NAME)): Record<string, unknown> {
  const command = tempScriptCommand(LUSTRE_QUOTA_SCRIPT_NAME, script, HEREDOC_END,
    "--mount-name {{ mountName }} --mount-point {{ mountPoint }} --limits '{{ limits }}' --action {{ action }}");
  return linuxShellDocument(
    'StorageServer FSx for Lustre quotas: on a cluster node, sets the stack\'s user, group and project limits with lfs ' +
      'setquota and lifts those dropped since, or with action=report prints use and limit by id; one JSON line.',
    { name: 'lustreQuota', runCommand: [command], timeoutSeconds: 900 },
    Object.fromEntries(Object.entries(LUSTRE_QUOTA_PARAMETERS).map(([name, p]) => [name, {
      type: 'String', description: p.description, allowedPattern: p.pattern,
      ...(name === 'limits' ? { default: '' } : name === 'action' ? { default: 'apply' } : {}),
    }])),
  );
}

/** What {@link LustreQuotas} needs of its file system and cluster. */
export interface LustreQuotasProps {
  readonly props: StorageServerProps;
  readonly clusterName: string;
  readonly mountName: string;
  readonly mountPoint: string;
}

/**
 * The quota document of an FSx for Lustre server, and the association that runs it on every node tagged
 * `<clientTagKey>=<clusterName>`, at once on a node's first boot and whenever the limits change. It is there with no
 * limits too, so that a dropped list is lifted and the report can be run.
 */
export class LustreQuotas extends Construct {
  /** The document's name, for `aws ssm send-command --document-name` with `action=report`. */
  public readonly documentName: string;
  public readonly association: ssm.CfnAssociation;

  constructor(scope: Construct, id: string, p: LustreQuotasProps) {
    super(scope, id);
    const limits = lustreQuotaLimits(this, p.props);
    const clientTagKey = p.props.clientTagKey ?? DEFAULT_CLIENT_TAG_KEY;
    validateTagKey(clientTagKey);
    if (limits.length > 0 && (p.props.fsxLustre?.rootSquash ?? true) && (p.props.fsxLustre?.noSquashNids ?? []).length === 0) {
      Annotations.of(this).addWarningV2('storage-server:lustreQuotaRootSquash',
        'The quota association runs lfs setquota as root on the nodes, and root squash is on for every node: the file ' +
        'system may refuse a squashed root the change (not verified: no Lustre client here). If the association reports ' +
        'it, list the nodes\' addresses in fsxLustre.noSquashNids, or set the limits by hand from a node that is exempt.');
    }
    const document = new ssm.CfnDocument(this, 'Document', { documentType: 'Command', content: renderLustreQuotaDocument() });
    this.documentName = document.ref;
    this.association = new ssm.CfnAssociation(this, 'Association', {
      name: document.ref,
      targets: [{ key: `tag:${clientTagKey}`, values: [p.clusterName] }],
      parameters: {
        mountName: [p.mountName], mountPoint: [p.mountPoint], limits: [renderLustreLimits(limits)], action: ['apply'],
      },
      // One node at a time, each setting the same limits: lfs setquota of an unchanged limit changes nothing.
      maxConcurrency: '1',
      applyOnlyAtCronInterval: false,
    });
  }
}
