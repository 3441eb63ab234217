/**
 * The quota inputs as a caller could get them wrong: the `quotas` prop's forms that no backend's own checks reach
 * (lib/quotas.ts), FSx for Lustre's project directories (lib/backends/fsx/quotas.ts and its node script), and what the
 * FSx for OpenZFS handler sends on an update (lambda/openzfs-export). Each case here was a hole found by review.
 */
import { Stack, Token } from 'aws-cdk-lib';
import { checkQuotas, QuotaType, type QuotaSupport } from '../../lib/quotas';

describe('checkQuotas', () => {
  // No backend takes a default yet; one that does must not get a default the limits' own check would refuse.
  const TAKES_DEFAULT: QuotaSupport = { types: [QuotaType.USER], defaultUser: true, why: 'test' };

  test.each([0, -1, 1.5, 2 ** 31, Number.NaN, '5', null])('a default of %p GiB is refused, naming the prop', (value) => {
    expect(() => checkQuotas(new Stack(), { defaultUserGiB: value as number }, 'test', TAKES_DEFAULT))
      .toThrow(/^quotas\.defaultUserGiB must be an integer of 1-2147483647, got /);
  });

  test('a default of 1-2147483647 GiB, or a token, passes', () => {
    for (const value of [1, 2 ** 31 - 1, Token.asNumber({ Ref: 'DefaultGiB' })]) {
      expect(() => checkQuotas(new Stack(), { defaultUserGiB: value }, 'test', TAKES_DEFAULT)).not.toThrow();
    }
  });
});
