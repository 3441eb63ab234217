import { Annotations as CoreAnnotations, App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { ContextKey } from '../../lib/context';
import { PLAN_WARNINGS, warnAboutPlan } from '../../lib/plan-warnings';
import { StorageRequest, planStorage } from '../../lib/sizing';
import { capacityExcess } from '../../lib/sizing/excess';
import { appStack, serverStack } from '../support/stacks';
import { Backend } from '../../lib/backend-enum';
import * as fsx from 'aws-cdk-lib/aws-fsx';

/** The plan warnings' texts for a request, as the construct adds them, without building the whole server. */
function warnings(request: StorageRequest, instanceType?: string): string[] {
  const stack = new Stack(new App(), 'W');
  warnAboutPlan(stack, request, planStorage(request), instanceType);
  return Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('.*')).map((w) => String(w.entry.data));
}

/** The app's warnings for a context, as `cdk synth -c ...` prints them. */
function appWarnings(context: Partial<Record<ContextKey, string>>): string[] {
  return Annotations.fromStack(appStack(context)).findWarning('*', Match.stringLikeRegexp('.*')).map((w) => String(w.entry.data));
}

const capacityWarnings = (texts: string[]) => texts.filter((t) => t.includes(`[ack: ${PLAN_WARNINGS.capacityAboveRequest}]`));

