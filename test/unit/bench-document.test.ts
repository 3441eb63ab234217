import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BENCH_PARAMETERS, renderBenchDocument } from '../../lib/bench-document';
import { serverStack } from '../support/stacks';

type Document = {
  parameters: Record<string, { allowedPattern: string }>;
  mainSteps: { inputs: { runCommand: string[] } }[];
};

describe('the cluster benchmark document', () => {
  test('deployed with the server: it runs cluster-bench.sh on the mount point with the two checked parameters', () => {
    const { template, server } = serverStack({ capacityTiB: 5, mountPoint: '/scratch' });
    const docs = Object.values(template.findResources('AWS::SSM::Document'))
      .filter((d) => d.Properties.Content.mainSteps[0].name === 'clusterBench');
    expect(docs).toHaveLength(1);
    const content = docs[0].Properties.Content as Document;
    expect(Object.keys(content.parameters).sort()).toEqual(['runId', 'sizeMiB']);
    const command = content.mainSteps[0].inputs.runCommand[0];
    expect(command).toContain('bash "$script" --mount /scratch --size-mib {{ sizeMiB }} --run {{ runId }} || rc=$?');
    expect(command).toContain(fs.readFileSync(path.join(__dirname, '../../lib/scripts/cluster-bench.sh'), 'utf8').trim());
    expect(server.benchDocumentName).toBeDefined();
  });

  test('SSM refuses parameter values a shell would read as more than text', () => {
    const size = new RegExp(BENCH_PARAMETERS.sizeMiB.pattern);
    const run = new RegExp(BENCH_PARAMETERS.runId.pattern);
    expect(['1024', '1', '99999999'].every((v) => size.test(v))).toBe(true);
    expect(['0', '1;reboot', '$(id)', '1 2', '', '100000000'].some((v) => size.test(v))).toBe(false);
    expect(['bench-2026-11-23', 'a'].every((v) => run.test(v))).toBe(true);
    expect(['a b', 'a;b', '../x', '`id`', 'x'.repeat(65)].some((v) => run.test(v))).toBe(false);
  });

  test('the step, with the parameters as SSM fills them in, is valid sh that runs the script and returns its status', () => {
    const command = (renderBenchDocument('/data', '#!/usr/bin/env bash\necho "args: $*"\nexit 7\n') as unknown as Document)
      .mainSteps[0].inputs.runCommand[0].replace('{{ sizeMiB }}', '64').replace('{{ runId }}', 'r1');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-doc-')), 'step.sh');
    fs.writeFileSync(file, command);
    const r = spawnSync('sh', [file], { encoding: 'utf8' });
    expect(r.stdout).toBe('args: --mount /data --size-mib 64 --run r1\n');
    expect(r.status).toBe(7);
  });

  test('refuses a mount point it cannot put in a shell line, and a script with SSM syntax', () => {
    expect(() => renderBenchDocument('/data dir')).toThrow(/mountPoint '\/data dir' must be an absolute path/);
    expect(() => renderBenchDocument('/data', 'echo {{ x }}')).toThrow(/must not contain '\{\{'/);
    expect(() => renderBenchDocument('/data', 'echo\n  STORAGE_SERVER_CLUSTER_BENCH_SH\n')).toThrow(/the heredoc delimiter/);
  });
});
