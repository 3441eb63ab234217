import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { linuxShellDocument, readScript, requireShellSafePath, tempScriptCommand } from './script-file';
import { instanceTypeSpec, knownInstanceType, type StoragePlan } from './sizing';

/**
 * The cluster benchmark's SSM Command document: `npm run bench:cluster` sends it to N tagged cluster nodes at once,
 * and each runs lib/scripts/cluster-bench.sh against the storage it has mounted, printing one JSON line.
 */

/** File name of the node's part under lib/scripts. */
export const BENCH_SCRIPT_NAME = 'cluster-bench.sh';

/** The document's parameters, checked by SSM against these patterns before anything runs on a node. */
export const BENCH_PARAMETERS = {
  sizeMiB: { pattern: '^[1-9][0-9]{0,7}$', description: 'MiB each node writes then reads (1 MiB records, direct I/O)' },
  runId: { pattern: '^[A-Za-z0-9-]{1,64}$', description: 'Names the run: each node works in <mount>/.storage-bench/<runId>/<host>' },
} as const;

/** What the stack's `BenchEstimate` output holds, which `npm run bench:cluster` reads: the plan's figures and the server's memory. */
export interface BenchEstimate {
  /** The plan's sustained, baseline write throughput, MB/s. */
  readonly sustainedWriteMBps: number;
  /** The plan's sustained, baseline read throughput, MB/s. */
  readonly sustainedReadMBps: number;
  /** The plan's burst write throughput, MB/s. */
  readonly burstWriteMBps: number;
  /** The plan's burst read throughput, MB/s. */
  readonly burstReadMBps: number;
  /**
   * The server's memory, which sizes the default run past its page cache; 0 where there is no server of ours, as on FSx
   * for Lustre or OpenZFS.
   */
  readonly serverMemoryGiB: number;
  /**
   * The figures are a lower bound, not a published limit, since the disks' throughput is unpublished for d3 and d3en.
   * The benchmark is how their real figure is learnt.
   * @default - absent: the figures come from published limits
   */
  readonly lowerBound?: true;
}

/** The benchmark's estimate for a plan: what the report puts the measured figures beside. */
export function benchEstimate(plan: StoragePlan): BenchEstimate {
  return {
    sustainedWriteMBps: plan.throughput.baselineWriteMBps,
    sustainedReadMBps: plan.throughput.baselineReadMBps,
    burstWriteMBps: plan.throughput.burstWriteMBps,
    burstReadMBps: plan.throughput.burstReadMBps,
    serverMemoryGiB: (plan.backend === 'ebs' || plan.backend === 'instance-store') && knownInstanceType(plan.instanceType) ? instanceTypeSpec(plan.instanceType).memoryGiB : 0,
    // Only where it holds: every other plan's document names no bound it does not have.
    ...(plan.backend === 'instance-store' && knownInstanceType(plan.instanceType) &&
      instanceTypeSpec(plan.instanceType).instanceStore?.throughputBound === 'lower' ? { lowerBound: true as const } : {}),
  };
}

const HEREDOC_END = 'STORAGE_SERVER_CLUSTER_BENCH_SH';

/**
 * The document content, schema 2.2. It writes the script to a temporary file with a quoted heredoc and runs it with
 * bash against `mountPoint`. The two parameters' patterns keep them to characters a shell takes as text.
 */
export function renderBenchDocument(mountPoint: string, script: string = readScript(BENCH_SCRIPT_NAME)): Record<string, unknown> {
  requireShellSafePath('mountPoint', mountPoint);
  const command = tempScriptCommand(BENCH_SCRIPT_NAME, script, HEREDOC_END,
    `--mount ${mountPoint} --size-mib {{ sizeMiB }} --run {{ runId }}`);
  return linuxShellDocument(
    'StorageServer cluster benchmark: this node writes then reads sizeMiB with fio (1 MiB, direct I/O) on the ' +
      `storage mounted at ${mountPoint}, prints one JSON line, and removes its files (npm run bench:cluster).`,
    { name: 'clusterBench', runCommand: [command], timeoutSeconds: 21600 },
    Object.fromEntries(Object.entries(BENCH_PARAMETERS).map(([name, p]) => [name, {
      type: 'String', description: p.description, allowedPattern: p.pattern,
    }])),
  );
}

/** Properties of a {@link BenchDocument}. */
export interface BenchDocumentProps {
  /** Where the cluster nodes mount the storage. */
  readonly mountPoint: string;
}

/** The benchmark document, deployed with the server. CloudFormation names it: see `documentName`. */
export class BenchDocument extends Construct {
  /** The document's name, for `aws ssm send-command --document-name`. */
  public readonly documentName: string;

  constructor(scope: Construct, id: string, props: BenchDocumentProps) {
    super(scope, id);
    const document = new ssm.CfnDocument(this, 'Document', {
      documentType: 'Command',
      content: renderBenchDocument(props.mountPoint),
    });
    this.documentName = document.ref;
  }
}
