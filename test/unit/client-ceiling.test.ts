import * as fc from 'fast-check';
import {
  INSTANCE_STORE_TYPES, OVERRIDE_EBS_INSTANCE_TYPES, bestPlanOf, clientCeiling, compareBackends, instanceTypeSpec, planStorage, withInstanceType,
} from '../../lib/sizing';
import { clientsToReach } from '../../lib/sizing/client-ceiling';
import { Backend } from '../../lib/backend-enum';

// Figures typed here from their sources in docs/sources/nconnect.md, not read from lib/sizing. EC2's single-flow limit
// is 5 Gbps outside a cluster placement group and up to 10 Gbps inside one, F7 and F8; nconnect is 1 to 16, F1. 1 Gbps
// = 10^9 bit/s = 125 MB/s, where MB = 10^6 bytes. Client network baselines come from AWS's instance type pages:
// m4.xlarge 0.75 Gbps, m4.16xlarge 25 Gbps, m6i.large 0.781 Gbps, d2.8xlarge 10 Gbps.
const FLOW_MBPS = 5 * 125;
const FLOW_PG_MBPS = 10 * 125;

describe('clientCeiling: NFS', () => {
  test('no client given: nconnect 16 x 5 Gbps = 80 Gbps = 10,000 MB/s, named as a derived bound with its sources', () => {
    const c = clientCeiling();
    expect(c.maxMBps).toBe(16 * FLOW_MBPS);
    expect(c).toMatchObject({ connectionsMBps: 10000, networkMBps: undefined, nconnect: 16, perFlowGbps: 5 });
    expect(c.limitedBy).toBe('nconnect=16: 16 TCP flows x 5 Gbps, outside a cluster placement group');
    expect(c.sources.join('\n')).toMatch(/\[EC2-BW\].*5 Gbps outside a cluster placement group, up to 10 Gbps inside one/);
    expect(c.sources.join('\n')).toMatch(/a bound, not an AWS figure for NFS/);
  });

  test('nconnect 1 outside a placement group: one flow, 625 MB/s; inside one: 1,250 MB/s', () => {
    expect(clientCeiling({ nconnect: 1 })).toMatchObject({ maxMBps: FLOW_MBPS, limitedBy: 'nconnect=1: 1 TCP flow x 5 Gbps, outside a cluster placement group' });
    expect(clientCeiling({ nconnect: 1, placementGroup: true })).toMatchObject({ maxMBps: FLOW_PG_MBPS, perFlowGbps: 10 });
  });

  test("the client's network binds when it is the lesser: m4.16xlarge (25 Gbps) with 16 connections, 3,125 MB/s", () => {
    const c = clientCeiling({ instanceType: 'm4.16xlarge' });
    expect(c).toMatchObject({ maxMBps: 25 * 125, connectionsMBps: 10000, networkMBps: 3125 });
    expect(c.limitedBy).toBe("the client's network baseline, m4.16xlarge: 25 Gbps");
    // 4 connections, 20 Gbps, are fewer than its network: the connections bind.
    expect(clientCeiling({ instanceType: 'm4.16xlarge', nconnect: 4 })).toMatchObject({ maxMBps: 4 * FLOW_MBPS, networkMBps: 3125 });
    expect(clientCeiling({ instanceType: 'm6i.large', nconnect: 1 })).toMatchObject({ maxMBps: 97.62 }); // 0.781 Gbps = 97.625 MB/s, rounded down
  });

  test('a tie names both bounds: d2.8xlarge (10 Gbps) with 2 connections of 5 Gbps', () => {
    expect(clientCeiling({ instanceType: 'd2.8xlarge', nconnect: 2 }).limitedBy).toBe(
      "nconnect=2: 2 TCP flows x 5 Gbps, outside a cluster placement group and the client's network baseline, d2.8xlarge: 10 Gbps");
  });

  test('a type the catalogue does not know: its network given as a number', () => {
    expect(clientCeiling({ networkGbps: 12.5, nconnect: 8 })).toMatchObject({
      maxMBps: 12.5 * 125, networkMBps: 1562.5, limitedBy: "the client's network baseline: 12.5 Gbps as given",
    });
  });

  const types = [...OVERRIDE_EBS_INSTANCE_TYPES, ...INSTANCE_STORE_TYPES].map((t) => t.name);
  test('property: over nconnect 1-16, every catalogued client type (or none) and both placements, the ceiling is never above ' +
    'either bound and equals one of them', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 16 }), fc.option(fc.constantFrom(...types), { nil: undefined }), fc.boolean(),
      (nconnect, instanceType, placementGroup) => {
        const c = clientCeiling({ nconnect, instanceType, placementGroup });
        const connections = nconnect * (placementGroup ? FLOW_PG_MBPS : FLOW_MBPS);
        // The network bound is the catalogue's figure for the type: the property is about the minimum, not the figure.
        const network = instanceType === undefined ? Infinity : instanceTypeSpec(instanceType).networkBaselineGbps * 125;
        expect(c.connectionsMBps).toBe(connections);
        expect(c.maxMBps).toBeLessThanOrEqual(connections);
        expect(c.maxMBps).toBeLessThanOrEqual(network); // rounded down to the cent
        const bounds = [connections, network].filter(Number.isFinite);
        expect(bounds.some((b) => b - c.maxMBps! >= 0 && b - c.maxMBps! < 0.01)).toBe(true);
      },
    ), { numRuns: 500, examples: [[1, undefined, false], [16, 'm4.16xlarge', true], [16, 'm6i.24xlarge', false]] });
  });
});

