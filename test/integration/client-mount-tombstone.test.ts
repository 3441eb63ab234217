/**
 * The registration's tombstone and the client's removal, end to end against one moto: the registration handler of
 * lambda/register creates a server's records, a node mounts it with client-mount.sh, the handler's Delete removes the
 * records and writes `<prefix>/<cluster>/removed/<server>`, and the node's next run unmounts the server and drops its
 * line. So the tombstone's wire format is the one both sides really use (docs/design.md, section 9).
 */
import * as path from 'path';
import { EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { motoEnv } from '../support/moto';
import {
  PREFIX,
  cluster,
  dir,
  moto,
  nodeStandIns,
  program,
  recordArgs,
  recorded,
  tagged,
  runOnNode as runScript,
  useClientMountHarness,
} from '../support/client-mount-harness';
import { createEvent, createSubnet, deleteEvent, launchInstance, props as registrationProps } from './fixtures';

useClientMountHarness();

type Handler = typeof import('../../lambda/register').handler;
let handler: Handler;
let instance: Instance;
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

test("the registration's Delete leaves a tombstone, and the node's next run unmounts the server and drops its line", async () => {
  // GIVEN a node that mounted the server the registration registered
  const { bin, mounts } = nodeStandIns({ mountTable: true });
  const umounts = path.join(dir, 'umount-calls');
  program(bin, 'umount', [recordArgs(umounts), 'exit 0']);
  const ip = instance.PrivateIpAddress ?? '';
  const props = registrationProps(instance.InstanceId ?? '', { ParameterPrefix: PREFIX, ClusterName: cluster });
  const created = await handler(createEvent(props));
  const run = () => runScript(bin, ['--allowed-servers', `${ip}/32`, '--read-ahead-kib', '0'], { CLIENT_MOUNT_RETRY_DELAY: '0' });
  const first = run();
  expect(first.status).toBe(0);
  expect(recorded(mounts).map((m) => m[3])).toEqual(['/data']);
  expect(tagged('storage1')).toHaveLength(1);

  // WHEN the registration is deleted (the stack or the server removed), then the node runs again
  await handler(deleteEvent(created.PhysicalResourceId ?? '', props));
  const r = run();

  // THEN the mount and its line are gone, and nothing needs a person
  expect(r.stdout).toContain(`${cluster}/storage1 was removed (its tombstone ${PREFIX}/${cluster}/removed/storage1, removed at 20`);
  expect(r.stdout).toContain(`removed ${cluster}/storage1: unmounted /data`);
  expect(r.status).toBe(0);
  expect(recorded(umounts)).toEqual([['--', '/data']]);
  expect(tagged('storage1')).toEqual([]);
});
