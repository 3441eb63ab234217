/**
 * The registration handler against moto, by test/support/register-moto.ts: the stable address of a NetworkInterfaceId.
 */
import { AttachNetworkInterfaceCommand, CreateNetworkInterfaceCommand } from '@aws-sdk/client-ec2';
import { registerAgainstMoto } from '../support/register-moto';
import { OPTIONS, createEvent, launchInstance, props } from './fixtures';

const rig = registerAgainstMoto('eni');
const { freshPrefix, value, namesUnder } = rig;

describe('the stable address (NetworkInterfaceId)', () => {
  async function stableInterface(ip: string): Promise<string> {
    const out = await rig.ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: rig.subnetId, PrivateIpAddress: ip }));
    return out.NetworkInterface?.NetworkInterfaceId ?? '';
  }

  test('the records carry the address of the interface the server attached, not the instance\'s own', async () => {
    // GIVEN an interface attached to the server as device 1
    const prefix = freshPrefix();
    const eni = await stableInterface('10.20.1.200');
    await rig.ec2.send(new AttachNetworkInterfaceCommand({ NetworkInterfaceId: eni, InstanceId: rig.server.InstanceId, DeviceIndex: 1 }));

    // WHEN
    const result = await rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix, NetworkInterfaceId: eni })));

    // THEN
    expect(rig.server.PrivateIpAddress).not.toBe('10.20.1.200');
    expect(result.Data?.PrivateIp).toBe('10.20.1.200');
    const ring = (await value(`${prefix}/hpc1/ring/storage1`)) as Record<string, unknown>;
    expect(ring.privateIp).toBe('10.20.1.200');
    expect(ring.instanceId).toBe(rig.server.InstanceId);
    const mount = (await value(`${prefix}/hpc1/storage/storage1/mount`)) as Record<string, unknown>;
    expect(mount.server).toBe('10.20.1.200');
    expect(mount.fstab).toBe(`10.20.1.200:/export/data /data nfs4 ${OPTIONS} 0 0`);
  });

  test.each([
    ['attached to no instance', false, /it is available\): the server has not taken its stable address/],
    ['attached to another instance', true, /\(it is attached to i-[0-9a-f]+\): the server has not taken its stable address/],
  ])('an interface %s: refused, nothing written', async (_name, elsewhere, message) => {
    const prefix = freshPrefix();
    const eni = await stableInterface(elsewhere ? '10.20.1.201' : '10.20.1.202');
    if (elsewhere) {
      const other = await launchInstance(rig.ec2, rig.subnetId);
      await rig.ec2.send(new AttachNetworkInterfaceCommand({ NetworkInterfaceId: eni, InstanceId: other.InstanceId, DeviceIndex: 1 }));
    }
    await expect(
      rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: prefix, NetworkInterfaceId: eni }))),
    ).rejects.toThrow(message);
    expect(await namesUnder(prefix)).toEqual([]);
  });

  test('a malformed interface id is refused before any call', async () => {
    await expect(
      rig.handler(createEvent(props(rig.server.InstanceId ?? '', { ParameterPrefix: freshPrefix(), NetworkInterfaceId: 'eni-xyz' }))),
    ).rejects.toThrow("ResourceProperties.NetworkInterfaceId must be an EC2 network interface id ('eni-' and 8 or 17 lower-case hex digits), got \"eni-xyz\"");
  });
});
