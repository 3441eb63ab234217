/**
 * The host's half of the VM benchmark: what `npm run bench:cluster` does with a node's output once SSM has
 * collected it. The client VM ran lib/scripts/cluster-bench.sh with the real fio against the server VM's export
 * and printed its JSON line. Here that line, as the standard output of a successful invocation, goes through
 * bin/bench-cluster.ts's aggregate and formatReport. The report sets it beside the estimate of the plan the VM
 * stands for, a d2.xlarge with three instance-store disks. SSM itself is not here, as the emulator runs no
 * command; test/integration covers the sending and collecting against it.
 *
 * Usage: ts-node test/e2e/lib/bench-report.ts '<the node JSON line>'
 *   -> the report on stdout, then one line "aggregate <write MB/s> <read MB/s> <nodes> <failed>" for the harness.
 */
import { aggregate, formatReport } from '../../../bin/bench-cluster';
import { benchEstimate } from '../../../lib/bench-document';
import { planStorage } from '../../../lib/sizing';
import { Backend } from '../../../lib/backend-enum';

function main(line: string): void {
  const plan = planStorage({ capacityTiB: 4, backend: Backend.INSTANCE_STORE });
  if (plan.instanceType !== 'd2.xlarge') throw new Error(`the VM stands for a d2.xlarge; the planner chose ${plan.instanceType}`);
  const result = aggregate('e2e-1', [{
    InstanceId: 'i-0e2e0000000000c1',
    Status: 'Success',
    StandardOutputContent: `cluster-bench: fio 1 MiB sequential, direct\n${line}\n`,
    StandardErrorContent: '',
  }], benchEstimate(plan));
  process.stdout.write(`${formatReport(result)}\n`);
  process.stdout.write(`aggregate ${result.writeMBps} ${result.readMBps} ${result.nodes.length} ${result.failed.length}\n`);
}

if (require.main === module) {
  const line = process.argv[2];
  if (!line) throw new Error("usage: bench-report.ts '<the node JSON line>'");
  main(line);
}
