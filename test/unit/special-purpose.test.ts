/**
 * One rule for IPv4 and IPv6 client addresses, decided per row of IANA's special-purpose registries by its
 * "Globally Reachable" column: every row is handled and enforced, and each IPv6 special range is refused with the
 * public opt-in exactly where its IPv4 equivalent is, naming the prop, the value, the registry row and what is allowed.
 */
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { StorageServer, StorageServerProps } from '../../lib/storage-server';
import {
  ClientSpace, PRIVATE_CIDRS, RegistryFlag, RegistryRow, SPECIAL_PURPOSE_ROWS, addressSpaceProblem, clientSpaceOf, ipv6ClientProblem,
} from '../../lib/validation';

const stack = new Stack(new App(), 'Peers', { env: { account: '123456789012', region: 'us-east-1' } });
const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
let id = 0;

/** What the construct throws for these props, or undefined when it accepts them. */
function refusal(props: Partial<StorageServerProps>): string | undefined {
  const n = id++;
  try {
    new StorageServer(stack, `S${n}`, { vpc, serverName: `s${n}`, mountPoint: `/data/s${n}`, ...props });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The problem the client-address rule finds with one CIDR of either family. */
function problem(cidr: string, allowPublic: boolean): string | undefined {
  return cidr.includes(':') ? ipv6ClientProblem(cidr, { allowPublic }) : addressSpaceProblem(cidr, { allowPublic });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('the registries as data', () => {
  test.each(SPECIAL_PURPOSE_ROWS.map((row) => [row.cidr, row.name, row]))('%s (%s) is decided and enforced', (cidr, name, row) => {
    // GIVEN
    const r = row as RegistryRow;
    // WHEN
    const space = clientSpaceOf(r);
    // THEN: the decision is the one the rule states, and the checks hold to it.
    switch (space) {
      case ClientSpace.PRIVATE:
        expect(PRIVATE_CIDRS).toContain(cidr);
        expect(problem(cidr, false)).toBeUndefined();
        break;
      case ClientSpace.PUBLIC:
        expect(r.globallyReachable).toBe(RegistryFlag.TRUE);
        expect(problem(cidr, true)).toBeUndefined();
        expect(problem(cidr, false)).toMatch(/public/);
        break;
      case ClientSpace.NEVER:
        expect(r.globallyReachable !== RegistryFlag.TRUE || r.multicast || r.terminated).toBeTruthy();
        for (const allowPublic of [true, false]) {
          expect(problem(cidr, allowPublic)).toMatch(new RegExp(`it holds addresses of ${escape(cidr)}, "${escape(name as string)}" ` +
            `in the ${escape(r.registry)} \\(${escape(r.rfc)}; .*\\), which are never clients, even with allowPublicClientCidrs; ` +
            'allowed is private space \\(.*fc00::/7\\), or with allowPublicClientCidrs globally reachable unicast space'));
        }
        break;
      default:
        throw new Error(`row ${cidr} is not handled: ${String(space)}`);
    }
  });

  // Rows a first reading of the registries missed: each refused by its own row, not by a wider one or not at all.
  test.each([
    ['100:0:0:1::5/128', '100:0:0:1::/64', 'Dummy IPv6 Prefix', 'RFC 9780'],
    ['192.88.99.2/32', '192.88.99.2/32', '6a44-relay anycast address', 'RFC 6751'],
  ])('%s is refused as %s, "%s" (%s), even with allowPublicClientCidrs', (cidr, row, name, rfc) => {
    expect(problem(cidr, true)).toContain(`it holds addresses of ${row}, "${name}" in the IANA`);
    expect(problem(cidr, true)).toContain(`(${rfc}; Globally Reachable False`);
  });

  test('a row with a column value the rule does not know is refused, not guessed', () => {
    const row = { ...SPECIAL_PURPOSE_ROWS[0], globallyReachable: 'Maybe' as RegistryFlag };
    expect(() => clientSpaceOf(row)).toThrow(/0.0.0.0\/8: unhandled Globally Reachable value Maybe/);
  });

  test('every private CIDR is a registry row that is not globally reachable', () => {
    for (const cidr of PRIVATE_CIDRS) {
      expect(SPECIAL_PURPOSE_ROWS.find((r) => r.cidr === cidr)?.globallyReachable).toBe(RegistryFlag.FALSE);
    }
  });
});

describe('IPv6 is refused where IPv4 is', () => {
  // [IPv6, its IPv4 equivalent, the row each names]
  test.each([
    ['::/1', '0.0.0.0/1', '::1/128', '0.0.0.0/8'],
    ['::1/128', '127.0.0.0/8', '::1/128', '127.0.0.0/8'],
    ['::/128', '0.0.0.0/32', '::/128', '0.0.0.0/32'],
    ['ff00::/8', '224.0.0.0/4', 'ff00::/8', '224.0.0.0/4'],
    ['ff02::1/128', '224.0.0.1/32', 'ff00::/8', '224.0.0.0/4'],
    ['fe80::/10', '169.254.0.0/16', 'fe80::/10', '169.254.0.0/16'],
    ['::ffff:0:0/96', '240.0.0.0/4', '::ffff:0:0/96', '240.0.0.0/4'],
    ['2001:db8::/32', '192.0.2.0/24', '2001:db8::/32', '192.0.2.0/24'],
    ['2001:2::/48', '198.18.0.0/15', '2001:2::/48', '198.18.0.0/15'],
  ])('%s as %s: refused with the opt-in, naming the prop, the value, the row and what is allowed', (six, four, sixRow, fourRow) => {
    // WHEN
    const v6 = refusal({ clientPeers: [ec2.Peer.ipv6(six)], allowPublicClientCidrs: true });
    const v4 = refusal({ clientPeers: [ec2.Peer.ipv4(four)], allowPublicClientCidrs: true });

    // THEN
    const named = (value: string, row: string) => new RegExp(`^clientPeers\\[0\\] admits ${escape(value)}: .*it holds addresses of ` +
      `${escape(row)}, ".*" in the IANA IPv[46] .*, which are never clients, even with allowPublicClientCidrs; allowed is private space`);
    expect(v6).toMatch(named(six, sixRow));
    expect(v4).toMatch(named(four, fourRow));
  });

  test.each([
    ['2600::/12', '11.0.0.0/8', true],
    ['2001:1::1/128', '192.0.0.9/32', true],
    ['fd00::/8', '10.0.0.0/8', false],
  ])('%s as %s: admitted alike (opt-in: %s)', (six, four, allowPublicClientCidrs) => {
    expect(refusal({ clientPeers: [ec2.Peer.ipv6(six)], allowPublicClientCidrs })).toBeUndefined();
    expect(refusal({ clientPeers: [ec2.Peer.ipv4(four)], allowPublicClientCidrs })).toBeUndefined();
  });

  test('without the opt-in, public IPv6 is refused as public and special IPv6 by its row, never advising the opt-in', () => {
    expect(ipv6ClientProblem('2600::/12')).toMatch(/^public IPv6 address space outside unique local space \(fc00::\/7\); set allowPublicClientCidrs/);
    expect(ipv6ClientProblem('::1/128')).toMatch(/^it holds addresses of ::1\/128, "Loopback Address"/);
    expect(ipv6ClientProblem('::1')).toMatch(/^not an IPv6 CIDR/);
  });
});
