/**
 * The registration's tombstone against moto, by test/support/register-moto.ts: a Delete that removes the records it
 * owns leaves `<prefix>/<cluster>/removed/<server>`, by which clients tell a removed server from one being replaced
 * (docs/design.md, section 9); a Delete that finds another registration's records leaves none; a registration of the
 * name takes it back; and a name that holds anything but a tombstone of the server is never written over or deleted.
 */
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { registerAgainstMoto } from '../support/register-moto';
import { OTHER_STACK_ID, STACK_ID, createEvent, deleteEvent, from, props } from './fixtures';

const rig = registerAgainstMoto('tombstone');
const { freshPrefix, value, namesUnder } = rig;

const serverProps = (prefix: string) => props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix });

describe('the tombstone of a removed server', () => {
  test('a Delete of the records it owns leaves one, naming the server and who removed it', async () => {
    const prefix = freshPrefix();
    const created = await rig.handler(createEvent(serverProps(prefix)));
    await rig.handler(deleteEvent(created.PhysicalResourceId ?? '', serverProps(prefix)));
    expect(await namesUnder(`${prefix}/`)).toEqual([`${prefix}/hpc1/removed/storage1`]);
    expect(await value(`${prefix}/hpc1/removed/storage1`)).toEqual({
      name: 'storage1', removedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), removedBy: { stackId: STACK_ID, logicalResourceId: 'Registration' },
    });
  });

  test('a registration of the name takes it back', async () => {
    const prefix = freshPrefix();
    const created = await rig.handler(createEvent(serverProps(prefix)));
    await rig.handler(deleteEvent(created.PhysicalResourceId ?? '', serverProps(prefix)));
    await rig.handler(createEvent(serverProps(prefix)));
    expect(await namesUnder(`${prefix}/`)).toEqual([`${prefix}/hpc1/ring/storage1`, `${prefix}/hpc1/storage/storage1/mount`]);
  });

  test("a Delete that finds another registration's records, as after a move to another stack, leaves none", async () => {
    const prefix = freshPrefix();
    const ours = await rig.handler(createEvent(serverProps(prefix)));
    await rig.removeRecords(prefix, 'storage1');
    await rig.handler(from(createEvent(serverProps(prefix)), OTHER_STACK_ID));
    await rig.handler(deleteEvent(ours.PhysicalResourceId ?? '', serverProps(prefix)));
    expect(await namesUnder(`${prefix}/`)).toEqual([`${prefix}/hpc1/ring/storage1`, `${prefix}/hpc1/storage/storage1/mount`]);
  });

  test('a name that holds something else is neither written over by a Delete nor deleted by a Create', async () => {
    const prefix = freshPrefix();
    const name = `${prefix}/hpc1/removed/storage1`;
    await rig.ssm.send(new PutParameterCommand({ Name: name, Value: '{"someone":"else"}', Type: 'String' }));
    const created = await rig.handler(createEvent(serverProps(prefix)));
    expect(await value(name)).toEqual({ someone: 'else' });
    await rig.handler(deleteEvent(created.PhysicalResourceId ?? '', serverProps(prefix)));
    expect(await value(name)).toEqual({ someone: 'else' });
    expect(rig.stdout.lines().map((l) => JSON.parse(l))).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: 'the tombstone name holds something else; left in place', parameterName: name }),
    );
  });
});
