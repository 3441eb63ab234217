// More than three EBS volumes (issue 46, item 2): the planner widens a gp3 stripe where the throughput asks for more
// than three volumes carry and the instance carries it, within the instance's attachment limit; capacity alone keeps
// planning as before; dataVolumeCount takes the larger counts.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as fc from 'fast-check';
import { Ec2NfsServer } from '../../lib/backends/ec2-nfs-server';
import { Backend } from '../../lib/backend-enum';
import { instanceTypeSpec } from '../../lib/sizing/catalog-lookup';
import { Arch, DataVolumeType, Generation } from '../../lib/sizing/enums';
import { wideGp3Stripe } from '../../lib/sizing/gp3';
import { ebsPlanIops } from '../../lib/sizing/io-size';
import { planStorage } from '../../lib/sizing/plan';
import type { StoragePlan } from '../../lib/sizing/plan-types';
import { estimateThroughput } from '../../lib/sizing/throughput';

const sustained = (p: { throughput: { baselineReadMBps: number; baselineWriteMBps: number } }) =>
  Math.min(p.throughput.baselineReadMBps, p.throughput.baselineWriteMBps);

describe('a gp3 stripe wider than three volumes', () => {
  test('12,500 MB/s: six gp3 volumes on c6in.32xlarge, whose 100,000 Mbps EBS binds', () => {
    const plan = planStorage({ capacityTiB: 10, backend: Backend.EBS, generation: Generation.CURRENT, throughputMBps: 12500 });
    expect(plan.instanceType).toBe('c6in.32xlarge');
    // The fewest at 2,000 MiB/s that carry it: ceil(12,500 / 2,097.152) = 6, each its share, 1,987 MiB/s.
    expect(plan.dataVolumes).toEqual(Array(6).fill({ volumeType: DataVolumeType.GP3, sizeGiB: 1707, throughputMiBps: 1987, iops: 7948 }));
    expect(sustained(plan)).toBe(12500);
    expect(plan.throughput.limitedBy).toBe('EBS bandwidth of c6in.32xlarge (100000 Mbps)');
  });

  test('arm64: nine on c8gb.24xlarge, 18,750 MB/s; c8gb.48xlarge counts one of its two EBS cards, so costs more for the same', () => {
    const plan = planStorage({ capacityTiB: 10, backend: Backend.EBS, arch: Arch.ARM64, throughputMBps: 18750 });
    expect([plan.instanceType, plan.dataVolumes.length, sustained(plan)]).toEqual(['c8gb.24xlarge', 9, 18750]);
    const on48 = estimateThroughput('c8gb.48xlarge', plan.dataVolumes);
    expect([on48.baselineReadMBps, on48.limitedBy]).toEqual([18750, 'EBS card 0 of c8gb.48xlarge (150000 of its 300000 Mbps)']);
    // And one card's IOPS, 720,000 of 1,440,000, at small requests.
    expect(ebsPlanIops({ instanceType: 'c8gb.48xlarge', dataVolumes: plan.dataVolumes }).baseline[1])
      .toMatchObject({ iops: 720_000, label: 'EBS baseline IOPS of card 0 of c8gb.48xlarge (720,000)' });
    expect(() => planStorage({ capacityTiB: 10, backend: Backend.EBS, arch: Arch.ARM64, throughputMBps: 18751 }))
      .toThrow(/at most 18750 MB\/s/);
  });

  test('none where three carry the throughput, or where the type carries no more than three', () => {
    const three = planStorage({ capacityTiB: 10, backend: Backend.EBS, generation: Generation.CURRENT, throughputMBps: 6291 });
    expect(three.dataVolumes).toHaveLength(3);
    expect(wideGp3Stripe(10, 6291, instanceTypeSpec('c6in.32xlarge'))).toBeUndefined();
    // m7i.48xlarge carries 40,000 Mbps, 5,000 MB/s: less than three volumes give.
    expect(wideGp3Stripe(10, 12500, instanceTypeSpec('m7i.48xlarge'))).toBeUndefined();
    // c6in.24xlarge carries 9,375 MB/s: five volumes, whatever more is asked.
    expect(wideGp3Stripe(10, 12500, instanceTypeSpec('c6in.24xlarge'))).toHaveLength(5);
  });

  test('the count stops at the data volumes the type takes: 21 on a type that would carry more', () => {
    const huge = { ...instanceTypeSpec('c6in.32xlarge'), ebsBandwidthMbps: 1_000_000, networkBaselineGbps: 1000 };
    expect(wideGp3Stripe(10, 100_000, huge)).toHaveLength(21);
  });

  test('capacity alone never plans more than three volumes, on any generation and architecture', () => {
    fc.assert(fc.property(
      fc.double({ min: 0.01, max: 48, noNaN: true }),
      fc.constantFrom<[Generation, Arch]>([Generation.PREVIOUS, Arch.X86_64], [Generation.CURRENT, Arch.X86_64], [Generation.CURRENT, Arch.ARM64]),
      (capacityTiB, [generation, arch]) => {
        expect(planStorage({ capacityTiB, backend: Backend.EBS, generation, arch }).dataVolumes.length).toBeLessThanOrEqual(3);
      },
    ), { numRuns: 100 });
  });
});

describe('dataVolumeCount past three', () => {
  test('21 st1 volumes of an existing stripe, each its share', () => {
    const plan = planStorage({ capacityTiB: 21, backend: Backend.EBS, dataVolumeCount: 21 });
    expect(plan.dataVolumes).toEqual(Array(21).fill({ volumeType: DataVolumeType.ST1, sizeGiB: 1024 }));
  });

  test('22 is refused naming the field and the range', () => {
    expect(() => planStorage({ capacityTiB: 21, backend: Backend.EBS, dataVolumeCount: 22 }))
      .toThrow(/^dataVolumeCount must be a whole number from 1 to 21; got 22 \(number\)$/);
  });
});

describe('a wide plan through the EBS backend', () => {
  /** The template of the EBS backend for `plan`, as gp3-backend.test.ts builds it. */
  function template(plan: StoragePlan): Template {
    const stack = new Stack(new App(), 'Test', { env: { account: '123456789012', region: 'us-east-1' } });
    const vpc = new ec2.Vpc(stack, 'Vpc', { maxAzs: 1, natGateways: 1 });
    new Ec2NfsServer(stack, 'Default', {
      server: { vpc }, selectedSubnets: [], plan, capacityTiB: 10, clusterName: 'hpc1', serverName: 'storage1',
      exportPath: '/export/data', mountOptions: 'nfsvers=4.1', subnet: vpc.privateSubnets[0],
    });
    return Template.fromStack(stack);
  }

  test('six gp3 volumes on c6in.32xlarge, /dev/sdf to /dev/sdk; 21 st1 volumes reach /dev/sdz', () => {
    const six = template(planStorage({ capacityTiB: 10, backend: Backend.EBS, generation: Generation.CURRENT, throughputMBps: 12500 }));
    expect(Object.values(six.findResources('AWS::EC2::Volume')).map((v) => v.Properties.Throughput)).toEqual(Array(6).fill(1987));
    const text = JSON.stringify(six.toJSON());
    expect(['/dev/sdf', '/dev/sdk'].every((d) => text.includes(d)) && !text.includes('/dev/sdl')).toBe(true);
    const all = template(planStorage({ capacityTiB: 21, backend: Backend.EBS, dataVolumeCount: 21 }));
    expect(Object.keys(all.findResources('AWS::EC2::Volume'))).toHaveLength(21);
    expect(JSON.stringify(all.toJSON())).toContain('/dev/sdz');
  });
});