describe('a warning when the deployed capacity is more than 10 % above the request', () => {
  test.each<[string, StorageRequest, number]>([
    // FSx PERSISTENT_2 SSD: 2400 GiB, 2.34375 TiB, holds both.
    ['FSx for Lustre, 2400 GiB for 2.14 TiB (+9.5 %)', { capacityTiB: 2.14, backend: Backend.FSX_LUSTRE }, 0],
    ['FSx for Lustre, 2400 GiB for 2.13 TiB (+10.04 %)', { capacityTiB: 2.13, backend: Backend.FSX_LUSTRE }, 1],
    // d2.4xlarge: 12 x 2 TB = 21.83 TiB.
    ['d2.4xlarge for 20 TiB (+9.1 %)', { capacityTiB: 20, backend: Backend.INSTANCE_STORE }, 0],
    ['d2.4xlarge for 19.8 TiB (+10.2 %)', { capacityTiB: 19.8, backend: Backend.INSTANCE_STORE }, 1],
    // st1: at least 125 GiB.
    ['st1 125 GiB for 0.111 TiB (+9.97 %)', { capacityTiB: 0.111, backend: Backend.EBS }, 0],
    ['st1 125 GiB for 0.11 TiB (+10.97 %)', { capacityTiB: 0.11, backend: Backend.EBS }, 1],
  ])('%s: %p warning(s)', (_what, request, count) => {
    expect(capacityWarnings(warnings(request))).toHaveLength(count);
    expect(capacityExcess(request, planStorage(request)) === undefined).toBe(count === 0);
  });

  test.each<[string, StorageRequest, RegExp]>([
    ['FSx sized up for throughput (the README example: 100 TiB at 2 GB/s)', { capacityTiB: 100, backend: Backend.FSX_LUSTRE, throughputMBps: 2000 },
      /^capacityTiB 100: the plan deploys 169\.92 TiB, 69% more than asked, all of it billed: FSx for Lustre PERSISTENT_1\/HDD\/12 sustains 12 MB\/s per TiB of storage, so sustaining throughputMBps 2000 takes 174000 GiB; 108000 GiB would hold the capacity\. Ask for 169\.92 TiB \(capacityTiB: 169\.92\) to accept it/],
    ['FSx capacity steps', { capacityTiB: 5, backend: Backend.FSX_LUSTRE },
      /^capacityTiB 5: the plan deploys 7\.03 TiB, 40% more than asked, all of it billed: FSx for Lustre PERSISTENT_2 SSD comes in capacity steps \(1200 GiB, then multiples of 2400 GiB\); the smallest that holds 5 TiB is 7200 GiB\./],
    ['FSx HDD steps', { capacityTiB: 2, backend: Backend.FSX_LUSTRE, fsxLustre: { deploymentType: fsx.LustreDeploymentType.PERSISTENT_1, storageType: fsx.StorageType.HDD } },
      /FSx for Lustre PERSISTENT_1 HDD comes in capacity steps \(multiples of 6000 GiB\); the smallest that holds 2 TiB is 6000 GiB/],
    ['d2 disk count', { capacityTiB: 3, backend: Backend.INSTANCE_STORE },
      /^capacityTiB 3: the plan deploys 5\.46 TiB, 81% more than asked, all of it billed: a d2 comes with all of its disks: d2\.xlarge, with 3 disks of 2 TB, is the smallest d2 that holds 3 TiB\./],
    ['a larger d2 for throughput', { capacityTiB: 2, backend: Backend.INSTANCE_STORE, throughputMBps: 600 },
      /d2\.4xlarge and its 12 disks of 2 TB were chosen for throughput \(the cheapest plan that holds 2 TiB and sustains 600 MB\/s/],
    // 10 TiB at 480 MB/s: growing st1 to 11719 GiB, $1987.36 on m4.10xlarge, costs less than gp3's dearer GiB.
    ['st1 sized up for throughput', { capacityTiB: 10, backend: Backend.EBS, throughputMBps: 480 },
      /st1's baseline grows with its size \(40 MiB\/s per TiB\): 1 x 11719 GiB sustain throughputMBps 480, where 1 x 10240 GiB would hold the capacity/],
    // gp3's 3,000 IOPS at 500 IOPS per GiB need 6 GiB: 3 volumes of 6 GiB, 318 MiB/s each, for 0.005 TiB at 1000 MB/s.
    ['gp3 sized up for its IOPS', { capacityTiB: 0.005, backend: Backend.EBS, throughputMBps: 1000 },
      /gp3 allows at most 500 IOPS per GiB: 3 x 3000 IOPS \(the fewest gp3 and their throughput allow\) take 3 x 6 GiB/],
    ['st1 smallest size', { capacityTiB: 0.05 },
      /^capacityTiB 0\.05: the plan deploys 0\.12 TiB, 144% more than asked, all of it billed: an st1 volume is at least 125 GiB\./],
    // An OpenZFS plan rounded up by more than 10 % has no data volumes, and its warning must not need them.
    ['OpenZFS smallest size', { capacityTiB: 0.05, backend: Backend.FSX_OPENZFS },
      /^capacityTiB 0\.05: the plan deploys 0\.06 TiB, 25% more than asked, all of it billed: an FSx for OpenZFS file system is at least 64 GiB of SSD/],
  ])('names the reason: %s', (_what, request, reason) => {
    const [text, ...more] = capacityWarnings(warnings(request));
    expect(more).toEqual([]);
    expect(text).toMatch(reason);
  });

  test.each<StorageRequest>([
    { capacityTiB: 100, backend: Backend.FSX_LUSTRE, throughputMBps: 2000 },
    { capacityTiB: 5, backend: Backend.FSX_LUSTRE },
    { capacityTiB: 25 },
    { capacityTiB: 2, backend: Backend.INSTANCE_STORE, throughputMBps: 600 },
    { capacityTiB: 10, backend: Backend.EBS, throughputMBps: 480 },
    { capacityTiB: 0.05 },
    { capacityTiB: 0.05, backend: Backend.FSX_OPENZFS },
  ])('the capacity it advises plans the same storage, without the warning: %j', (request) => {
    const plan = planStorage(request);
    const accept = capacityExcess(request, plan)?.sameStorageCapacityTiB;
    expect(accept).toBeDefined();
    expect(capacityWarnings(warnings(request))[0]).toContain(`Ask for ${accept} TiB (capacityTiB: ${accept}) to accept it`);
    const accepted = planStorage({ ...request, capacityTiB: accept! });
    expect({ ...accepted, reason: '' }).toEqual({ ...plan, reason: '' });
    expect(capacityWarnings(warnings({ ...request, capacityTiB: accept! }))).toEqual([]);
  });

  test('an instance-store instanceType override: its disks count, and no capacity is advised that would plan another type', () => {
    const request: StorageRequest = { capacityTiB: 20, backend: Backend.INSTANCE_STORE };
    expect(capacityWarnings(warnings(request))).toEqual([]);
    const [text] = capacityWarnings(warnings(request, 'd2.8xlarge'));
    expect(text).toMatch(/^capacityTiB 20: the plan deploys 43\.66 TiB, 118% more than asked, all of it billed: instanceType d2\.8xlarge as asked: its 24 disks of 2 TB come with it\. \[ack: /);
    expect(text).not.toContain('Ask for');
    // An override the catalogue does not know is left to the backend's own refusal.
    expect(() => serverStack({ capacityTiB: 20, instanceType: new ec2.InstanceType('d3.xlarge') }))
      .toThrow(/^instanceType: for 20 TiB on the instance-store backend it must be one of d2\.4xlarge, d2\.8xlarge, d3\.4xlarge, .*d3en\.12xlarge, got 'd3\.xlarge'/);
  });

  test('the construct and the app warn on the FSx for Lustre file system they build', () => {
    Annotations.fromStack(serverStack({ backend: Backend.FSX_LUSTRE, capacityTiB: 12 }).stack)
      .hasWarning('/Test/Storage', Match.stringLikeRegexp('^capacityTiB 12: the plan deploys 14\\.06 TiB, 17% more than asked'));
    expect(capacityWarnings(appWarnings({ backend: 'fsx-lustre', capacityTiB: '100', throughputMBps: '2000' }))[0])
      .toMatch(/^capacityTiB 100: the plan deploys 169\.92 TiB/);
    // The default plan holds its capacity exactly, and the instance-type tier's advice is an info: no warning.
    expect(appWarnings({})).toEqual([]);
    expect(appWarnings({ instanceType: 'm4.2xlarge' })).toEqual([]);
  });
});

describe('the instance-store data-loss warning: advice a command-line user can act on', () => {
  const dataLoss = (texts: string[]) => texts.filter((t) => t.includes('the data is lost'));

  test('auto chose instance store: the warning names the context keys that choose it or avoid it, and no annotation id', () => {
    const [text, ...more] = dataLoss(appWarnings({ capacityTiB: '20' }));
    expect(more).toEqual([]);
    expect(text).toMatch(/^Backend instance-store \(d2\.4xlarge\), chosen by backend 'auto': the data is lost when the instance stops/);
    expect(text).toContain('Choose it yourself (-c backend=instance-store) to go without this warning');
    expect(text).toContain('on EBS volumes (-c backend=ebs, up to 48 TiB)');
    expect(text).not.toMatch(/Backend\.|: Backend/);
    expect(text).toContain('-c backend=fsx-lustre');
    // The only id is CDK's own [ack: ...] tag: the text never asks to acknowledge one.
    expect(text.replace(/ \[ack: [^\]]+\]$/, '')).not.toMatch(/acknowledge|storage-server:/i);
  });

  test('a library app is told the props, as it writes them, and no context key', () => {
    const [text] = dataLoss(warnings({ capacityTiB: 20 }));
    expect(text).toContain('Choose it yourself (backend: Backend.INSTANCE_STORE) to go without this warning');
    expect(text).toContain('on EBS volumes (backend: Backend.EBS, up to 48 TiB), on FSx for Lustre (backend: Backend.FSX_LUSTRE)');
    expect(text).not.toContain('-c ');
  });

  test('backend=instance-store, the key it names: chosen knowingly, no warning; backend=ebs: none either', () => {
    expect(dataLoss(appWarnings({ capacityTiB: '20', backend: 'instance-store' }))).toEqual([]);
    expect(dataLoss(appWarnings({ capacityTiB: '20', backend: 'ebs' }))).toEqual([]);
    expect(dataLoss(warnings({ capacityTiB: 20 }))).toHaveLength(1);
    expect(dataLoss(warnings({ capacityTiB: 20, backend: Backend.INSTANCE_STORE }))).toEqual([]);
  });

  test('a construct user can acknowledge it in code by its id', () => {
    const { stack, server } = serverStack({ capacityTiB: 20 });
    Annotations.fromStack(stack).hasWarning('/Test/Storage', Match.stringLikeRegexp('the data is lost'));
    CoreAnnotations.of(server).acknowledgeWarning(PLAN_WARNINGS.instanceStoreDataLoss, 'scratch data');
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('the data is lost'));
  });
});
