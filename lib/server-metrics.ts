import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

/**
 * The metrics an EC2 storage server publishes about itself, shared by the two sides so they cannot drift. One side is
 * the CloudWatch agent configuration the server runs, {@link renderAgentConfig}, which its settings document carries to
 * BOOTSTRAP_PATHS.agentConfig. The other is the metrics the dashboard and alarms in lib/monitoring.ts read,
 * {@link ServerMetricFactory}.
 *
 * The agent collects memory and the disk I/O of the instance-store disks, and listens for StatsD. The server's own
 * check, lib/scripts/storage-metrics.sh, feeds that listener:
 * - a heartbeat while the export is live;
 * - the data file system's used space and inodes while it is mounted at the export path. So it never reports the root
 *   file system underneath, which the agent's disk plugin would report for an unmounted path's parent.
 * - nfsd's operations and bytes from /proc/net/rpc/nfsd.
 *
 * That check runs in the VM tests; the agent, not packaged for Debian, does not. Every metric carries the dimensions
 * ClusterName and ServerName and no host name, by `omit_hostname`, so an alarm names it exactly. The agent's source,
 * aws/amazon-cloudwatch-agent at ab55b8da, shows what else it adds: diskio's `name`, and on every StatsD metric
 * `metric_type`, `gauge` or `counter`, which no setting removes. StatsD takes its other dimensions from DogStatsD tags.
 */

/**
 * The first segment of every server's own CloudWatch namespace, {@link serverMetricNamespace}. A namespace is 1 to 255
 * characters of letters, digits, `. - _ / # :` and space. It starts neither with `:`, per Metric in the CloudWatch API
 * Reference, nor with `AWS/`, per PutMetricData. The CloudWatch User Guide's "Namespaces" says so, as quoted in
 * awslabs/aws-embedded-metrics-java#158. The cluster and server names' grammar is a subset, and the namespace 143
 * characters at most.
 */
export const SERVER_METRIC_NAMESPACE = 'StorageServer';

/**
 * The namespace one server publishes in: `StorageServer/<clusterName>/<serverName>`. PutMetricData names no resource.
 * The CloudWatch User Guide scopes it by the `cloudwatch:namespace` condition key, in "Using condition keys to limit
 * access to CloudWatch namespaces". A namespace of its own is how a server's role may publish its metrics and no other
 * server's. In one shared namespace, any server could write another's dimensions and silence or trip its alarms.
 */
export function serverMetricNamespace(identity: ServerMetricIdentity): string {
  return `${SERVER_METRIC_NAMESPACE}/${identity.clusterName}/${identity.serverName}`;
}

/** The agent's StatsD listener, on the loopback only. */
export const STATSD_ADDRESS = '127.0.0.1:8125';

/** How often the agent collects and publishes, seconds. */
export const COLLECTION_SECONDS = 60;

/** The names the server publishes under {@link serverMetricNamespace}. */
export const SERVER_METRICS = {
  /** Percent of the data file system's space in use: storage-metrics, a StatsD gauge, while mounted. */
  fileSystemUsedPercent: 'disk_used_percent',
  /** Percent of the data file system's inodes in use: storage-metrics, a StatsD gauge, while mounted. */
  inodesUsedPercent: 'disk_inodes_used_percent',
  /** Percent of memory in use: the agent's mem plugin. */
  memoryUsedPercent: 'mem_used_percent',
  /** Bytes read per instance-store disk: the agent's diskio plugin, with the kernel's dimension `name`. */
  diskReadBytes: 'diskio_read_bytes',
  /** Bytes written per instance-store disk. */
  diskWriteBytes: 'diskio_write_bytes',
  /** 1 each minute while the export is live, from storage-metrics as a StatsD gauge; missing when it is not. */
  exportLive: 'export_live',
  /**
   * The fullest user's use of their hard quota, own or the default, percent: storage-metrics, a StatsD gauge, while the
   * data file system has user quotas and some limit is set.
   */
  quotaFullestUserPercent: 'quota_fullest_user_percent',
  /** nfsd's RPC calls in the minute: storage-metrics, a StatsD counter. */
  nfsOps: 'nfsd_ops',
  /** Bytes nfsd read for clients in the minute. */
  nfsReadBytes: 'nfsd_read_bytes',
  /** Bytes nfsd wrote for clients in the minute. */
  nfsWriteBytes: 'nfsd_write_bytes',
} as const;

/** Who the server is, as its metrics' dimensions say. */
export interface ServerMetricIdentity {
  /** The cluster's name. */
  readonly clusterName: string;
  /** The server's name in the cluster. */
  readonly serverName: string;
}

/** What the agent's configuration is made from. */
export interface AgentConfigProps extends ServerMetricIdentity {
  /**
   * Kernel names of the instance-store disks whose I/O the agent collects, `xvdb` and so on, or `nvme0n1` and so on on
   * Nitro; none for EBS.
   */
  readonly instanceStoreDisks: readonly string[];
}

