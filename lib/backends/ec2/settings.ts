import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import type { Construct } from 'constructs';
import { BootstrapConfig, renderLoaderUserData } from '../../bootstrap';
import { renderAgentConfig } from '../../server-metrics';
import { ServerSettings } from '../../server-settings';
import { exportCidrs } from '../client-access';
import type { Ec2NfsServerProps } from './props';
import { type Ec2ServerLayout, ebsDeviceName, instanceStoreDiskNames } from './layout';
import { xfsQuotas } from './quotas';
import { rootClientCidrs } from './root-clients';

// The EC2 server's settings: every setting the bootstrap of lib/bootstrap.ts applies, from the props, the plan and the
// parts built before, delivered by a settings document. User data is a constant loader.

/** What the settings name that was built before them. */
export interface SettingsParts {
  /** The server's instance. */
  readonly instance: ec2.Instance;
  /** The EBS data volumes, in stripe order. */
  readonly dataVolumes: ec2.Volume[];
  /** The stable interface the server attaches to itself. */
  readonly iface: ec2.CfnNetworkInterface;
  /** The retained attachments of the upgrade; the association waits for them. */
  readonly legacyAttachments: ec2.CfnVolumeAttachment[];
  /** The clusterware join commands; none without a ring. */
  readonly clusterwareCommands: string[];
}

/**
 * Builds the settings `Settings`. Every setting reaches the server through its settings document. A State Manager
 * association applies it, and CloudFormation waits for that at creation and at every update that changes a setting.
 * User data is a constant loader, so a setting change never stops the instance. The association exists only after every
 * volume is attached, by a Ref to each attachment's volume and the explicit dependency.
 */
export function serverSettings(scope: Construct, p: Ec2NfsServerProps, layout: Ec2ServerLayout, parts: SettingsParts): ServerSettings {
  const { instance, legacyAttachments, clusterwareCommands } = parts;
  instance.userData.addCommands(...renderLoaderUserData());
  const settings = new ServerSettings(scope, 'Settings', {
    instance,
    config: bootstrapConfig(p, layout, parts),
    extraCommands: clusterwareCommands,
  });
  settings.association.node.addDependency(...legacyAttachments);
  return settings;
}

/** The bootstrap's configuration of this server. */
function bootstrapConfig(p: Ec2NfsServerProps, layout: Ec2ServerLayout, parts: SettingsParts): BootstrapConfig {
  const { server: props, plan, clusterName, serverName } = p;
  return {
    quotas: xfsQuotas(parts.instance, props.quotas, layout.backend),
    backend: layout.backend,
    ebsVolumes: parts.dataVolumes.map((v, i) => ({
      volumeId: v.volumeId,
      device: ebsDeviceName(i),
      sizeGiB: plan.dataVolumes[i].sizeGiB,
    })),
    instanceStoreDevices: layout.instanceStoreDevices,
    exportPath: p.exportPath,
    clientCidrs: exportCidrs(props),
    rootClientCidrs: rootClientCidrs(parts.instance, props.rootClientCidrs, exportCidrs(props)),
    nfsThreads: props.nfs?.threads,
    exportMode: props.nfs?.exportMode ?? 'sync',
    nfsVersions: ['4.1', '4.2'],
    stripeSizeKiB: 256,
    volumeWaitSeconds: 900,
    // The array's owner: this stack's server. A server created from snapshots adopts the array they hold.
    identity: layout.identity,
    restored: props.dataVolumeSnapshotIds !== undefined,
    networkInterfaceId: parts.iface.ref,
    encryption: layout.encryptInstanceStore ? 'luks2' : 'none',
    metrics: {
      clusterName,
      serverName,
      agentConfig: renderAgentConfig({ clusterName, serverName, instanceStoreDisks: instanceStoreDiskNames(layout) }),
    },
  };
}
