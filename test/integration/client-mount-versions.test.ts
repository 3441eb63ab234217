import * as fs from 'fs';
import * as path from 'path';
import { EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { GetParameterCommand, PutParameterCommand } from '@aws-sdk/client-ssm';
import { mountParameterName } from '../../lambda/register/contract';
import { motoEnv } from '../support/moto';
import {
  OPTIONS,
  PREFIX,
  cluster,
  dir,
  fstab,
  line,
  moto,
  nodeStandIns,
  program,
  recordArgs,
  recorded,
  ssm,
  tagged,
  runOnNode as runScript,
  useClientMountHarness,
} from '../support/client-mount-harness';
import { createEvent, createSubnet, launchInstance, props as registrationProps, updateEvent } from './fixtures';

useClientMountHarness();

describe('records across versions: a deployed node still mounts once the registration marks its records', () => {
  // The registration of this version, the handler against the same moto, and records as the previous version wrote
  // them; stand-ins for mount, mount.nfs4, mkdir and the package managers on the node, with no NFS server here.
  type Handler = typeof import('../../lambda/register').handler;
  let handler: Handler;
  let instance: Instance;
  let bin: string;
  let mounts: string;
  const saved = { ...process.env };
  beforeAll(async () => {
    // The handler's SDK clients read the endpoint at module load: set it, then import.
    Object.assign(process.env, motoEnv(moto.endpoint));
    ({ handler } = await import('../../lambda/register'));
    const ec2 = new EC2Client({});
    instance = await launchInstance(ec2, await createSubnet(ec2));
  }, 120_000);
  afterAll(() => {
    process.env = saved;
  });
  let installs: string;
  beforeEach(() => {
    ({ bin, mounts } = nodeStandIns());
    installs = path.join(dir, 'install-calls');
    // Nothing is installed on the machine running the tests: a package manager called here records and fails.
    for (const pm of ['apt-get', 'dnf', 'yum']) program(bin, pm, [recordArgs(installs), 'exit 1']);
  });
  afterEach(() => expect(recorded(installs)).toEqual([]));
  const runOnNode = () => runScript(bin, ['--allowed-servers', '10.20.0.0/16'], { CLIENT_MOUNT_RETRY_DELAY: '0' });
  /** The two records as the previous version wrote them, byte for byte: no owner mark. */
  async function previousRecords(ip: string, instanceId: string): Promise<void> {
    const put = (Name: string, Value: string) => ssm.send(new PutParameterCommand({ Name, Value, Type: 'String', Overwrite: true }));
    await put(`${PREFIX}/${cluster}/ring/storage1`,
      `{"name":"storage1","role":"storage","instanceId":"${instanceId}","privateIp":"${ip}","privateDnsName":"",` +
        '"availabilityZone":"us-east-1a","instanceType":"m4.xlarge","backend":"ebs","registeredAt":"2026-11-24T10:00:00.000Z"}');
    await put(mountParameterName(PREFIX, cluster, 'storage1'),
      `{"server":"${ip}","exportPath":"/export/data","mountPoint":"/data","fsType":"nfs4","options":"${OPTIONS}",` +
        `"fstab":"${ip}:/export/data /data nfs4 ${OPTIONS} 0 0","backend":"ebs"}`);
  }
  const ringOf = () => `${PREFIX}/${cluster}/ring/storage1`;
  const registration = () => registrationProps(instance.InstanceId ?? '', { ParameterPrefix: PREFIX, ClusterName: cluster });

  test("the previous version's record is mounted; this version's registration takes it over; the node's line stays byte for byte, still mounted", async () => {
    // GIVEN a node that mounted the record the previous version wrote
    const ip = instance.PrivateIpAddress ?? '';
    await previousRecords(ip, instance.InstanceId ?? '');
    const first = runOnNode();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(tagged('storage1')).toEqual([line(ip, '/data', 'storage1')]);
    const before = fs.readFileSync(fstab, 'utf8');

    // WHEN this version's registration runs, at the first deploy after the upgrade, writing its owner marks
    await handler(updateEvent(ringOf(), registration(), registration()));
    const record = await ssm.send(new GetParameterCommand({ Name: mountParameterName(PREFIX, cluster, 'storage1') }));
    expect(JSON.parse(record.Parameter?.Value ?? '{}')).toHaveProperty('owner.record', 'mount');
    const again = runOnNode();

    // THEN the node keeps its line as it was and mounts it, as after every run
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`fstab unchanged for ${cluster}/storage1`);
    expect(fs.readFileSync(fstab, 'utf8')).toBe(before);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data'], ['-T', fstab, '--', '/data']]);
  });

  test("a new node mounts the records this version's registration writes, with the line the previous version's record gave", async () => {
    const ip = instance.PrivateIpAddress ?? '';
    await handler(createEvent(registration()));

    const r = runOnNode();

    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(tagged('storage1')).toEqual([line(ip, '/data', 'storage1')]);
    expect(recorded(mounts)).toEqual([['-T', fstab, '--', '/data']]);
  });
});