/**
 * The CloudWatch agent's JSON configuration, in the agent's documented schema: agent, metrics.metrics_collected. Every
 * plugin has the static dimensions ClusterName and ServerName. The host name and the device are left out, so the
 * dimensions of each metric are known at synth time.
 */
export function renderAgentConfig(props: AgentConfigProps): string {
  const dimensions = { ClusterName: props.clusterName, ServerName: props.serverName };
  const collected: Record<string, unknown> = {
    mem: {
      measurement: ['used_percent'],
      metrics_collection_interval: COLLECTION_SECONDS,
      append_dimensions: dimensions,
    },
    statsd: {
      service_address: STATSD_ADDRESS,
      metrics_collection_interval: COLLECTION_SECONDS,
      metrics_aggregation_interval: COLLECTION_SECONDS,
    },
  };
  if (props.instanceStoreDisks.length > 0) {
    collected.diskio = {
      resources: [...props.instanceStoreDisks],
      measurement: ['read_bytes', 'write_bytes'],
      metrics_collection_interval: COLLECTION_SECONDS,
      append_dimensions: dimensions,
    };
  }
  return JSON.stringify({
    agent: { metrics_collection_interval: COLLECTION_SECONDS, omit_hostname: true, run_as_user: 'root' },
    metrics: { namespace: serverMetricNamespace(props), metrics_collected: collected },
  }, undefined, 2);
}

/** The server's own metrics for the dashboard and the alarms, with exactly the dimensions the server publishes. */
export class ServerMetricFactory {
  private readonly dimensions: Record<string, string>;
  private readonly namespace: string;

  constructor(identity: ServerMetricIdentity) {
    this.dimensions = { ClusterName: identity.clusterName, ServerName: identity.serverName };
    this.namespace = serverMetricNamespace(identity);
  }

  /** Percent of the data file system's space in use, the maximum over 5 minutes. */
  public fileSystemUsedPercent(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.fileSystemUsedPercent, cloudwatch.Stats.MAXIMUM, this.statsd('gauge'), 'File system used %');
  }

  /** The fullest user's use of their hard quota, percent, the maximum over 5 minutes; absent without quotas. */
  public quotaFullestUserPercent(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.quotaFullestUserPercent, cloudwatch.Stats.MAXIMUM, this.statsd('gauge'), 'Fullest user quota %');
  }

  /** Percent of the data file system's inodes in use. */
  public inodesUsedPercent(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.inodesUsedPercent, cloudwatch.Stats.MAXIMUM, this.statsd('gauge'), 'Inodes used %');
  }

  /** Percent of memory in use. */
  public memoryUsedPercent(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.memoryUsedPercent, cloudwatch.Stats.MAXIMUM, this.dimensions, 'Memory used %');
  }

  /** The heartbeat: 1 per minute while the export is live, a StatsD gauge. */
  public exportLive(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.exportLive, cloudwatch.Stats.MINIMUM, this.statsd('gauge'), 'Export live', Duration.minutes(1));
  }

  /** nfsd operations per minute, a StatsD counter. */
  public nfsOps(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.nfsOps, cloudwatch.Stats.SUM, this.statsd('counter'), 'NFS operations / min', Duration.minutes(1));
  }

  /** Bytes nfsd read for clients, per minute. */
  public nfsReadBytes(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.nfsReadBytes, cloudwatch.Stats.SUM, this.statsd('counter'), 'NFS read bytes / min', Duration.minutes(1));
  }

  /** Bytes nfsd wrote for clients, per minute. */
  public nfsWriteBytes(): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.nfsWriteBytes, cloudwatch.Stats.SUM, this.statsd('counter'), 'NFS write bytes / min', Duration.minutes(1));
  }

  /** Bytes read from one instance-store disk per minute, by its kernel name, e.g. `xvdb`. */
  public diskReadBytes(disk: string): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.diskReadBytes, cloudwatch.Stats.SUM, { ...this.dimensions, name: disk }, `${disk} read`, Duration.minutes(1));
  }

  /** Bytes written to one instance-store disk per minute. */
  public diskWriteBytes(disk: string): cloudwatch.Metric {
    return this.metric(SERVER_METRICS.diskWriteBytes, cloudwatch.Stats.SUM, { ...this.dimensions, name: disk }, `${disk} write`, Duration.minutes(1));
  }

  /** The dimensions of a StatsD metric: the server's, sent as DogStatsD tags, and the agent's `metric_type`. */
  private statsd(type: 'gauge' | 'counter'): Record<string, string> {
    return { ...this.dimensions, metric_type: type };
  }

  private metric(
    metricName: string,
    statistic: string,
    dimensionsMap: Record<string, string>,
    label?: string,
    period: Duration = Duration.minutes(5),
  ): cloudwatch.Metric {
    return new cloudwatch.Metric({ namespace: this.namespace, metricName, dimensionsMap, statistic, label, period });
  }
}
