import { Template } from 'aws-cdk-lib/assertions';
import { appStack } from '../support/stacks';

// One snapshot per backend. Asset hashes are scrubbed by test/support/asset-hash-serializer.ts, so a
// snapshot changes only when the template's meaning does: review the diff, then `npm run jest -- -u`.
describe('template snapshots', () => {
  test('EBS backend (defaults: 5 TiB on m4.2xlarge)', () => {
    expect(Template.fromStack(appStack()).toJSON()).toMatchSnapshot();
  });

  test('instance-store backend (20 TiB on d2.4xlarge)', () => {
    expect(Template.fromStack(appStack({ capacityTiB: '20' })).toJSON()).toMatchSnapshot();
  });

  test('instance-store backend, generation current (20 TiB on d3en.xlarge: NVMe HDDs the platform encrypts)', () => {
    expect(Template.fromStack(appStack({ generation: 'current', capacityTiB: '20' })).toJSON()).toMatchSnapshot();
  });

  test('fsx-lustre backend (12 TiB: PERSISTENT_2 SSD 125, 14400 GiB)', () => {
    expect(Template.fromStack(appStack({ backend: 'fsx-lustre', capacityTiB: '12' })).toJSON()).toMatchSnapshot();
  });

  test('fsx-openzfs backend (4 TiB at 1000 MB/s: SINGLE_AZ_1, 1024 MB/s, 4096 GiB)', () => {
    expect(Template.fromStack(appStack({ backend: 'fsx-openzfs', capacityTiB: '4', throughputMBps: '1000' })).toJSON()).toMatchSnapshot();
  });
});
