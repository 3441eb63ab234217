/** ClientMount's readyTimeoutMinutes: the document parameter, the association, the step's timeout, and synth's refusals. */
import { Match, Template } from 'aws-cdk-lib/assertions';
import { renderClientMountDocument } from '../../lib/client-mount';
import {
  DEFAULT_READY_TIMEOUT_MINUTES,
  MAX_READY_TIMEOUT_MINUTES,
  MAX_STEP_TIMEOUT_SECONDS,
  STEP_OVERHEAD_SECONDS,
} from '../../lib/client-mount/validation';
import { SCRIPT, clientMountStack } from '../support/client-mount-stacks';

describe('ClientMount document: readyTimeoutMinutes', () => {
  test('readyTimeoutMinutes sets the parameter default, the association passes it, the step outlasts it by 15 minutes', () => {
    for (const [minutes, text, timeout] of [[undefined, '10', '1500'], [1, '1', '960'], [2865, '2865', '172800']] as const) {
      const template = Template.fromStack(clientMountStack({ readyTimeoutMinutes: minutes }).stack);
      template.hasResourceProperties('AWS::SSM::Document', {
        Content: Match.objectLike({
          parameters: Match.objectLike({ readyTimeoutMinutes: Match.objectLike({ default: text }) }),
          mainSteps: [Match.objectLike({ inputs: Match.objectLike({ timeoutSeconds: timeout }) })],
        }),
      });
      template.hasResourceProperties('AWS::SSM::Association', { Parameters: Match.objectLike({ readyTimeoutMinutes: [text] }) });
    }
    // The largest bound is what AWS's 48-hour step limit leaves past the 15 minutes of other work.
    expect(MAX_READY_TIMEOUT_MINUTES).toBe(2865);
    expect(STEP_OVERHEAD_SECONDS + 60 * MAX_READY_TIMEOUT_MINUTES).toBeLessThanOrEqual(MAX_STEP_TIMEOUT_SECONDS);
  });

  test('the readyTimeoutMinutes parameter pattern admits 1 to 4 plain digits and nothing a shell would read', () => {
    const content = renderClientMountDocument({ script: '', clusterName: 'c', parameterPrefix: '/p', allowedServers: '10.0.0.0/16' });
    const pattern = new RegExp((content.parameters as Record<string, { allowedPattern: string }>).readyTimeoutMinutes.allowedPattern);
    for (const good of ['1', '10', '2865', '9999']) expect(pattern.test(good)).toBe(true);
    for (const bad of ['', '0', '-1', '010', '10 ', '1.5', '10000', "1'", '1;reboot', '$(reboot)', '1\n2']) {
      expect({ bad, ok: pattern.test(bad) }).toEqual({ bad, ok: false });
    }
  });

  test.each([
    [0, 'got 0'], [2866, 'got 2866'], [1.5, 'got 1.5'], [NaN, 'got null'], ['10', 'got "10"'],
  ])('readyTimeoutMinutes %p is refused at synth, naming the prop and the range', (minutes, got) => {
    expect(() => clientMountStack({ readyTimeoutMinutes: minutes as number })).toThrow(
      `readyTimeoutMinutes must be a whole number of minutes from 1 to 2865 (the SSM step's 48-hour limit less its 15 ` +
        `minutes of other work), ${got}.`,
    );
  });

  test("the script's first-run bound, default and largest, are DEFAULT_READY_TIMEOUT_MINUTES and MAX_READY_TIMEOUT_MINUTES", () => {
    const line = /^readonly DEFAULT_READY_MINUTES=([0-9]+) MAX_READY_MINUTES=([0-9]+)$/m.exec(SCRIPT);
    expect(line).not.toBeNull();
    expect([Number(line![1]), Number(line![2])]).toEqual([DEFAULT_READY_TIMEOUT_MINUTES, MAX_READY_TIMEOUT_MINUTES]);
  });
});
