/**
 * The instance type beside the planner's choice: the `instanceType` context key, Graviton types with the arm64 image,
 * and the synth warning that growth across a capacity tier stops and starts the instance.
 */
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ContextKey, parseContext } from '../../lib/context';
import {
  CURRENT_EBS_INSTANCE_TYPES, GRAVITON_EBS_INSTANCE_TYPES, OVERRIDE_EBS_INSTANCE_TYPES, OVERRIDE_INSTANCE_STORE_TYPES, StorageRequest,
  instanceTypeTier, planStorage, stopStartWarning,
} from '../../lib/sizing';
import { appStack, serverStack } from '../support/stacks';
import { Backend } from '../../lib/backend-enum';
import { Generation } from '../../lib/sizing/enums';

const parse = (context: Partial<Record<ContextKey, string>>) => parseContext((k) => context[k]);
const instanceOf = (t: Template) => Object.values(t.findResources('AWS::EC2::Instance'))[0].Properties;
const IMAGE = (arch: string) => `resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-${arch}`;

describe('the instanceType context key', () => {
  test('a catalogued EBS type reaches the instance, Graviton with the arm64 image and m4 with the x86_64 one', () => {
    // WHEN: `cdk synth -c instanceType=m7g.2xlarge`, no other context, so 5 TiB on auto: EBS
    const graviton = appStack({ instanceType: 'm7g.2xlarge' });
    const m4 = appStack({ instanceType: 'm4.xlarge' });
    // THEN
    expect(instanceOf(Template.fromStack(graviton))).toMatchObject({ InstanceType: 'm7g.2xlarge', ImageId: IMAGE('arm64') });
    expect(instanceOf(Template.fromStack(m4))).toMatchObject({ InstanceType: 'm4.xlarge', ImageId: IMAGE('x86_64') });
    // The plan is the pinned type's: its estimate, from m7g.2xlarge's network and EBS baselines, and its price.
    expect(graviton.server.plan).toMatchObject({ instanceType: 'm7g.2xlarge', monthlyCostUsd: 468.67 });
    expect(graviton.server.plan.throughput.limitedBy).toBe(
      'network baseline of m7g.2xlarge (3.75 Gbps) for 844 GB, then EBS baseline of m7g.2xlarge (2500 Mbps)');
  });

  test('the network-optimized types reach the instance too: c8gb with the arm64 image, c6in with the x86_64 one', () => {
    // WHEN: `cdk synth -c instanceType=c8gb.4xlarge` and `-c instanceType=c6in.8xlarge`, 5 TiB on auto: EBS
    for (const [type, arch] of [['c8gb.4xlarge', 'arm64'], ['c6in.8xlarge', 'x86_64']]) {
      const stack = appStack({ instanceType: type });
      expect(instanceOf(Template.fromStack(stack))).toMatchObject({ InstanceType: type, ImageId: IMAGE(arch) });
      expect(stack.server.plan.instanceType).toBe(type);
    }
  });

  test('a type outside the catalogue is refused, naming the key, the value and the types of the backend', () => {
    expect(() => parse({ instanceType: 'm5.2xlarge' })).toThrow(
      /^Invalid context value instanceType="m5.2xlarge": allowed is for backend ebs \(auto's choice for capacityTiB=5\) a catalogued type with EBS data volumes: m4\.\{xlarge,.*\}, m6i\.\{large,.*,24xlarge\}, m7i\.\{.*\}, m7g\.\{.*\}, m6g\.\{.*,16xlarge\}, c6in\.\{.*\}/);
  });

  test('instance store takes a d2, d3 or d3en whose disks hold the capacity; an EBS type there names backend=ebs', () => {
    expect(parse({ backend: 'instance-store', capacityTiB: '20', instanceType: 'd2.8xlarge' }).instanceType).toBe('d2.8xlarge');
    // A d3 or d3en too, whichever generation planned, as m6i on an m4 plan; d3.2xlarge's 10.8 TiB do not hold 20.
    expect(parse({ backend: 'instance-store', capacityTiB: '20', instanceType: 'd3en.xlarge' }).instanceType).toBe('d3en.xlarge');
    expect(parse({ generation: 'current', capacityTiB: '20', instanceType: 'd3.4xlarge' }).instanceType).toBe('d3.4xlarge');
    expect(() => parse({ backend: 'instance-store', capacityTiB: '20', instanceType: 'd3.2xlarge' })).toThrow(
      /^Invalid context value instanceType="d3.2xlarge": allowed is for backend instance-store a d2, d3 or d3en whose disks hold capacityTiB=20: d2\.\{4xlarge,8xlarge\}, d3\.\{4xlarge,8xlarge\}, d3en\.\{xlarge,2xlarge,4xlarge,6xlarge,8xlarge,12xlarge\}\.$/);
    expect(() => parse({ capacityTiB: '20', instanceType: 'm7g.4xlarge' })).toThrow(
      /instanceType="m7g.4xlarge": allowed is for backend instance-store \(auto's choice for capacityTiB=20\) .*: d2\.\{4xlarge,8xlarge\}, .*d3en\.\{.*12xlarge\} \(m7g.4xlarge has no instance store: give backend=ebs for it\)/);
  });

  test('with throughputMBps, a pinned type must sustain it on the plan\'s disks', () => {
    expect(parse({ backend: 'ebs', capacityTiB: '10', throughputMBps: '400', instanceType: 'm6i.4xlarge' }).instanceType).toBe('m6i.4xlarge');
    expect(() => parse({ backend: 'ebs', capacityTiB: '10', throughputMBps: '400', instanceType: 'm4.xlarge' })).toThrow(
      /^Invalid context value instanceType="m4.xlarge": allowed is a type that sustains throughputMBps=400 on the plan's 1 x st1 10240 GiB \(m4.xlarge sustains 93.75 MB\/s once burst credits are spent\): m4\.\{10xlarge,16xlarge\}, m6i\.\{4xlarge,/);
    expect(() => parse({ backend: 'instance-store', capacityTiB: '3', throughputMBps: '500', instanceType: 'd2.xlarge' })).toThrow(
      /allowed is a type that sustains throughputMBps=500 on the plan's instance-store disks \(d2.xlarge sustains 156.25 MB\/s\): d2\.\{4xlarge,8xlarge\}, d3\.\{2xlarge,4xlarge,8xlarge\}, d3en\.\{2xlarge,4xlarge,6xlarge,8xlarge,12xlarge\}\.$/);
    // d3en.xlarge's lower bound, 2 x 129.17 MB/s write, is short of 500.
    expect(() => parse({ backend: 'instance-store', capacityTiB: '3', throughputMBps: '500', instanceType: 'd3en.xlarge' })).toThrow(
      /\(d3en.xlarge sustains 258.33 MB\/s\)/);
  });

  test('fsx-lustre refuses it: a file system has no instance', () => {
    expect(() => parse({ backend: 'fsx-lustre', capacityTiB: '12', instanceType: 'm4.xlarge' })).toThrow(
      /^Invalid context value instanceType="m4.xlarge": allowed is no instanceType with backend fsx-lustre: an FSx for Lustre file system has no instance/);
    expect(() => parse({ capacityTiB: '100', instanceType: 'm4.xlarge' })).toThrow(/backend fsx-lustre \(auto's choice for capacityTiB=100\)/);
  });
});

describe('Graviton in the catalogue', () => {
  test('every catalogued type\'s arch is the one aws-cdk-lib reads from its name (the image follows it)', () => {
    // Every type the catalogue knows, by instanceTypeSpec's own lists, so a family added later is checked too.
    const all = [...OVERRIDE_EBS_INSTANCE_TYPES, ...OVERRIDE_INSTANCE_STORE_TYPES];
    for (const t of all) {
      const cdk = new ec2.InstanceType(t.name).architecture === ec2.InstanceArchitecture.ARM_64 ? 'arm64' : 'x86_64';
      expect(`${t.name} ${t.arch}`).toBe(`${t.name} ${cdk}`);
    }
    expect(GRAVITON_EBS_INSTANCE_TYPES.every((t) => t.arch === 'arm64')).toBe(true);
  });

  test('m7g and m6g come in every m6i size up to their largest, 16xlarge', () => {
    const sizesOf = (family: string) => GRAVITON_EBS_INSTANCE_TYPES.filter((t) => t.name.startsWith(`${family}.`)).map((t) => t.name.split('.')[1]);
    const m6i = CURRENT_EBS_INSTANCE_TYPES.filter((t) => t.name.startsWith('m6i.')).map((t) => t.name.split('.')[1]).filter((s) => s !== '24xlarge');
    expect(sizesOf('m7g')).toEqual(m6i);
    expect(sizesOf('m6g')).toEqual(m6i);
  });

  test('the planner never chooses Graviton by itself, though m7g costs less than m6i at the same EBS limits', () => {
    const chosen = new Set<string>();
    for (const generation of [Generation.PREVIOUS, Generation.CURRENT]) {
      for (const capacityTiB of [0.5, 2, 5, 8, 12, 16, 24, 40]) {
        for (const throughputMBps of [undefined, 100, 400, 900]) {
          for (const backend of [undefined, Backend.EBS]) {
            try {
              chosen.add(planStorage({ capacityTiB, generation, throughputMBps, backend }).instanceType);
            } catch {
              // a request no single server meets: nothing chosen
            }
          }
        }
      }
    }
    expect([...chosen].filter((t) => /^m[67]g\./.test(t))).toEqual([]);
    expect([...chosen].some((t) => t.startsWith('m6i.'))).toBe(true);
  });
});

describe('the stop/start warning of an automatic instance type', () => {
  test('the tier of the planner\'s choice: its capacity range and the type growth past it gets', () => {
    expect(instanceTypeTier({ capacityTiB: 5 })).toEqual({ instanceType: 'm4.2xlarge', minGiB: 2049, maxGiB: 5120, nextInstanceType: 'm4.4xlarge' });
    expect(instanceTypeTier({ capacityTiB: 1 })).toMatchObject({ minGiB: 1, maxGiB: 2048, nextInstanceType: 'm4.2xlarge' });
    // Growth past 16 TiB leaves EBS on auto and needs a second volume on ebs, both refused by the guard: no next type.
    expect(instanceTypeTier({ capacityTiB: 12 })).toEqual({ instanceType: 'm4.10xlarge', minGiB: 10241, maxGiB: 16384, nextInstanceType: undefined });
    expect(instanceTypeTier({ capacityTiB: 12, backend: Backend.EBS })?.nextInstanceType).toBeUndefined();
    // Instance store: a type change loses the data, which the guard refuses; no tier, d3 and d3en alike.
    expect(instanceTypeTier({ capacityTiB: 3, backend: Backend.INSTANCE_STORE })).toBeUndefined();
    expect(instanceTypeTier({ capacityTiB: 3, backend: Backend.INSTANCE_STORE, generation: Generation.CURRENT })).toBeUndefined();
    expect(instanceTypeTier({ capacityTiB: 20, generation: Generation.CURRENT })).toBeUndefined();
    // Generation current: growth past 16 TiB leaves EBS for a d3en, a backend change the guard refuses: no next type.
    expect(instanceTypeTier({ capacityTiB: 16, generation: Generation.CURRENT })).toMatchObject({ maxGiB: 16384, nextInstanceType: undefined });
    expect(planStorage({ capacityTiB: 16384 / 1024 + 1 / 1024, generation: Generation.CURRENT }).instanceType).toBe('d3en.xlarge');
  });

  test.each<[string, StorageRequest]>([
    ['generation current', { capacityTiB: 5, generation: Generation.CURRENT }],
    ['two volumes kept', { capacityTiB: 20, backend: Backend.EBS, dataVolumeCount: 2 }],
    // On ebs: with auto, 2 TiB at 90 MB/s goes to FSx for OpenZFS, since SINGLE_AZ_1/128 costs less than m4's st1: no
    // instance.
    ['throughputMBps', { capacityTiB: 2, backend: Backend.EBS, throughputMBps: 90 }],
  ])('each bound is where the planner\'s choice changes: %s', (_, request) => {
    const tier = instanceTypeTier(request)!;
    const typeAt = (gib: number) => planStorage({ ...request, capacityTiB: gib / 1024 }).instanceType;
    expect(typeAt(tier.maxGiB)).toBe(tier.instanceType);
    expect(typeAt(Math.ceil(request.capacityTiB * 1024))).toBe(tier.instanceType);
    if (tier.minGiB > 1) expect(typeAt(tier.minGiB - 1)).not.toBe(tier.instanceType);
    if (tier.nextInstanceType) expect(typeAt(tier.maxGiB + 1)).toBe(tier.nextInstanceType);
  });

  test('the app notes once, as an info: the range, the next type, a stop/start, and the context key that pins it', () => {
    const notes = Annotations.fromStack(appStack({ capacityTiB: '5' })).findInfo('*', Match.stringLikeRegexp('stops and starts'));
    expect(notes).toHaveLength(1);
    expect(notes[0].entry.data).toBe(
      "instanceType m4.2xlarge is the planner's choice above 2 TiB up to 5 TiB (generation previous); above 5 TiB it " +
      'chooses m4.4xlarge. A change of instance type (capacityTiB across 5 TiB, or another generation) stops and starts ' +
      'the instance: minutes of outage; the data volumes are kept. To keep this instance across growth, pin its type: ' +
      '-c instanceType=m4.2xlarge.',
    );
    expect(stopStartWarning({ capacityTiB: 5, generation: Generation.CURRENT }, (t) => t)).toMatch(
      /^instanceType m6i.2xlarge is the planner's choice above 3.72 TiB up to 7.45 TiB \(generation current\); above 7.45 TiB it chooses m6i.4xlarge\./);
  });

  test('a library app is told the prop, not the context key', () => {
    const [note] = Annotations.fromStack(serverStack({ capacityTiB: 5 }).stack).findInfo('*', Match.stringLikeRegexp('stops and starts'));
    expect(note.entry.data).toMatch(/pin its type: instanceType: new ec2\.InstanceType\('m4\.2xlarge'\)\.$/);
  });

  test('no note for a pinned type (context key or prop), nor where growth cannot change the type alone', () => {
    const quiet = (stack: Parameters<typeof Annotations.fromStack>[0]) => {
      Annotations.fromStack(stack).hasNoInfo('*', Match.stringLikeRegexp('stops and starts'));
      Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('stops and starts'));
    };
    quiet(appStack({ instanceType: 'm4.2xlarge' }));
    // A capacity not stated, as in a default synth: nothing to note about its growth.
    quiet(appStack({}));
    quiet(serverStack({}).stack);
    quiet(serverStack({ capacityTiB: 5, instanceType: new ec2.InstanceType('m4.2xlarge') }).stack);
    quiet(serverStack({ capacityTiB: 12 }).stack);
    quiet(serverStack({ capacityTiB: 3, backend: Backend.INSTANCE_STORE }).stack);
    // ...while the same server unpinned notes it.
    Annotations.fromStack(serverStack({ capacityTiB: 5 }).stack).hasInfo('*', Match.stringLikeRegexp('stops and starts'));
  });
});
