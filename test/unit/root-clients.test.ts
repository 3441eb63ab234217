/**
 * Root clients on the EC2 server (issue 46, item 3): the `rootClientCidrs` prop and key reach the server's settings,
 * STORAGE_ROOT_CLIENT_CIDRS, which the bootstrap exports with no_root_squash (test/unit/bootstrap-root-clients.test.ts).
 * Each must lie within the export's clients; what synth can see is refused there, naming the prop or key as typed.
 */
import { Fn } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Backend } from '../../lib/backend-enum';
import { appStack, serverStack } from '../support/stacks';
import { settingOf } from '../support/storage-server-template';

const server = (rootClientCidrs: unknown, more: object = {}, backend = Backend.EBS) => serverStack({
  backend, capacityTiB: backend === Backend.EBS ? 2 : 20, clientCidrs: ['10.0.0.0/16'],
  rootClientCidrs: rootClientCidrs as string[], ...more,
}).template;

describe('root clients at synth', () => {
  test.each([Backend.EBS, Backend.INSTANCE_STORE])('%s: the root clients reach the settings', (backend) => {
    const t = server(['10.0.1.5/32', '10.0.2.0/28'], {}, backend);
    expect(settingOf(t, 'STORAGE_ROOT_CLIENT_CIDRS')).toBe("STORAGE_ROOT_CLIENT_CIDRS='10.0.1.5/32 10.0.2.0/28'");
    expect(settingOf(t, 'STORAGE_CLIENT_CIDRS')).toBe("STORAGE_CLIENT_CIDRS='10.0.0.0/16'");
  });

  test('without them the settings carry none', () => {
    expect(settingOf(server(undefined), 'STORAGE_ROOT_CLIENT_CIDRS')).toBe("STORAGE_ROOT_CLIENT_CIDRS=''");
  });

  test.each([
    ['outside the client CIDRs', ['10.1.0.5/32'], /^rootClientCidrs\[0\] 10\.1\.0\.5\/32 is not within the export's clients \(10\.0\.0\.0\/16, clientCidrs or else the VPC's CIDR\)/],
    ['wider than the client CIDR', ['10.0.0.0/15'], /^rootClientCidrs\[0\] 10\.0\.0\.0\/15 is not within/],
    ['a host without a prefix', ['10.0.1.5'], /^rootClientCidrs\[0\] must be a canonical IPv4 CIDR such as 10\.0\.1\.5\/32, got '10\.0\.1\.5'/],
    ['host bits', ['10.0.1.5/24'], /^rootClientCidrs\[0\] must be a canonical IPv4 CIDR/],
    ['twice', ['10.0.1.5/32', '10.0.1.5/32'], /^rootClientCidrs: each entry must appear once, got '10\.0\.1\.5\/32' twice/],
    ['not a string', [5], /^rootClientCidrs\[0\] must be a canonical IPv4 CIDR, got 5: not a string/],
  ])('%s is refused, naming the prop', (_name, cidrs, message) => {
    expect(() => server(cidrs)).toThrow(message);
  });

  test('a token entry, or a token client CIDR, is left to the server\'s settings check', () => {
    const token = Fn.select(0, ['10.0.1.5/32']);
    expect(settingOf(server([token]), 'STORAGE_ROOT_CLIENT_CIDRS')).toMatch(/^STORAGE_ROOT_CLIENT_CIDRS='/);
    // The new VPC's CIDR is a token: no client CIDRs given, the root client cannot be placed at synth.
    expect(settingOf(server(['10.0.1.5/32'], { clientCidrs: undefined }), 'STORAGE_ROOT_CLIENT_CIDRS')).toBe("STORAGE_ROOT_CLIENT_CIDRS='10.0.1.5/32'");
  });

  test.each([Backend.FSX_LUSTRE, Backend.FSX_OPENZFS])('%s refuses the prop by name', (backend) => {
    expect(() => server(['10.0.1.5/32'], {}, backend)).toThrow(/rootClientCidrs: this applies to the EC2 NFS server backends/);
  });

  test('the app\'s key reaches the settings; refusals name the key', () => {
    const t = Template.fromStack(appStack({ backend: 'ebs', clientCidrs: '10.0.0.0/16', rootClientCidrs: '10.0.1.5/32' }));
    expect(settingOf(t, 'STORAGE_ROOT_CLIENT_CIDRS')).toBe("STORAGE_ROOT_CLIENT_CIDRS='10.0.1.5/32'");
    expect(() => appStack({ backend: 'ebs', clientCidrs: '10.0.0.0/16', rootClientCidrs: '10.0.1.5/32,10.9.0.1/32' }))
      .toThrow(/^rootClientCidrs entry 2 10\.9\.0\.1\/32 is not within the export's clients/);
    expect(() => appStack({ backend: 'fsx-lustre', capacityTiB: '12', rootClientCidrs: '10.0.1.5/32' })).toThrow(/rootClientCidrs/);
  });
});