describe('clientCeiling: FSx for Lustre', () => {
  test("nconnect does not apply: the client's network alone, or no bound, each said", () => {
    const c = clientCeiling({ instanceType: 'm4.16xlarge', nconnect: 4 }, 'lustre');
    expect(c).toMatchObject({ maxMBps: 3125, networkMBps: 3125 });
    expect([c.connectionsMBps, c.nconnect, c.perFlowGbps]).toEqual([undefined, undefined, undefined]);
    expect(c.limitedBy).toMatch(/^the client's network baseline, m4\.16xlarge: 25 Gbps; FSx for Lustre: nconnect does not apply \(nconnect 4 ignored\)/);
    const none = clientCeiling({}, 'lustre');
    expect(none.maxMBps).toBeUndefined();
    expect(none.limitedBy).toMatch(/^no bound counted: FSx for Lustre: nconnect does not apply, .*give the client's instance type or network/);
  });
});

describe('clientCeiling: a bad client is refused, naming the field and the value', () => {
  test.each([
    [{ nconnect: 0 }, 'client.nconnect must be a whole number from 1 to 16 (the Linux NFS client\'s limit); got 0 (number)'],
    [{ nconnect: 17 }, 'client.nconnect must be a whole number from 1 to 16'],
    [{ nconnect: 2.5 }, 'client.nconnect must be a whole number from 1 to 16'],
    [{ nconnect: '4' }, 'client.nconnect must be a whole number from 1 to 16 (the Linux NFS client\'s limit); got "4"'],
    [{ instanceType: 'c5n.18xlarge' }, /^client\.instanceType must be one of m4\.\{xlarge,.*\}, .*, d2\.\{xlarge,2xlarge,4xlarge,8xlarge\}, d3\.\{.*\}, d3en\.\{.*\}; got "c5n\.18xlarge"\. For another type give its network baseline as client\.networkGbps$/],
    [{ instanceType: 5 }, 'client.instanceType must be a type the catalogue knows; got 5 (number)'],
    [{ networkGbps: 0 }, 'client.networkGbps must be a number of Gbps greater than 0'],
    [{ networkGbps: Infinity }, 'client.networkGbps must be a number of Gbps greater than 0'],
    [{ instanceType: 'm4.xlarge', networkGbps: 1 }, "client.instanceType and client.networkGbps both give the client's network: give one"],
    [{ placementGroup: 'yes' }, 'client.placementGroup must be true or false; got "yes"'],
    [{ nconect: 4 }, 'client has no field nconect; its fields are instanceType, networkGbps, nconnect, placementGroup'],
    [null, 'client must be an object'],
  ])('%j', (client, message) => {
    expect(() => clientCeiling(client as never)).toThrow(message);
    expect(() => planStorage({ capacityTiB: 5, client: client as never })).toThrow(message);
  });
});

describe('the plan carries it: perClient', () => {
  test('d2.8xlarge (40 TiB) sustains 1,250 MB/s: one default client (10,000 MB/s) can take it all', () => {
    const plan = planStorage({ capacityTiB: 40 });
    expect(plan.throughput.baselineReadMBps).toBe(1250);
    expect(plan.perClient).toMatchObject({ maxMBps: 10000, clientsToSustain: 1 });
  });

  test('with m4.xlarge clients (0.75 Gbps = 93.75 MB/s) the same server takes ceil(1250 / 93.75) = 14 of them', () => {
    expect(planStorage({ capacityTiB: 40, client: { instanceType: 'm4.xlarge' } }).perClient).toMatchObject({ maxMBps: 93.75, clientsToSustain: 14 });
    // One connection, 625 MB/s: 2 clients.
    expect(planStorage({ capacityTiB: 40, client: { nconnect: 1 } }).perClient?.clientsToSustain).toBe(2);
  });

  test('the client shapes perClient only, never the server', () => {
    const plain = planStorage({ capacityTiB: 10, throughputMBps: 400 });
    const withClient = planStorage({ capacityTiB: 10, throughputMBps: 400, client: { instanceType: 'm4.xlarge', nconnect: 2 } });
    expect({ ...withClient, perClient: undefined }).toEqual({ ...plain, perClient: undefined });
    expect(withClient.perClient).not.toEqual(plain.perClient);
  });

  test('FSx for Lustre plans: the Lustre ceiling, in planStorage, bestPlanOf and the comparison alike', () => {
    const client = { instanceType: 'm4.16xlarge', nconnect: 4 };
    const fsx = planStorage({ capacityTiB: 100, backend: Backend.FSX_LUSTRE, client });
    expect(fsx.perClient).toMatchObject({ maxMBps: 3125 });
    expect(fsx.perClient?.connectionsMBps).toBeUndefined();
    // 100 TiB of PERSISTENT_2 at 125 MB/s per TiB: 12,800 MB/s sustained over 3,125 per client: 5 clients.
    expect(fsx.perClient?.clientsToSustain).toBe(Math.ceil(fsx.throughput.baselineReadMBps / 3125));
    const best = bestPlanOf(Backend.FSX_LUSTRE, { capacityTiB: 100, client });
    expect(typeof best !== 'string' && best.perClient?.maxMBps).toBe(3125);
    expect(compareBackends({ capacityTiB: 20, client }).map((r) => [r.backend, r.plan?.perClient?.maxMBps])).toEqual([
      ['ebs', 2500], ['instance-store', 2500], ['fsx-lustre', 3125], ['fsx-openzfs', 2500], ['efs-elastic', undefined], ['efs-bursting', undefined],
    ]);
    const unbounded = planStorage({ capacityTiB: 100, backend: Backend.FSX_LUSTRE }).perClient;
    expect([unbounded?.maxMBps, unbounded?.clientsToSustain]).toEqual([undefined, undefined]);
    expect(unbounded?.limitedBy).toMatch(/^no bound counted/);
  });

  test('withInstanceType keeps the ceiling and counts again against the new sustained figure', () => {
    const plan = planStorage({ capacityTiB: 15, backend: Backend.EBS, dataVolumeCount: 3, client: { instanceType: 'm4.xlarge' } });
    // 3 x 5120 GiB st1 on m4.16xlarge sustain 629 MB/s: 7 clients of 93.75 MB/s. On m4.10xlarge they sustain 500 MB/s,
    // its EBS bandwidth of 4000 Mbps: 6 clients.
    expect(plan.perClient?.clientsToSustain).toBe(Math.ceil(plan.throughput.baselineReadMBps / 93.75));
    expect(plan.perClient?.clientsToSustain).toBe(7);
    const other = withInstanceType(plan, 'm4.10xlarge');
    expect(other.perClient).toMatchObject({ maxMBps: 93.75, clientsToSustain: 6 });
  });

  test('clientsToReach: ceil(aggregate / ceiling), at least 1, none without a ceiling', () => {
    expect(clientsToReach(1250, { maxMBps: 625 })).toBe(2);
    expect(clientsToReach(1251, { maxMBps: 625 })).toBe(3);
    expect(clientsToReach(10, { maxMBps: 625 })).toBe(1);
    expect(clientsToReach(10, { maxMBps: undefined })).toBeUndefined();
  });
});
