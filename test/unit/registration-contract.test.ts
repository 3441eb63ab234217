/** The registration contract of lambda/register/contract.ts: the record names, their grammar, the fstab line. */
import * as fc from 'fast-check';
import {
  fstabLine,
  mountParameterName,
  parseRingParameterName,
  ringParameterName,
  storagePath,
  validateName,
  validatePrefix,
} from '../../lambda/register/contract';
import { OPTIONS } from '../integration/fixtures';

describe('contract', () => {
  test('parameter names and paths', () => {
    expect(ringParameterName('/storage-server', 'hpc1', 'storage1')).toBe(
      '/storage-server/hpc1/ring/storage1',
    );
    expect(mountParameterName('/storage-server', 'hpc1', 'storage1')).toBe(
      '/storage-server/hpc1/storage/storage1/mount',
    );
    expect(storagePath('/storage-server', 'hpc1')).toBe('/storage-server/hpc1/storage/');
  });

  test('the fstab line', () => {
    expect(fstabLine('10.0.1.5', '/export/data', '/data', OPTIONS)).toBe(
      `10.0.1.5:/export/data /data nfs4 ${OPTIONS} 0 0`,
    );
  });

  const name = fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/);
  const level = fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/).filter((l) => !/^(aws|ssm)/i.test(l));
  const prefix = fc.array(level, { minLength: 1, maxLength: 11 }).map((levels) => `/${levels.join('/')}`);

  test('every valid name and prefix makes a ring name that parses back to them', () => {
    fc.assert(
      fc.property(prefix, name, name, (p, cluster, server) => {
        validatePrefix('prefix', p);
        validateName('cluster', cluster);
        validateName('server', server);
        expect(parseRingParameterName(ringParameterName(p, cluster, server))).toEqual({
          prefix: p,
          clusterName: cluster,
          serverName: server,
        });
      }),
    );
  });

  test('names outside the charset are rejected', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }).filter((s) => !/^[A-Za-z0-9_.-]+$/.test(s)),
        (bad) => {
          expect(() => validateName('clusterName', bad)).toThrow(/clusterName must be 1-64 characters/);
        },
      ),
    );
  });

  test('a name that is not a ring parameter name does not parse', () => {
    expect(parseRingParameterName('/storage-server/hpc1/storage/storage1/mount')).toBeUndefined();
    expect(parseRingParameterName('AWSCDK::CustomResourceProviderFramework::CREATE_FAILED')).toBeUndefined();
    expect(parseRingParameterName('/aws/hpc1/ring/storage1')).toBeUndefined();
  });
});
